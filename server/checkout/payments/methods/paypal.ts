import { ApiError, ERR_PAYPAL_PAYMENT_DATA } from '../../../kernel/errors.js';
import type { Payment } from '../../../store/types.js';
import { authorise, newPaymentData } from '../authorisation.js';
import type { MethodOf, PaymentMethodFlow } from './method.js';
import { awaitRedirect, completeRedirect, redirectAction, settleRedirect, stageOf } from './redirect.js';

/**
 * PayPal, in the two ways Adyen offers it (`paymentMethod.subtype`):
 * - `sdk` (the default, and `express`): the shopper approves in PayPal's own window, so the
 *   payment waits (`Pending`) with an `sdk` action whose paymentData the client sends back,
 *   after any /paypal/updateOrder calls, with the approval (`details.orderID` / `details.payerID`);
 * - `redirect`: the shopper is sent to PayPal's approval page (RedirectShopper with a `redirect`
 *   action; the sandbox's page stands for PayPal) and comes back with a redirectResult for
 *   /payments/details, like the other redirect methods; an approval never given closes the offer.
 */
export const payPalFlow: PaymentMethodFlow = {
  types: ['paypal'],

  start(ctx, pending) {
    const payment: Payment = { ...pending, paymentMethodType: 'paypal', cardBrand: 'paypal' };
    if ((ctx.input.paymentMethod as MethodOf<'paypal'>).subtype === 'redirect') return Promise.resolve({ payment: awaitRedirect(payment, ctx.now) });
    return Promise.resolve({ payment: { ...payment, resultCode: 'Pending', paymentData: newPaymentData() } });
  },

  complete(ctx, payment, { details, redirectOutcome }) {
    if (stageOf(payment) !== undefined) {
      // PayPal's page offers no pending answer, so a redirect payment is never left pending.
      return Promise.resolve(completeRedirect(payment, redirectOutcome, ctx.now, { pendingMs: 0 }));
    }
    if (payment.resultCode !== 'Pending' || !(details.orderID || details.payerID)) {
      throw new ApiError(ERR_PAYPAL_PAYMENT_DATA, { message: "Invalid paymentData: send the latest 'paymentData' of the pending PayPal payment" });
    }
    return Promise.resolve(authorise({ ...payment, detailsSubmitted: true }, ctx.now));
  },

  settle: (ctx, payment) => Promise.resolve(settleRedirect(payment, ctx.now)),

  action(payment, baseUrl) {
    if (payment.resultCode === 'RedirectShopper') return redirectAction(payment, `${baseUrl}/hosted/paypal/${payment.pspReference}`);
    if (payment.resultCode !== 'Pending' || !payment.paymentData) return undefined;
    return { type: 'sdk', paymentMethodType: 'paypal', paymentData: payment.paymentData, sdkData: { token: `EC-${payment.pspReference}` } };
  },

  responseMethod: () => ({ type: 'paypal' }),
};
