import type { Insertable, Selectable } from 'kysely';
import { count, flag, paged } from '../codec.js';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { CaptureDelay, Company, Merchant } from '../records/accounts.js';
import type { Page } from '../records/page.js';
import type { Merchants } from '../schema.generated.js';

// A company's row is its record (columns are the record's fields, camelCase in code); a new
// company's clock runs on real time: the column's default (0) applies.

/** The capture delay is stored as text: 'immediate', 'manual' or a number of days in digits. */
const captureDelay = (text: string): CaptureDelay => (/^\d+$/.test(text) ? Number(text) : (text as 'immediate' | 'manual'));

// A merchant's row is its record but for the capture delay (text) and the flag (0/1 on SQLite).
const merchantFromRow = (r: Selectable<Merchants>): Merchant => ({
  ...r,
  status: r.status as Merchant['status'],
  captureDelay: captureDelay(r.captureDelay),
  multiplePartialCaptures: flag(r.multiplePartialCaptures),
});

const merchantToRow = (m: Merchant): Insertable<Merchants> => ({ ...m, captureDelay: String(m.captureDelay) });

// Read on every request (scope checks, the sandbox clock): compiled once (see prepared.ts).
const companyById = prepared(({ q }, id: string) => q.selectFrom('companies').selectAll().where('id', '=', id));
const clockOffsets = prepared(({ q }) => q.selectFrom('companies').select(['id', 'clockOffsetSeconds']).orderBy('id'));
const merchantById = prepared(({ q }, id: string) => q.selectFrom('merchants').selectAll().where('id', '=', id));

/** The server's own key/value settings. */
export function settingsStore(db: Db) {
  const { q } = db;
  return {
    get: async (key: string): Promise<string | undefined> => (await q.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value,
    /** Sets the value of `key`, replacing any value it had. */
    put: async (key: string, value: string): Promise<void> =>
      void (await q
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute()),
    delete: async (key: string): Promise<void> => void (await q.deleteFrom('settings').where('key', '=', key).execute()),
  };
}

export type SettingsStore = ReturnType<typeof settingsStore>;

/** Companies (the tenants) and their sandbox clocks. */
export function companiesStore(db: Db) {
  const { q } = db;
  return {
    insert: async (company: Omit<Company, 'clockOffsetSeconds'>): Promise<void> => void (await q.insertInto('companies').values(company).execute()),
    get: (id: string): Promise<Company | undefined> => companyById.first(db, id),
    count: async (): Promise<number> =>
      count(
        (
          await q
            .selectFrom('companies')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n,
      ),
    /**
     * Moves the company's sandbox clock `seconds` forward in one statement, relative to the stored
     * offset: of two advances at once (on any instances) each counts, none overwrites the other.
     * Returns the new offset, or undefined for an unknown company.
     */
    advanceClock: async (companyId: string, seconds: number): Promise<number | undefined> =>
      (
        await q
          .updateTable('companies')
          .set((eb) => ({ clockOffsetSeconds: eb('clockOffsetSeconds', '+', seconds) }))
          .where('id', '=', companyId)
          .returning('clockOffsetSeconds')
          .executeTakeFirst()
      )?.clockOffsetSeconds,
    /** Every company's sandbox clock offset (companies are few). */
    clockOffsets: async (): Promise<Array<{ companyId: string; offsetSeconds: number }>> =>
      (await clockOffsets.all(db)).map((r) => ({
        companyId: r.id,
        offsetSeconds: r.clockOffsetSeconds,
      })),
  };
}

export type CompaniesStore = ReturnType<typeof companiesStore>;

/** Merchant accounts of the companies. */
export function merchantsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (merchant: Merchant): Promise<void> => void (await q.insertInto('merchants').values(merchantToRow(merchant)).execute()),
    get: async (id: string): Promise<Merchant | undefined> => {
      const row = await merchantById.first(db, id);
      return row && merchantFromRow(row);
    },
    /** Merchants of a company, by id; `only` limits them to the given ids. */
    list: async (companyId: string, offset: number, limit: number, only?: string[]): Promise<Page<Merchant>> => {
      // IN () is not valid SQL everywhere: limited to no ids, there is nothing to read.
      if (only?.length === 0) return { items: [], total: 0 };
      const scope = () => {
        const ofCompany = q.selectFrom('merchants').where('companyId', '=', companyId);
        return only ? ofCompany.where('id', 'in', only) : ofCompany;
      };
      return paged(
        scope().select((eb) => eb.fn.countAll().as('n')),
        scope().selectAll().orderBy('id').limit(limit).offset(offset),
        merchantFromRow,
      );
    },
  };
}

export type MerchantsStore = ReturnType<typeof merchantsStore>;
