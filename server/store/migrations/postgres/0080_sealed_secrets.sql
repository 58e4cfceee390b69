-- Secrets the instances sharing this database generate for themselves when the operator gives none
-- (sandbox mode): the server secret and the card encryption key, one row each, sealed (AES-256-GCM,
-- see kernel/crypto/shared-secrets.ts), never in plain text. The first instance to start inserts
-- them; the primary key makes every other one, started at the same time or later, read that row.
CREATE TABLE sealed_secrets (
  name        TEXT PRIMARY KEY,
  sealed      TEXT NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL
);
