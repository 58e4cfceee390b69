-- The console (spec/console): its sign-in sessions, the request log it shows, the start of each
-- webhook receiver's answer, and an index to follow a company's payments as they change.

-- A session opened with an API key. Only the keyed hash of the session token is kept (as for API
-- keys); the key it was opened with is named by its keyed hash, so that a revoked or expired key
-- ends the session too. Deleting the row signs out on every instance.
CREATE TABLE console_sessions (
  token_hash     TEXT PRIMARY KEY,
  key_hash       TEXT NOT NULL,
  credential_id  TEXT NOT NULL REFERENCES api_credentials(id) ON DELETE CASCADE,
  company_id     TEXT NOT NULL,
  created_at     TIMESTAMPTZ NOT NULL,
  expires_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX console_sessions_by_expiry ON console_sessions(expires_at);

-- Every API request of the checkout, management and client-side areas, per company, bodies
-- redacted before they are written. Bounded per company (the last 10,000 or 7 days).
CREATE TABLE request_log (
  id                   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id           TEXT NOT NULL,
  occurred_at          TIMESTAMPTZ NOT NULL,
  area                 TEXT NOT NULL,
  method               TEXT NOT NULL,
  path                 TEXT NOT NULL,
  query                TEXT,
  operation_id         TEXT,
  status               INTEGER NOT NULL,
  duration_ms          INTEGER NOT NULL,
  credential_id        TEXT,
  credential_username  TEXT,
  idempotency_key      TEXT,
  request_id           TEXT NOT NULL,
  psp_reference        TEXT,
  merchant_account     TEXT,
  request_body         TEXT,
  response_body        TEXT
);
CREATE INDEX request_log_by_company ON request_log(company_id, id);
CREATE INDEX request_log_by_psp_reference ON request_log(company_id, psp_reference) WHERE psp_reference IS NOT NULL;
CREATE INDEX request_log_by_request_id ON request_log(company_id, request_id);

ALTER TABLE delivery_attempts ADD COLUMN response_excerpt TEXT;

CREATE INDEX payments_by_company_change ON payments(company_id, updated_at);
CREATE INDEX payments_by_company_creation ON payments(company_id, created_at, psp_reference);
