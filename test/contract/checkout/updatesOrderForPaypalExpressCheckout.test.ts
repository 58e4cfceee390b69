import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_DELIVERY_METHODS, ERR_PAYPAL_NOT_PENDING, ERR_PAYPAL_PAYMENT_DATA } from '../../../server/kernel/errors.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { authorisedPayment, eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const startPayPal = async () => {
  const { data } = await server.checkout.POST('/payments', {
    body: buildPaymentRequest({ amount: eur(1000), paymentMethod: { type: 'paypal', subtype: 'express' } }),
  });
  expect(data).toMatchObject({ resultCode: 'Pending', paymentMethod: { type: 'paypal' }, action: { type: 'sdk', paymentMethodType: 'paypal' } });
  return { psp: data!.pspReference!, paymentData: (data!.action as { paymentData: string }).paymentData };
};
const delivery = (selected: [boolean, boolean]) => [
  { reference: '1', description: 'Standard', type: 'Shipping' as const, amount: eur(0), selected: selected[0] },
  { reference: '2', description: 'Express', type: 'Shipping' as const, amount: eur(500), selected: selected[1] },
];
const update = (psp: string, paymentData: string, overrides: Record<string, unknown> = {}) =>
  server.checkout.POST('/paypal/updateOrder', {
    body: { pspReference: psp, paymentData, amount: eur(1650), taxTotal: { amount: eur(150) }, deliveryMethods: delivery([false, true]), ...overrides },
  });

describe('POST /paypal/updateOrder', () => {
  test('When the shopper picks express delivery, then the order is updated, a new paymentData is issued and finishing charges the new amount', async () => {
    const { psp, paymentData } = await startPayPal();
    const { data } = await update(psp, paymentData);
    expect(data).toEqual({ status: 'success', paymentData: expect.any(String) });
    expect(data?.paymentData).not.toBe(paymentData);
    const finished = await server.checkout.POST('/payments/details', {
      body: { paymentData: data!.paymentData, details: { orderID: '5O190127TN364715T', payerID: 'FSMVU44LF3YUS' } },
    });
    expect(finished.data).toMatchObject({ pspReference: psp, resultCode: 'Authorised', amount: eur(1650) });
    const capture = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      params: { path: { paymentPspReference: psp } },
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1650) },
    });
    expect(capture.response.status).toBe(201);
  });

  test('When an old paymentData is sent, then the answer is 422 code 14_003', async () => {
    const { psp, paymentData } = await startPayPal();
    await update(psp, paymentData);
    expect((await update(psp, paymentData)).error?.errorCode).toBe(ERR_PAYPAL_PAYMENT_DATA.code);
  });

  test.each([[[true, true]], [[false, false]]] as Array<[[boolean, boolean]]>)(
    'When the selected delivery methods are %j, then the answer is 422',
    async (selected) => {
      const { psp, paymentData } = await startPayPal();
      expect((await update(psp, paymentData, { deliveryMethods: delivery(selected) })).error?.message).toBe(ERR_DELIVERY_METHODS.message);
    },
  );

  test('When the payment is a card payment, then it cannot be updated', async () => {
    const psp = await authorisedPayment(server);
    expect((await update(psp, 'whatever')).error?.errorCode).toBe(ERR_PAYPAL_NOT_PENDING.code);
  });

  test('When the tax is in another currency, then the answer is 422', async () => {
    const { psp, paymentData } = await startPayPal();
    expect((await update(psp, paymentData, { taxTotal: { amount: { currency: 'USD', value: 1 } } })).error?.errorCode).toBe('22_007');
  });
});
