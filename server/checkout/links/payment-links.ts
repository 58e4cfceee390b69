import { command, operation } from '../../kernel/http/handler.js';
import { baseUrlOf } from '../../kernel/http/links.js';
import type { PaymentLink } from '../../store/types.js';
import type { Money } from '../money.js';
import { createLink, expireLink, getLink } from './payment-links.domain.js';

/**
 * The request fields a link response must echo, read back from the stored fields (which the
 * store keeps untyped): they were validated against the spec when the link was made.
 */
function requiredFieldsOf(link: PaymentLink): { merchantAccount: string; reference: string; amount: Money } {
  const { merchantAccount, reference, amount } = link.fields;
  if (
    typeof merchantAccount === 'string' &&
    typeof reference === 'string' &&
    typeof amount === 'object' &&
    amount !== null &&
    'currency' in amount &&
    'value' in amount
  ) {
    const { currency, value } = amount;
    if (typeof currency === 'string' && typeof value === 'number') return { merchantAccount, reference, amount: { currency, value } };
  }
  throw new Error(`payment link ${link.id}: stored fields lack merchantAccount, reference or amount`);
}

/** The wire form of a link: the stored request fields plus its state. */
export const toLinkView = (link: PaymentLink, baseUrl: string) => ({
  ...link.fields,
  ...requiredFieldsOf(link),
  id: link.id,
  status: link.status,
  url: `${baseUrl}/payByLink/${link.id}`,
  reusable: link.reusable,
  expiresAt: link.expiresAt,
  updatedAt: link.updatedAt,
});

/** POST /paymentLinks */
export const paymentLinks = command('paymentLinks')(async ({ tx, body, caller, req }, deps) => {
  const link = await createLink(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
  return toLinkView(link, baseUrlOf(req, deps.config.publicBaseUrl));
});

/** GET /paymentLinks/{linkId} */
export const getPaymentLink = operation('getPaymentLink')(async ({ path, caller: { credential }, req }, deps) => {
  const link = await deps.store.transaction((tx) => getLink(tx, deps.clock.now(credential.companyId), credential, path.linkId));
  return toLinkView(link, baseUrlOf(req, deps.config.publicBaseUrl));
});

/** PATCH /paymentLinks/{linkId} */
export const updatePaymentLink = operation('updatePaymentLink')(async ({ path, caller: { credential }, req }, deps) => {
  const link = await deps.store.transaction((tx) => expireLink(tx, deps.clock.now(credential.companyId), credential, path.linkId));
  return toLinkView(link, baseUrlOf(req, deps.config.publicBaseUrl));
});
