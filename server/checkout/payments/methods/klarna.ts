import type { Payment } from '../../../store/types.js';
import { assertItemsPrice } from '../line-items.js';
import { type PaymentMethodFlow, plainMethodResponse } from './method.js';
import { awaitRedirect, completeRedirect, redirectAction, settleRedirect } from './redirect.js';

/** Klarna decides within a few minutes when it reviews a payment (its page's "review" answer). */
export const KLARNA_PENDING_MS = 5 * 60 * 1000;

/**
 * A shopper email Klarna's playground declines (`customer+denied@…`, any domain): the sandbox's
 * Klarna page then only offers to leave, and an approval cannot be forged.
 */
export const isDeclinedShopper = (email: string | undefined) => email !== undefined && /\+denied@/i.test(email);

/**
 * Klarna (pay later, pay over time, pay now): the request must carry line items that add up to
 * the amount. The shopper approves on the sandbox's Klarna page (redirect); the payment is then
 * authorised and captured later, in full or per line item, like a card.
 */
export const klarnaFlow: PaymentMethodFlow = {
  types: ['klarna', 'klarnapayments', 'klarnapayments_account', 'klarnapayments_b2b', 'klarna_paynow', 'klarna_account', 'klarna_b2b'],

  start(ctx, pending) {
    assertItemsPrice(ctx.input.lineItems, ctx.input.amount.value);
    const declined = isDeclinedShopper(ctx.input.shopperEmail);
    const payment: Payment = { ...pending, paymentMethodType: String(ctx.input.paymentMethod.type) };
    return Promise.resolve({ payment: awaitRedirect(payment, ctx.now, { lineItems: ctx.input.lineItems, declined }) });
  },

  complete(ctx, payment, { redirectOutcome }) {
    // A declined shopper is refused whatever the redirect says.
    const answer = payment.methodState.declined === true && redirectOutcome === 'authorised' ? 'refused' : redirectOutcome;
    return Promise.resolve(completeRedirect(payment, answer, ctx.now, { pendingMs: KLARNA_PENDING_MS }));
  },

  settle: (ctx, payment) => Promise.resolve(settleRedirect(payment, ctx.now)),

  action: (payment, baseUrl) => redirectAction(payment, `${baseUrl}/hosted/klarna/${payment.pspReference}`),

  ...plainMethodResponse,
};
