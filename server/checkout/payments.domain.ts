import { requireMerchantAccount, reaches } from '../auth/credentials.domain.js';
import { ApiError, ERR_ALREADY_PROCESSED, ERR_INVALID_DETAILS } from '../http/errors.js';
import type { Credential, Merchant, Order, Payment, Tx } from '../store/types.js';
import {
  CHALLENGE_CARDS,
  EXPIRED_CARD,
  NOT_AUTHENTICATED,
  type Card,
  type CardInput,
  isExpired,
  readCard,
  type Refusal,
  TEST_REFUSALS,
} from './cards.js';
import type { Money } from './money.js';
import { chargeOrder, orderForPayment } from './orders.domain.js';
import type { RedirectSigner } from './redirects.js';
import { newAuthCode, newPspReference } from './references.js';

const HOUR_MS = 60 * 60 * 1000;

export interface PaymentInput {
  merchantAccount: string;
  reference: string;
  returnUrl: string;
  amount: Money;
  paymentMethod: CardInput;
  captureDelayHours?: number;
  additionalData?: Record<string, string>;
  order?: { pspReference: string; orderData: string };
  shopperReference?: string;
}

/** A payment and, when it belongs to one, its order as it stands after the payment. */
export interface PaymentOutcome {
  payment: Payment;
  order: Order | undefined;
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
  const authorised: Payment = { ...payment, resultCode: 'Authorised', authCode: newAuthCode(), updatedAt: now.toISOString() };
  if (authorised.captureDelayHours !== null) {
    authorised.autoCaptureAt = new Date(now.getTime() + authorised.captureDelayHours * HOUR_MS).toISOString();
  }
  return settleAutoCapture(authorised, now);
}

function refuse(payment: Payment, refusal: Refusal, now: Date): Payment {
  return { ...payment, resultCode: 'Refused', refusalReason: refusal.reason, refusalReasonCode: refusal.code, updatedAt: now.toISOString() };
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

/** POST /payments: checks the card, decides the outcome, and books it against the order if there is one. */
export async function makePayment(tx: Tx, now: Date, credential: Credential, input: PaymentInput): Promise<PaymentOutcome> {
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  const card = readCard(input.paymentMethod);
  if (input.order) await orderForPayment(tx, now, merchant.id, input.order, input.amount);

  const pending: Payment = {
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
    cardBrand: card.brand,
    cardBin: card.number.slice(0, 6),
    cardLastFour: card.number.slice(-4),
    expiryMonth: String(card.expiryMonth),
    expiryYear: String(card.expiryYear),
    holderName: card.holderName,
    shopperReference: input.shopperReference ?? null,
    returnUrl: input.returnUrl,
    orderPspReference: input.order?.pspReference ?? null,
    detailsSubmitted: false,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };

  const refusal = refusalOf(card, now);
  const payment = refusal ? refuse(pending, refusal, now) : needsChallenge(card, input) ? pending : authorise(pending, now);
  await tx.insertPayment(payment);
  const order = await bookOnOrder(tx, now, payment);
  return { payment, order };
}

async function bookOnOrder(tx: Tx, now: Date, payment: Payment): Promise<Order | undefined> {
  if (!payment.orderPspReference) return undefined;
  if (payment.resultCode === 'Authorised') {
    return chargeOrder(tx, now, payment.orderPspReference, { currency: payment.currency, value: payment.authorisedValue });
  }
  return tx.getOrderForUpdate(payment.orderPspReference);
}

/**
 * POST /payments/details: finishes a RedirectShopper payment with the redirect result the
 * shopper came back with. A result is used once.
 */
export async function submitPaymentDetails(
  tx: Tx,
  now: Date,
  credential: Credential,
  signer: RedirectSigner,
  details: { redirectResult?: string },
): Promise<PaymentOutcome> {
  if (!details.redirectResult) {
    throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: 'details.redirectResult' is required to finish a redirect" });
  }
  const result = signer.read(details.redirectResult);
  const found = result && (await tx.getPaymentForUpdate(result.pspReference));
  const merchant = found ? await tx.getMerchant(found.merchantAccount) : undefined;
  // A result of another company's payment is as unknown as a forged one.
  if (!result || !found || !merchant || !reaches(credential, merchant)) {
    throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: 'details.redirectResult' is not valid" });
  }
  if (found.detailsSubmitted || found.resultCode !== 'RedirectShopper') throw new ApiError(ERR_ALREADY_PROCESSED);

  const submitted: Payment = { ...found, detailsSubmitted: true };
  const payment = result.outcome === 'authorised' ? authorise(submitted, now) : refuse(submitted, NOT_AUTHENTICATED, now);
  await tx.updatePayment(payment);
  const order = await bookOnOrder(tx, now, payment);
  return { payment, order };
}

/** The payment a hosted 3D Secure page is for, if it still waits for the shopper. */
export async function pendingRedirect(tx: Tx, pspReference: string): Promise<Payment | undefined> {
  const payment = await tx.getPayment(pspReference);
  return payment && payment.resultCode === 'RedirectShopper' && !payment.detailsSubmitted ? payment : undefined;
}
