-- Secrets the instances sharing a database generate for themselves when the operator gives none
-- (sandbox mode), sealed (see kernel/crypto/shared-secrets.ts). An SQLite file belongs to one
-- process, which keeps its secrets in key files beside it: the table stays empty here and exists so
-- that both engines hold the same schema.
CREATE TABLE sealed_secrets (
  name        TEXT PRIMARY KEY,
  sealed      TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
