import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db.js';
import type { Donation } from '../records/checkout.js';
import type { Donations } from '../schema.generated.js';

const fromRow = (r: Selectable<Donations>): Donation => ({
  id: r.id,
  companyId: r.companyId,
  merchantAccount: r.merchantAccount,
  campaignId: r.campaignId,
  donationAccount: r.donationAccount,
  paymentPspReference: r.paymentPspReference,
  originalPspReference: r.originalPspReference,
  reference: r.reference,
  currency: r.currency,
  value: r.value,
  status: r.status as Donation['status'],
  createdAt: r.createdAt,
});

const toRow = (d: Donation): Insertable<Donations> => ({
  id: d.id,
  companyId: d.companyId,
  merchantAccount: d.merchantAccount,
  campaignId: d.campaignId,
  donationAccount: d.donationAccount,
  paymentPspReference: d.paymentPspReference,
  originalPspReference: d.originalPspReference,
  reference: d.reference,
  currency: d.currency,
  value: d.value,
  status: d.status,
  createdAt: d.createdAt,
});

/** Donations, by the payment that charged them and by the payment whose token paid for them. */
export function donationsStore(db: Db) {
  const { q } = db;
  const donations = () => q.selectFrom('donations').selectAll();
  return {
    insert: async (donation: Donation): Promise<void> => void (await q.insertInto('donations').values(toRow(donation)).execute()),
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
