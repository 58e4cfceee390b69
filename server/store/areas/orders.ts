import type { Selectable } from 'kysely';
import { type Db, forUpdate } from '../db.js';
import type { Order } from '../records/checkout.js';
import type { Orders } from '../schema.generated.js';

// A row is the order (its columns are the record's fields, camelCase in code), but for the status's type.
const fromRow = (r: Selectable<Orders>): Order => ({ ...r, status: r.status as Order['status'] });

/** Orders: the partial payments that together pay one amount. */
export function ordersStore(db: Db) {
  const { q } = db;
  return {
    insert: async (order: Order): Promise<void> => void (await q.insertInto('orders').values(order).execute()),
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
