import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_PAYPAL_NOT_PENDING } from '../../../server/kernel/errors.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { advanceClock, answerRedirect, recordedEvents, storedPayment } from '../../helpers/methods.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const start = async (subtype?: 'sdk' | 'redirect' | 'express') => {
  const { data, response } = await server.checkout.POST('/payments', {
    body: buildPaymentRequest({ paymentMethod: { type: 'paypal', ...(subtype && { subtype }) } }),
  });
  expect(response.status).toBe(200);
  return data!;
};
const finish = (redirectResult: string) => server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });

describe('POST /payments with PayPal', () => {
  test.each([
    ['absent', undefined],
    ['sdk', 'sdk' as const],
    ['express', 'express' as const],
  ])('When the subtype is %s, then the payment is Pending with an sdk action', async (_name, subtype) => {
    const started = await start(subtype);
    expect(started).toMatchObject({ resultCode: 'Pending', action: { type: 'sdk', paymentMethodType: 'paypal', sdkData: { token: expect.any(String) } } });
  });

  test('When the subtype is redirect, then the shopper is sent to the PayPal page, and the details call with the redirectResult authorises it for capture', async () => {
    const started = await start('redirect');
    expect(started).toMatchObject({
      resultCode: 'RedirectShopper',
      paymentMethod: { type: 'paypal' },
      action: { type: 'redirect', method: 'GET', paymentMethodType: 'paypal' },
    });
    expect((started.action as { url: string }).url).toContain(`/hosted/paypal/${started.pspReference}`);
    const { data } = await finish(await answerRedirect(started.action, 'authorised'));
    expect(data).toMatchObject({ pspReference: started.pspReference, resultCode: 'Authorised', paymentMethod: { type: 'paypal' } });
    // The demo account captures manually: PayPal is captured and refunded like a card.
    const psp = started.pspReference!;
    const capture = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      params: { path: { paymentPspReference: psp } },
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
    });
    expect(capture.response.status).toBe(201);
    expect(await recordedEvents(server, psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true']);
  });

  test.each<['refused' | 'cancelled', string]>([
    ['refused', 'Refused'],
    ['cancelled', 'Cancelled'],
  ])('When the PayPal page answers %s, then the result is %s and reported as a failed AUTHORISATION', async (outcome, resultCode) => {
    const started = await start('redirect');
    const { data } = await finish(await answerRedirect(started.action, outcome));
    expect(data?.resultCode).toBe(resultCode);
    expect(await recordedEvents(server, started.pspReference!)).toEqual(['AUTHORISATION:false']);
  });

  test('When the PayPal page is asked to leave a payment pending, then it offers no such answer and the shopper pays', async () => {
    const started = await start('redirect');
    const { url } = started.action as { url: string };
    expect(await (await fetch(url)).text()).not.toContain('outcome=pending');
    const answered = await fetch(`${url}/answer?outcome=pending`, { redirect: 'manual' });
    const redirectResult = new URL(answered.headers.get('location')!).searchParams.get('redirectResult')!;
    expect((await finish(redirectResult)).data?.resultCode).toBe('Authorised');
  });

  test('When /paypal/updateOrder names a redirect payment, then the answer is 422 and its amount stays', async () => {
    const started = await start('redirect');
    const { error } = await server.checkout.POST('/paypal/updateOrder', {
      body: { pspReference: started.pspReference!, paymentData: 'anything', amount: eur(1500) },
    });
    expect(error).toMatchObject({ status: 422, errorCode: ERR_PAYPAL_NOT_PENDING.code });
    expect((await storedPayment(server, started.pspReference!))?.authorisedValue).toBe(1000);
  });

  test('When the shopper never comes back from the PayPal page, then the offer closes after an hour (OFFER_CLOSED)', async () => {
    const started = await start('redirect');
    await advanceClock(server, 60 * 60);
    expect(await storedPayment(server, started.pspReference!)).toMatchObject({ resultCode: 'Cancelled' });
    expect(await recordedEvents(server, started.pspReference!)).toEqual(['OFFER_CLOSED:true']);
    expect((await fetch((started.action as { url: string }).url)).status).toBe(404);
  });
});
