-- The money rules, kept by the database as the last line behind the row locks of the use cases:
-- amounts are never negative, refunded <= captured <= authorised (0001), an order's remaining
-- amount stays within its value (0001), and a payment is never both cancelled and captured.
ALTER TABLE payments ADD CONSTRAINT payments_amounts_not_negative CHECK (refunded_value >= 0 AND original_value >= 0);
ALTER TABLE payments ADD CONSTRAINT payments_cancelled_not_captured CHECK (NOT (cancelled AND captured_value > 0));
