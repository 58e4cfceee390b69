import type { Payment } from '../../../store/types.js';
import { isFinal } from '../authorisation.js';
import type { PaymentMethodFlow } from './method.js';
import { awaitRedirect, completeRedirect, redirectAction, settleRedirect } from './redirect.js';

/** A pending iDEAL payment (the bank has not confirmed yet) settles ten minutes later. */
export const IDEAL_PENDING_MS = 10 * 60 * 1000;

/**
 * iDEAL 2.0: no issuer list (the shopper picks the bank on the redirect page; an `issuer` sent
 * is accepted and ignored). The sandbox's bank page offers the answers a bank gives: authorise,
 * refuse, cancel, or leave pending. iDEAL is captured at once: it has no separate capture.
 */
export const idealFlow: PaymentMethodFlow = {
  types: ['ideal'],

  start(ctx, pending) {
    const captured: Payment = { ...pending, paymentMethodType: 'ideal', captureDelayHours: 0 };
    return Promise.resolve({ payment: awaitRedirect(captured, ctx.now) });
  },

  complete(ctx, payment, { redirectOutcome }) {
    return Promise.resolve(completeRedirect(payment, redirectOutcome, ctx.now, { pendingMs: IDEAL_PENDING_MS }));
  },

  settle: (ctx, payment) => Promise.resolve(settleRedirect(payment, ctx.now)),

  action: (payment, baseUrl) => redirectAction(payment, `${baseUrl}/hosted/ideal/${payment.pspReference}`),

  additionalData: (payment) => (isFinal(payment) ? { paymentMethod: 'ideal', ...(payment.authCode && { authCode: payment.authCode }) } : undefined),

  responseMethod: () => ({ type: 'ideal' }),
};
