import { command } from '../../kernel/http/handler.js';
import { checkGiftCardBalance } from './gift-card-balance.domain.js';
import { cancelOrder as cancelOrderUseCase, createOrder } from './orders.domain.js';

/** POST /orders */
export const orders = command('orders')(async ({ tx, body, caller }, deps) => {
  const order = await createOrder(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
  return {
    pspReference: order.pspReference,
    resultCode: 'Success',
    reference: order.reference,
    expiresAt: order.expiresAt,
    orderData: order.orderData,
    amount: { currency: order.currency, value: order.value },
    remainingAmount: { currency: order.currency, value: order.remainingValue },
  };
});

/** POST /orders/cancel */
export const cancelOrder = command('cancelOrder')(async ({ tx, body, caller }, deps) => {
  const { pspReference } = await cancelOrderUseCase(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
  return { pspReference, resultCode: 'Received' };
});

/** POST /paymentMethods/balance */
export const getBalanceOfGiftCard = command('getBalanceOfGiftCard')(async ({ tx, body, caller }) =>
  checkGiftCardBalance(tx, caller.credential, {
    merchantAccount: body.merchantAccount,
    amount: body.amount,
    paymentMethod: body.paymentMethod,
    ...(body.selectedBrand && { selectedBrand: body.selectedBrand }),
  }),
);
