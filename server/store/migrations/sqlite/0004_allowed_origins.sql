-- Origins that may use a credential's client key from a browser (CORS).
CREATE TABLE allowed_origins (
  id             TEXT PRIMARY KEY,
  credential_id  TEXT NOT NULL REFERENCES api_credentials(id),
  domain         TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  UNIQUE (credential_id, domain)
);
CREATE INDEX api_credentials_by_company ON api_credentials(company_id, merchant_id, id);
