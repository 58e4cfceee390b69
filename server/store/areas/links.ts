import type { Insertable, Selectable } from 'kysely';
import { flag, jsonText, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import type { PaymentLink } from '../records/checkout.js';
import type { PaymentLinks } from '../schema.generated.js';

const fromRow = (r: Selectable<PaymentLinks>): PaymentLink => ({
  id: r.id,
  companyId: r.company_id,
  merchantAccount: r.merchant_account,
  reference: r.reference,
  fields: parsed<Record<string, unknown>>(r.fields),
  status: r.status as PaymentLink['status'],
  reusable: flag(r.reusable),
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toRow = (l: PaymentLink): Insertable<PaymentLinks> => ({
  id: l.id,
  company_id: l.companyId,
  merchant_account: l.merchantAccount,
  reference: l.reference,
  fields: jsonText(l.fields),
  status: l.status,
  reusable: l.reusable,
  expires_at: l.expiresAt,
  created_at: l.createdAt,
  updated_at: l.updatedAt,
});

/** Payment links (Pay by Link). */
export function linksStore(db: Db) {
  const { q } = db;
  const links = () => q.selectFrom('payment_links').selectAll();
  const one = async (query: ReturnType<typeof links>): Promise<PaymentLink | undefined> => {
    const row = await query.executeTakeFirst();
    return row && fromRow(row);
  };
  return {
    insert: async (link: PaymentLink): Promise<void> => void (await q.insertInto('payment_links').values(toRow(link)).execute()),
    get: (id: string) => one(links().where('id', '=', id)),
    /** Reads a link to change it (its status, usage limits): locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: (id: string) => one(forUpdate(db, links().where('id', '=', id))),
    /** Writes what changes about a link: its fields, status, reusability, expiry and update time. */
    update: async (link: PaymentLink): Promise<void> => {
      const { fields, status, reusable, expires_at, updated_at } = toRow(link);
      await q.updateTable('payment_links').set({ fields, status, reusable, expires_at, updated_at }).where('id', '=', link.id).execute();
    },
  };
}

export type LinksStore = ReturnType<typeof linksStore>;
