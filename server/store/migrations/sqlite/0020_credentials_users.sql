-- API credentials created through the API, client key rotation, and users.

-- A credential's password (Basic authentication with its user name) is shown once, when the
-- credential is created: only its keyed hash is kept. Credentials from before have none.
ALTER TABLE api_credentials ADD COLUMN password_hash TEXT;
ALTER TABLE api_credentials ADD COLUMN subject_dn TEXT;
-- Browsers authenticate with the client key: it is looked up on every such request.
CREATE UNIQUE INDEX api_credentials_by_client_key ON api_credentials(client_key);

-- A client key replaced by a new one keeps working until expires_at (24 hours later, on the
-- company's clock).
CREATE TABLE retired_client_keys (
  client_key     TEXT PRIMARY KEY,
  credential_id  TEXT NOT NULL REFERENCES api_credentials(id),
  expires_at     TEXT NOT NULL
);
CREATE INDEX retired_client_keys_by_credential ON retired_client_keys(credential_id);

-- Customer Area users of a company (merchant_id null) or of one merchant account. No password:
-- a user sets one through the activation link (none is sent here), so nothing secret is stored.
CREATE TABLE users (
  id                            TEXT PRIMARY KEY,
  company_id                    TEXT NOT NULL REFERENCES companies(id),
  merchant_id                   TEXT REFERENCES merchants(id),
  username                      TEXT NOT NULL,
  email                         TEXT NOT NULL,
  first_name                    TEXT NOT NULL,
  last_name                     TEXT NOT NULL,
  active                        INTEGER NOT NULL,
  roles                         TEXT NOT NULL,
  account_groups                TEXT NOT NULL,
  associated_merchant_accounts  TEXT NOT NULL,
  time_zone_code                TEXT NOT NULL,
  login_method                  TEXT NOT NULL,
  created_at                    TEXT NOT NULL,
  UNIQUE (company_id, username)
);
CREATE INDEX users_by_level ON users(company_id, merchant_id, id);

-- The seeded company credential has every role: it gets the role of the new user operations.
UPDATE api_credentials
   SET roles = json_insert(roles, '$[#]', 'Management API - Users read and write')
 WHERE id = 'S2-DEMOCOMPANY01'
   AND NOT EXISTS (SELECT 1 FROM json_each(api_credentials.roles) WHERE value = 'Management API - Users read and write');
