import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  ERR_CAPTURE_EXCEEDS_AUTHORISED,
  ERR_CURRENCY_MISMATCH,
  ERR_INVALID_MERCHANT_ACCOUNT,
  ERR_NOT_CAPTURABLE,
  ERR_PAYMENT_NOT_FOUND,
} from '../../../server/kernel/errors.js';
import { buildPaymentRequest, rawCard } from '../../helpers/factories.js';
import { authorisedPayment, cancel, capture, eur, refund } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('POST /payments/{paymentPspReference}/captures', () => {
  test('When the whole authorised amount is captured, then the answer is 201 received with a new pspReference', async () => {
    const psp = await authorisedPayment(server);
    const { data, response } = await capture(server, psp, 1000, { reference: 'capture-1000' });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      merchantAccount: 'DemoMerchantECOM',
      paymentPspReference: psp,
      pspReference: expect.stringMatching(/^[0-9A-Z]{16}$/),
      reference: 'capture-1000',
      status: 'received',
      amount: eur(1000),
    });
    expect(data?.pspReference).not.toBe(psp);
  });

  test('When a partial capture is made on an account without multiple partial captures, then the rest of the authorisation is closed', async () => {
    const psp = await authorisedPayment(server);
    expect((await capture(server, psp, 600)).response.status).toBe(201);
    const { error } = await capture(server, psp, 100);
    expect(error).toMatchObject({ status: 422, errorCode: ERR_CAPTURE_EXCEEDS_AUTHORISED.code });
  });

  test('When the account allows multiple partial captures, then captures add up to the authorised amount and not beyond', async () => {
    const psp = await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS' });
    expect((await capture(server, psp, 400, { merchantAccount: 'DemoMerchantPOS' })).response.status).toBe(201);
    expect((await capture(server, psp, 500, { merchantAccount: 'DemoMerchantPOS' })).response.status).toBe(201);
    const { error } = await capture(server, psp, 101, { merchantAccount: 'DemoMerchantPOS' });
    expect(error?.errorCode).toBe(ERR_CAPTURE_EXCEEDS_AUTHORISED.code);
    expect((await capture(server, psp, 100, { merchantAccount: 'DemoMerchantPOS' })).response.status).toBe(201);
  });

  test('When more than the authorised amount is captured, then the answer is 422 with code 22_002', async () => {
    const psp = await authorisedPayment(server);
    const { error } = await capture(server, psp, 1001);
    expect(error).toMatchObject({ status: 422, errorCode: '22_002', errorType: 'validation' });
  });

  test('When the currency differs from the payment, then the answer is 422 with code 22_007', async () => {
    const psp = await authorisedPayment(server);
    const { error } = await capture(server, psp, 1000, { amount: { currency: 'USD', value: 1000 } });
    expect(error?.errorCode).toBe(ERR_CURRENCY_MISMATCH.code);
  });

  test('When the payment was captured automatically, then a capture is accepted and nothing more is captured', async () => {
    const psp = await authorisedPayment(server, { captureDelayHours: 0 });
    expect((await capture(server, psp, 1000)).response.status).toBe(201);
    // Were it charged twice, a refund of twice the amount would pass.
    const refunded = await refund(server, psp, 1001);
    expect(refunded.error?.errorCode).toBe('22_003');
  });

  test('When a delayed automatic capture falls due on the sandbox clock, then the payment counts as captured', async () => {
    const psp = await authorisedPayment(server, { captureDelayHours: 2 });
    const before = await refund(server, psp, 1000);
    expect(before.error?.errorCode).toBe('22_004');
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 2 * 3600 + 1 } });
    const after = await refund(server, psp, 1000);
    expect(after.response.status).toBe(201);
  });

  test('When the payment was cancelled, then a capture gets 422 with code 22_001', async () => {
    const psp = await authorisedPayment(server);
    await cancel(server, psp);
    const { error } = await capture(server, psp, 1000);
    expect(error?.errorCode).toBe(ERR_NOT_CAPTURABLE.code);
  });

  test('When the payment was refused, then a capture gets 422 with code 22_001', async () => {
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ paymentMethod: rawCard('4111111111111111', { holderName: 'DECLINED' }) }),
    });
    const { error } = await capture(server, data!.pspReference!, 1000);
    expect(error?.errorCode).toBe(ERR_NOT_CAPTURABLE.code);
  });

  test('When the pspReference is unknown, then the answer is 422 with code 167', async () => {
    const { error } = await capture(server, '0000000000000000', 1000);
    expect(error).toMatchObject({ status: 422, errorCode: ERR_PAYMENT_NOT_FOUND.code });
  });

  test('When the payment belongs to another merchant account of the company, then it is unknown there', async () => {
    const psp = await authorisedPayment(server);
    const { error } = await capture(server, psp, 1000, { merchantAccount: 'DemoMerchantPOS' });
    expect(error?.errorCode).toBe(ERR_PAYMENT_NOT_FOUND.code);
  });

  test('When the merchant credential captures on a merchant account it does not reach, then the answer is 403 with code 901', async () => {
    const psp = await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS' });
    const { error, response } = await server.merchantCheckout.POST('/payments/{paymentPspReference}/captures', {
      params: { path: { paymentPspReference: psp } },
      body: { merchantAccount: 'DemoMerchantPOS', amount: eur(1000) },
    });
    expect(response.status).toBe(403);
    expect(error?.errorCode).toBe(ERR_INVALID_MERCHANT_ACCOUNT.code);
  });

  test('When twenty captures of one payment race each other, then together they never exceed the authorised amount', async () => {
    const psp = await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS', amount: eur(1000) });
    const results = await Promise.all(Array.from({ length: 20 }, () => capture(server, psp, 300, { merchantAccount: 'DemoMerchantPOS' })));
    const accepted = results.filter((r) => r.response.status === 201).length;
    const refused = results.filter((r) => r.error?.errorCode === ERR_CAPTURE_EXCEEDS_AUTHORISED.code).length;
    expect(accepted).toBe(3);
    expect(refused).toBe(17);
    expect((await capture(server, psp, 100, { merchantAccount: 'DemoMerchantPOS' })).response.status).toBe(201);
    expect((await capture(server, psp, 1, { merchantAccount: 'DemoMerchantPOS' })).response.status).toBe(422);
  });
});
