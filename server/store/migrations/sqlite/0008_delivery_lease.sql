-- A delivery being sent is leased to the instance sending it (until this time, real time):
-- instances sharing a database never send the same event at once, and a lease left by a
-- crashed process lapses so another instance delivers the event.
ALTER TABLE webhook_deliveries ADD COLUMN lease_until TEXT;
