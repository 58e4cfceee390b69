import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { AndroidApp, AndroidAppListing, AndroidCertificate } from '../records/merchant-settings.js';
import type { AndroidApps, AndroidCertificates } from '../schema.generated.js';

/** The columns of the list page (AndroidAppListing): a list reads no file paths, sizes or times it does not show. */
const LISTING_COLUMNS = ['id', 'status', 'package_name', 'version_code', 'version_name', 'label', 'description', 'error_code'] as const;
type ListingRow = Pick<Selectable<AndroidApps>, (typeof LISTING_COLUMNS)[number]>;
const listingFromRow = (r: ListingRow): AndroidAppListing => ({
  id: r.id,
  status: r.status as AndroidApp['status'],
  packageName: r.package_name,
  versionCode: r.version_code,
  versionName: r.version_name,
  label: r.label,
  description: r.description,
  errorCode: r.error_code,
});

const appFromRow = (r: Selectable<AndroidApps>): AndroidApp => ({
  ...listingFromRow(r),
  companyId: r.company_id,
  filePath: r.file_path,
  fileSize: r.file_size,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const appToRow = (a: AndroidApp): Insertable<AndroidApps> => ({
  id: a.id,
  company_id: a.companyId,
  status: a.status,
  package_name: a.packageName,
  version_code: a.versionCode,
  version_name: a.versionName,
  label: a.label,
  description: a.description,
  error_code: a.errorCode,
  file_path: a.filePath,
  file_size: a.fileSize,
  created_at: a.createdAt,
  updated_at: a.updatedAt,
});

const certificateFromRow = (r: Selectable<AndroidCertificates>): AndroidCertificate => ({
  id: r.id,
  companyId: r.company_id,
  name: r.name,
  extension: r.extension,
  description: r.description,
  status: 'ready',
  notBefore: r.not_before,
  notAfter: r.not_after,
  createdAt: r.created_at,
});

const certificateToRow = (c: AndroidCertificate): Insertable<AndroidCertificates> => ({
  id: c.id,
  company_id: c.companyId,
  name: c.name,
  extension: c.extension,
  description: c.description,
  status: c.status,
  not_before: c.notBefore,
  not_after: c.notAfter,
  created_at: c.createdAt,
});

/** A page of a company's apps, newest first, with or without each filter: one compiled query per combination (see prepared.ts). */
const appPage = (byPackage: boolean, byVersion: boolean) =>
  prepared(({ q }, companyId: string, packageName: string, versionCode: number, limit: number, offset: number) => {
    // Newest first, in the order of the (company_id, created_at desc, id desc) index: no sort.
    let query = q.selectFrom('android_apps').select(LISTING_COLUMNS).where('company_id', '=', companyId);
    if (byPackage) query = query.where('package_name', '=', packageName);
    if (byVersion) query = query.where('version_code', '=', versionCode);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset);
  });
const appPages: Record<string, ReturnType<typeof appPage>> = {
  falsefalse: appPage(false, false),
  truefalse: appPage(true, false),
  falsetrue: appPage(false, true),
  truetrue: appPage(true, true),
};

/** Android apps (uploaded APKs) and certificates of a company's terminal fleet. */
export function androidStore(db: Db) {
  const { q } = db;
  const apps = () => q.selectFrom('android_apps').selectAll();
  const certificates = () => q.selectFrom('android_certificates').selectAll();
  return {
    insertApp: async (app: AndroidApp): Promise<void> => void (await q.insertInto('android_apps').values(appToRow(app)).execute()),
    getApp: async (id: string): Promise<AndroidApp | undefined> => {
      const row = await apps().where('id', '=', id).executeTakeFirst();
      return row && appFromRow(row);
    },
    /** The company's apps, newest first; the filter narrows them to a package name and/or version code. */
    listApps: async (
      companyId: string,
      filter: { packageName?: string; versionCode?: number },
      offset: number,
      limit: number,
    ): Promise<AndroidAppListing[]> => {
      const query = appPages[`${filter.packageName !== undefined}${filter.versionCode !== undefined}`]!;
      return (await query.all(db, companyId, filter.packageName ?? '', filter.versionCode ?? 0, limit, offset)).map(listingFromRow);
    },
    /** Writes what processing an app changes (status, package details, error); its file, description and owner stay. */
    updateApp: async (app: AndroidApp): Promise<void> => {
      await q
        .updateTable('android_apps')
        .set({
          status: app.status,
          package_name: app.packageName,
          version_code: app.versionCode,
          version_name: app.versionName,
          label: app.label,
          error_code: app.errorCode,
          updated_at: app.updatedAt,
        })
        .where('id', '=', app.id)
        .execute();
    },
    /** The apps still being processed (across companies), oldest first. */
    processingApps: async (): Promise<AndroidApp[]> =>
      (await apps().where('status', '=', 'processing').orderBy('created_at').orderBy('id').execute()).map(appFromRow),
    insertCertificate: async (certificate: AndroidCertificate): Promise<void> =>
      void (await q.insertInto('android_certificates').values(certificateToRow(certificate)).execute()),
    /** The company's certificates, newest first; the filter narrows them to a name. */
    listCertificates: async (companyId: string, filter: { name?: string }, offset: number, limit: number): Promise<AndroidCertificate[]> => {
      let query = certificates().where('company_id', '=', companyId);
      if (filter.name !== undefined) query = query.where('name', '=', filter.name);
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
      return rows.map(certificateFromRow);
    },
  };
}

export type AndroidStore = ReturnType<typeof androidStore>;
