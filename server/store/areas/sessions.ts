import type { Insertable, Selectable } from 'kysely';
import { jsonText, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import type { CheckoutSession } from '../records/checkout.js';
import type { CheckoutSessions } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const fromRow = (r: Selectable<CheckoutSessions>): CheckoutSession => ({ ...r, fields: parsed<Record<string, unknown>>(r.fields) });

const toRow = (s: CheckoutSession): Insertable<CheckoutSessions> => ({ ...s, fields: jsonText(s.fields) });

/** Checkout sessions (their payments are read through payments.ofSession). */
export function sessionsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (session: CheckoutSession): Promise<void> => void (await q.insertInto('checkoutSessions').values(toRow(session)).execute()),
    get: async (id: string): Promise<CheckoutSession | undefined> => {
      const row = await q.selectFrom('checkoutSessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Reads a session to pay in it: locked until the transaction ends, so its payments are made one at a time (see db.ts forUpdate). */
    getForUpdate: async (id: string): Promise<CheckoutSession | undefined> => {
      const row = await forUpdate(db, q.selectFrom('checkoutSessions').selectAll().where('id', '=', id)).executeTakeFirst();
      return row && fromRow(row);
    },
  };
}

export type SessionsStore = ReturnType<typeof sessionsStore>;
