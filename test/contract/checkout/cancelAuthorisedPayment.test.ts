import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_PAYMENT_NOT_FOUND } from '../../../server/kernel/errors.js';
import { uniqueReference } from '../../helpers/factories.js';
import { authorisedPayment, capture } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('POST /cancels', () => {
  test('When a payment is cancelled by its merchant reference, then the latest payment with that reference is cancelled', async () => {
    const reference = uniqueReference();
    const older = await authorisedPayment(server, { reference });
    const latest = await authorisedPayment(server, { reference });
    const { data, response } = await server.checkout.POST('/cancels', {
      body: { merchantAccount: 'DemoMerchantECOM', paymentReference: reference, reference: 'tc-1' },
    });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      merchantAccount: 'DemoMerchantECOM',
      paymentReference: reference,
      pspReference: expect.any(String),
      reference: 'tc-1',
      status: 'received',
    });
    expect((await capture(server, latest, 1000)).error?.errorCode).toBe('22_001');
    expect((await capture(server, older, 1000)).response.status).toBe(201);
  });

  test('When no payment has the reference, then the answer is 422 with code 167', async () => {
    const { error } = await server.checkout.POST('/cancels', { body: { merchantAccount: 'DemoMerchantECOM', paymentReference: 'never-used' } });
    expect(error).toMatchObject({ status: 422, errorCode: ERR_PAYMENT_NOT_FOUND.code });
  });
});
