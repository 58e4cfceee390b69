import type { Selectable } from 'kysely';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { AndroidApp, AndroidAppListing, AndroidCertificate } from '../records/merchant-settings.js';
import type { AndroidApps, AndroidCertificates } from '../schema.generated.js';

/** The columns of the list page (AndroidAppListing): a list reads no file paths, sizes or times it does not show. */
const LISTING_COLUMNS = ['id', 'status', 'packageName', 'versionCode', 'versionName', 'label', 'description', 'errorCode'] as const;
type ListingRow = Pick<Selectable<AndroidApps>, (typeof LISTING_COLUMNS)[number]>;
// A row is the record (its columns are the record's fields, camelCase in code) but for the status's type.
const listingFromRow = (r: ListingRow): AndroidAppListing => ({ ...r, status: r.status as AndroidApp['status'] });
const appFromRow = (r: Selectable<AndroidApps>): AndroidApp => ({ ...r, status: r.status as AndroidApp['status'] });
/** The record's status is always 'ready' (its type allows no other). */
const certificateFromRow = (r: Selectable<AndroidCertificates>): AndroidCertificate => ({ ...r, status: 'ready' });

/** A page of a company's apps, newest first, with or without each filter: one compiled query per combination (see prepared.ts). */
const appPage = (byPackage: boolean, byVersion: boolean) =>
  prepared(({ q }, companyId: string, packageName: string, versionCode: number, limit: number, offset: number) => {
    // Newest first, in the order of the (companyId, createdAt desc, id desc) index: no sort.
    let query = q.selectFrom('androidApps').select(LISTING_COLUMNS).where('companyId', '=', companyId);
    if (byPackage) query = query.where('packageName', '=', packageName);
    if (byVersion) query = query.where('versionCode', '=', versionCode);
    return query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset);
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
  const apps = () => q.selectFrom('androidApps').selectAll();
  const certificates = () => q.selectFrom('androidCertificates').selectAll();
  return {
    insertApp: async (app: AndroidApp): Promise<void> => void (await q.insertInto('androidApps').values(app).execute()),
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
        .updateTable('androidApps')
        .set({
          status: app.status,
          packageName: app.packageName,
          versionCode: app.versionCode,
          versionName: app.versionName,
          label: app.label,
          errorCode: app.errorCode,
          updatedAt: app.updatedAt,
        })
        .where('id', '=', app.id)
        .execute();
    },
    /** The apps still being processed (across companies), oldest first. */
    processingApps: async (): Promise<AndroidApp[]> =>
      (await apps().where('status', '=', 'processing').orderBy('createdAt').orderBy('id').execute()).map(appFromRow),
    insertCertificate: async (certificate: AndroidCertificate): Promise<void> => void (await q.insertInto('androidCertificates').values(certificate).execute()),
    /** The company's certificates, newest first; the filter narrows them to a name. */
    listCertificates: async (companyId: string, filter: { name?: string }, offset: number, limit: number): Promise<AndroidCertificate[]> => {
      let query = certificates().where('companyId', '=', companyId);
      if (filter.name !== undefined) query = query.where('name', '=', filter.name);
      const rows = await query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
      return rows.map(certificateFromRow);
    },
  };
}

export type AndroidStore = ReturnType<typeof androidStore>;
