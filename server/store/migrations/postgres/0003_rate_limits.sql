-- Token buckets of the rate limits, per credential and operation: in the database so that
-- every instance sharing it draws from the same bucket.
CREATE TABLE rate_limits (
  key     TEXT PRIMARY KEY,
  tokens  DOUBLE PRECISION NOT NULL,
  at_ms   BIGINT NOT NULL
);
