import { randomBytes } from 'node:crypto';
import type { components } from '../../../generated/checkout.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { recordEvent } from '../../kernel/events/outbox.js';
import { ApiError } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { Merchant, Order, Payment, StoredPaymentMethod } from '../../store/types.js';
import { type Store, together, type Tx } from '../../store/tx.js';
import { chargeOrder } from '../orders/orders.domain.js';
import { recordLinkPayment } from '../links/payment-links.domain.js';
import { recordModification } from '../modifications/modification-record.js';
import { newAuthCode, newPspReference } from '../references.js';
import type { Refusal } from './cards.js';

/**
 * What every payment method shares, whatever its flow: a new payment, the two final results
 * (authorise, refuse), the AUTHORISATION event, automatic capture, and booking on an order.
 * The methods (methods/*.ts) decide when; this module decides what a result means.
 */

const HOUR_MS = 60 * 60 * 1000;

type PaymentRequest = components['schemas']['PaymentRequest'];

/** The request's `paymentMethod`, one of the spec's method schemas: each flow checks the fields it needs. */
export type PaymentMethodInput = PaymentRequest['paymentMethod'];

/**
 * The payment request's fields the domain reads, as the spec types them; the rest of the request
 * is accepted and not used. Sessions and payment links make payments with the same fields.
 */
export type PaymentInput = Pick<
  PaymentRequest,
  | 'merchantAccount'
  | 'reference'
  | 'returnUrl'
  | 'amount'
  | 'paymentMethod'
  | 'captureDelayHours'
  | 'additionalData'
  | 'order'
  | 'shopperReference'
  | 'shopperEmail'
  | 'storePaymentMethod'
  | 'recurringProcessingModel'
  // Fields some methods need (Klarna's items, Boleto's shopper, 3D Secure's choice).
  | 'lineItems'
  | 'shopperName'
  | 'socialSecurityNumber'
  | 'billingAddress'
  | 'countryCode'
  | 'shopperLocale'
  | 'authenticationData'
> &
  PaymentOrigin;

/** Internal, never read from a request: set when the payment is made in a checkout session or through a payment link. */
interface PaymentOrigin {
  sessionId?: string;
  paymentLinkId?: string;
}

export interface PaymentContext {
  tx: Tx;
  now: Date;
  vault: CardVault;
}

/** A payment and what it touched: its order as it stands after the payment, a token it created. */
export interface PaymentOutcome {
  payment: Payment;
  order: Order | undefined;
  token?: StoredPaymentMethod;
}

/** Hours until automatic capture: the request's, else the merchant account's; null means manual capture. */
function captureDelayHours(merchant: Merchant, input: PaymentInput): number | null {
  if (input.additionalData?.manualCapture === 'true') return null;
  if (input.captureDelayHours !== undefined) return input.captureDelayHours;
  if (merchant.captureDelay === 'manual') return null;
  if (merchant.captureDelay === 'immediate') return 0;
  return merchant.captureDelay * 24;
}

/** A payment as it stands before its method decided anything (RedirectShopper until told otherwise). */
export function newPayment(merchant: Merchant, input: PaymentInput, now: Date, paymentMethodType: string): Payment {
  return {
    pspReference: newPspReference(),
    companyId: merchant.companyId,
    merchantAccount: merchant.id,
    reference: input.reference,
    currency: input.amount.currency,
    authorisedValue: input.amount.value,
    originalValue: input.amount.value,
    capturedValue: 0,
    refundedValue: 0,
    chargedBackValue: 0,
    resultCode: 'RedirectShopper',
    refusalReason: null,
    refusalReasonCode: null,
    authCode: null,
    cancelled: false,
    captureClosed: false,
    autoCaptured: false,
    captureDelayHours: captureDelayHours(merchant, input),
    autoCaptureAt: null,
    multiplePartialCaptures: merchant.multiplePartialCaptures,
    cardBrand: '',
    cardBin: '',
    cardLastFour: '',
    expiryMonth: '',
    expiryYear: '',
    holderName: null,
    shopperReference: input.shopperReference ?? null,
    returnUrl: input.returnUrl,
    orderPspReference: input.order?.pspReference ?? null,
    detailsSubmitted: false,
    paymentMethodType,
    paymentData: null,
    sessionId: input.sessionId ?? null,
    paymentLinkId: input.paymentLinkId ?? null,
    storedPaymentMethodId: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    methodState: {},
    settleAt: null,
  };
}

/** A fresh opaque paymentData: a pending payment is found by it, and it changes on every update. */
export const newPaymentData = () => `Ab02b4c0!${randomBytes(24).toString('base64url')}`;

/** The payment becomes Authorised; a capture delay that has already passed captures it at once. */
export function authorise(payment: Payment, now: Date): Payment {
  const authorised: Payment = {
    ...payment,
    resultCode: 'Authorised',
    authCode: newAuthCode(),
    paymentData: null,
    settleAt: null,
    updatedAt: now.toISOString(),
  };
  if (authorised.captureDelayHours !== null) {
    authorised.autoCaptureAt = new Date(now.getTime() + authorised.captureDelayHours * HOUR_MS).toISOString();
  }
  return settleAutoCapture(authorised, now);
}

/**
 * The payment failed: Refused, or Error / Cancelled where Adyen's test table says so
 * (test-results.ts). All three are final and reported as an AUTHORISATION event with success
 * false and the refusal reason; a raw acquirer response the request asked for is kept for the
 * response's `refusalReasonRaw`.
 */
export function refuse(payment: Payment, refusal: Refusal, now: Date): Payment {
  return {
    ...payment,
    resultCode: refusal.resultCode ?? 'Refused',
    refusalReason: refusal.reason,
    refusalReasonCode: refusal.code,
    paymentData: null,
    settleAt: null,
    updatedAt: now.toISOString(),
    ...(refusal.raw !== undefined && { methodState: { ...payment.methodState, refusalReasonRaw: refusal.raw } }),
  };
}

/**
 * Applies an automatic capture that has fallen due: the whole authorised amount is captured.
 * Called whenever a payment is read for a change, so the clock, not a timer, drives it.
 */
export function settleAutoCapture(payment: Payment, now: Date): Payment {
  const due = payment.autoCaptureAt !== null && Date.parse(payment.autoCaptureAt) <= now.getTime();
  if (!due || payment.resultCode !== 'Authorised' || payment.cancelled || payment.captureClosed) return payment;
  return { ...payment, capturedValue: payment.authorisedValue, captureClosed: true, autoCaptured: true, updatedAt: now.toISOString() };
}

/** Records the capture that an automatic capture made: a modification and its CAPTURE event. */
async function reportAutoCapture(tx: Tx, now: Date, payment: Payment): Promise<void> {
  const captured = { currency: payment.currency, value: payment.capturedValue };
  await recordModification(tx, now, payment, {
    kind: 'capture',
    amount: captured,
    reported: captured,
    reports: [{ eventCode: 'CAPTURE', success: true }],
    additionalData: { 'modification.automatic': 'true' },
  });
}

/**
 * The dispatcher's due work for checkout: applies the automatic captures that fell due on each
 * company's clock. Looked up on the read connection first: an idle round takes no write
 * transaction.
 */
export async function settleDueCaptures(store: Store, clock: Clock): Promise<void> {
  const horizon = clock.latest().toISOString();
  const isDue = (p: Payment) => p.autoCaptureAt !== null && p.autoCaptureAt <= clock.now(p.companyId).toISOString();
  if (!(await store.read((tx) => tx.payments.dueAutoCaptures(horizon, 100))).some(isDue)) return;
  await store.transaction(async (tx) => {
    for (const due of (await tx.payments.dueAutoCaptures(horizon, 100)).filter(isDue)) {
      // Read again, locked: another instance's dispatcher (or a request) may have settled it meanwhile.
      const payment = await tx.payments.getForUpdate(due.pspReference);
      if (payment && isDue(payment)) await settleDueCapture(tx, clock.now(payment.companyId), payment);
    }
  });
}

/**
 * Applies and records an automatic capture that has fallen due (the dispatcher's tick and every
 * change to a payment call it), so the clock, not a timer per payment, drives delayed captures.
 */
export async function settleDueCapture(tx: Tx, now: Date, payment: Payment): Promise<Payment> {
  const settled = settleAutoCapture(payment, now);
  if (settled === payment) return payment;
  await tx.payments.update(settled, payment);
  await reportAutoCapture(tx, now, settled);
  return settled;
}

/** The card fields of an AUTHORISATION event, for payments made with a card (or a wallet's card). */
function cardFields(payment: Payment): Record<string, string> {
  if (!payment.cardLastFour) return {};
  return payment.expiryMonth
    ? { cardSummary: payment.cardLastFour, expiryDate: `${payment.expiryMonth}/${payment.expiryYear}` }
    : { cardSummary: payment.cardLastFour };
}

/** What the AUTHORISATION event names as the payment method: the card brand, else the method. */
export const reportedMethod = (payment: Payment): string => payment.cardBrand || payment.paymentMethodType;

/**
 * A payment offer that ended unfinished (a redirect abandoned, a voucher unpaid, a QR code not
 * scanned, before its expiry): Cancelled, reported as OFFER_CLOSED rather than AUTHORISATION.
 */
export function closeOffer(payment: Payment, now: Date): Payment {
  return {
    ...payment,
    resultCode: 'Cancelled',
    paymentData: null,
    settleAt: null,
    methodState: { ...payment.methodState, offerClosed: true },
    updatedAt: now.toISOString(),
  };
}

/** The shopper cancelled at the method's page: a final result, reported as a failed AUTHORISATION. */
export function cancelByShopper(payment: Payment, now: Date): Payment {
  return { ...payment, resultCode: 'Cancelled', refusalReason: 'Cancelled', paymentData: null, settleAt: null, updatedAt: now.toISOString() };
}

const offerClosed = (payment: Payment) => payment.methodState.offerClosed === true;

/** OFFER_CLOSED: the offer expired unfinished. */
async function reportOfferClosed(tx: Tx, now: Date, payment: Payment): Promise<void> {
  await recordEvent(tx, now, {
    companyId: payment.companyId,
    merchantAccount: payment.merchantAccount,
    eventCode: 'OFFER_CLOSED',
    pspReference: payment.pspReference,
    merchantReference: payment.reference,
    currency: payment.currency,
    value: payment.originalValue,
    success: true,
    paymentMethod: reportedMethod(payment),
    additionalData: {
      ...(payment.sessionId && { checkoutSessionId: payment.sessionId }),
      ...(payment.paymentLinkId && { paymentLinkId: payment.paymentLinkId }),
    },
  });
}

/** The AUTHORISATION event of a payment that reached a final result (OFFER_CLOSED for an expired offer). */
async function reportResult(tx: Tx, now: Date, payment: Payment, extra: Record<string, string>): Promise<void> {
  if (offerClosed(payment)) return reportOfferClosed(tx, now, payment);
  // Error is final too (Adyen's test table answers it for UNKNOWN and ERROR): a failed AUTHORISATION like a refusal.
  if (payment.resultCode !== 'Authorised' && payment.resultCode !== 'Refused' && payment.resultCode !== 'Cancelled' && payment.resultCode !== 'Error') return;
  await recordEvent(tx, now, {
    companyId: payment.companyId,
    merchantAccount: payment.merchantAccount,
    eventCode: 'AUTHORISATION',
    pspReference: payment.pspReference,
    merchantReference: payment.reference,
    currency: payment.currency,
    value: payment.authorisedValue,
    success: payment.resultCode === 'Authorised',
    // Cards: `authCode:lastFour:expiry`; methods without a card: the authorisation code alone.
    reason:
      payment.resultCode === 'Authorised'
        ? payment.expiryMonth
          ? `${payment.authCode}:${payment.cardLastFour}:${payment.expiryMonth}/${payment.expiryYear}`
          : (payment.authCode ?? '')
        : (payment.refusalReason ?? ''),
    paymentMethod: reportedMethod(payment),
    additionalData: {
      ...cardFields(payment),
      ...extra,
      ...(payment.authCode && { authCode: payment.authCode }),
      ...(payment.sessionId && { checkoutSessionId: payment.sessionId }),
      ...(payment.paymentLinkId && { paymentLinkId: payment.paymentLinkId }),
      ...(payment.storedPaymentMethodId && { 'tokenization.storedPaymentMethodId': payment.storedPaymentMethodId }),
    },
  });
}

async function bookOnOrder(tx: Tx, now: Date, payment: Payment, later: boolean): Promise<Order | undefined> {
  if (!payment.orderPspReference) return undefined;
  if (payment.resultCode === 'Authorised') {
    const amount = { currency: payment.currency, value: payment.authorisedValue };
    if (!later) return chargeOrder(tx, now, payment.orderPspReference, amount);
    // A payment that settles later (a pending method) may find its order closed or expired
    // meanwhile: it stays authorised, and the order as it is.
    try {
      return await chargeOrder(tx, now, payment.orderPspReference, amount);
    } catch (error) {
      if (error instanceof ApiError) return tx.orders.getForUpdate(payment.orderPspReference);
      throw error;
    }
  }
  return tx.orders.getForUpdate(payment.orderPspReference);
}

/**
 * Writes a payment whose method has decided a step and reports what the step means: the
 * AUTHORISATION event when the result is final, the automatic capture it made, the booking on
 * its order. `extra` adds method-specific fields to the event (a wallet's variant, for example).
 */
export async function conclude(tx: Tx, now: Date, payment: Payment, how: { before?: Payment; eventData?: Record<string, string> }): Promise<Order | undefined> {
  const written = how.before ? tx.payments.update(payment, how.before) : tx.payments.insert(payment);
  // A step that reached a final result reports it once; a payment already final (a client
  // polling it) reports nothing again.
  if (how.before && isFinal(how.before)) {
    await written;
    return how.before.orderPspReference ? tx.orders.getForUpdate(how.before.orderPspReference) : undefined;
  }
  // The event does not wait for the payment's row (it names the payment, it does not read it):
  // written together, they share a round trip on PostgreSQL.
  await together([written, reportResult(tx, now, payment, how.eventData ?? {})]);
  if (payment.autoCaptured) await reportAutoCapture(tx, now, payment);
  // A link's payment that ends later (a pending method settling, an offer closing on the clock)
  // moves its link on as the hosted page does for a result it sees itself.
  if (how.before && payment.paymentLinkId) await bookOnLink(tx, now, payment.paymentLinkId, payment.resultCode);
  return bookOnOrder(tx, now, payment, how.before !== undefined);
}

async function bookOnLink(tx: Tx, now: Date, linkId: string, resultCode: string): Promise<void> {
  const link = await tx.links.getForUpdate(linkId);
  // Only a link waiting for this payment: an expired or completed one stays as it is.
  if (link?.status === 'paymentPending') await recordLinkPayment(tx, now, link, resultCode);
}

/** Whether a payment's result is final: nothing the shopper or a clock does changes it any more. */
export const isFinal = (payment: Payment): boolean =>
  payment.resultCode === 'Authorised' || payment.resultCode === 'Refused' || payment.resultCode === 'Cancelled' || payment.resultCode === 'Error';
