-- The app list is read newest first (created_at desc, id desc) per company: an index in that
-- order serves a page without sorting the company's apps.
DROP INDEX IF EXISTS android_apps_by_company;
CREATE INDEX IF NOT EXISTS android_apps_listing ON android_apps (company_id, created_at DESC, id DESC);
