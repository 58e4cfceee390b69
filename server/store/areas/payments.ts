import { type Insertable, type Selectable, sql } from 'kysely';
import { flag, jsonText, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import { prepared, preparedInsert, preparedUpdate } from '../prepared.js';
import type { Modification, Payment } from '../records/checkout.js';
import type { Modifications, Payments } from '../schema.generated.js';

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const fromRow = (r: Selectable<Payments>): Payment => ({
  ...r,
  resultCode: r.resultCode as Payment['resultCode'],
  cancelled: flag(r.cancelled),
  captureClosed: flag(r.captureClosed),
  autoCaptured: flag(r.autoCaptured),
  multiplePartialCaptures: flag(r.multiplePartialCaptures),
  detailsSubmitted: flag(r.detailsSubmitted),
  methodState: parsed<Record<string, unknown>>(r.methodState),
});

const toRow = (p: Payment): Insertable<Payments> => ({
  pspReference: p.pspReference,
  companyId: p.companyId,
  merchantAccount: p.merchantAccount,
  reference: p.reference,
  currency: p.currency,
  authorisedValue: p.authorisedValue,
  originalValue: p.originalValue,
  capturedValue: p.capturedValue,
  refundedValue: p.refundedValue,
  chargedBackValue: p.chargedBackValue,
  resultCode: p.resultCode,
  refusalReason: p.refusalReason,
  refusalReasonCode: p.refusalReasonCode,
  authCode: p.authCode,
  cancelled: p.cancelled,
  captureClosed: p.captureClosed,
  autoCaptured: p.autoCaptured,
  captureDelayHours: p.captureDelayHours,
  autoCaptureAt: p.autoCaptureAt,
  multiplePartialCaptures: p.multiplePartialCaptures,
  cardBrand: p.cardBrand,
  cardBin: p.cardBin,
  cardLastFour: p.cardLastFour,
  expiryMonth: p.expiryMonth,
  expiryYear: p.expiryYear,
  holderName: p.holderName,
  shopperReference: p.shopperReference,
  returnUrl: p.returnUrl,
  orderPspReference: p.orderPspReference,
  detailsSubmitted: p.detailsSubmitted,
  paymentMethodType: p.paymentMethodType,
  paymentData: p.paymentData,
  sessionId: p.sessionId,
  paymentLinkId: p.paymentLinkId,
  storedPaymentMethodId: p.storedPaymentMethodId,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
  methodState: jsonText(p.methodState),
  settleAt: p.settleAt,
});

// A row is the record (its columns are the record's fields, camelCase in code) but for what changes shape.
const modificationFromRow = (r: Selectable<Modifications>): Modification => ({
  ...r,
  kind: r.kind as Modification['kind'],
  status: r.status as Modification['status'],
  action: r.action as Modification['action'],
});

const modificationToRow = (m: Modification): Insertable<Modifications> => ({
  pspReference: m.pspReference,
  paymentPspReference: m.paymentPspReference,
  merchantAccount: m.merchantAccount,
  kind: m.kind,
  currency: m.currency,
  value: m.value,
  reference: m.reference,
  status: m.status,
  action: m.action,
  createdAt: m.createdAt,
});

// The statements of every authorisation and modification: compiled once (see prepared.ts).
const insertRow = preparedInsert('payments');
const updateRow = preparedUpdate('payments', 'pspReference');
const insertModificationRow = preparedInsert('modifications');
const byPsp = prepared((db, pspReference: string) => db.q.selectFrom('payments').selectAll().where('pspReference', '=', pspReference));
const byPspForUpdate = prepared((db, pspReference: string) => forUpdate(db, db.q.selectFrom('payments').selectAll().where('pspReference', '=', pspReference)));

/** Payments and their modifications (captures, refunds, cancels, reversals, amount updates). */
export function paymentsStore(db: Db) {
  const { q } = db;
  const payments = () => q.selectFrom('payments').selectAll();
  const one = async (query: ReturnType<typeof payments>) => {
    const row = await query.executeTakeFirst();
    return row && fromRow(row);
  };
  // Payments of an order or session in the order they were made (psp references break ties within a millisecond).
  const inOrder = (query: ReturnType<typeof payments>) => query.orderBy('createdAt').orderBy('pspReference');
  return {
    insert: async (payment: Payment): Promise<void> => void (await insertRow(db, toRow(payment))),
    get: async (pspReference: string) => {
      const row = await byPsp.first(db, pspReference);
      return row && fromRow(row);
    },
    /** Reads a payment to change it: locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: async (pspReference: string) => {
      const row = await byPspForUpdate.first(db, pspReference);
      return row && fromRow(row);
    },
    /** The most recent payment of the merchant account with that merchant reference. */
    latestByReference: (merchantAccount: string, reference: string) =>
      one(
        payments()
          .where('merchantAccount', '=', merchantAccount)
          .where('reference', '=', reference)
          .orderBy('createdAt', 'desc')
          .orderBy('pspReference', 'desc')
          .limit(1),
      ),
    byPaymentData: (paymentData: string) => one(payments().where('paymentData', '=', paymentData)),
    /**
     * An order's payments read to change them (cancelling or expiring the order unwinds them):
     * locked, in the order they were made, until the transaction ends.
     */
    ofOrderForUpdate: async (orderPspReference: string) =>
      (await forUpdate(db, inOrder(payments().where('orderPspReference', '=', orderPspReference))).execute()).map(fromRow),
    ofSession: async (sessionId: string) => (await inOrder(payments().where('sessionId', '=', sessionId)).execute()).map(fromRow),
    /**
     * Writes the payment. Given the payment as it was read (`before`), only the columns that differ
     * are written: a capture changes three of some forty, and a column left out of the statement
     * leaves the indexes that cover it untouched (in SQLite, the merchant reference's index entry
     * would otherwise be rewritten for every capture, another page for the commit to write), and a
     * column the change did not touch is not written back from what was read. Every writer of a
     * payment it read passes `before`.
     */
    update: async (payment: Payment, before?: Payment): Promise<void> => {
      const { pspReference, ...row } = toRow(payment);
      if (!before) return updateRow(db, pspReference, row);
      const was = toRow(before) as Record<string, unknown>;
      const changes = Object.fromEntries(Object.entries(row).filter(([column, value]) => value !== was[column]));
      if (Object.keys(changes).length > 0) await updateRow(db, pspReference, changes);
    },
    /** Authorised payments whose automatic capture fell due by `now` and has not been applied. */
    dueAutoCaptures: async (now: string, limit: number) =>
      (
        await payments()
          .where('autoCaptureAt', 'is not', null)
          .where('autoCaptureAt', '<=', now)
          .where('captureClosed', '=', false)
          .where('resultCode', '=', 'Authorised')
          .where('cancelled', '=', false)
          .orderBy('autoCaptureAt')
          .limit(limit)
          .execute()
      ).map(fromRow),
    /** Payments whose method's next clock-driven step fell due by `now` (settling, expiring). */
    dueSettlements: async (now: string, limit: number) =>
      (await payments().where('settleAt', 'is not', null).where('settleAt', '<=', now).orderBy('settleAt').limit(limit).execute()).map(fromRow),
    /**
     * What payments of a sandbox gift card have taken from its balance: authorised and not
     * cancelled, less what was refunded (the card is known by brand and last four digits).
     */
    giftCardSpent: async (companyId: string, brand: string, lastFour: string): Promise<number> => {
      // Locked: a concurrent payment with the same card waits here, then sees this one's spending.
      // Row locks alone cannot cover a card's first payment (there is no row yet), so on
      // PostgreSQL the card itself is locked for the transaction (SQLite has one writer).
      if (db.engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`giftcard ${companyId} ${brand} ${lastFour}`}, 0))`.execute(q);
      const rows = await forUpdate(
        db,
        payments()
          .where('companyId', '=', companyId)
          .where('paymentMethodType', '=', 'giftcard')
          .where('cardBrand', '=', brand)
          .where('cardLastFour', '=', lastFour)
          .where('resultCode', '=', 'Authorised')
          .where('cancelled', '=', false),
      ).execute();
      return rows.reduce((sum, r) => sum + r.authorisedValue - r.refundedValue, 0);
    },
    insertModification: async (modification: Modification): Promise<void> => void (await insertModificationRow(db, modificationToRow(modification))),
    /** A modification read to fail it: locked until the transaction ends. */
    modificationForUpdate: async (pspReference: string) => {
      const row = await forUpdate(db, q.selectFrom('modifications').selectAll().where('pspReference', '=', pspReference)).executeTakeFirst();
      return row && modificationFromRow(row);
    },
    /** The latest modification of a kind of the payment that has not failed, read to fail it: locked until the transaction ends. */
    latestModificationForUpdate: async (paymentPspReference: string, kind: Modification['kind']) => {
      const row = await forUpdate(
        db,
        q
          .selectFrom('modifications')
          .selectAll()
          .where('paymentPspReference', '=', paymentPspReference)
          .where('kind', '=', kind)
          .where('status', '=', 'received')
          .orderBy('createdAt', 'desc')
          .orderBy('pspReference', 'desc')
          .limit(1),
      ).executeTakeFirst();
      return row && modificationFromRow(row);
    },
    markModificationFailed: async (pspReference: string): Promise<void> =>
      void (await q.updateTable('modifications').set({ status: 'failed' }).where('pspReference', '=', pspReference).execute()),
    modifications: async (paymentPspReference: string) =>
      (
        await q
          .selectFrom('modifications')
          .selectAll()
          .where('paymentPspReference', '=', paymentPspReference)
          .orderBy('createdAt')
          .orderBy('pspReference')
          .execute()
      ).map(modificationFromRow),
  };
}

export type PaymentsStore = ReturnType<typeof paymentsStore>;
