import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_NOT_CANCELLABLE } from '../../../server/kernel/errors.js';
import { authorisedPayment, cancel, capture } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('POST /payments/{paymentPspReference}/cancels', () => {
  test('When an authorised payment is cancelled, then the answer is 201 received and it can no longer be captured', async () => {
    const psp = await authorisedPayment(server);
    const { data, response } = await cancel(server, psp, { reference: 'cancel-1' });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      merchantAccount: 'DemoMerchantECOM',
      paymentPspReference: psp,
      pspReference: expect.any(String),
      reference: 'cancel-1',
      status: 'received',
    });
    const captured = await capture(server, psp, 1000);
    expect(captured.error?.errorCode).toBe('22_001');
  });

  test('When the payment was captured, then a cancel gets 422 with code 22_006', async () => {
    const psp = await authorisedPayment(server);
    await capture(server, psp, 500);
    expect((await cancel(server, psp)).error?.errorCode).toBe(ERR_NOT_CANCELLABLE.code);
  });

  test('When the payment is cancelled twice, then the second gets 422 with code 22_006', async () => {
    const psp = await authorisedPayment(server);
    await cancel(server, psp);
    expect((await cancel(server, psp)).error?.errorCode).toBe(ERR_NOT_CANCELLABLE.code);
  });
});
