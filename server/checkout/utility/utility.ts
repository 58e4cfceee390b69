import { command, type CommandCall, type HandlerDeps, operation } from '../../kernel/http/handler.js';
import { originKeys as makeOriginKeys } from './origin-keys.domain.js';
import { applePaySession } from './apple-pay.domain.js';
import { updateWalletOrder as updateOrder } from './paypal-order.domain.js';
import { validateShopperId as validate } from './shopper-id.domain.js';

/** One handler for the order update at both of its paths. */
const orderUpdate = async ({ tx, body, caller }: CommandCall<'updatesOrderForPaypalExpressCheckout' | 'updateWalletOrder'>, deps: HandlerDeps) => {
  const { paymentData } = await updateOrder(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
  return { paymentData, status: 'success' as const };
};

/** POST /paypal/updateOrder */
export const updatesOrderForPaypalExpressCheckout = command('updatesOrderForPaypalExpressCheckout')(orderUpdate);

/** POST /wallet/updateOrder: the design's path of the same operation. */
export const updateWalletOrder = command('updateWalletOrder')(orderUpdate);

/** POST /originKeys (deprecated) */
export const originKeys = command('originKeys')(({ body, caller }, deps) => ({
  originKeys: makeOriginKeys(caller.credential, body.originDomains, (t) => deps.redirects.mac(t)),
}));

/** POST /applePay/sessions */
export const getApplePaySession = command('getApplePaySession')(async ({ tx, body, caller }, deps) => ({
  data: await applePaySession(tx, deps.clock.now(caller.credential.companyId), caller.credential, body, (t) => deps.redirects.mac(t)),
}));

/** POST /validateShopperId: nothing is read or stored. */
export const validateShopperId = operation('validateShopperId')(({ body }) => validate(body));
