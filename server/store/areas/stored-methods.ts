import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db.js';
import type { StoredPaymentMethod } from '../records/checkout.js';
import type { StoredPaymentMethods } from '../schema.generated.js';

const fromRow = (r: Selectable<StoredPaymentMethods>): StoredPaymentMethod => ({
  id: r.id,
  companyId: r.company_id,
  merchantAccount: r.merchant_account,
  shopperReference: r.shopper_reference,
  shopperEmail: r.shopper_email,
  brand: r.brand,
  cardBin: r.card_bin,
  lastFour: r.last_four,
  expiryMonth: r.expiry_month,
  expiryYear: r.expiry_year,
  holderName: r.holder_name,
  recurringProcessingModel: r.recurring_processing_model as StoredPaymentMethod['recurringProcessingModel'],
  encryptedNumber: r.encrypted_number,
  createdAt: r.created_at,
});

const toRow = (t: StoredPaymentMethod): Insertable<StoredPaymentMethods> => ({
  id: t.id,
  company_id: t.companyId,
  merchant_account: t.merchantAccount,
  shopper_reference: t.shopperReference,
  shopper_email: t.shopperEmail,
  brand: t.brand,
  card_bin: t.cardBin,
  last_four: t.lastFour,
  expiry_month: t.expiryMonth,
  expiry_year: t.expiryYear,
  holder_name: t.holderName,
  recurring_processing_model: t.recurringProcessingModel,
  encrypted_number: t.encryptedNumber,
  created_at: t.createdAt,
});

/** Stored payment methods (tokens) of shoppers. */
export function storedMethodsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (token: StoredPaymentMethod): Promise<void> => void (await q.insertInto('stored_payment_methods').values(toRow(token)).execute()),
    get: async (id: string): Promise<StoredPaymentMethod | undefined> => {
      const row = await q.selectFrom('stored_payment_methods').selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** The shopper's stored payment methods at the merchant account, in the order they were stored (ids break ties). */
    list: async (merchantAccount: string, shopperReference: string): Promise<StoredPaymentMethod[]> =>
      (
        await q
          .selectFrom('stored_payment_methods')
          .selectAll()
          .where('merchant_account', '=', merchantAccount)
          .where('shopper_reference', '=', shopperReference)
          .orderBy('created_at')
          .orderBy('id')
          .execute()
      ).map(fromRow),
    /** Deletes a token; false when it was already gone (another request deleted it first). */
    delete: async (id: string): Promise<boolean> => {
      const result = await q.deleteFrom('stored_payment_methods').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type StoredMethodsStore = ReturnType<typeof storedMethodsStore>;
