import type { Insertable, Selectable } from 'kysely';
import { type Db, forUpdate } from '../db.js';
import type { Order } from '../records/checkout.js';
import type { Orders } from '../schema.generated.js';

const fromRow = (r: Selectable<Orders>): Order => ({
  pspReference: r.psp_reference,
  companyId: r.company_id,
  merchantAccount: r.merchant_account,
  reference: r.reference,
  currency: r.currency,
  value: r.value,
  remainingValue: r.remaining_value,
  orderData: r.order_data,
  expiresAt: r.expires_at,
  status: r.status as Order['status'],
  createdAt: r.created_at,
});

const toRow = (o: Order): Insertable<Orders> => ({
  psp_reference: o.pspReference,
  company_id: o.companyId,
  merchant_account: o.merchantAccount,
  reference: o.reference,
  currency: o.currency,
  value: o.value,
  remaining_value: o.remainingValue,
  order_data: o.orderData,
  expires_at: o.expiresAt,
  status: o.status,
  created_at: o.createdAt,
});

/** Orders: the partial payments that together pay one amount. */
export function ordersStore(db: Db) {
  const { q } = db;
  return {
    insert: async (order: Order): Promise<void> => void (await q.insertInto('orders').values(toRow(order)).execute()),
    /** Reads an order to change it: locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: async (pspReference: string): Promise<Order | undefined> => {
      const row = await forUpdate(db, q.selectFrom('orders').selectAll().where('psp_reference', '=', pspReference)).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Open orders whose expiry passed by `now` (the dispatcher closes them). */
    dueExpiries: async (now: string, limit: number): Promise<Order[]> =>
      (await q.selectFrom('orders').selectAll().where('status', '=', 'open').where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute()).map(
        fromRow,
      ),
    /** Writes what changes about an order: its remaining value, status and expiry. */
    update: async (order: Order): Promise<void> =>
      void (await q
        .updateTable('orders')
        .set({ remaining_value: order.remainingValue, status: order.status, expires_at: order.expiresAt })
        .where('psp_reference', '=', order.pspReference)
        .execute()),
  };
}

export type OrdersStore = ReturnType<typeof ordersStore>;
