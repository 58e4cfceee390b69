-- Faults the sandbox puts into one webhook's deliveries on purpose (PUT
-- /sandbox/webhooks/{webhookId}/faults), so that a receiver's idempotency and ordering can be
-- tested. No row: no fault. The counters go down with a conditional update in the transaction
-- that leases the attempt, so two instances never spend the same one.
CREATE TABLE webhook_faults (
  webhook_id          TEXT PRIMARY KEY REFERENCES webhooks(id) ON DELETE CASCADE,
  delay_seconds       INTEGER NOT NULL CHECK (delay_seconds >= 0 AND delay_seconds <= 300),
  duplicate           BOOLEAN NOT NULL,
  out_of_order        INTEGER NOT NULL CHECK (out_of_order >= 0),
  fail_next_attempts  INTEGER NOT NULL CHECK (fail_next_attempts >= 0),
  updated_at          TIMESTAMPTZ NOT NULL
);
