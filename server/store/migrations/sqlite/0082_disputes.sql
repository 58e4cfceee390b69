-- Disputes of the sandbox's test scenarios (a card holder name such as `Chargeback:10.4`, see
-- server/checkout/disputes/): one row per disputed payment, the step its events have reached and
-- when the next one falls due on the company's sandbox clock (null once the last was sent).
-- A payment's charged-back amount is kept beside what was refunded: together never more than
-- what was captured, so a refund or reversal cannot take back what a chargeback already took.
-- SQLite adds no CHECK to an existing table: triggers abort as the CHECK would (see 0074).
ALTER TABLE payments ADD COLUMN charged_back_value INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER payments_charged_back_on_insert BEFORE INSERT ON payments
WHEN NEW.charged_back_value < 0 OR NEW.refunded_value + NEW.charged_back_value > NEW.captured_value
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: payments charged back within captured'); END;
CREATE TRIGGER payments_charged_back_on_update BEFORE UPDATE ON payments
WHEN NEW.charged_back_value < 0 OR NEW.refunded_value + NEW.charged_back_value > NEW.captured_value
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: payments charged back within captured'); END;
CREATE TABLE disputes (
  psp_reference           TEXT PRIMARY KEY,
  payment_psp_reference   TEXT NOT NULL UNIQUE REFERENCES payments(psp_reference),
  company_id              TEXT NOT NULL,
  merchant_account        TEXT NOT NULL,
  scenario                TEXT NOT NULL,
  reason_code             TEXT NOT NULL,
  currency                TEXT NOT NULL,
  value                   INTEGER NOT NULL,
  step                    INTEGER NOT NULL,
  due_at                  TEXT,
  defense_period_ends_at  TEXT,
  created_at              TEXT NOT NULL,
  updated_at              TEXT NOT NULL,
  CHECK (value >= 0)
);
CREATE INDEX disputes_due ON disputes(due_at) WHERE due_at IS NOT NULL;
