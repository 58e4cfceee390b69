import { ApiError, ERR_ALREADY_PROCESSED } from '../../../kernel/errors.js';
import type { Payment } from '../../../store/types.js';
import { authorise, cancelByShopper, closeOffer, isFinal, refuse } from '../authorisation.js';
import type { Refusal } from '../cards.js';
import { TEST_REFUSALS } from '../test-results.js';
import type { RedirectAnswer } from '../redirect-result.js';
import type { PaymentAction } from './method.js';

/**
 * What the redirect methods (iDEAL, Klarna) share: the shopper is sent to the method's hosted
 * page, comes back with a signed redirectResult, and /payments/details applies the answer. An
 * offer the shopper never finishes closes at its expiry (OFFER_CLOSED); an answer of `pending`
 * settles when its time comes.
 */
const MINUTE_MS = 60 * 1000;
/** How long a shopper has to finish at the method's page before the offer closes. */
export const REDIRECT_OFFER_LIFETIME_MS = 60 * MINUTE_MS;

export type RedirectStage = 'redirect' | 'pending';

export const stageOf = (payment: Payment) => payment.methodState.stage as RedirectStage | undefined;

const at = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** The payment waits at the method's page until the offer's expiry. */
export function awaitRedirect(payment: Payment, now: Date, methodState: Record<string, unknown> = {}): Payment {
  return {
    ...payment,
    resultCode: 'RedirectShopper',
    settleAt: at(now, REDIRECT_OFFER_LIFETIME_MS),
    methodState: { ...payment.methodState, ...methodState, stage: 'redirect' },
  };
}

export function redirectAction(payment: Payment, url: string): PaymentAction | undefined {
  if (payment.resultCode !== 'RedirectShopper') return undefined;
  return { type: 'redirect', method: 'GET', url, paymentMethodType: payment.paymentMethodType };
}

/**
 * Applies the shopper's answer at the method's page, once. `pendingMs` is how long a pending
 * answer takes to settle (as authorised); `refusal` is what a refusal reports.
 */
export function completeRedirect(payment: Payment, answer: RedirectAnswer | undefined, now: Date, options: { pendingMs: number; refusal?: Refusal }): Payment {
  if (answer === undefined || payment.detailsSubmitted || payment.resultCode !== 'RedirectShopper') throw new ApiError(ERR_ALREADY_PROCESSED);
  const submitted: Payment = { ...payment, detailsSubmitted: true };
  switch (answer) {
    case 'authorised':
      return authorise(submitted, now);
    case 'refused':
      return refuse(submitted, options.refusal ?? TEST_REFUSALS.REFUSED!, now);
    case 'cancelled':
      return cancelByShopper(submitted, now);
    case 'pending':
      return { ...submitted, resultCode: 'Pending', settleAt: at(now, options.pendingMs), methodState: { ...submitted.methodState, stage: 'pending' } };
  }
}

/** The clock's step: a pending answer settles as authorised; an offer still at the page closes. */
export function settleRedirect(payment: Payment, now: Date): Payment {
  if (isFinal(payment)) return { ...payment, settleAt: null };
  return stageOf(payment) === 'pending' ? authorise(payment, now) : closeOffer(payment, now);
}
