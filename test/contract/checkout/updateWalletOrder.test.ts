import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_PAYPAL_NOT_PENDING, ERR_PAYPAL_PAYMENT_DATA, ERR_SESSION_NOT_FOUND } from '../../../server/kernel/errors.js';
import { buildPaymentRequest, uniqueReference } from '../../helpers/factories.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

type Path = '/paypal/updateOrder' | '/wallet/updateOrder';

const startPayPal = async (merchantAccount = 'DemoMerchantECOM') => {
  const { data } = await server.checkout.POST('/payments', {
    body: buildPaymentRequest({ merchantAccount, amount: eur(1000), paymentMethod: { type: 'paypal', subtype: 'express' } }),
  });
  expect(data?.resultCode).toBe('Pending');
  return { psp: data!.pspReference!, paymentData: (data!.action as { paymentData: string }).paymentData };
};

/**
 * A session with a pending PayPal Express payment, as Drop-in's sessions flow leaves it. This
 * service's session payments take cards only, so the PayPal payment is started with /payments
 * and then made the session's in the store.
 */
async function payPalInSession(merchantAccount = 'DemoMerchantECOM') {
  const session = await server.checkout.POST('/sessions', {
    body: { merchantAccount, reference: uniqueReference('session'), returnUrl: 'https://shop.example.com/return', amount: eur(1000) },
  });
  const sessionId = session.data!.id;
  const { psp, paymentData } = await startPayPal(merchantAccount);
  await server.store.transaction(async (tx) => {
    const payment = await tx.payments.getForUpdate(psp);
    await tx.payments.update({ ...payment!, sessionId });
  });
  return { sessionId, psp, paymentData };
}

const express = [
  { reference: '1', description: 'Standard', type: 'Shipping' as const, amount: eur(0), selected: false },
  { reference: '2', description: 'Express', type: 'Shipping' as const, amount: eur(500), selected: true },
];
const update = (path: Path, body: { pspReference?: string; sessionId?: string; paymentData: string }) =>
  server.checkout.POST(path, { body: { amount: eur(1500), deliveryMethods: express, ...body } });
const finish = (paymentData: string) =>
  server.checkout.POST('/payments/details', { body: { paymentData, details: { orderID: '5O190127TN364715T', payerID: 'FSMVU44LF3YUS' } } });

describe('POST /wallet/updateOrder', () => {
  test('When the shopper picks express delivery, then it updates the order as /paypal/updateOrder does and finishing charges the new amount', async () => {
    const { psp, paymentData } = await startPayPal();
    const { data, response } = await update('/wallet/updateOrder', { pspReference: psp, paymentData });
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 'success', paymentData: expect.any(String) });
    expect((await finish(data!.paymentData)).data).toMatchObject({ pspReference: psp, resultCode: 'Authorised', amount: eur(1500) });
  });

  test('When an old paymentData is sent, then the answer is 422 code 14_003, as on /paypal/updateOrder', async () => {
    const { psp, paymentData } = await startPayPal();
    await update('/paypal/updateOrder', { pspReference: psp, paymentData });
    expect((await update('/wallet/updateOrder', { pspReference: psp, paymentData })).error).toMatchObject({ errorCode: ERR_PAYPAL_PAYMENT_DATA.code });
  });

  test('When the sessions flow sends sessionId and paymentData, then the session’s PayPal payment is updated', async () => {
    const { sessionId, psp, paymentData } = await payPalInSession();
    const { data } = await update('/wallet/updateOrder', { sessionId, paymentData });
    expect((await finish(data!.paymentData)).data).toMatchObject({ pspReference: psp, amount: eur(1500) });
  });
});

describe('POST /paypal/updateOrder', () => {
  test('When the sessions flow sends sessionId and paymentData without pspReference, then the session’s pending PayPal payment is updated', async () => {
    const { sessionId, psp, paymentData } = await payPalInSession();
    const { data, response } = await update('/paypal/updateOrder', { sessionId, paymentData });
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 'success', paymentData: expect.any(String) });
    expect(data!.paymentData).not.toBe(paymentData);
    // Each update hands out a new paymentData, which the next update must send.
    const second = await update('/paypal/updateOrder', { sessionId, paymentData: data!.paymentData });
    expect(second.data?.status).toBe('success');
    expect((await finish(second.data!.paymentData)).data).toMatchObject({ pspReference: psp, resultCode: 'Authorised', amount: eur(1500) });
  });

  test('When the sessions flow sends a stale paymentData, then the answer is 422 code 14_003 and nothing changes', async () => {
    const { sessionId, paymentData } = await payPalInSession();
    const first = await update('/paypal/updateOrder', { sessionId, paymentData });
    const stale = await update('/paypal/updateOrder', { sessionId, paymentData });
    expect(stale.error).toMatchObject({ errorCode: ERR_PAYPAL_PAYMENT_DATA.code });
    expect((await update('/paypal/updateOrder', { sessionId, paymentData: first.data!.paymentData })).data?.status).toBe('success');
  });

  test('When the session has no pending PayPal payment, then the answer is 422 code 14_0030', async () => {
    const session = await server.checkout.POST('/sessions', {
      body: { merchantAccount: 'DemoMerchantECOM', reference: uniqueReference('session'), returnUrl: 'https://shop.example.com/return', amount: eur(1000) },
    });
    const { error } = await update('/paypal/updateOrder', { sessionId: session.data!.id, paymentData: 'Ab02b4c0!anything' });
    expect(error).toMatchObject({ errorCode: ERR_PAYPAL_NOT_PENDING.code, message: expect.stringContaining('no pending PayPal payment') });
  });

  test('When the session is unknown, or of a merchant account the credential does not reach, then the answer is 422 code 14_0021', async () => {
    expect((await update('/paypal/updateOrder', { sessionId: 'CS0000000000000000', paymentData: 'x' })).error).toMatchObject({
      errorCode: ERR_SESSION_NOT_FOUND.code,
    });
    const { sessionId, paymentData } = await payPalInSession('DemoMerchantPOS');
    const merchantLevel = await server.merchantCheckout.POST('/paypal/updateOrder', { body: { sessionId, paymentData, amount: eur(1500) } });
    expect(merchantLevel.error).toMatchObject({ errorCode: ERR_SESSION_NOT_FOUND.code });
  });

  test('When neither pspReference nor sessionId names the payment, then the answer is 422 code 14_0030', async () => {
    const { paymentData } = await startPayPal();
    const { error } = await update('/paypal/updateOrder', { paymentData });
    expect(error).toMatchObject({ errorCode: ERR_PAYPAL_NOT_PENDING.code, message: expect.stringContaining('sessionId') });
  });
});
