-- The whole schema as of SQLite migration 0007, in PostgreSQL's types: real booleans,
-- timestamptz for the moments the service records, jsonb for JSON, bigint for money.
-- Dates that callers send (payout enabledFromDate, certificate validity) stay text as sent.

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE companies (
  id                    TEXT PRIMARY KEY,
  name                  TEXT NOT NULL,
  created_at            TIMESTAMPTZ NOT NULL,
  clock_offset_seconds  BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE merchants (
  id                           TEXT PRIMARY KEY,
  company_id                   TEXT NOT NULL REFERENCES companies(id),
  name                         TEXT NOT NULL,
  description                  TEXT NOT NULL,
  reference                    TEXT NOT NULL,
  status                       TEXT NOT NULL,
  capture_delay                TEXT NOT NULL,
  multiple_partial_captures    BOOLEAN NOT NULL,
  default_shopper_interaction  TEXT NOT NULL,
  primary_settlement_currency  TEXT NOT NULL,
  shop_web_address             TEXT NOT NULL,
  merchant_city                TEXT NOT NULL,
  pricing_plan                 TEXT NOT NULL,
  created_at                   TIMESTAMPTZ NOT NULL
);
CREATE INDEX merchants_by_company ON merchants(company_id, id);

CREATE TABLE api_credentials (
  id                            TEXT PRIMARY KEY,
  company_id                    TEXT NOT NULL REFERENCES companies(id),
  merchant_id                   TEXT REFERENCES merchants(id),
  username                      TEXT NOT NULL UNIQUE,
  description                   TEXT NOT NULL,
  active                        BOOLEAN NOT NULL,
  roles                         JSONB NOT NULL,
  allowed_ip_addresses          JSONB NOT NULL,
  associated_merchant_accounts  JSONB NOT NULL,
  client_key                    TEXT NOT NULL,
  created_at                    TIMESTAMPTZ NOT NULL
);
CREATE INDEX api_credentials_by_company ON api_credentials(company_id, merchant_id, id);

CREATE TABLE api_keys (
  key_hash       TEXT PRIMARY KEY,
  credential_id  TEXT NOT NULL REFERENCES api_credentials(id),
  created_at     TIMESTAMPTZ NOT NULL,
  expires_at     TIMESTAMPTZ
);
CREATE INDEX api_keys_by_credential ON api_keys(credential_id);

CREATE TABLE allowed_origins (
  id             TEXT PRIMARY KEY,
  credential_id  TEXT NOT NULL REFERENCES api_credentials(id),
  domain         TEXT NOT NULL,
  created_at     TIMESTAMPTZ NOT NULL,
  UNIQUE (credential_id, domain)
);

CREATE TABLE orders (
  psp_reference    TEXT PRIMARY KEY,
  company_id       TEXT NOT NULL,
  merchant_account TEXT NOT NULL REFERENCES merchants(id),
  reference        TEXT NOT NULL,
  currency         TEXT NOT NULL,
  value            BIGINT NOT NULL,
  remaining_value  BIGINT NOT NULL,
  order_data       TEXT NOT NULL,
  expires_at       TIMESTAMPTZ NOT NULL,
  status           TEXT NOT NULL,
  created_at       TIMESTAMPTZ NOT NULL,
  CHECK (remaining_value >= 0 AND remaining_value <= value)
);

CREATE TABLE payments (
  psp_reference              TEXT PRIMARY KEY,
  company_id                 TEXT NOT NULL,
  merchant_account           TEXT NOT NULL REFERENCES merchants(id),
  reference                  TEXT NOT NULL,
  currency                   TEXT NOT NULL,
  authorised_value           BIGINT NOT NULL,
  original_value             BIGINT NOT NULL,
  captured_value             BIGINT NOT NULL,
  refunded_value             BIGINT NOT NULL,
  result_code                TEXT NOT NULL,
  refusal_reason             TEXT,
  refusal_reason_code        TEXT,
  auth_code                  TEXT,
  cancelled                  BOOLEAN NOT NULL,
  capture_closed             BOOLEAN NOT NULL,
  auto_captured              BOOLEAN NOT NULL,
  capture_delay_hours        BIGINT,
  auto_capture_at            TIMESTAMPTZ,
  multiple_partial_captures  BOOLEAN NOT NULL,
  card_brand                 TEXT NOT NULL,
  card_bin                   TEXT NOT NULL,
  card_last_four             TEXT NOT NULL,
  expiry_month               TEXT NOT NULL,
  expiry_year                TEXT NOT NULL,
  holder_name                TEXT,
  shopper_reference          TEXT,
  return_url                 TEXT NOT NULL,
  order_psp_reference        TEXT REFERENCES orders(psp_reference),
  details_submitted          BOOLEAN NOT NULL,
  payment_method_type        TEXT NOT NULL DEFAULT 'scheme',
  payment_data               TEXT,
  session_id                 TEXT,
  payment_link_id            TEXT,
  stored_payment_method_id   TEXT,
  created_at                 TIMESTAMPTZ NOT NULL,
  updated_at                 TIMESTAMPTZ NOT NULL,
  CHECK (captured_value <= authorised_value),
  CHECK (refunded_value <= captured_value)
);
CREATE INDEX payments_by_reference ON payments(merchant_account, reference, created_at);
CREATE INDEX payments_by_order ON payments(order_psp_reference);
CREATE INDEX payments_by_session ON payments(session_id);
CREATE INDEX payments_by_payment_data ON payments(payment_data);
CREATE INDEX payments_due_auto_capture ON payments(auto_capture_at) WHERE auto_capture_at IS NOT NULL AND NOT capture_closed;

CREATE TABLE modifications (
  psp_reference          TEXT PRIMARY KEY,
  payment_psp_reference  TEXT NOT NULL REFERENCES payments(psp_reference),
  merchant_account       TEXT NOT NULL,
  kind                   TEXT NOT NULL,
  currency               TEXT,
  value                  BIGINT,
  reference              TEXT,
  status                 TEXT NOT NULL,
  action                 TEXT,
  created_at             TIMESTAMPTZ NOT NULL
);
CREATE INDEX modifications_by_payment ON modifications(payment_psp_reference, created_at);

CREATE TABLE idempotency_keys (
  credential_id  TEXT NOT NULL,
  key            TEXT NOT NULL,
  company_id     TEXT NOT NULL,
  fingerprint    TEXT NOT NULL,
  status_code    INTEGER NOT NULL,
  body           TEXT NOT NULL,
  created_at     TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (credential_id, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(company_id, created_at);

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
  created_at                  TIMESTAMPTZ NOT NULL
);
CREATE INDEX stored_payment_methods_by_shopper ON stored_payment_methods(merchant_account, shopper_reference);

CREATE TABLE payment_links (
  id                TEXT PRIMARY KEY,
  company_id        TEXT NOT NULL,
  merchant_account  TEXT NOT NULL REFERENCES merchants(id),
  reference         TEXT NOT NULL,
  fields            JSONB NOT NULL,
  status            TEXT NOT NULL,
  reusable          BOOLEAN NOT NULL,
  expires_at        TIMESTAMPTZ NOT NULL,
  created_at        TIMESTAMPTZ NOT NULL,
  updated_at        TIMESTAMPTZ NOT NULL
);

CREATE TABLE checkout_sessions (
  id                TEXT PRIMARY KEY,
  company_id        TEXT NOT NULL,
  merchant_account  TEXT NOT NULL REFERENCES merchants(id),
  reference         TEXT NOT NULL,
  fields            JSONB NOT NULL,
  session_data      TEXT NOT NULL,
  expires_at        TIMESTAMPTZ NOT NULL,
  created_at        TIMESTAMPTZ NOT NULL
);

CREATE TABLE payment_method_settings (
  id                    TEXT PRIMARY KEY,
  merchant_id           TEXT NOT NULL REFERENCES merchants(id),
  type                  TEXT NOT NULL,
  enabled               BOOLEAN NOT NULL,
  countries             JSONB NOT NULL,
  currencies            JSONB NOT NULL,
  custom_routing_flags  JSONB NOT NULL,
  store_ids             JSONB NOT NULL,
  channels              JSONB NOT NULL,
  shopper_interaction   TEXT,
  reference             TEXT,
  min_amount            BIGINT,
  max_amount            BIGINT,
  details               JSONB NOT NULL,
  business_line_id      TEXT,
  verification_status   TEXT NOT NULL DEFAULT 'valid',
  created_at            TIMESTAMPTZ NOT NULL,
  updated_at            TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_method_settings_by_merchant ON payment_method_settings(merchant_id, type);

CREATE TABLE events (
  id                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id          TEXT NOT NULL,
  merchant_account    TEXT NOT NULL,
  event_code          TEXT NOT NULL,
  psp_reference       TEXT NOT NULL,
  original_reference  TEXT,
  merchant_reference  TEXT NOT NULL,
  currency            TEXT NOT NULL,
  value               BIGINT NOT NULL,
  success             BOOLEAN NOT NULL,
  reason              TEXT NOT NULL,
  payment_method      TEXT,
  additional_data     JSONB NOT NULL,
  event_date          TEXT NOT NULL,  -- as reported (a test event may carry the caller's date)
  created_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX events_by_merchant ON events(merchant_account, id);

CREATE TABLE webhooks (
  id                                  TEXT PRIMARY KEY,
  company_id                          TEXT NOT NULL,
  merchant_id                         TEXT NOT NULL REFERENCES merchants(id),
  type                                TEXT NOT NULL,
  url                                 TEXT NOT NULL,
  active                              BOOLEAN NOT NULL,
  communication_format                TEXT NOT NULL,
  description                         TEXT,
  username                            TEXT,
  encrypted_password                  TEXT,
  encrypted_hmac_key                  TEXT,
  accepts_expired_certificate         BOOLEAN NOT NULL,
  accepts_self_signed_certificate     BOOLEAN NOT NULL,
  accepts_untrusted_root_certificate  BOOLEAN NOT NULL,
  populate_soap_action_header         BOOLEAN NOT NULL,
  network_type                        TEXT,
  encryption_protocol                 TEXT,
  has_error                           BOOLEAN NOT NULL,
  created_at                          TIMESTAMPTZ NOT NULL,
  updated_at                          TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhooks_by_merchant ON webhooks(merchant_id, id);

-- Queue positions are drawn from one sequence: instances enqueueing at once never share a position.
CREATE SEQUENCE webhook_queue_seq;

CREATE TABLE webhook_deliveries (
  webhook_id       TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id         BIGINT NOT NULL REFERENCES events(id),
  -- Position in the webhook's queue: the event order, or later when sent again.
  queue_seq        BIGINT NOT NULL,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL,
  next_attempt_at  TIMESTAMPTZ NOT NULL,
  created_at       TIMESTAMPTZ NOT NULL,
  updated_at       TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(status, webhook_id, queue_seq);

CREATE TABLE delivery_attempts (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_id    TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id      BIGINT NOT NULL,
  attempted_at  TIMESTAMPTZ NOT NULL,
  outcome       TEXT NOT NULL,
  status_code   INTEGER,
  error         TEXT,
  duration_ms   INTEGER NOT NULL
);
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts(webhook_id, event_id, id);

CREATE TABLE payout_settings (
  id                      TEXT PRIMARY KEY,
  merchant_id             TEXT NOT NULL REFERENCES merchants(id),
  transfer_instrument_id  TEXT NOT NULL,
  enabled                 BOOLEAN NOT NULL,
  enabled_from_date       TEXT,
  priority                TEXT NOT NULL,
  verification_status     TEXT NOT NULL,
  created_at              TIMESTAMPTZ NOT NULL,
  updated_at              TIMESTAMPTZ NOT NULL
);
CREATE INDEX payout_settings_by_merchant ON payout_settings(merchant_id, created_at);

CREATE TABLE split_configurations (
  id           TEXT PRIMARY KEY,
  merchant_id  TEXT NOT NULL REFERENCES merchants(id),
  description  TEXT NOT NULL,
  -- The rules with their split logic, as the wire shape: they are read and written whole.
  rules        JSONB NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX split_configurations_by_merchant ON split_configurations(merchant_id, created_at);

CREATE TABLE android_apps (
  id            TEXT PRIMARY KEY,
  company_id    TEXT NOT NULL REFERENCES companies(id),
  status        TEXT NOT NULL,
  package_name  TEXT,
  version_code  BIGINT,
  version_name  TEXT,
  label         TEXT,
  description   TEXT,
  error_code    TEXT,
  file_path     TEXT NOT NULL,
  file_size     BIGINT NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL,
  updated_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX android_apps_by_company ON android_apps(company_id, created_at);
CREATE INDEX android_apps_processing ON android_apps(status) WHERE status = 'processing';

CREATE TABLE android_certificates (
  id           TEXT PRIMARY KEY,
  company_id   TEXT NOT NULL REFERENCES companies(id),
  name         TEXT NOT NULL,
  extension    TEXT NOT NULL,
  description  TEXT,
  status       TEXT NOT NULL,
  not_before   TEXT NOT NULL,
  not_after    TEXT NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX android_certificates_by_company ON android_certificates(company_id, created_at);

CREATE TABLE stores (
  id           TEXT PRIMARY KEY,
  merchant_id  TEXT NOT NULL REFERENCES merchants(id),
  reference    TEXT NOT NULL,
  description  TEXT NOT NULL,
  UNIQUE (merchant_id, reference)
);

CREATE TABLE terminals (
  id        TEXT PRIMARY KEY,
  store_id  TEXT NOT NULL REFERENCES stores(id),
  model     TEXT NOT NULL
);

CREATE TABLE terminal_settings (
  level       TEXT NOT NULL,
  owner_id    TEXT NOT NULL,
  sections    JSONB NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (level, owner_id)
);
