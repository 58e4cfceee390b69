-- Due automatic captures are found by time alone: the partial index of 0003 needs its condition
-- spelled as a literal, which a query with bound values does not give, so a growing payments
-- table was scanned on every dispatcher round.
CREATE INDEX payments_by_auto_capture_at ON payments(auto_capture_at);
