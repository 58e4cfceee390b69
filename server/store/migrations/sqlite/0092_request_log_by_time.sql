-- The request log is trimmed to its last 7 days after every write: by time, through an index, so
-- that a write with nothing old to trim reads no row.
CREATE INDEX request_log_by_company_time ON request_log(company_id, occurred_at);
