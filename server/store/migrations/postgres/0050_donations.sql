-- Donations (POST /donations): each is charged as a payment of the merchant account, credited to
-- a campaign's donation account. A donation token (one per original payment) is used once.
CREATE TABLE donations (
  id                     TEXT PRIMARY KEY,
  company_id             TEXT NOT NULL,
  merchant_account       TEXT NOT NULL REFERENCES merchants(id),
  campaign_id            TEXT NOT NULL,
  donation_account       TEXT NOT NULL,
  payment_psp_reference  TEXT NOT NULL REFERENCES payments(psp_reference),
  original_psp_reference TEXT REFERENCES payments(psp_reference),
  reference              TEXT NOT NULL,
  currency               TEXT NOT NULL,
  value                  BIGINT NOT NULL,
  status                 TEXT NOT NULL,
  created_at             TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX donations_by_original_payment ON donations(original_psp_reference);
CREATE INDEX donations_by_payment ON donations(payment_psp_reference);
