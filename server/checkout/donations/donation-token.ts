import { createHash } from 'node:crypto';
import type { Payment } from '../../store/types.js';
import { activeAt } from './campaigns.js';

/**
 * The donation token of a payment: a digest bound to the payment (its pspReference, merchant
 * account, authorisation code and time), checked against it when a donation names it. It grants
 * nothing beyond what the merchant account's own credentials can do: /donations accepts it only
 * from a credential that reaches the payment's merchant account, and only once.
 */
export function donationTokenOf(payment: Payment): string {
  const bound = ['donation', payment.pspReference, payment.merchantAccount, payment.authCode ?? '', payment.createdAt].join('|');
  return createHash('sha256').update(bound).digest('base64url');
}

/**
 * The token `/payments` offers with a payment: an authorised card payment, while the merchant
 * account has an active donation campaign in the payment's currency.
 */
export function offeredDonationToken(payment: Payment): string | undefined {
  const offered =
    payment.resultCode === 'Authorised' && payment.paymentMethodType === 'scheme' && activeAt(new Date(payment.createdAt), payment.currency).length > 0;
  return offered ? donationTokenOf(payment) : undefined;
}
