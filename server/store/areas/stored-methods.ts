import type { Selectable } from 'kysely';
import type { Db } from '../db.js';
import type { StoredPaymentMethod } from '../records/checkout.js';
import type { StoredPaymentMethods } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const fromRow = (r: Selectable<StoredPaymentMethods>): StoredPaymentMethod => ({
  ...r,
  recurringProcessingModel: r.recurringProcessingModel as StoredPaymentMethod['recurringProcessingModel'],
});

/** Stored payment methods (tokens) of shoppers. */
export function storedMethodsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (token: StoredPaymentMethod): Promise<void> => void (await q.insertInto('storedPaymentMethods').values(token).execute()),
    get: async (id: string): Promise<StoredPaymentMethod | undefined> => {
      const row = await q.selectFrom('storedPaymentMethods').selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** The shopper's stored payment methods at the merchant account, in the order they were stored (ids break ties). */
    list: async (merchantAccount: string, shopperReference: string): Promise<StoredPaymentMethod[]> =>
      (
        await q
          .selectFrom('storedPaymentMethods')
          .selectAll()
          .where('merchantAccount', '=', merchantAccount)
          .where('shopperReference', '=', shopperReference)
          .orderBy('createdAt')
          .orderBy('id')
          .execute()
      ).map(fromRow),
    /** Deletes a token; false when it was already gone (another request deleted it first). */
    delete: async (id: string): Promise<boolean> => {
      const result = await q.deleteFrom('storedPaymentMethods').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type StoredMethodsStore = ReturnType<typeof storedMethodsStore>;
