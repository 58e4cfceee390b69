-- Android apps and certificates, stores and terminals, and terminal settings per level.
CREATE TABLE android_apps (
  id            TEXT PRIMARY KEY,
  company_id    TEXT NOT NULL REFERENCES companies(id),
  status        TEXT NOT NULL,
  package_name  TEXT,
  version_code  INTEGER,
  version_name  TEXT,
  label         TEXT,
  description   TEXT,
  error_code    TEXT,
  file_path     TEXT NOT NULL,
  file_size     INTEGER NOT NULL,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
CREATE INDEX android_apps_by_company ON android_apps(company_id, created_at);
CREATE INDEX android_apps_processing ON android_apps(status) WHERE status = 'processing';

CREATE TABLE android_certificates (
  id           TEXT PRIMARY KEY,
  company_id   TEXT NOT NULL REFERENCES companies(id),
  name         TEXT NOT NULL,
  extension    TEXT NOT NULL,
  description  TEXT,
  status       TEXT NOT NULL,
  not_before   TEXT NOT NULL,
  not_after    TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX android_certificates_by_company ON android_certificates(company_id, created_at);

CREATE TABLE stores (
  id           TEXT PRIMARY KEY,
  merchant_id  TEXT NOT NULL REFERENCES merchants(id),
  reference    TEXT NOT NULL,
  description  TEXT NOT NULL,
  UNIQUE (merchant_id, reference)
);

CREATE TABLE terminals (
  id        TEXT PRIMARY KEY,
  store_id  TEXT NOT NULL REFERENCES stores(id),
  model     TEXT NOT NULL
);

-- One row per level that has values of its own: level is company, merchant, store or terminal.
CREATE TABLE terminal_settings (
  level       TEXT NOT NULL,
  owner_id    TEXT NOT NULL,
  sections    TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  PRIMARY KEY (level, owner_id)
);
