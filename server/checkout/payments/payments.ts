import type { components } from '../../../generated/checkout.js';
import { type BodyOf, command } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import { flowOfPayment } from './methods/index.js';
import type { PaymentInput, PaymentOutcome } from './authorisation.js';
import { makePayment, submitFingerprint, submitPaymentDetails } from './payments.domain.js';
import { offeredDonationToken } from '../donations/donation-token.js';

type PaymentResponse = components['schemas']['PaymentResponse'];

/** The wire form of a payment; the full card number never reaches it (first six and last four only). */
export function toPaymentResponse({ payment, order, token }: PaymentOutcome, baseUrl: string): PaymentResponse {
  const flow = flowOfPayment(payment.paymentMethodType);
  const response: PaymentResponse = {
    pspReference: payment.pspReference,
    resultCode: payment.resultCode,
    merchantReference: payment.reference,
    amount: { currency: payment.currency, value: payment.originalValue },
    paymentMethod: flow.responseMethod?.(payment) ?? { type: payment.paymentMethodType },
  };
  const action = flow.action?.(payment, baseUrl);
  if (action) response.action = action;
  const additionalData = flow.additionalData?.(payment, token !== undefined);
  if (additionalData) response.additionalData = additionalData;
  Object.assign(response, flow.responseFields?.(payment));
  // Donations (checkout-requests): an authorised card payment offers a donation token while the
  // merchant account has an active donation campaign in the payment's currency (see POST /donations).
  const donationToken = offeredDonationToken(payment);
  if (donationToken) response.donationToken = donationToken;
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
    // What some methods need: Klarna's items, Boleto's shopper, 3D Secure's choices.
    ...(body.lineItems && { lineItems: body.lineItems }),
    ...(body.shopperName && { shopperName: body.shopperName }),
    ...(body.socialSecurityNumber && { socialSecurityNumber: body.socialSecurityNumber }),
    ...(body.billingAddress && { billingAddress: body.billingAddress }),
    ...(body.countryCode && { countryCode: body.countryCode }),
    ...(body.shopperLocale && { shopperLocale: body.shopperLocale }),
    ...(body.authenticationData && { authenticationData: body.authenticationData }),
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
  // A details response carries an action only for the next 3D Secure 2 step (the spec allows no other).
  const { action, ...response } = toPaymentResponse(outcome, baseUrlOf(req, deps.config.publicBaseUrl));
  return action?.type === 'threeDS2' ? { ...response, action } : response;
});

/**
 * POST /v1/submitThreeDS2Fingerprint (client-side): the device fingerprint adyen-web submits
 * itself. Answered as the library reads it: the challenge's action (`type: action`), or the
 * details that finish a frictionless payment through the payment details operations
 * (`type: completed`).
 */
export const submitThreeDS2Fingerprint = command('submitThreeDS2Fingerprint')(async ({ tx, body, caller, req }, deps) => {
  const outcome = await submitFingerprint({ tx, now: deps.clock.now(caller.credential.companyId), vault: deps.vault }, caller.credential, body);
  if (outcome.threeDSResult !== undefined) return { type: 'completed' as const, details: { threeDSResult: outcome.threeDSResult } };
  const action = flowOfPayment(outcome.payment.paymentMethodType).action?.(outcome.payment, baseUrlOf(req, deps.config.publicBaseUrl));
  if (action?.type !== 'threeDS2') throw new Error(`payment ${outcome.payment.pspReference} left its fingerprint without a challenge action`);
  return { type: 'action' as const, action };
});
