import type { Db } from '../db.js';
import { forUpdate } from '../db.js';
import type { Dispute } from '../records/checkout.js';

/** Disputes of the sandbox's test scenarios, by their next due time and by their payment. */
export function disputesStore(db: Db) {
  const { q } = db;
  const disputes = () => q.selectFrom('disputes').selectAll();
  return {
    /** Opens a dispute for a payment; a payment already disputed keeps its dispute (false). */
    insert: async (dispute: Dispute): Promise<boolean> => {
      const result = await q
        .insertInto('disputes')
        .values(dispute)
        .onConflict((c) => c.column('paymentPspReference').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    /** Disputes whose next event fell due by `now`, earliest first. */
    due: async (now: string, limit: number): Promise<Dispute[]> =>
      disputes().where('dueAt', 'is not', null).where('dueAt', '<=', now).orderBy('dueAt').limit(limit).execute(),
    /** Reads a dispute to move it on: locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: async (pspReference: string): Promise<Dispute | undefined> =>
      forUpdate(db, disputes().where('pspReference', '=', pspReference)).executeTakeFirst(),
    /** The payment's dispute, locked until the transaction ends: a flow started on demand decides on it. */
    ofPaymentForUpdate: async (paymentPspReference: string): Promise<Dispute | undefined> =>
      forUpdate(db, disputes().where('paymentPspReference', '=', paymentPspReference)).executeTakeFirst(),
    ofPayment: async (paymentPspReference: string): Promise<Dispute | undefined> =>
      disputes().where('paymentPspReference', '=', paymentPspReference).executeTakeFirst(),
    update: async (dispute: Dispute): Promise<void> => {
      const { pspReference, ...row } = dispute;
      await q.updateTable('disputes').set(row).where('pspReference', '=', pspReference).execute();
    },
  };
}

export type DisputesStore = ReturnType<typeof disputesStore>;
