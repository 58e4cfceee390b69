-- Tenant isolation: idempotency records belong to one credential, and each company has its own
-- sandbox clock.

-- Records were scoped to the company, so one credential could replay (or block) another's
-- responses. They now belong to the credential that made the first request. Old records are
-- dropped: their owner is not known, and a dropped record only means a repeat is processed again
-- (the old scheme is the defect being fixed).
DROP TABLE idempotency_keys;
CREATE TABLE idempotency_keys (
  credential_id  TEXT NOT NULL,
  key            TEXT NOT NULL,
  company_id     TEXT NOT NULL,
  fingerprint    TEXT NOT NULL,
  status_code    INTEGER NOT NULL,
  body           TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  PRIMARY KEY (credential_id, key)
);
-- The purge deletes a company's records older than 31 days on that company's clock.
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(company_id, created_at);

-- The sandbox clock was one offset for the whole server; every company keeps the time it had.
ALTER TABLE companies ADD COLUMN clock_offset_seconds INTEGER NOT NULL DEFAULT 0;
UPDATE companies SET clock_offset_seconds =
  COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'sandbox.clockOffsetSeconds'), 0);
DELETE FROM settings WHERE key = 'sandbox.clockOffsetSeconds';
