import { ApiError, ERR_PAYPAL_PAYMENT_DATA } from '../../../kernel/errors.js';
import { authorise, newPaymentData } from '../authorisation.js';
import type { PaymentMethodFlow } from './method.js';

/**
 * PayPal: the shopper approves in PayPal's own window, so the payment waits (`Pending`) with an
 * `sdk` action whose paymentData the client sends back, after any /paypal/updateOrder calls,
 * with the approval (`details.orderID` / `details.payerID`).
 */
export const payPalFlow: PaymentMethodFlow = {
  types: ['paypal'],

  start(_ctx, pending) {
    return Promise.resolve({ payment: { ...pending, resultCode: 'Pending', paymentMethodType: 'paypal', cardBrand: 'paypal', paymentData: newPaymentData() } });
  },

  complete(ctx, payment, { details }) {
    if (payment.resultCode !== 'Pending' || !(details.orderID || details.payerID)) {
      throw new ApiError(ERR_PAYPAL_PAYMENT_DATA, { message: "Invalid paymentData: send the latest 'paymentData' of the pending PayPal payment" });
    }
    return Promise.resolve(authorise({ ...payment, detailsSubmitted: true }, ctx.now));
  },

  action(payment) {
    if (payment.resultCode !== 'Pending' || !payment.paymentData) return undefined;
    return { type: 'sdk', paymentMethodType: 'paypal', paymentData: payment.paymentData, sdkData: { token: `EC-${payment.pspReference}` } };
  },

  responseMethod: () => ({ type: 'paypal' }),
};
