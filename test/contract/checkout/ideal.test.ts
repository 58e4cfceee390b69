import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_ALREADY_PROCESSED } from '../../../server/kernel/errors.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { advanceClock, answerRedirect, recordedEvents, storedPayment } from '../../helpers/methods.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const start = async () => {
  const { data, response } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'ideal' } }) });
  expect(response.status).toBe(200);
  return data!;
};
const finish = (redirectResult: string) => server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });

describe('POST /payments with iDEAL, then POST /payments/details', () => {
  test('When the shopper pays at the bank page, then the details call authorises the payment, which is captured at once and can be refunded', async () => {
    const started = await start();
    expect(started).toMatchObject({
      resultCode: 'RedirectShopper',
      paymentMethod: { type: 'ideal' },
      action: { type: 'redirect', method: 'GET', paymentMethodType: 'ideal' },
    });
    expect((started.action as { url: string }).url).toContain(`/hosted/ideal/${started.pspReference}`);
    const { data } = await finish(await answerRedirect(started.action, 'authorised'));
    expect(data).toMatchObject({ pspReference: started.pspReference, resultCode: 'Authorised', paymentMethod: { type: 'ideal' } });
    const refund = await server.checkout.POST('/payments/{paymentPspReference}/refunds', {
      params: { path: { paymentPspReference: started.pspReference! } },
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
    });
    expect(refund.response.status).toBe(201);
    expect(await recordedEvents(server, started.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });

  test.each<['refused' | 'cancelled', string, string]>([
    ['refused', 'Refused', 'AUTHORISATION:false'],
    ['cancelled', 'Cancelled', 'AUTHORISATION:false'],
  ])('When the bank page answers %s, then the result is %s and reported', async (outcome, resultCode, event) => {
    const started = await start();
    const { data } = await finish(await answerRedirect(started.action, outcome));
    expect(data?.resultCode).toBe(resultCode);
    expect(await recordedEvents(server, started.pspReference!)).toEqual([event]);
  });

  test("When /paymentMethods offers iDEAL, then it lists Adyen's test banks, and the bank a payment names is shown, the three deciding banks offering their one answer", async () => {
    const { data: offered } = await server.checkout.POST('/paymentMethods', {
      body: { merchantAccount: 'DemoMerchantECOM', countryCode: 'NL', amount: eur(1000) },
    });
    const ideal = offered?.paymentMethods?.find((m) => m.type === 'ideal');
    expect(ideal?.issuers?.map((i) => `${i.id} ${i.name}`)).toEqual([
      '1121 Test Issuer',
      ...Array.from({ length: 9 }, (_, i) => `${1151 + i} Test Issuer ${i + 2}`),
      '1160 Test Issuer Refused',
      '1161 Test Issuer Pending',
      '1162 Test Issuer Cancelled',
    ]);
    for (const [issuer, outcome, resultCode] of [
      ['1160', 'refused', 'Refused'],
      ['1161', 'pending', 'Pending'],
      ['1162', 'cancelled', 'Cancelled'],
    ] as const) {
      const { data: started } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'ideal', issuer } }) });
      const page = await (await fetch((started!.action as { url: string }).url)).text();
      expect(page).toContain(`<dd id="issuer">${ideal!.issuers!.find((i) => i.id === issuer)!.name}</dd>`);
      // Only the bank's answer is offered.
      expect([...page.matchAll(/outcome=(\w+)/g)].map((m) => m[1])).toEqual([outcome]);
      const { data } = await finish(await answerRedirect(started!.action, outcome));
      expect(data?.resultCode).toBe(resultCode);
    }
    // Any other test bank leaves every answer to the shopper.
    const { data: free } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'ideal', issuer: '1154' } }) });
    const page = await (await fetch((free!.action as { url: string }).url)).text();
    expect([...page.matchAll(/outcome=(\w+)/g)].map((m) => m[1])).toEqual(['authorised', 'pending', 'refused', 'cancelled']);
  });

  test('When a redirect result is used twice, then the second gets 422 with code 704', async () => {
    const started = await start();
    const redirectResult = await answerRedirect(started.action, 'authorised');
    await finish(redirectResult);
    expect((await finish(redirectResult)).error?.errorCode).toBe(ERR_ALREADY_PROCESSED.code);
  });
});

describe('POST /payments with iDEAL as the sandbox clock moves', () => {
  let clocked: TestServer;
  beforeAll(async () => {
    clocked = await startServer();
  });
  afterAll(() => clocked.stop());

  test('When the bank leaves the payment pending, then it is Pending until ten minutes later, when it is authorised by event', async () => {
    const { data: started } = await clocked.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'ideal' } }) });
    const { data } = await clocked.checkout.POST('/payments/details', {
      body: { details: { redirectResult: await answerRedirect(started!.action, 'pending') } },
    });
    expect(data).toMatchObject({ resultCode: 'Pending' });
    expect(data?.action).toBeUndefined();
    await advanceClock(clocked, 9 * 60);
    expect((await storedPayment(clocked, started!.pspReference!))?.resultCode).toBe('Pending');
    await advanceClock(clocked, 60);
    expect((await storedPayment(clocked, started!.pspReference!))?.resultCode).toBe('Authorised');
    expect(await recordedEvents(clocked, started!.pspReference!)).toEqual(['AUTHORISATION:true', 'CAPTURE:true']);
  });

  test('When the shopper never comes back from the bank page, then the offer closes after an hour (OFFER_CLOSED) and the page is gone', async () => {
    const { data: started } = await clocked.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'ideal' } }) });
    await advanceClock(clocked, 61 * 60);
    expect((await storedPayment(clocked, started!.pspReference!))?.resultCode).toBe('Cancelled');
    expect(await recordedEvents(clocked, started!.pspReference!)).toEqual(['OFFER_CLOSED:true']);
    expect((await fetch((started!.action as { url: string }).url)).status).toBe(404);
  });
});
