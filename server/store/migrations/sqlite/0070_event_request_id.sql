-- The id of the request that caused an event (its X-Request-Id), logged with each attempt to
-- deliver it. NULL for events of the server's own work (the clock, the dispatcher) and for the
-- events recorded before this column.
ALTER TABLE events ADD COLUMN request_id TEXT;
