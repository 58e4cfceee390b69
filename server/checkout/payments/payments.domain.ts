import { randomBytes } from 'node:crypto';
import { requireMerchantAccount, reaches } from '../../kernel/auth/credentials.js';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { recordEvent } from '../../kernel/events/outbox.js';
import { ApiError, ERR_ALREADY_PROCESSED, ERR_INVALID_DETAILS, ERR_PAYPAL_PAYMENT_DATA } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { Credential, Merchant, Order, Payment, RecurringProcessingModel, StoredPaymentMethod } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';
import { CHALLENGE_CARDS, EXPIRED_CARD, NOT_AUTHENTICATED, type Card, type CardInput, isExpired, readCard, type Refusal, TEST_REFUSALS } from './cards.js';
import type { Money } from '../money.js';
import { chargeOrder, orderForPayment } from '../orders/orders.domain.js';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import { recordModification } from '../modifications/modification-record.js';
import { newAuthCode, newPspReference } from '../references.js';
import { cardOfToken, storeCard, tokenOf } from '../stored-methods/tokens.domain.js';

const HOUR_MS = 60 * 60 * 1000;

export interface PaymentMethodInput extends CardInput {
  type?: string;
  subtype?: string;
  storedPaymentMethodId?: string;
}

export interface PaymentInput {
  merchantAccount: string;
  reference: string;
  returnUrl: string;
  amount: Money;
  paymentMethod: PaymentMethodInput;
  captureDelayHours?: number;
  additionalData?: Record<string, string>;
  order?: { pspReference: string; orderData: string };
  shopperReference?: string;
  shopperEmail?: string;
  storePaymentMethod?: boolean;
  recurringProcessingModel?: RecurringProcessingModel;
  /** Set when the payment is made in a checkout session or through a payment link. */
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

/** Refusals come first: the holder-name test values, then an expired card. */
function refusalOf(card: Card, now: Date): Refusal | undefined {
  const asked = card.holderName ? TEST_REFUSALS[card.holderName] : undefined;
  return asked ?? (isExpired(card, now) ? EXPIRED_CARD : undefined);
}

function needsChallenge(card: Card, input: PaymentInput): boolean {
  return CHALLENGE_CARDS.has(card.number) || input.additionalData?.executeThreeD === 'true';
}

/** The payment becomes Authorised; a capture delay that has already passed captures it at once. */
function authorise(payment: Payment, now: Date): Payment {
  const authorised: Payment = { ...payment, resultCode: 'Authorised', authCode: newAuthCode(), paymentData: null, updatedAt: now.toISOString() };
  if (authorised.captureDelayHours !== null) {
    authorised.autoCaptureAt = new Date(now.getTime() + authorised.captureDelayHours * HOUR_MS).toISOString();
  }
  return settleAutoCapture(authorised, now);
}

function refuse(payment: Payment, refusal: Refusal, now: Date): Payment {
  return { ...payment, resultCode: 'Refused', refusalReason: refusal.reason, refusalReasonCode: refusal.code, paymentData: null, updatedAt: now.toISOString() };
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
  await tx.payments.update(settled);
  await reportAutoCapture(tx, now, settled);
  return settled;
}

/** A fresh opaque paymentData: a pending payment is found by it, and it changes on every update. */
export const newPaymentData = () => `Ab02b4c0!${randomBytes(24).toString('base64url')}`;

function newPayment(merchant: Merchant, input: PaymentInput, now: Date): Payment {
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
    paymentMethodType: 'scheme',
    paymentData: null,
    sessionId: input.sessionId ?? null,
    paymentLinkId: input.paymentLinkId ?? null,
    storedPaymentMethodId: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/** The AUTHORISATION event of a payment that reached a final result. */
async function reportResult(tx: Tx, now: Date, payment: Payment): Promise<void> {
  if (payment.resultCode !== 'Authorised' && payment.resultCode !== 'Refused') return;
  const card: Record<string, string> = payment.cardLastFour
    ? { cardSummary: payment.cardLastFour, expiryDate: `${payment.expiryMonth}/${payment.expiryYear}` }
    : {};
  await recordEvent(tx, now, {
    companyId: payment.companyId,
    merchantAccount: payment.merchantAccount,
    eventCode: 'AUTHORISATION',
    pspReference: payment.pspReference,
    merchantReference: payment.reference,
    currency: payment.currency,
    value: payment.authorisedValue,
    success: payment.resultCode === 'Authorised',
    reason:
      payment.resultCode === 'Authorised'
        ? `${payment.authCode}:${payment.cardLastFour}:${payment.expiryMonth}/${payment.expiryYear}`
        : (payment.refusalReason ?? ''),
    paymentMethod: payment.cardBrand || payment.paymentMethodType,
    additionalData: {
      ...card,
      ...(payment.authCode && { authCode: payment.authCode }),
      ...(payment.sessionId && { checkoutSessionId: payment.sessionId }),
      ...(payment.paymentLinkId && { paymentLinkId: payment.paymentLinkId }),
      ...(payment.storedPaymentMethodId && { 'tokenization.storedPaymentMethodId': payment.storedPaymentMethodId }),
    },
  });
}

/** POST /payments: checks the card, decides the outcome, and books it against the order if there is one. */
export async function makePayment(ctx: PaymentContext, credential: Credential, input: PaymentInput): Promise<PaymentOutcome> {
  const { tx, now } = ctx;
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  if (input.order) await orderForPayment(tx, now, merchant.id, input.order, input.amount);

  if (input.paymentMethod.type === 'paypal') {
    // PayPal waits for the shopper in PayPal's own window; the SDK action carries the paymentData.
    const payment: Payment = {
      ...newPayment(merchant, input, now),
      resultCode: 'Pending',
      paymentMethodType: 'paypal',
      cardBrand: 'paypal',
      paymentData: newPaymentData(),
    };
    await tx.payments.insert(payment);
    return { payment, order: await bookOnOrder(tx, now, payment) };
  }

  const stored = input.paymentMethod.storedPaymentMethodId;
  const token = stored ? await tokenOf(tx, merchant.id, input.shopperReference, stored) : undefined;
  const card = token ? cardOfToken(ctx.vault, token) : readCard(input.paymentMethod);
  const pending: Payment = {
    ...newPayment(merchant, input, now),
    cardBrand: card.brand,
    cardBin: card.number.slice(0, 6),
    cardLastFour: card.number.slice(-4),
    expiryMonth: String(card.expiryMonth),
    expiryYear: String(card.expiryYear),
    holderName: card.holderName,
    storedPaymentMethodId: token?.id ?? null,
  };

  const refusal = refusalOf(card, now);
  const payment = refusal ? refuse(pending, refusal, now) : needsChallenge(card, input) && !token ? pending : authorise(pending, now);
  let created: StoredPaymentMethod | undefined;
  if (payment.resultCode === 'Authorised' && input.storePaymentMethod && input.shopperReference && !token) {
    created = await storeCard(tx, now, ctx.vault, merchant, card, {
      shopperReference: input.shopperReference,
      shopperEmail: input.shopperEmail,
      recurringProcessingModel: input.recurringProcessingModel ?? 'CardOnFile',
      originalReference: payment.pspReference,
    });
    payment.storedPaymentMethodId = created.id;
  }
  await tx.payments.insert(payment);
  await reportResult(tx, now, payment);
  if (payment.autoCaptured) await reportAutoCapture(tx, now, payment);
  const order = await bookOnOrder(tx, now, payment);
  return created ? { payment, order, token: created } : { payment, order };
}

async function bookOnOrder(tx: Tx, now: Date, payment: Payment): Promise<Order | undefined> {
  if (!payment.orderPspReference) return undefined;
  if (payment.resultCode === 'Authorised') {
    return chargeOrder(tx, now, payment.orderPspReference, { currency: payment.currency, value: payment.authorisedValue });
  }
  return tx.orders.getForUpdate(payment.orderPspReference);
}

async function reachable(tx: Tx, credential: Credential, payment: Payment | undefined): Promise<Payment | undefined> {
  const merchant = payment ? await tx.merchants.get(payment.merchantAccount) : undefined;
  return payment && merchant && reaches(credential, merchant) ? payment : undefined;
}

export interface DetailsInput {
  details: { redirectResult?: string; orderID?: string; payerID?: string };
  paymentData?: string;
}

/**
 * POST /payments/details: finishes a RedirectShopper payment with the redirect result the
 * shopper came back with, or a pending PayPal payment with its latest paymentData. Each is used once.
 */
export async function submitPaymentDetails(ctx: PaymentContext, credential: Credential, signer: RedirectSigner, input: DetailsInput): Promise<PaymentOutcome> {
  const { tx, now } = ctx;
  const { details } = input;
  let payment: Payment;
  if (details.redirectResult) {
    const result = signer.read(details.redirectResult);
    const found = result && (await reachable(tx, credential, await tx.payments.getForUpdate(result.pspReference)));
    // A result of another company's payment is as unknown as a forged one.
    if (!result || !found) throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: 'details.redirectResult' is not valid" });
    if (found.detailsSubmitted || found.resultCode !== 'RedirectShopper') throw new ApiError(ERR_ALREADY_PROCESSED);
    const submitted: Payment = { ...found, detailsSubmitted: true };
    payment = result.outcome === 'authorised' ? authorise(submitted, now) : refuse(submitted, NOT_AUTHENTICATED, now);
  } else if (details.orderID || details.payerID) {
    const found = input.paymentData ? await reachable(tx, credential, await tx.payments.byPaymentData(input.paymentData)) : undefined;
    if (!found || found.resultCode !== 'Pending')
      throw new ApiError(ERR_PAYPAL_PAYMENT_DATA, { message: "Invalid paymentData: send the latest 'paymentData' of the pending PayPal payment" });
    payment = authorise({ ...found, detailsSubmitted: true }, now);
  } else {
    throw new ApiError(ERR_INVALID_DETAILS, {
      message: "Invalid payment method details: send 'details.redirectResult', or 'details.orderID' with 'paymentData'",
    });
  }
  await tx.payments.update(payment);
  await reportResult(tx, now, payment);
  if (payment.autoCaptured) await reportAutoCapture(tx, now, payment);
  const order = await bookOnOrder(tx, now, payment);
  return { payment, order };
}

/** The payment a hosted 3D Secure page is for, if it still waits for the shopper. */
export async function pendingRedirect(tx: Tx, pspReference: string): Promise<Payment | undefined> {
  const payment = await tx.payments.get(pspReference);
  return payment && payment.resultCode === 'RedirectShopper' && !payment.detailsSubmitted ? payment : undefined;
}
