import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_NOT_CANCELLABLE } from '../../../server/kernel/errors.js';
import { authorisedPayment, eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const path = (psp: string) => ({ params: { path: { paymentPspReference: psp } } });
const cancel = (psp: string) =>
  server.checkout.POST('/payments/{paymentPspReference}/cancels', { ...path(psp), body: { merchantAccount: 'DemoMerchantECOM', reference: 'cancel-1' } });

describe('POST /payments/{paymentPspReference}/cancels', () => {
  test('When an authorised payment is cancelled, then the answer is 201 received and it can no longer be captured', async () => {
    const psp = await authorisedPayment(server);
    const { data, response } = await cancel(psp);
    expect(response.status).toBe(201);
    expect(data).toEqual({
      merchantAccount: 'DemoMerchantECOM',
      paymentPspReference: psp,
      pspReference: expect.any(String),
      reference: 'cancel-1',
      status: 'received',
    });
    const captured = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      ...path(psp),
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
    });
    expect(captured.error?.errorCode).toBe('22_001');
  });

  test('When the payment was captured, then a cancel gets 422 with code 22_006', async () => {
    const psp = await authorisedPayment(server);
    await server.checkout.POST('/payments/{paymentPspReference}/captures', { ...path(psp), body: { merchantAccount: 'DemoMerchantECOM', amount: eur(500) } });
    expect((await cancel(psp)).error?.errorCode).toBe(ERR_NOT_CANCELLABLE.code);
  });

  test('When the payment is cancelled twice, then the second gets 422 with code 22_006', async () => {
    const psp = await authorisedPayment(server);
    await cancel(psp);
    expect((await cancel(psp)).error?.errorCode).toBe(ERR_NOT_CANCELLABLE.code);
  });
});
