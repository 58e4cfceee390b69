-- Stores made through the API (address, phone, shopper statement, status and the details
-- Adyen's Store carries), terminals that can leave their store (a closed store's terminals go
-- to the merchant account's inventory), and terminal logos per level and model.

-- Until now stores were seed data only (the demo stores are Dutch): existing rows get a Dutch
-- address without street, their description as shopper statement and no phone number.
ALTER TABLE stores ADD COLUMN shopper_statement TEXT NOT NULL DEFAULT '';
ALTER TABLE stores ADD COLUMN phone_number TEXT NOT NULL DEFAULT '';
ALTER TABLE stores ADD COLUMN address TEXT NOT NULL DEFAULT '{"country":"NL"}';
ALTER TABLE stores ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
ALTER TABLE stores ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
UPDATE stores SET shopper_statement = substr(description, 1, 22);

-- A terminal belongs to a merchant account (and its company) directly; its store is optional.
-- SQLite cannot drop NOT NULL from a column, so the table is rebuilt (nothing references it).
CREATE TABLE terminals_new (
  id                TEXT PRIMARY KEY,
  company_id        TEXT NOT NULL REFERENCES companies(id),
  merchant_id       TEXT NOT NULL REFERENCES merchants(id),
  store_id          TEXT REFERENCES stores(id),
  model             TEXT NOT NULL,
  brand             TEXT NOT NULL,
  serial_number     TEXT NOT NULL,
  firmware_version  TEXT NOT NULL,
  country_code      TEXT NOT NULL,
  status            TEXT NOT NULL
);
INSERT INTO terminals_new (id, company_id, merchant_id, store_id, model, brand, serial_number, firmware_version, country_code, status)
SELECT t.id, m.company_id, s.merchant_id, t.store_id, t.model,
       CASE WHEN t.model LIKE 'S1%' OR t.model = 'S7T' THEN 'Castles' ELSE 'Verifone' END,
       substr(t.id, instr(t.id, '-') + 1),
       CASE WHEN t.model LIKE 'S1%' OR t.model = 'S7T' THEN 'Castles_Android 1.102.6' ELSE 'Verifone_VOS 1.102.6' END,
       json_extract(s.address, '$.country'),
       'boarded'
FROM terminals t JOIN stores s ON s.id = t.store_id JOIN merchants m ON m.id = s.merchant_id;
DROP TABLE terminals;
ALTER TABLE terminals_new RENAME TO terminals;
CREATE INDEX terminals_by_company ON terminals(company_id, id);
CREATE INDEX terminals_by_store ON terminals(store_id);

-- One row per level (company, merchant, store, terminal), owner and model with a logo of its own.
CREATE TABLE terminal_logos (
  level       TEXT NOT NULL,
  owner_id    TEXT NOT NULL,
  model       TEXT NOT NULL,
  data        TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  PRIMARY KEY (level, owner_id, model)
);
