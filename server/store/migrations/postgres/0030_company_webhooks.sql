-- Company-level webhooks and per-webhook event filters.
--
-- A company webhook belongs to the company and has no merchant account (merchant_id NULL); which
-- merchant accounts it covers is its filter (allAccounts, includeAccounts or excludeAccounts with
-- a list). Any webhook can limit the event codes it receives.
ALTER TABLE webhooks ALTER COLUMN merchant_id DROP NOT NULL;
ALTER TABLE webhooks ADD COLUMN hmac_key_check_value TEXT;
ALTER TABLE webhooks ADD COLUMN filter_merchant_account_type TEXT;
ALTER TABLE webhooks ADD COLUMN filter_merchant_accounts JSONB;
ALTER TABLE webhooks ADD COLUMN include_event_codes JSONB;
ALTER TABLE webhooks ADD COLUMN exclude_event_codes JSONB;
ALTER TABLE webhooks ADD COLUMN additional_properties JSONB;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_level CHECK ((merchant_id IS NULL) = (filter_merchant_account_type IS NOT NULL));
-- Company webhooks are read with every event of the company's merchant accounts.
CREATE INDEX webhooks_by_company ON webhooks(company_id, merchant_id, id);
