import type { Payment } from '../../../store/types.js';
import { isFinal } from '../authorisation.js';
import type { RedirectAnswer } from '../redirect-result.js';
import type { MethodOf, PaymentMethodFlow } from './method.js';
import { awaitRedirect, completeRedirect, redirectAction, settleRedirect } from './redirect.js';

/** A pending iDEAL payment (the bank has not confirmed yet) settles ten minutes later. */
export const IDEAL_PENDING_MS = 10 * 60 * 1000;

/**
 * The test banks of Adyen's test platform, as its /paymentMethods lists them for iDEAL
 * (`issuers`). The last three answer for the shopper: refused, pending, cancelled.
 */
export const IDEAL_TEST_ISSUERS: ReadonlyArray<{ id: string; name: string; answers?: RedirectAnswer }> = [
  { id: '1121', name: 'Test Issuer' },
  ...Array.from({ length: 9 }, (_, i) => ({ id: String(1151 + i), name: `Test Issuer ${i + 2}` })),
  { id: '1160', name: 'Test Issuer Refused', answers: 'refused' },
  { id: '1161', name: 'Test Issuer Pending', answers: 'pending' },
  { id: '1162', name: 'Test Issuer Cancelled', answers: 'cancelled' },
];

/** The test bank the payment names (`paymentMethod.issuer`), if it is one. */
export const idealIssuerOf = (payment: Payment) => IDEAL_TEST_ISSUERS.find((issuer) => issuer.id === payment.methodState.issuer);

/**
 * iDEAL: an optional `issuer` (iDEAL 2.0 lets the shopper pick the bank after the redirect; the
 * test banks of /paymentMethods' `issuers` still preselect it, and three of them decide the
 * answer). The sandbox's bank page offers the answers a bank gives: authorise, refuse, cancel, or
 * leave pending. iDEAL is captured at once: it has no separate capture.
 */
export const idealFlow: PaymentMethodFlow = {
  types: ['ideal'],

  start(ctx, pending) {
    const captured: Payment = { ...pending, paymentMethodType: 'ideal', captureDelayHours: 0 };
    const issuer = (ctx.input.paymentMethod as MethodOf<'ideal'>).issuer;
    return Promise.resolve({ payment: awaitRedirect(captured, ctx.now, typeof issuer === 'string' ? { issuer } : {}) });
  },

  complete(ctx, payment, { redirectOutcome }) {
    return Promise.resolve(completeRedirect(payment, redirectOutcome, ctx.now, { pendingMs: IDEAL_PENDING_MS }));
  },

  settle: (ctx, payment) => Promise.resolve(settleRedirect(payment, ctx.now)),

  action: (payment, baseUrl) => redirectAction(payment, `${baseUrl}/hosted/ideal/${payment.pspReference}`),

  additionalData: (payment) => (isFinal(payment) ? { paymentMethod: 'ideal', ...(payment.authCode && { authCode: payment.authCode }) } : undefined),

  responseMethod: () => ({ type: 'ideal' }),
};
