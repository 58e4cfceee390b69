import { type Insertable, type Selectable, sql } from 'kysely';
import { flag, jsonText, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import { prepared, preparedInsert, preparedUpdate } from '../prepared.js';
import type { Modification, Payment } from '../records/checkout.js';
import type { Modifications, Payments } from '../schema.generated.js';

const fromRow = (r: Selectable<Payments>): Payment => ({
  pspReference: r.psp_reference,
  companyId: r.company_id,
  merchantAccount: r.merchant_account,
  reference: r.reference,
  currency: r.currency,
  authorisedValue: r.authorised_value,
  originalValue: r.original_value,
  capturedValue: r.captured_value,
  refundedValue: r.refunded_value,
  resultCode: r.result_code as Payment['resultCode'],
  refusalReason: r.refusal_reason,
  refusalReasonCode: r.refusal_reason_code,
  authCode: r.auth_code,
  cancelled: flag(r.cancelled),
  captureClosed: flag(r.capture_closed),
  autoCaptured: flag(r.auto_captured),
  captureDelayHours: r.capture_delay_hours,
  autoCaptureAt: r.auto_capture_at,
  multiplePartialCaptures: flag(r.multiple_partial_captures),
  cardBrand: r.card_brand,
  cardBin: r.card_bin,
  cardLastFour: r.card_last_four,
  expiryMonth: r.expiry_month,
  expiryYear: r.expiry_year,
  holderName: r.holder_name,
  shopperReference: r.shopper_reference,
  returnUrl: r.return_url,
  orderPspReference: r.order_psp_reference,
  detailsSubmitted: flag(r.details_submitted),
  paymentMethodType: r.payment_method_type,
  paymentData: r.payment_data,
  sessionId: r.session_id,
  paymentLinkId: r.payment_link_id,
  storedPaymentMethodId: r.stored_payment_method_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  methodState: parsed<Record<string, unknown>>(r.method_state),
  settleAt: r.settle_at,
});

const toRow = (p: Payment): Insertable<Payments> => ({
  psp_reference: p.pspReference,
  company_id: p.companyId,
  merchant_account: p.merchantAccount,
  reference: p.reference,
  currency: p.currency,
  authorised_value: p.authorisedValue,
  original_value: p.originalValue,
  captured_value: p.capturedValue,
  refunded_value: p.refundedValue,
  result_code: p.resultCode,
  refusal_reason: p.refusalReason,
  refusal_reason_code: p.refusalReasonCode,
  auth_code: p.authCode,
  cancelled: p.cancelled,
  capture_closed: p.captureClosed,
  auto_captured: p.autoCaptured,
  capture_delay_hours: p.captureDelayHours,
  auto_capture_at: p.autoCaptureAt,
  multiple_partial_captures: p.multiplePartialCaptures,
  card_brand: p.cardBrand,
  card_bin: p.cardBin,
  card_last_four: p.cardLastFour,
  expiry_month: p.expiryMonth,
  expiry_year: p.expiryYear,
  holder_name: p.holderName,
  shopper_reference: p.shopperReference,
  return_url: p.returnUrl,
  order_psp_reference: p.orderPspReference,
  details_submitted: p.detailsSubmitted,
  payment_method_type: p.paymentMethodType,
  payment_data: p.paymentData,
  session_id: p.sessionId,
  payment_link_id: p.paymentLinkId,
  stored_payment_method_id: p.storedPaymentMethodId,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  method_state: jsonText(p.methodState),
  settle_at: p.settleAt,
});

const modificationFromRow = (r: Selectable<Modifications>): Modification => ({
  pspReference: r.psp_reference,
  paymentPspReference: r.payment_psp_reference,
  merchantAccount: r.merchant_account,
  kind: r.kind as Modification['kind'],
  currency: r.currency,
  value: r.value,
  reference: r.reference,
  status: 'received',
  action: r.action as Modification['action'],
  createdAt: r.created_at,
});

const modificationToRow = (m: Modification): Insertable<Modifications> => ({
  psp_reference: m.pspReference,
  payment_psp_reference: m.paymentPspReference,
  merchant_account: m.merchantAccount,
  kind: m.kind,
  currency: m.currency,
  value: m.value,
  reference: m.reference,
  status: m.status,
  action: m.action,
  created_at: m.createdAt,
});

// The statements of every authorisation and modification: compiled once (see prepared.ts).
const insertRow = preparedInsert('payments');
const updateRow = preparedUpdate('payments', 'psp_reference');
const insertModificationRow = preparedInsert('modifications');
const byPsp = prepared((db, pspReference: string) => db.q.selectFrom('payments').selectAll().where('psp_reference', '=', pspReference));
const byPspForUpdate = prepared((db, pspReference: string) => forUpdate(db, db.q.selectFrom('payments').selectAll().where('psp_reference', '=', pspReference)));

/** Payments and their modifications (captures, refunds, cancels, reversals, amount updates). */
export function paymentsStore(db: Db) {
  const { q } = db;
  const payments = () => q.selectFrom('payments').selectAll();
  const one = async (query: ReturnType<typeof payments>) => {
    const row = await query.executeTakeFirst();
    return row && fromRow(row);
  };
  // Payments of an order or session in the order they were made (psp references break ties within a millisecond).
  const inOrder = (query: ReturnType<typeof payments>) => query.orderBy('created_at').orderBy('psp_reference');
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
          .where('merchant_account', '=', merchantAccount)
          .where('reference', '=', reference)
          .orderBy('created_at', 'desc')
          .orderBy('psp_reference', 'desc')
          .limit(1),
      ),
    byPaymentData: (paymentData: string) => one(payments().where('payment_data', '=', paymentData)),
    /**
     * An order's payments read to change them (cancelling or expiring the order unwinds them):
     * locked, in the order they were made, until the transaction ends.
     */
    ofOrderForUpdate: async (orderPspReference: string) =>
      (await forUpdate(db, inOrder(payments().where('order_psp_reference', '=', orderPspReference))).execute()).map(fromRow),
    ofSession: async (sessionId: string) => (await inOrder(payments().where('session_id', '=', sessionId)).execute()).map(fromRow),
    /**
     * Writes the payment. Given the payment as it was read (`before`), only the columns that differ
     * are written: a capture changes three of some forty, and a column left out of the statement
     * leaves the indexes that cover it untouched (in SQLite, the merchant reference's index entry
     * would otherwise be rewritten for every capture, another page for the commit to write), and a
     * column the change did not touch is not written back from what was read. Every writer of a
     * payment it read passes `before`.
     */
    update: async (payment: Payment, before?: Payment): Promise<void> => {
      const { psp_reference, ...row } = toRow(payment);
      if (!before) return updateRow(db, psp_reference, row);
      const was = toRow(before) as Record<string, unknown>;
      const changes = Object.fromEntries(Object.entries(row).filter(([column, value]) => value !== was[column]));
      if (Object.keys(changes).length > 0) await updateRow(db, psp_reference, changes);
    },
    /** Authorised payments whose automatic capture fell due by `now` and has not been applied. */
    dueAutoCaptures: async (now: string, limit: number) =>
      (
        await payments()
          .where('auto_capture_at', 'is not', null)
          .where('auto_capture_at', '<=', now)
          .where('capture_closed', '=', false)
          .where('result_code', '=', 'Authorised')
          .where('cancelled', '=', false)
          .orderBy('auto_capture_at')
          .limit(limit)
          .execute()
      ).map(fromRow),
    /** Payments whose method's next clock-driven step fell due by `now` (settling, expiring). */
    dueSettlements: async (now: string, limit: number) =>
      (await payments().where('settle_at', 'is not', null).where('settle_at', '<=', now).orderBy('settle_at').limit(limit).execute()).map(fromRow),
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
          .where('company_id', '=', companyId)
          .where('payment_method_type', '=', 'giftcard')
          .where('card_brand', '=', brand)
          .where('card_last_four', '=', lastFour)
          .where('result_code', '=', 'Authorised')
          .where('cancelled', '=', false),
      ).execute();
      return rows.reduce((sum, r) => sum + r.authorised_value - r.refunded_value, 0);
    },
    insertModification: async (modification: Modification): Promise<void> => void (await insertModificationRow(db, modificationToRow(modification))),
    modifications: async (paymentPspReference: string) =>
      (
        await q
          .selectFrom('modifications')
          .selectAll()
          .where('payment_psp_reference', '=', paymentPspReference)
          .orderBy('created_at')
          .orderBy('psp_reference')
          .execute()
      ).map(modificationFromRow),
  };
}

export type PaymentsStore = ReturnType<typeof paymentsStore>;
