import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { answerRedirect, recordedEvents } from '../../helpers/methods.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const lineItems = [
  { id: 'shoes', description: 'Shoes', quantity: 1, amountIncludingTax: 6000, amountExcludingTax: 4959, taxAmount: 1041, taxPercentage: 2100 },
  { id: 'socks', description: 'Socks', quantity: 2, amountIncludingTax: 2000, amountExcludingTax: 1653, taxAmount: 347, taxPercentage: 2100 },
];
const start = async (type = 'klarna', extra: Record<string, unknown> = {}) =>
  server.checkout.POST('/payments', {
    body: buildPaymentRequest({
      amount: eur(10000),
      countryCode: 'NL',
      shopperEmail: 'customer@example.com',
      lineItems,
      paymentMethod: { type } as never,
      ...extra,
    }),
  });
const finish = (redirectResult: string) => server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });
const path = (psp: string) => ({ params: { path: { paymentPspReference: psp } } });

describe('POST /payments with Klarna, then POST /payments/details', () => {
  test.each(['klarna', 'klarna_account', 'klarna_paynow'])('When the shopper buys with %s on the Klarna page, then the payment is authorised', async (type) => {
    const { data: started } = await start(type);
    expect(started).toMatchObject({ resultCode: 'RedirectShopper', paymentMethod: { type }, action: { type: 'redirect', paymentMethodType: type } });
    const page = await (await fetch((started!.action as { url: string }).url)).text();
    expect(page).toContain('2 × Socks');
    const { data } = await finish(await answerRedirect(started!.action, 'authorised'));
    expect(data).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type } });
  });

  test('When the authorised payment is captured per line item and refunded, then each modification is accepted and reported', async () => {
    const { data: started } = await start();
    await finish(await answerRedirect(started!.action, 'authorised'));
    const psp = started!.pspReference!;
    const partial = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(6000), lineItems: [lineItems[0]!] },
    });
    expect(partial.response.status).toBe(201);
    const refund = await server.checkout.POST('/payments/{paymentPspReference}/refunds', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(6000), lineItems: [lineItems[0]!] },
    });
    expect(refund.response.status).toBe(201);
    expect(await recordedEvents(server, psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true']);
  });

  test('When a partial capture names no line items, or items that do not add up, then the answer is 422 and nothing is captured', async () => {
    const { data: started } = await start();
    await finish(await answerRedirect(started!.action, 'authorised'));
    const psp = started!.pspReference!;
    const bare = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(6000) },
    });
    expect(bare.error).toMatchObject({ status: 422, errorCode: '158', message: "Required field 'lineItems' is not provided" });
    const wrong = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(5000), lineItems: [lineItems[0]!] },
    });
    expect(wrong.error).toMatchObject({ status: 422, errorCode: '192' });
    const full = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(10000) },
    });
    expect(full.response.status).toBe(201);
  });

  test('When the shopper is one Klarna declines (+denied@), then the page only offers to go back and the payment is refused', async () => {
    const { data: started } = await start('klarna', { shopperEmail: 'customer+denied@example.com' });
    const page = await (await fetch((started!.action as { url: string }).url)).text();
    expect(page).toContain('cannot approve');
    expect(page).not.toContain('outcome=authorised');
    const forged = await fetch(`${(started!.action as { url: string }).url}/answer?outcome=authorised`, { redirect: 'manual' });
    const { data } = await finish(new URL(forged.headers.get('location')!).searchParams.get('redirectResult')!);
    expect(data).toMatchObject({ resultCode: 'Refused', refusalReason: 'Refused' });
    expect(await recordedEvents(server, started!.pspReference!)).toEqual(['AUTHORISATION:false']);
  });

  test('When line items are missing or do not add up to the amount, then the answer is 422 and no payment is made', async () => {
    const missing = await server.checkout.POST('/payments', { body: buildPaymentRequest({ amount: eur(10000), paymentMethod: { type: 'klarna' } as never }) });
    expect(missing.error).toMatchObject({ status: 422, errorCode: '158', message: "Required field 'lineItems' is not provided" });
    const wrong = await start('klarna', { amount: eur(9999) });
    expect(wrong.error).toMatchObject({ status: 422, errorCode: '192', message: "Invalid field 'lineItems': the items add up to 10000, not the amount 9999" });
  });
});
