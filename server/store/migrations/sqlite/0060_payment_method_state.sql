-- Each payment method keeps what its flow needs later (a 3D Secure 2 stage, a voucher's
-- reference, a direct debit's masked account) as JSON, and the time its next clock-driven step
-- falls due (a pending method settling, a voucher or redirect expiring). Orders expire by time
-- too; both are found by the dispatcher's due work.
ALTER TABLE payments ADD COLUMN method_state TEXT NOT NULL DEFAULT '{}';
ALTER TABLE payments ADD COLUMN settle_at TEXT;
CREATE INDEX payments_by_settle_at ON payments(settle_at);
CREATE INDEX orders_by_expires_at ON orders(expires_at);
