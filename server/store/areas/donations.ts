import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db.js';
import type { Donation } from '../records/checkout.js';
import type { Donations } from '../schema.generated.js';

const fromRow = (r: Selectable<Donations>): Donation => ({
  id: r.id,
  companyId: r.company_id,
  merchantAccount: r.merchant_account,
  campaignId: r.campaign_id,
  donationAccount: r.donation_account,
  paymentPspReference: r.payment_psp_reference,
  originalPspReference: r.original_psp_reference,
  reference: r.reference,
  currency: r.currency,
  value: r.value,
  status: r.status as Donation['status'],
  createdAt: r.created_at,
});

const toRow = (d: Donation): Insertable<Donations> => ({
  id: d.id,
  company_id: d.companyId,
  merchant_account: d.merchantAccount,
  campaign_id: d.campaignId,
  donation_account: d.donationAccount,
  payment_psp_reference: d.paymentPspReference,
  original_psp_reference: d.originalPspReference,
  reference: d.reference,
  currency: d.currency,
  value: d.value,
  status: d.status,
  created_at: d.createdAt,
});

/** Donations, by the payment that charged them and by the payment whose token paid for them. */
export function donationsStore(db: Db) {
  const { q } = db;
  const donations = () => q.selectFrom('donations').selectAll();
  return {
    insert: async (donation: Donation): Promise<void> => void (await q.insertInto('donations').values(toRow(donation)).execute()),
    /** The donation a payment's token already paid for, if any (read under the original payment's lock). */
    ofOriginalPayment: async (pspReference: string): Promise<Donation | undefined> => {
      const row = await donations().where('original_psp_reference', '=', pspReference).executeTakeFirst();
      return row && fromRow(row);
    },
    /** The donation a payment charged, if the payment is one. */
    ofPayment: async (pspReference: string): Promise<Donation | undefined> => {
      const row = await donations().where('payment_psp_reference', '=', pspReference).executeTakeFirst();
      return row && fromRow(row);
    },
  };
}

export type DonationsStore = ReturnType<typeof donationsStore>;
