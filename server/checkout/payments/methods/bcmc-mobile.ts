import type { Payment } from '../../../store/types.js';
import { authorise, closeOffer, isFinal, newPaymentData, refuse } from '../authorisation.js';
import { TEST_REFUSALS } from '../test-results.js';
import { type PaymentMethodFlow, plainMethodResponse } from './method.js';

/** How long the QR code can be scanned before the offer closes. */
export const BCMC_MOBILE_QR_LIFETIME_MS = 15 * 60 * 1000;

const appUrl = (baseUrl: string, payment: Payment) => `${baseUrl}/hosted/bcmc-mobile/${payment.pspReference}`;

/**
 * Bancontact mobile (Payconiq by Bancontact): Pending with a `qrCode` action. The QR code holds
 * the address of the sandbox's Bancontact app page, where the shopper (or a test) pays or
 * declines; the answer is applied at once when the client polls /payments/details with the
 * action's paymentData, else by the dispatcher. Unscanned, the offer closes when the code
 * expires (OFFER_CLOSED). Bancontact mobile is captured at once.
 */
export const bcmcMobileFlow: PaymentMethodFlow = {
  types: ['bcmc_mobile', 'bcmc_mobile_QR', 'bcmc_mobile_app'],

  start(ctx, pending) {
    const expiresAt = new Date(ctx.now.getTime() + BCMC_MOBILE_QR_LIFETIME_MS).toISOString();
    const payment: Payment = {
      ...pending,
      paymentMethodType: String(ctx.input.paymentMethod.type),
      captureDelayHours: 0,
      resultCode: 'Pending',
      paymentData: newPaymentData(),
      settleAt: expiresAt,
      methodState: { expiresAt },
    };
    return Promise.resolve({ payment });
  },

  // Polling: the app's answer (recorded by its page, due at once) is applied; otherwise the payment stays as it is.
  async complete(ctx, payment) {
    const due = payment.settleAt !== null && Date.parse(payment.settleAt) <= ctx.now.getTime();
    return due ? await bcmcMobileFlow.settle!(ctx, payment) : payment;
  },

  settle(ctx, payment) {
    if (isFinal(payment)) return Promise.resolve({ ...payment, settleAt: null });
    // The paymentData stays: a client polling after the result gets the result.
    const keep = (p: Payment): Payment => ({ ...p, paymentData: payment.paymentData });
    switch (payment.methodState.answer) {
      case 'authorised':
        return Promise.resolve(keep(authorise(payment, ctx.now)));
      case 'refused':
        return Promise.resolve(keep(refuse(payment, TEST_REFUSALS.REFUSED!, ctx.now)));
      default:
        return Promise.resolve(keep(closeOffer(payment, ctx.now)));
    }
  },

  action(payment, baseUrl) {
    if (payment.resultCode !== 'Pending' || !payment.paymentData) return undefined;
    return {
      type: 'qrCode',
      qrCodeData: appUrl(baseUrl, payment),
      url: appUrl(baseUrl, payment),
      expiresAt: String(payment.methodState.expiresAt),
      paymentData: payment.paymentData,
      paymentMethodType: payment.paymentMethodType,
    };
  },

  ...plainMethodResponse,
};
