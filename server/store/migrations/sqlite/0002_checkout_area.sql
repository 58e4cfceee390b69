-- Tokens, payment links, sessions, payment method settings and the event outbox.
CREATE TABLE stored_payment_methods (
  id                          TEXT PRIMARY KEY,
  company_id                  TEXT NOT NULL,
  merchant_account            TEXT NOT NULL REFERENCES merchants(id),
  shopper_reference           TEXT NOT NULL,
  shopper_email               TEXT,
  brand                       TEXT NOT NULL,
  card_bin                    TEXT NOT NULL,
  last_four                   TEXT NOT NULL,
  expiry_month                TEXT NOT NULL,
  expiry_year                 TEXT NOT NULL,
  holder_name                 TEXT,
  recurring_processing_model  TEXT NOT NULL,
  -- AES-256-GCM of the card number with the configured key: iv.tag.ciphertext, base64url.
  encrypted_number            TEXT NOT NULL,
  created_at                  TEXT NOT NULL
);
CREATE INDEX stored_payment_methods_by_shopper ON stored_payment_methods(merchant_account, shopper_reference);

CREATE TABLE payment_links (
  id                TEXT PRIMARY KEY,
  company_id        TEXT NOT NULL,
  merchant_account  TEXT NOT NULL REFERENCES merchants(id),
  reference         TEXT NOT NULL,
  fields            TEXT NOT NULL,
  status            TEXT NOT NULL,
  reusable          INTEGER NOT NULL,
  expires_at        TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL
);

CREATE TABLE checkout_sessions (
  id                TEXT PRIMARY KEY,
  company_id        TEXT NOT NULL,
  merchant_account  TEXT NOT NULL REFERENCES merchants(id),
  reference         TEXT NOT NULL,
  fields            TEXT NOT NULL,
  session_data      TEXT NOT NULL,
  expires_at        TEXT NOT NULL,
  created_at        TEXT NOT NULL
);

ALTER TABLE payments ADD COLUMN payment_method_type TEXT NOT NULL DEFAULT 'scheme';
ALTER TABLE payments ADD COLUMN payment_data TEXT;
ALTER TABLE payments ADD COLUMN session_id TEXT;
ALTER TABLE payments ADD COLUMN payment_link_id TEXT;
ALTER TABLE payments ADD COLUMN stored_payment_method_id TEXT;
CREATE INDEX payments_by_session ON payments(session_id);

CREATE TABLE payment_method_settings (
  id                    TEXT PRIMARY KEY,
  merchant_id           TEXT NOT NULL REFERENCES merchants(id),
  type                  TEXT NOT NULL,
  enabled               INTEGER NOT NULL,
  countries             TEXT NOT NULL,
  currencies            TEXT NOT NULL,
  custom_routing_flags  TEXT NOT NULL,
  store_ids             TEXT NOT NULL,
  channels              TEXT NOT NULL,
  shopper_interaction   TEXT,
  reference             TEXT,
  min_amount            INTEGER,
  max_amount            INTEGER,
  details               TEXT NOT NULL,
  created_at            TEXT NOT NULL,
  updated_at            TEXT NOT NULL
);
CREATE INDEX payment_method_settings_by_merchant ON payment_method_settings(merchant_id, type);

-- The transactional outbox: written in the same transaction as the change it reports.
CREATE TABLE events (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  company_id          TEXT NOT NULL,
  merchant_account    TEXT NOT NULL,
  event_code          TEXT NOT NULL,
  psp_reference       TEXT NOT NULL,
  original_reference  TEXT,
  merchant_reference  TEXT NOT NULL,
  currency            TEXT NOT NULL,
  value               INTEGER NOT NULL,
  success             INTEGER NOT NULL,
  reason              TEXT NOT NULL,
  payment_method      TEXT,
  additional_data     TEXT NOT NULL,
  event_date          TEXT NOT NULL,
  created_at          TEXT NOT NULL
);
CREATE INDEX events_by_merchant ON events(merchant_account, id);
CREATE INDEX payments_by_payment_data ON payments(payment_data);
