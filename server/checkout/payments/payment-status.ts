/**
 * The client-side status poll (spec/clientside): what Adyen's web library asks, with a client
 * key, while it shows a QR code or waits for the shopper's app.
 */
import { command } from '../../kernel/http/handler.js';
import { isFinal } from './authorisation.js';
import { paymentOfStatusPoll } from './payments.domain.js';

/** POST /services/PaymentInitiation/v1/status */
export const checkPaymentStatus = command('checkPaymentStatus')(async ({ tx, body, caller: { credential } }, deps) => {
  const payment = await paymentOfStatusPoll(tx, deps.clock.now(credential.companyId), credential, body.paymentData);
  if (!isFinal(payment)) return { type: 'pending' as const, resultCode: 'pending' as const };
  const resultCode = payment.resultCode.toLowerCase() as 'authorised' | 'refused' | 'cancelled' | 'error';
  // The library submits the payload with the paymentData, which names the payment; the payload only says what it saw.
  const payload = Buffer.from(JSON.stringify({ psp: payment.pspReference, resultCode: payment.resultCode })).toString('base64url');
  return { type: 'complete' as const, resultCode, payload };
});
