import type { operations } from '../../generated/checkout.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import { originKeys as makeOriginKeys } from './origin-keys.domain.js';
import { updatePayPalOrder } from './paypal.domain.js';

/** POST /paypal/updateOrder */
export const updatesOrderForPaypalExpressCheckout: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => {
    const { paymentData } = await updatePayPalOrder(tx, deps.clock.now(caller.credential.companyId), caller.credential, req.body as JsonBody<operations['updatesOrderForPaypalExpressCheckout']>);
    return { paymentData, status: 'success' as const };
  });

/** POST /originKeys (deprecated) */
export const originKeys: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (_tx, caller, req) => {
    const body = req.body as JsonBody<operations['originKeys']>;
    return { originKeys: makeOriginKeys(caller.credential, body.originDomains, (t) => deps.redirects.mac(t)) };
  });
