import type { components, operations } from '../../generated/checkout.js';
import { baseUrlOf } from '../http/links.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import { makePayment, type PaymentOutcome, submitPaymentDetails } from './payments.domain.js';

type PaymentResponse = components['schemas']['PaymentResponse'];

/** The wire form of a payment; the full card number never reaches it (first six and last four only). */
export function toPaymentResponse({ payment, order }: PaymentOutcome, baseUrl: string): PaymentResponse {
  const response: PaymentResponse = {
    pspReference: payment.pspReference,
    resultCode: payment.resultCode,
    merchantReference: payment.reference,
    amount: { currency: payment.currency, value: payment.originalValue },
    paymentMethod: { brand: payment.cardBrand, type: 'scheme' },
  };
  if (payment.resultCode === 'RedirectShopper') {
    response.action = { type: 'redirect', method: 'GET', url: `${baseUrl}/hosted/3ds/${payment.pspReference}`, paymentMethodType: 'scheme' };
  } else {
    response.additionalData = {
      cardSummary: payment.cardLastFour,
      cardBin: payment.cardBin,
      expiryDate: `${payment.expiryMonth}/${payment.expiryYear}`,
      paymentMethod: payment.cardBrand,
      refusalReasonRaw: payment.resultCode === 'Authorised' ? 'AUTHORISED' : (payment.refusalReason ?? ''),
      ...(payment.authCode && payment.resultCode === 'Authorised' ? { authCode: payment.authCode } : {}),
      ...(payment.holderName ? { cardHolderName: payment.holderName } : {}),
    };
  }
  if (payment.refusalReason) {
    response.refusalReason = payment.refusalReason;
    response.refusalReasonCode = payment.refusalReasonCode ?? '';
  }
  if (order) {
    response.order = {
      pspReference: order.pspReference,
      reference: order.reference,
      orderData: order.orderData,
      expiresAt: order.expiresAt,
      amount: { currency: order.currency, value: order.value },
      remainingAmount: { currency: order.currency, value: order.remainingValue },
    };
  }
  return response;
}

/** POST /payments */
export const payments: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['payments']>;
    const outcome = await makePayment(tx, deps.clock.now(), caller.credential, {
      merchantAccount: body.merchantAccount,
      reference: body.reference,
      returnUrl: body.returnUrl,
      amount: body.amount,
      paymentMethod: body.paymentMethod,
      ...(body.captureDelayHours !== undefined && { captureDelayHours: body.captureDelayHours }),
      ...(body.additionalData && { additionalData: body.additionalData }),
      ...(body.order && { order: body.order }),
      ...(body.shopperReference && { shopperReference: body.shopperReference }),
    });
    return toPaymentResponse(outcome, baseUrlOf(req, deps.config.publicBaseUrl));
  });

/** POST /payments/details */
export const paymentsDetails: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['paymentsDetails']>;
    const outcome = await submitPaymentDetails(tx, deps.clock.now(), caller.credential, deps.redirects, body.details);
    return toPaymentResponse(outcome, baseUrlOf(req, deps.config.publicBaseUrl));
  });
