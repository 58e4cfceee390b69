import type { Selectable } from 'kysely';
import type { Db } from '../db.js';
import type { Donation } from '../records/checkout.js';
import type { Donations } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const fromRow = (r: Selectable<Donations>): Donation => ({ ...r, status: r.status as Donation['status'] });

/** Donations, by the payment that charged them and by the payment whose token paid for them. */
export function donationsStore(db: Db) {
  const { q } = db;
  const donations = () => q.selectFrom('donations').selectAll();
  return {
    insert: async (donation: Donation): Promise<void> => void (await q.insertInto('donations').values(donation).execute()),
    /** The donation a payment's token already paid for, if any (read under the original payment's lock). */
    ofOriginalPayment: async (pspReference: string): Promise<Donation | undefined> => {
      const row = await donations().where('originalPspReference', '=', pspReference).executeTakeFirst();
      return row && fromRow(row);
    },
    /** The donation a payment charged, if the payment is one. */
    ofPayment: async (pspReference: string): Promise<Donation | undefined> => {
      const row = await donations().where('paymentPspReference', '=', pspReference).executeTakeFirst();
      return row && fromRow(row);
    },
  };
}

export type DonationsStore = ReturnType<typeof donationsStore>;
