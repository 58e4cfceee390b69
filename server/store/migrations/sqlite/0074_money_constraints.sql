-- The money rules, kept by the database as the last line behind the use cases' single writer:
-- amounts are never negative, refunded <= captured <= authorised (0001 for payments), an order's
-- remaining amount stays within its value, and a payment is never both cancelled and captured.
-- SQLite adds no CHECK to an existing table, so these are triggers that abort the statement with
-- the message a CHECK constraint gives.
CREATE TRIGGER payments_money_rules_on_insert BEFORE INSERT ON payments
WHEN NEW.refunded_value < 0 OR NEW.original_value < 0 OR (NEW.cancelled AND NEW.captured_value > 0)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: payments money rules'); END;
CREATE TRIGGER payments_money_rules_on_update BEFORE UPDATE ON payments
WHEN NEW.refunded_value < 0 OR NEW.original_value < 0 OR (NEW.cancelled AND NEW.captured_value > 0)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: payments money rules'); END;
CREATE TRIGGER orders_remaining_on_insert BEFORE INSERT ON orders
WHEN NEW.remaining_value < 0 OR NEW.remaining_value > NEW.value
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: orders remaining amount'); END;
CREATE TRIGGER orders_remaining_on_update BEFORE UPDATE ON orders
WHEN NEW.remaining_value < 0 OR NEW.remaining_value > NEW.value
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: orders remaining amount'); END;
