import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db.js';
import type { StoredPaymentMethod } from '../records/checkout.js';
import type { StoredPaymentMethods } from '../schema.generated.js';

const fromRow = (r: Selectable<StoredPaymentMethods>): StoredPaymentMethod => ({
  id: r.id,
  companyId: r.companyId,
  merchantAccount: r.merchantAccount,
  shopperReference: r.shopperReference,
  shopperEmail: r.shopperEmail,
  brand: r.brand,
  cardBin: r.cardBin,
  lastFour: r.lastFour,
  expiryMonth: r.expiryMonth,
  expiryYear: r.expiryYear,
  holderName: r.holderName,
  recurringProcessingModel: r.recurringProcessingModel as StoredPaymentMethod['recurringProcessingModel'],
  encryptedNumber: r.encryptedNumber,
  createdAt: r.createdAt,
});

const toRow = (t: StoredPaymentMethod): Insertable<StoredPaymentMethods> => ({
  id: t.id,
  companyId: t.companyId,
  merchantAccount: t.merchantAccount,
  shopperReference: t.shopperReference,
  shopperEmail: t.shopperEmail,
  brand: t.brand,
  cardBin: t.cardBin,
  lastFour: t.lastFour,
  expiryMonth: t.expiryMonth,
  expiryYear: t.expiryYear,
  holderName: t.holderName,
  recurringProcessingModel: t.recurringProcessingModel,
  encryptedNumber: t.encryptedNumber,
  createdAt: t.createdAt,
});

/** Stored payment methods (tokens) of shoppers. */
export function storedMethodsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (token: StoredPaymentMethod): Promise<void> => void (await q.insertInto('storedPaymentMethods').values(toRow(token)).execute()),
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
