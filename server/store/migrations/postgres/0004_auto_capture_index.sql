-- Due automatic captures are found by time alone (a partial index on a bound condition is not
-- used by a generic plan).
CREATE INDEX payments_by_auto_capture_at ON payments(auto_capture_at);
