import { requireMerchantAccount, reaches } from '../../kernel/auth/credentials.js';
import type { Clock } from '../../kernel/clock.js';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import { ApiError, ERR_INVALID_DETAILS, ERR_PAYPAL_PAYMENT_DATA } from '../../kernel/errors.js';
import type { Credential, Payment } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';
import { orderForPayment } from '../orders/orders.domain.js';
import { conclude, newPayment, type PaymentContext, type PaymentInput, type PaymentOutcome } from './authorisation.js';
import { flowOfPayment, flowOfType } from './methods/index.js';
import type { CompletionDetails } from './methods/method.js';
import { takeFingerprint } from './methods/card.js';
import { readRedirectResult } from './redirect-result.js';
import { decodeJson, pspOfAuthorisationToken, readThreeDSSubmission } from './three-ds2.js';

/**
 * POST /payments: the method's flow (methods/) decides the first step from the request; the
 * shared part (authorisation.ts) writes it, reports a final result and books it on the order.
 */
export async function makePayment(ctx: PaymentContext, credential: Credential, input: PaymentInput): Promise<PaymentOutcome> {
  const { tx, now } = ctx;
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  const flow = flowOfType(input.paymentMethod.type);
  if (input.order) await orderForPayment(tx, now, merchant.id, input.order, input.amount);
  const pending = newPayment(merchant, input, now, input.paymentMethod.type ?? 'scheme');
  const started = await flow.start({ ...ctx, merchant, input }, pending);
  const order = await conclude(tx, now, started.payment, started.eventData ? { eventData: started.eventData } : {});
  return started.token ? { payment: started.payment, order, token: started.token } : { payment: started.payment, order };
}

async function reachable(tx: Tx, credential: Credential, payment: Payment | undefined): Promise<Payment | undefined> {
  const merchant = payment ? await tx.merchants.get(payment.merchantAccount) : undefined;
  return payment && merchant && reaches(credential, merchant) ? payment : undefined;
}

export interface DetailsInput {
  details: CompletionDetails;
  paymentData?: string;
}

/**
 * The payment a /payments/details request is about, locked: named by a signed redirectResult,
 * or by the paymentData the client was handed. Another company's payment is as unknown as a
 * forged reference.
 */
async function paymentOfDetails(tx: Tx, credential: Credential, signer: RedirectSigner, input: DetailsInput) {
  const { details } = input;
  if (details.redirectResult) {
    const result = readRedirectResult(signer, details.redirectResult);
    const found = result && (await reachable(tx, credential, await tx.payments.getForUpdate(result.pspReference)));
    if (!result || !found) throw new ApiError(ERR_INVALID_DETAILS, { message: "Invalid payment method details: 'details.redirectResult' is not valid" });
    return { payment: found, redirectOutcome: result.outcome };
  }
  const byData = input.paymentData ? await tx.payments.byPaymentData(input.paymentData) : undefined;
  const found = byData && (await reachable(tx, credential, await tx.payments.getForUpdate(byData.pspReference)));
  if (found) return { payment: found };
  // A 3D Secure 2 challenge result names its payment by the action's authorisationToken (checked by the card flow).
  const token = readThreeDSSubmission(details)?.authorisationToken;
  const tokenPsp = token ? pspOfAuthorisationToken(token) : undefined;
  const byToken = tokenPsp && (await reachable(tx, credential, await tx.payments.getForUpdate(tokenPsp)));
  if (byToken) return { payment: byToken };
  if (details.orderID || details.payerID) {
    throw new ApiError(ERR_PAYPAL_PAYMENT_DATA, { message: "Invalid paymentData: send the latest 'paymentData' of the pending PayPal payment" });
  }
  throw new ApiError(ERR_INVALID_DETAILS, {
    message: "Invalid payment method details: send 'details.redirectResult', 'details.threeDSResult', or the action's 'paymentData'",
  });
}

/**
 * POST /payments/details: the payment's flow decides the next step from the details (a redirect
 * result, a PayPal approval); a step that reaches a final result is reported like any other.
 */
export async function submitPaymentDetails(ctx: PaymentContext, credential: Credential, signer: RedirectSigner, input: DetailsInput): Promise<PaymentOutcome> {
  const { tx, now } = ctx;
  const { payment: before, redirectOutcome } = await paymentOfDetails(tx, credential, signer, input);
  const flow = flowOfPayment(before.paymentMethodType);
  if (!flow.complete) throw new ApiError(ERR_INVALID_DETAILS, { message: 'Invalid payment method details: this payment takes no details' });
  const payment = await flow.complete({ ...ctx, signer }, before, {
    details: input.details,
    ...(input.paymentData !== undefined && { paymentData: input.paymentData }),
    ...(redirectOutcome !== undefined && { redirectOutcome }),
  });
  const order = await conclude(tx, now, payment, { before });
  return { payment, order };
}

/**
 * The payment a QR code or await action's paymentData names, for the library's status poll: a
 * step that fell due on the company's clock (the app's answer, the code's expiry) is taken first,
 * as the dispatcher's round would take it, so the shopper's page learns the result without
 * waiting for that round. A payment of a merchant account the credential does not reach is as
 * unknown as a made-up paymentData (the error is checkout's for a paymentData it does not know).
 */
export async function paymentOfStatusPoll(tx: Tx, now: Date, credential: Credential, paymentData: string): Promise<Payment> {
  const byData = await tx.payments.byPaymentData(paymentData);
  const before = byData && (await reachable(tx, credential, await tx.payments.getForUpdate(byData.pspReference)));
  if (!before) throw new ApiError(ERR_PAYPAL_PAYMENT_DATA, { message: 'Invalid paymentData: no payment waits with this paymentData' });
  const flow = flowOfPayment(before.paymentMethodType);
  if (before.settleAt === null || before.settleAt > now.toISOString() || !flow.settle) return before;
  const payment = await flow.settle({ tx, now }, before);
  await conclude(tx, now, payment, { before });
  return payment;
}

export interface FingerprintInput {
  /** Base64 JSON `{threeDSCompInd}`: what the 3DS method iframe reported (`Y` done, `N` timed out, `U` no method). */
  fingerprintResult: string;
  /** The paymentData of the fingerprint action. */
  paymentData: string;
}

/**
 * POST /v1/submitThreeDS2Fingerprint (client-side): adyen-web's device fingerprint of a native
 * 3D Secure 2 payment, named by the fingerprint action's paymentData (read locked; another
 * company's payment is as unknown as a made-up paymentData). The card flow takes the step
 * (`takeFingerprint`): the challenge next, or the `threeDSResult` that finishes a frictionless
 * payment through the payment details operations.
 */
export async function submitFingerprint(
  ctx: PaymentContext,
  credential: Credential,
  input: FingerprintInput,
): Promise<PaymentOutcome & { threeDSResult?: string }> {
  const { tx, now } = ctx;
  const named = await tx.payments.byPaymentData(input.paymentData);
  const before = named && (await reachable(tx, credential, await tx.payments.getForUpdate(named.pspReference)));
  if (!before) {
    throw new ApiError(ERR_INVALID_DETAILS, {
      message: "Invalid payment method details: 'paymentData' names no payment waiting for its fingerprint (unknown, or the fingerprint was taken)",
    });
  }
  const reported = decodeJson(input.fingerprintResult)?.threeDSCompInd;
  if (typeof reported !== 'string') {
    throw new ApiError(ERR_INVALID_DETAILS, {
      message: "Invalid payment method details: 'fingerprintResult' must be base64-encoded JSON with 'threeDSCompInd'",
    });
  }
  const step = takeFingerprint(before, reported);
  const order = await conclude(tx, now, step.payment, { before });
  return { payment: step.payment, order, ...(step.threeDSResult !== undefined && { threeDSResult: step.threeDSResult }) };
}

/** The payment a hosted 3D Secure page is for, if it still waits for the shopper. */
export async function pendingRedirect(tx: Tx, pspReference: string): Promise<Payment | undefined> {
  const payment = await tx.payments.get(pspReference);
  return payment && payment.resultCode === 'RedirectShopper' && !payment.detailsSubmitted ? payment : undefined;
}

/**
 * The dispatcher's due work for the payment methods: applies the clock-driven steps that fell
 * due on each company's clock (a direct debit settling, a voucher expiring). Looked up on the
 * read connection first, then each payment is read again locked, so two instances never apply
 * one step twice.
 */
export async function settleDuePayments(store: Store, clock: Clock): Promise<void> {
  const horizon = clock.latest().toISOString();
  const isDue = (p: Payment) => p.settleAt !== null && p.settleAt <= clock.now(p.companyId).toISOString();
  if (!(await store.read((tx) => tx.payments.dueSettlements(horizon, 100))).some(isDue)) return;
  await store.transaction(async (tx) => {
    for (const due of (await tx.payments.dueSettlements(horizon, 100)).filter(isDue)) {
      const before = await tx.payments.getForUpdate(due.pspReference);
      if (!before || !isDue(before)) continue;
      const flow = flowOfPayment(before.paymentMethodType);
      const now = clock.now(before.companyId);
      // A flow without a clock step never sets settleAt; clearing it keeps the round from looping.
      const payment = flow.settle ? await flow.settle({ tx, now }, before) : { ...before, settleAt: null };
      await conclude(tx, now, payment, { before });
    }
  });
}
