-- A payment is looked up by merchant account and reference, newest first (a modification by
-- merchant reference acts on the latest payment): the index ends with created_at, as on
-- PostgreSQL, so that read takes the last entry instead of sorting the reference's payments.
DROP INDEX IF EXISTS payments_by_reference;
CREATE INDEX payments_by_reference ON payments(merchant_account, reference, created_at);
