import { command } from '../../kernel/http/handler.js';
import { originKeys as makeOriginKeys } from './origin-keys.domain.js';
import { updatePayPalOrder } from '../payments/paypal.domain.js';

/** POST /paypal/updateOrder */
export const updatesOrderForPaypalExpressCheckout = command('updatesOrderForPaypalExpressCheckout')(async ({ tx, body, caller }, deps) => {
  const { paymentData } = await updatePayPalOrder(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
  return { paymentData, status: 'success' };
});

/** POST /originKeys (deprecated) */
export const originKeys = command('originKeys')(({ body, caller }, deps) => ({
  originKeys: makeOriginKeys(caller.credential, body.originDomains, (t) => deps.redirects.mac(t)),
}));
