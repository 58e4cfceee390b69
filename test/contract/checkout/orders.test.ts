import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_ORDER_AMOUNT_EXCEEDED, ERR_ORDER_CLOSED, ERR_ORDER_EXPIRED, ERR_ORDER_NOT_FOUND } from '../../../server/kernel/errors.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { advanceClock, recordedEvents } from '../../helpers/methods.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function openOrder(value = 2500, expiresAt?: string) {
  const { data, response } = await server.checkout.POST('/orders', {
    body: { merchantAccount: 'DemoMerchantECOM', reference: 'order-x', amount: eur(value), ...(expiresAt && { expiresAt }) },
  });
  expect(response.status).toBe(200);
  return data!;
}
const payTowards = (order: { pspReference?: string; orderData: string }, value: number) =>
  server.checkout.POST('/payments', {
    body: buildPaymentRequest({ amount: eur(value), order: { pspReference: order.pspReference!, orderData: order.orderData } }),
  });

describe('POST /orders', () => {
  test('When an order is created, then it expires one day later and nothing of it is paid yet', async () => {
    const now = server.clock.now().getTime();
    const order = await openOrder();
    expect(order).toMatchObject({ resultCode: 'Success', reference: 'order-x', amount: eur(2500), remainingAmount: eur(2500) });
    expect(Date.parse(order.expiresAt) - now).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 1000);
    expect(Date.parse(order.expiresAt) - now).toBeLessThanOrEqual(24 * 3600 * 1000 + 5000);
  });

  test('When partial payments are made, then the remaining amount decreases and the last one completes the order', async () => {
    const order = await openOrder();
    const first = await payTowards(order, 1000);
    expect(first.data?.order).toMatchObject({ pspReference: order.pspReference, remainingAmount: eur(1500) });
    const second = await payTowards(order, 1500);
    expect(second.data?.order?.remainingAmount).toEqual(eur(0));
    expect((await payTowards(order, 1)).error?.errorCode).toBe(ERR_ORDER_CLOSED.code);
  });

  test('When a payment exceeds the remaining amount, then it is refused with 422 code 22_010', async () => {
    const order = await openOrder(1000);
    const { error } = await payTowards(order, 1001);
    expect(error).toMatchObject({ status: 422, errorCode: ERR_ORDER_AMOUNT_EXCEEDED.code });
  });

  test('When a refused payment is made towards the order, then the remaining amount does not change', async () => {
    const order = await openOrder(1000);
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({
        amount: eur(500),
        order: { pspReference: order.pspReference!, orderData: order.orderData },
        paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', holderName: 'DECLINED' },
      }),
    });
    expect(data).toMatchObject({ resultCode: 'Refused', order: { remainingAmount: eur(1000) } });
  });

  test('When the order has expired on the sandbox clock, then a payment gets 422 with code 22_011', async () => {
    const order = await openOrder(1000, new Date(server.clock.now().getTime() + 60_000).toISOString());
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 61 } });
    expect((await payTowards(order, 100)).error?.errorCode).toBe(ERR_ORDER_EXPIRED.code);
  });

  test('When the order data does not match, then the payment gets 422 with code 22_013', async () => {
    const order = await openOrder();
    expect((await payTowards({ ...order, orderData: 'forged' }, 100)).error?.errorCode).toBe(ERR_ORDER_NOT_FOUND.code);
  });
});

describe('POST /orders as the sandbox clock passes its expiry', () => {
  test('When an order with a partial payment expires, then it is closed unpaid (ORDER_CLOSED false, OFFER_CLOSED) and its payment is cancelled', async () => {
    const order = await openOrder(2500, new Date(server.clock.now().getTime() + 120_000).toISOString());
    const paid = await payTowards(order, 1000);
    await advanceClock(server, 121);
    expect(await recordedEvents(server, order.pspReference!)).toEqual(['ORDER_OPENED:true', 'ORDER_CLOSED:false', 'OFFER_CLOSED:true']);
    expect(await recordedEvents(server, paid.data!.pspReference!)).toEqual(['AUTHORISATION:true', 'CANCELLATION:true']);
    expect((await payTowards(order, 100)).error?.errorCode).toBe(ERR_ORDER_EXPIRED.code);
  });
});

describe('POST /orders/cancel', () => {
  test('When an order with a partial payment is cancelled, then the order takes no more payments and its payment is cancelled', async () => {
    const order = await openOrder();
    const paid = await payTowards(order, 1000);
    const { data, response } = await server.checkout.POST('/orders/cancel', {
      body: { merchantAccount: 'DemoMerchantECOM', order: { pspReference: order.pspReference!, orderData: order.orderData } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ pspReference: expect.any(String), resultCode: 'Received' });
    expect((await payTowards(order, 100)).error?.errorCode).toBe(ERR_ORDER_CLOSED.code);
    const capture = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      params: { path: { paymentPspReference: paid.data!.pspReference! } },
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
    });
    expect(capture.error?.errorCode).toBe('22_001');
  });
});
