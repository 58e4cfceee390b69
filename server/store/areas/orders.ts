import type { Insertable, Selectable } from 'kysely';
import { type Db, forUpdate } from '../db.js';
import type { Order } from '../records/checkout.js';
import type { Orders } from '../schema.generated.js';

const fromRow = (r: Selectable<Orders>): Order => ({
  pspReference: r.pspReference,
  companyId: r.companyId,
  merchantAccount: r.merchantAccount,
  reference: r.reference,
  currency: r.currency,
  value: r.value,
  remainingValue: r.remainingValue,
  orderData: r.orderData,
  expiresAt: r.expiresAt,
  status: r.status as Order['status'],
  createdAt: r.createdAt,
});

const toRow = (o: Order): Insertable<Orders> => ({
  pspReference: o.pspReference,
  companyId: o.companyId,
  merchantAccount: o.merchantAccount,
  reference: o.reference,
  currency: o.currency,
  value: o.value,
  remainingValue: o.remainingValue,
  orderData: o.orderData,
  expiresAt: o.expiresAt,
  status: o.status,
  createdAt: o.createdAt,
});

/** Orders: the partial payments that together pay one amount. */
export function ordersStore(db: Db) {
  const { q } = db;
  return {
    insert: async (order: Order): Promise<void> => void (await q.insertInto('orders').values(toRow(order)).execute()),
    /** Reads an order to change it: locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: async (pspReference: string): Promise<Order | undefined> => {
      const row = await forUpdate(db, q.selectFrom('orders').selectAll().where('pspReference', '=', pspReference)).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Open orders whose expiry passed by `now` (the dispatcher closes them). */
    dueExpiries: async (now: string, limit: number): Promise<Order[]> =>
      (await q.selectFrom('orders').selectAll().where('status', '=', 'open').where('expiresAt', '<=', now).orderBy('expiresAt').limit(limit).execute()).map(
        fromRow,
      ),
    /** Writes what changes about an order: its remaining value, status and expiry. */
    update: async (order: Order): Promise<void> =>
      void (await q
        .updateTable('orders')
        .set({ remainingValue: order.remainingValue, status: order.status, expiresAt: order.expiresAt })
        .where('pspReference', '=', order.pspReference)
        .execute()),
  };
}

export type OrdersStore = ReturnType<typeof ordersStore>;
