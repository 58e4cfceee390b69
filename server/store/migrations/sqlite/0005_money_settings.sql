-- Payout settings, split configuration profiles, and the management fields of payment method settings.
CREATE TABLE payout_settings (
  id                      TEXT PRIMARY KEY,
  merchant_id             TEXT NOT NULL REFERENCES merchants(id),
  transfer_instrument_id  TEXT NOT NULL,
  enabled                 INTEGER NOT NULL,
  enabled_from_date       TEXT,
  priority                TEXT NOT NULL,
  verification_status     TEXT NOT NULL,
  created_at              TEXT NOT NULL,
  updated_at              TEXT NOT NULL
);
CREATE INDEX payout_settings_by_merchant ON payout_settings(merchant_id, created_at);

CREATE TABLE split_configurations (
  id           TEXT PRIMARY KEY,
  merchant_id  TEXT NOT NULL REFERENCES merchants(id),
  description  TEXT NOT NULL,
  -- The rules with their split logic, as the wire shape (JSON): they are read and written whole.
  rules        TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE INDEX split_configurations_by_merchant ON split_configurations(merchant_id, created_at);

ALTER TABLE payment_method_settings ADD COLUMN business_line_id TEXT;
ALTER TABLE payment_method_settings ADD COLUMN verification_status TEXT NOT NULL DEFAULT 'valid';
