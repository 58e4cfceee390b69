import type { Insertable, Selectable } from 'kysely';
import { count, flag, paged } from '../codec.js';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { CaptureDelay, Company, Merchant } from '../records/accounts.js';
import type { Page } from '../records/page.js';
import type { Companies, Merchants } from '../schema.generated.js';

const companyFromRow = (r: Selectable<Companies>): Company => ({
  id: r.id,
  name: r.name,
  createdAt: r.createdAt,
  clockOffsetSeconds: r.clockOffsetSeconds,
});

/** A new company's clock runs on real time: the column's default (0) applies. */
const companyToRow = (c: Omit<Company, 'clockOffsetSeconds'>): Insertable<Companies> => ({
  id: c.id,
  name: c.name,
  createdAt: c.createdAt,
});

/** The capture delay is stored as text: 'immediate', 'manual' or a number of days in digits. */
const captureDelay = (text: string): CaptureDelay => (/^\d+$/.test(text) ? Number(text) : (text as 'immediate' | 'manual'));

const merchantFromRow = (r: Selectable<Merchants>): Merchant => ({
  id: r.id,
  companyId: r.companyId,
  name: r.name,
  description: r.description,
  reference: r.reference,
  status: r.status as Merchant['status'],
  captureDelay: captureDelay(r.captureDelay),
  multiplePartialCaptures: flag(r.multiplePartialCaptures),
  defaultShopperInteraction: r.defaultShopperInteraction,
  primarySettlementCurrency: r.primarySettlementCurrency,
  shopWebAddress: r.shopWebAddress,
  merchantCity: r.merchantCity,
  pricingPlan: r.pricingPlan,
  createdAt: r.createdAt,
});

const merchantToRow = (m: Merchant): Insertable<Merchants> => ({
  id: m.id,
  companyId: m.companyId,
  name: m.name,
  description: m.description,
  reference: m.reference,
  status: m.status,
  captureDelay: String(m.captureDelay),
  multiplePartialCaptures: m.multiplePartialCaptures,
  defaultShopperInteraction: m.defaultShopperInteraction,
  primarySettlementCurrency: m.primarySettlementCurrency,
  shopWebAddress: m.shopWebAddress,
  merchantCity: m.merchantCity,
  pricingPlan: m.pricingPlan,
  createdAt: m.createdAt,
});

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
    insert: async (company: Omit<Company, 'clockOffsetSeconds'>): Promise<void> =>
      void (await q.insertInto('companies').values(companyToRow(company)).execute()),
    get: async (id: string): Promise<Company | undefined> => {
      const row = await companyById.first(db, id);
      return row && companyFromRow(row);
    },
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
