-- Company-level webhooks and per-webhook event filters.
--
-- A company webhook belongs to the company and has no merchant account (merchant_id NULL); which
-- merchant accounts it covers is its filter (allAccounts, includeAccounts or excludeAccounts with
-- a list). Any webhook can limit the event codes it receives. SQLite cannot drop a NOT NULL, so
-- the table is rebuilt; its two child tables are rebuilt around it so that dropping the old table
-- cascades nothing (their rows are copied aside and back).

CREATE TABLE webhooks_next (
  id                                  TEXT PRIMARY KEY,
  company_id                          TEXT NOT NULL,
  merchant_id                         TEXT REFERENCES merchants(id),
  type                                TEXT NOT NULL,
  url                                 TEXT NOT NULL,
  active                              INTEGER NOT NULL,
  communication_format                TEXT NOT NULL,
  description                         TEXT,
  username                            TEXT,
  encrypted_password                  TEXT,
  encrypted_hmac_key                  TEXT,
  hmac_key_check_value                TEXT,
  accepts_expired_certificate         INTEGER NOT NULL,
  accepts_self_signed_certificate     INTEGER NOT NULL,
  accepts_untrusted_root_certificate  INTEGER NOT NULL,
  populate_soap_action_header         INTEGER NOT NULL,
  network_type                        TEXT,
  encryption_protocol                 TEXT,
  -- Company webhooks only: allAccounts | includeAccounts | excludeAccounts, and the JSON list.
  filter_merchant_account_type        TEXT,
  filter_merchant_accounts            TEXT,
  -- JSON lists of event codes (NULL: no filter) and the JSON map of additional settings.
  include_event_codes                 TEXT,
  exclude_event_codes                 TEXT,
  additional_properties               TEXT,
  has_error                           INTEGER NOT NULL,
  created_at                          TEXT NOT NULL,
  updated_at                          TEXT NOT NULL,
  CHECK ((merchant_id IS NULL) = (filter_merchant_account_type IS NOT NULL))
);
INSERT INTO webhooks_next (id, company_id, merchant_id, type, url, active, communication_format, description, username,
  encrypted_password, encrypted_hmac_key, accepts_expired_certificate, accepts_self_signed_certificate,
  accepts_untrusted_root_certificate, populate_soap_action_header, network_type, encryption_protocol, has_error,
  created_at, updated_at)
SELECT id, company_id, merchant_id, type, url, active, communication_format, description, username,
  encrypted_password, encrypted_hmac_key, accepts_expired_certificate, accepts_self_signed_certificate,
  accepts_untrusted_root_certificate, populate_soap_action_header, network_type, encryption_protocol, has_error,
  created_at, updated_at
FROM webhooks;

CREATE TABLE webhook_deliveries_copy AS SELECT * FROM webhook_deliveries;
CREATE TABLE delivery_attempts_copy AS SELECT * FROM delivery_attempts;
DROP TABLE delivery_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
ALTER TABLE webhooks_next RENAME TO webhooks;
CREATE INDEX webhooks_by_merchant ON webhooks(merchant_id, id);
-- Company webhooks are read with every event of the company's merchant accounts.
CREATE INDEX webhooks_by_company ON webhooks(company_id, merchant_id, id);

CREATE TABLE webhook_deliveries (
  webhook_id       TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id         INTEGER NOT NULL REFERENCES events(id),
  -- Position in the webhook's queue: the event order, or later when sent again.
  queue_seq        INTEGER NOT NULL,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL,
  next_attempt_at  TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  lease_until      TEXT,
  PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(status, webhook_id, queue_seq);
INSERT INTO webhook_deliveries (webhook_id, event_id, queue_seq, status, attempts, next_attempt_at, created_at, updated_at, lease_until)
SELECT webhook_id, event_id, queue_seq, status, attempts, next_attempt_at, created_at, updated_at, lease_until FROM webhook_deliveries_copy;

CREATE TABLE delivery_attempts (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  webhook_id    TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id      INTEGER NOT NULL,
  attempted_at  TEXT NOT NULL,
  outcome       TEXT NOT NULL,
  status_code   INTEGER,
  error         TEXT,
  duration_ms   INTEGER NOT NULL
);
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts(webhook_id, event_id, id);
INSERT INTO delivery_attempts (id, webhook_id, event_id, attempted_at, outcome, status_code, error, duration_ms)
SELECT id, webhook_id, event_id, attempted_at, outcome, status_code, error, duration_ms FROM delivery_attempts_copy;

DROP TABLE webhook_deliveries_copy;
DROP TABLE delivery_attempts_copy;
