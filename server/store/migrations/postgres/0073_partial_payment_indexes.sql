-- Most payments have no order, session, pending payment data, clock step or automatic capture:
-- their indexes only hold the rows that have one (a lookup by value or a due scan names a value,
-- which implies it is not null), so inserting an ordinary payment maintains two indexes, not eight.
DROP INDEX IF EXISTS payments_due_auto_capture;
DROP INDEX IF EXISTS payments_by_auto_capture_at;
CREATE INDEX payments_by_auto_capture_at ON payments(auto_capture_at) WHERE auto_capture_at IS NOT NULL;
DROP INDEX IF EXISTS payments_by_order;
CREATE INDEX payments_by_order ON payments(order_psp_reference) WHERE order_psp_reference IS NOT NULL;
DROP INDEX IF EXISTS payments_by_session;
CREATE INDEX payments_by_session ON payments(session_id) WHERE session_id IS NOT NULL;
DROP INDEX IF EXISTS payments_by_payment_data;
CREATE INDEX payments_by_payment_data ON payments(payment_data) WHERE payment_data IS NOT NULL;
DROP INDEX IF EXISTS payments_by_settle_at;
CREATE INDEX payments_by_settle_at ON payments(settle_at) WHERE settle_at IS NOT NULL;
