import type { Insertable, Selectable } from 'kysely';
import { flag, jsonText, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import type { PaymentLink } from '../records/checkout.js';
import type { PaymentLinks } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const fromRow = (r: Selectable<PaymentLinks>): PaymentLink => ({
  ...r,
  fields: parsed<Record<string, unknown>>(r.fields),
  status: r.status as PaymentLink['status'],
  reusable: flag(r.reusable),
});

const toRow = (l: PaymentLink): Insertable<PaymentLinks> => ({ ...l, fields: jsonText(l.fields) });

/** Payment links (Pay by Link). */
export function linksStore(db: Db) {
  const { q } = db;
  const links = () => q.selectFrom('paymentLinks').selectAll();
  const one = async (query: ReturnType<typeof links>): Promise<PaymentLink | undefined> => {
    const row = await query.executeTakeFirst();
    return row && fromRow(row);
  };
  return {
    insert: async (link: PaymentLink): Promise<void> => void (await q.insertInto('paymentLinks').values(toRow(link)).execute()),
    get: (id: string) => one(links().where('id', '=', id)),
    /** Reads a link to change it (its status, usage limits): locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: (id: string) => one(forUpdate(db, links().where('id', '=', id))),
    /** Writes what changes about a link: its fields, status, reusability, expiry and update time. */
    update: async (link: PaymentLink): Promise<void> => {
      const { fields, status, reusable, expiresAt, updatedAt } = toRow(link);
      await q.updateTable('paymentLinks').set({ fields, status, reusable, expiresAt, updatedAt }).where('id', '=', link.id).execute();
    },
  };
}

export type LinksStore = ReturnType<typeof linksStore>;
