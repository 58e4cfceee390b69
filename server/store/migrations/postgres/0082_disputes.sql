-- Disputes of the sandbox's test scenarios (a card holder name such as `Chargeback:10.4`, see
-- server/checkout/disputes/): one row per disputed payment, the step its events have reached and
-- when the next one falls due on the company's sandbox clock (null once the last was sent).
-- A payment's charged-back amount is kept beside what was refunded: together never more than
-- what was captured, so a refund or reversal cannot take back what a chargeback already took.
ALTER TABLE payments ADD COLUMN charged_back_value BIGINT NOT NULL DEFAULT 0;
ALTER TABLE payments ADD CONSTRAINT payments_charged_back_within_captured
  CHECK (charged_back_value >= 0 AND refunded_value + charged_back_value <= captured_value);
CREATE TABLE disputes (
  psp_reference           TEXT PRIMARY KEY,
  payment_psp_reference   TEXT NOT NULL UNIQUE REFERENCES payments(psp_reference),
  company_id              TEXT NOT NULL,
  merchant_account        TEXT NOT NULL,
  scenario                TEXT NOT NULL,
  reason_code             TEXT NOT NULL,
  currency                TEXT NOT NULL,
  value                   BIGINT NOT NULL,
  step                    BIGINT NOT NULL,
  due_at                  TIMESTAMPTZ,
  defense_period_ends_at  TIMESTAMPTZ,
  created_at              TIMESTAMPTZ NOT NULL,
  updated_at              TIMESTAMPTZ NOT NULL,
  CHECK (value >= 0)
);
CREATE INDEX disputes_due ON disputes(due_at) WHERE due_at IS NOT NULL;
