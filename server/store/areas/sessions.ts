import type { Insertable, Selectable } from 'kysely';
import { jsonText, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import type { CheckoutSession } from '../records/checkout.js';
import type { CheckoutSessions } from '../schema.generated.js';

const fromRow = (r: Selectable<CheckoutSessions>): CheckoutSession => ({
  id: r.id,
  companyId: r.company_id,
  merchantAccount: r.merchant_account,
  reference: r.reference,
  fields: parsed<Record<string, unknown>>(r.fields),
  sessionData: r.session_data,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

const toRow = (s: CheckoutSession): Insertable<CheckoutSessions> => ({
  id: s.id,
  company_id: s.companyId,
  merchant_account: s.merchantAccount,
  reference: s.reference,
  fields: jsonText(s.fields),
  session_data: s.sessionData,
  expires_at: s.expiresAt,
  created_at: s.createdAt,
});

/** Checkout sessions (their payments are read through payments.ofSession). */
export function sessionsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (session: CheckoutSession): Promise<void> => void (await q.insertInto('checkout_sessions').values(toRow(session)).execute()),
    get: async (id: string): Promise<CheckoutSession | undefined> => {
      const row = await q.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Reads a session to pay in it: locked until the transaction ends, so its payments are made one at a time (see db.ts forUpdate). */
    getForUpdate: async (id: string): Promise<CheckoutSession | undefined> => {
      const row = await forUpdate(db, q.selectFrom('checkout_sessions').selectAll().where('id', '=', id)).executeTakeFirst();
      return row && fromRow(row);
    },
  };
}

export type SessionsStore = ReturnType<typeof sessionsStore>;
