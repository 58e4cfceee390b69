-- Stores made through the API (address, phone, shopper statement, status and the details
-- Adyen's Store carries), terminals that can leave their store (a closed store's terminals go
-- to the merchant account's inventory), and terminal logos per level and model.

-- Until now stores were seed data only (the demo stores are Dutch): existing rows get a Dutch
-- address without street, their description as shopper statement and no phone number.
ALTER TABLE stores
  ADD COLUMN shopper_statement TEXT NOT NULL DEFAULT '',
  ADD COLUMN phone_number TEXT NOT NULL DEFAULT '',
  ADD COLUMN address JSONB NOT NULL DEFAULT '{"country":"NL"}',
  ADD COLUMN status TEXT NOT NULL DEFAULT 'active',
  ADD COLUMN details JSONB NOT NULL DEFAULT '{}';
UPDATE stores SET shopper_statement = left(description, 22);

-- A terminal belongs to a merchant account (and its company) directly; its store is optional.
ALTER TABLE terminals
  ADD COLUMN company_id TEXT REFERENCES companies(id),
  ADD COLUMN merchant_id TEXT REFERENCES merchants(id),
  ADD COLUMN brand TEXT,
  ADD COLUMN serial_number TEXT,
  ADD COLUMN firmware_version TEXT,
  ADD COLUMN country_code TEXT,
  ADD COLUMN status TEXT;
UPDATE terminals t SET
  company_id = m.company_id,
  merchant_id = s.merchant_id,
  brand = CASE WHEN t.model LIKE 'S1%' OR t.model = 'S7T' THEN 'Castles' ELSE 'Verifone' END,
  serial_number = substr(t.id, strpos(t.id, '-') + 1),
  firmware_version = CASE WHEN t.model LIKE 'S1%' OR t.model = 'S7T' THEN 'Castles_Android 1.102.6' ELSE 'Verifone_VOS 1.102.6' END,
  country_code = s.address->>'country',
  status = 'boarded'
FROM stores s JOIN merchants m ON m.id = s.merchant_id
WHERE s.id = t.store_id;
ALTER TABLE terminals
  ALTER COLUMN company_id SET NOT NULL,
  ALTER COLUMN merchant_id SET NOT NULL,
  ALTER COLUMN brand SET NOT NULL,
  ALTER COLUMN serial_number SET NOT NULL,
  ALTER COLUMN firmware_version SET NOT NULL,
  ALTER COLUMN country_code SET NOT NULL,
  ALTER COLUMN status SET NOT NULL,
  ALTER COLUMN store_id DROP NOT NULL;
CREATE INDEX terminals_by_company ON terminals(company_id, id);
CREATE INDEX terminals_by_store ON terminals(store_id);

-- One row per level (company, merchant, store, terminal), owner and model with a logo of its own.
CREATE TABLE terminal_logos (
  level       TEXT NOT NULL,
  owner_id    TEXT NOT NULL,
  model       TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (level, owner_id, model)
);
