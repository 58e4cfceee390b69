-- Webhook endpoints, the per-endpoint delivery queue of the event outbox, and delivery attempts.
CREATE TABLE webhooks (
  id                                  TEXT PRIMARY KEY,
  company_id                          TEXT NOT NULL,
  merchant_id                         TEXT NOT NULL REFERENCES merchants(id),
  type                                TEXT NOT NULL,
  url                                 TEXT NOT NULL,
  active                              INTEGER NOT NULL,
  communication_format                TEXT NOT NULL,
  description                         TEXT,
  username                            TEXT,
  encrypted_password                  TEXT,
  encrypted_hmac_key                  TEXT,
  accepts_expired_certificate         INTEGER NOT NULL,
  accepts_self_signed_certificate     INTEGER NOT NULL,
  accepts_untrusted_root_certificate  INTEGER NOT NULL,
  populate_soap_action_header         INTEGER NOT NULL,
  network_type                        TEXT,
  encryption_protocol                 TEXT,
  has_error                           INTEGER NOT NULL,
  created_at                          TEXT NOT NULL,
  updated_at                          TEXT NOT NULL
);
CREATE INDEX webhooks_by_merchant ON webhooks(merchant_id, id);

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
  PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries(status, webhook_id, queue_seq);

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

CREATE INDEX payments_due_auto_capture ON payments(auto_capture_at) WHERE auto_capture_at IS NOT NULL AND capture_closed = 0;
