-- Accounts, credentials, payments, modifications, orders and idempotency records.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE companies (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE merchants (
  id                           TEXT PRIMARY KEY,
  company_id                   TEXT NOT NULL REFERENCES companies(id),
  name                         TEXT NOT NULL,
  description                  TEXT NOT NULL,
  reference                    TEXT NOT NULL,
  status                       TEXT NOT NULL,
  capture_delay                TEXT NOT NULL,
  multiple_partial_captures    INTEGER NOT NULL,
  default_shopper_interaction  TEXT NOT NULL,
  primary_settlement_currency  TEXT NOT NULL,
  shop_web_address             TEXT NOT NULL,
  merchant_city                TEXT NOT NULL,
  pricing_plan                 TEXT NOT NULL,
  created_at                   TEXT NOT NULL
);
CREATE INDEX merchants_by_company ON merchants(company_id, id);

CREATE TABLE api_credentials (
  id                            TEXT PRIMARY KEY,
  company_id                    TEXT NOT NULL REFERENCES companies(id),
  merchant_id                   TEXT REFERENCES merchants(id),
  username                      TEXT NOT NULL UNIQUE,
  description                   TEXT NOT NULL,
  active                        INTEGER NOT NULL,
  roles                         TEXT NOT NULL,
  allowed_ip_addresses          TEXT NOT NULL,
  associated_merchant_accounts  TEXT NOT NULL,
  client_key                    TEXT NOT NULL,
  created_at                    TEXT NOT NULL
);

CREATE TABLE api_keys (
  key_hash       TEXT PRIMARY KEY,
  credential_id  TEXT NOT NULL REFERENCES api_credentials(id),
  created_at     TEXT NOT NULL,
  expires_at     TEXT
);
CREATE INDEX api_keys_by_credential ON api_keys(credential_id);

CREATE TABLE orders (
  psp_reference    TEXT PRIMARY KEY,
  company_id       TEXT NOT NULL,
  merchant_account TEXT NOT NULL REFERENCES merchants(id),
  reference        TEXT NOT NULL,
  currency         TEXT NOT NULL,
  value            INTEGER NOT NULL,
  remaining_value  INTEGER NOT NULL,
  order_data       TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  status           TEXT NOT NULL,
  created_at       TEXT NOT NULL
);

CREATE TABLE payments (
  psp_reference              TEXT PRIMARY KEY,
  company_id                 TEXT NOT NULL,
  merchant_account           TEXT NOT NULL REFERENCES merchants(id),
  reference                  TEXT NOT NULL,
  currency                   TEXT NOT NULL,
  authorised_value           INTEGER NOT NULL,
  original_value             INTEGER NOT NULL,
  captured_value             INTEGER NOT NULL,
  refunded_value             INTEGER NOT NULL,
  result_code                TEXT NOT NULL,
  refusal_reason             TEXT,
  refusal_reason_code        TEXT,
  auth_code                  TEXT,
  cancelled                  INTEGER NOT NULL,
  capture_closed             INTEGER NOT NULL,
  auto_captured              INTEGER NOT NULL,
  capture_delay_hours        INTEGER,
  auto_capture_at            TEXT,
  multiple_partial_captures  INTEGER NOT NULL,
  card_brand                 TEXT NOT NULL,
  card_bin                   TEXT NOT NULL,
  card_last_four             TEXT NOT NULL,
  expiry_month               TEXT NOT NULL,
  expiry_year                TEXT NOT NULL,
  holder_name                TEXT,
  shopper_reference          TEXT,
  return_url                 TEXT NOT NULL,
  order_psp_reference        TEXT REFERENCES orders(psp_reference),
  details_submitted          INTEGER NOT NULL,
  created_at                 TEXT NOT NULL,
  updated_at                 TEXT NOT NULL,
  CHECK (captured_value <= authorised_value),
  CHECK (refunded_value <= captured_value)
);
CREATE INDEX payments_by_reference ON payments(merchant_account, reference);
CREATE INDEX payments_by_order ON payments(order_psp_reference);

CREATE TABLE modifications (
  psp_reference          TEXT PRIMARY KEY,
  payment_psp_reference  TEXT NOT NULL REFERENCES payments(psp_reference),
  merchant_account       TEXT NOT NULL,
  kind                   TEXT NOT NULL,
  currency               TEXT,
  value                  INTEGER,
  reference              TEXT,
  status                 TEXT NOT NULL,
  action                 TEXT,
  created_at             TEXT NOT NULL
);
CREATE INDEX modifications_by_payment ON modifications(payment_psp_reference, created_at);

CREATE TABLE idempotency_keys (
  company_id   TEXT NOT NULL,
  key          TEXT NOT NULL,
  fingerprint  TEXT NOT NULL,
  status_code  INTEGER NOT NULL,
  body         TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (company_id, key)
);
