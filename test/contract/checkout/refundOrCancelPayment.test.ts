import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_NOTHING_TO_REVERSE } from '../../../server/kernel/errors.js';
import { authorisedPayment, eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const path = (psp: string) => ({ params: { path: { paymentPspReference: psp } } });
const reverse = (psp: string) =>
  server.checkout.POST('/payments/{paymentPspReference}/reversals', { ...path(psp), body: { merchantAccount: 'DemoMerchantECOM', reference: 'rev-1' } });

describe('POST /payments/{paymentPspReference}/reversals', () => {
  test('When nothing was captured, then the reversal cancels the payment', async () => {
    const psp = await authorisedPayment(server);
    const { data, response } = await reverse(psp);
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ paymentPspReference: psp, status: 'received', reference: 'rev-1' });
    const capture = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1) },
    });
    expect(capture.error?.errorCode).toBe('22_001');
  });

  test('When the payment was captured, then the reversal refunds what is not yet refunded', async () => {
    const psp = await authorisedPayment(server);
    await server.checkout.POST('/payments/{paymentPspReference}/captures', { ...path(psp), body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) } });
    await server.checkout.POST('/payments/{paymentPspReference}/refunds', { ...path(psp), body: { merchantAccount: 'DemoMerchantECOM', amount: eur(200) } });
    expect((await reverse(psp)).response.status).toBe(201);
    const refund = await server.checkout.POST('/payments/{paymentPspReference}/refunds', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1) },
    });
    expect(refund.error?.errorCode).toBe('22_003');
  });

  test('When the payment is already reversed, then another reversal gets 422 with code 22_008', async () => {
    const psp = await authorisedPayment(server);
    await reverse(psp);
    expect((await reverse(psp)).error).toMatchObject({ status: 422, errorCode: ERR_NOTHING_TO_REVERSE.code });
  });
});
