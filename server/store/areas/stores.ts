import type { Insertable, Selectable } from 'kysely';
import { jsonText, paged, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import type { StoreAddress, StoreDetails, StoreLocation, StoreStatus } from '../records/merchant-settings.js';
import type { Page } from '../records/page.js';
import type { Stores } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const storeFromRow = (r: Selectable<Stores>): StoreLocation => ({
  ...r,
  address: parsed<StoreAddress>(r.address),
  status: r.status as StoreStatus,
  details: parsed<StoreDetails>(r.details),
});

const storeToRow = (s: StoreLocation): Insertable<Stores> => ({
  id: s.id,
  merchantId: s.merchantId,
  reference: s.reference,
  description: s.description,
  shopperStatement: s.shopperStatement,
  phoneNumber: s.phoneNumber,
  address: jsonText(s.address),
  status: s.status,
  details: jsonText(s.details),
});

/** Which stores a list reads: those of the company's merchant accounts, narrowed. */
export interface StoreFilter {
  companyId: string;
  /** Only these merchant accounts (the credential's reach, or the one asked for); undefined: every one of the company. */
  merchantIds?: string[];
  reference?: string;
}

/** Stores: the physical locations of merchant accounts, where their terminals are. */
export function storesStore(db: Db) {
  const { q } = db;
  const stores = () => q.selectFrom('stores').selectAll();
  const one = async (query: ReturnType<typeof stores>): Promise<StoreLocation | undefined> => {
    const row = await query.executeTakeFirst();
    return row && storeFromRow(row);
  };
  return {
    insert: async (store: StoreLocation): Promise<void> => void (await q.insertInto('stores').values(storeToRow(store)).execute()),
    get: (id: string) => one(stores().where('id', '=', id)),
    /** Reads a store to change it (its status decides what may follow): locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: (id: string) => one(forUpdate(db, stores().where('id', '=', id))),
    byReference: (merchantId: string, reference: string) => one(stores().where('merchantId', '=', merchantId).where('reference', '=', reference)),
    /** Writes every field of a store but its identifier and merchant account. */
    update: async (store: StoreLocation): Promise<void> => {
      const { id: _id, merchantId: _merchant, ...fields } = storeToRow(store);
      await q.updateTable('stores').set(fields).where('id', '=', store.id).execute();
    },
    /** A page of stores by identifier. */
    list: async (filter: StoreFilter, offset: number, limit: number): Promise<Page<StoreLocation>> => {
      // IN () is not valid SQL everywhere: limited to no merchant accounts, there is nothing to read.
      if (filter.merchantIds?.length === 0) return { items: [], total: 0 };
      const scope = () => {
        let query = q.selectFrom('stores').innerJoin('merchants', 'merchants.id', 'stores.merchantId').where('merchants.companyId', '=', filter.companyId);
        if (filter.merchantIds) query = query.where('stores.merchantId', 'in', filter.merchantIds);
        if (filter.reference !== undefined) query = query.where('stores.reference', '=', filter.reference);
        return query;
      };
      return paged(
        scope().select((eb) => eb.fn.countAll().as('n')),
        scope().selectAll('stores').orderBy('stores.id').limit(limit).offset(offset),
        storeFromRow,
      );
    },
  };
}

export type StoresStore = ReturnType<typeof storesStore>;
