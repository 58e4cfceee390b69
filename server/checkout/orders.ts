import type { operations } from '../../generated/checkout.js';
import type { HandlerFactory, JsonBody } from '../http/types.js';
import { cancelOrder as cancelOrderUseCase, createOrder } from './orders.domain.js';

/** POST /orders */
export const orders: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['orders']>;
    const order = await createOrder(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
    return {
      pspReference: order.pspReference,
      resultCode: 'Success' as const,
      reference: order.reference,
      expiresAt: order.expiresAt,
      orderData: order.orderData,
      amount: { currency: order.currency, value: order.value },
      remainingAmount: { currency: order.currency, value: order.remainingValue },
    };
  });

/** POST /orders/cancel */
export const cancelOrder: HandlerFactory = (deps) =>
  deps.commands.handler(200, async (tx, caller, req) => {
    const body = req.body as JsonBody<operations['cancelOrder']>;
    const { pspReference } = await cancelOrderUseCase(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
    return { pspReference, resultCode: 'Received' as const };
  });
