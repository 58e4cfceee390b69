import type { components } from '../../../generated/checkout.js';
import { type BodyOf, command } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import { makePayment, type PaymentInput, type PaymentOutcome, submitPaymentDetails } from './payments.domain.js';

type PaymentResponse = components['schemas']['PaymentResponse'];

/** The wire form of a payment; the full card number never reaches it (first six and last four only). */
export function toPaymentResponse({ payment, order, token }: PaymentOutcome, baseUrl: string): PaymentResponse {
  const response: PaymentResponse = {
    pspReference: payment.pspReference,
    resultCode: payment.resultCode,
    merchantReference: payment.reference,
    amount: { currency: payment.currency, value: payment.originalValue },
    paymentMethod: payment.paymentMethodType === 'scheme' ? { brand: payment.cardBrand, type: 'scheme' } : { type: payment.paymentMethodType },
  };
  if (payment.resultCode === 'RedirectShopper') {
    response.action = { type: 'redirect', method: 'GET', url: `${baseUrl}/hosted/3ds/${payment.pspReference}`, paymentMethodType: 'scheme' };
  } else if (payment.resultCode === 'Pending' && payment.paymentData) {
    response.action = {
      type: 'sdk',
      paymentMethodType: payment.paymentMethodType,
      paymentData: payment.paymentData,
      sdkData: { token: `EC-${payment.pspReference}` },
    };
  } else if (payment.paymentMethodType === 'scheme') {
    response.additionalData = {
      cardSummary: payment.cardLastFour,
      cardBin: payment.cardBin,
      expiryDate: `${payment.expiryMonth}/${payment.expiryYear}`,
      paymentMethod: payment.cardBrand,
      refusalReasonRaw: payment.resultCode === 'Authorised' ? 'AUTHORISED' : (payment.refusalReason ?? ''),
      ...(payment.authCode && payment.resultCode === 'Authorised' ? { authCode: payment.authCode } : {}),
      ...(payment.holderName ? { cardHolderName: payment.holderName } : {}),
      ...(payment.storedPaymentMethodId && payment.shopperReference
        ? {
            'tokenization.storedPaymentMethodId': payment.storedPaymentMethodId,
            'tokenization.shopperReference': payment.shopperReference,
            'tokenization.store.operationType': token ? 'created' : 'alreadyExisting',
          }
        : {}),
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

/** The payment request fields the domain uses. */
export function paymentInput(body: BodyOf<'payments'>): PaymentInput {
  return {
    merchantAccount: body.merchantAccount,
    reference: body.reference,
    returnUrl: body.returnUrl,
    amount: body.amount,
    paymentMethod: body.paymentMethod,
    ...(body.captureDelayHours !== undefined && { captureDelayHours: body.captureDelayHours }),
    ...(body.additionalData && { additionalData: body.additionalData }),
    ...(body.order && { order: body.order }),
    ...(body.shopperReference && { shopperReference: body.shopperReference }),
    ...(body.shopperEmail && { shopperEmail: body.shopperEmail }),
    ...(body.storePaymentMethod !== undefined && { storePaymentMethod: body.storePaymentMethod }),
    ...(body.recurringProcessingModel && { recurringProcessingModel: body.recurringProcessingModel }),
  };
}

/** POST /payments */
export const payments = command('payments')(async ({ tx, body, caller, req }, deps) => {
  const outcome = await makePayment({ tx, now: deps.clock.now(caller.credential.companyId), vault: deps.vault }, caller.credential, paymentInput(body));
  return toPaymentResponse(outcome, baseUrlOf(req, deps.config.publicBaseUrl));
});

/** POST /payments/details */
export const paymentsDetails = command('paymentsDetails')(async ({ tx, body, caller, req }, deps) => {
  const input = { details: body.details, ...(body.paymentData !== undefined && { paymentData: body.paymentData }) };
  const outcome = await submitPaymentDetails(
    { tx, now: deps.clock.now(caller.credential.companyId), vault: deps.vault },
    caller.credential,
    deps.redirects,
    input,
  );
  const { action: _none, ...response } = toPaymentResponse(outcome, baseUrlOf(req, deps.config.publicBaseUrl));
  return response;
});
