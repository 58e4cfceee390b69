import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_AMOUNT_UNCHANGED, ERR_AMOUNT_UPDATE_NOT_ALLOWED } from '../../../server/kernel/errors.js';
import { authorisedPayment, capture, eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const path = (psp: string) => ({ params: { path: { paymentPspReference: psp } } });
const update = (psp: string, value: number) =>
  server.checkout.POST('/payments/{paymentPspReference}/amountUpdates', {
    ...path(psp),
    body: { merchantAccount: 'DemoMerchantECOM', amount: eur(value), industryUsage: 'delayedCharge' },
  });

describe('POST /payments/{paymentPspReference}/amountUpdates', () => {
  test('When the amount is raised before capture, then the new amount can be captured in full', async () => {
    const psp = await authorisedPayment(server);
    const { data, response } = await update(psp, 1500);
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ paymentPspReference: psp, status: 'received', amount: eur(1500), industryUsage: 'delayedCharge', reference: '' });
    expect((await capture(server, psp, 1500)).response.status).toBe(201);
  });

  test('When the amount is lowered, then no more than the new amount can be captured', async () => {
    const psp = await authorisedPayment(server);
    await update(psp, 400);
    expect((await capture(server, psp, 401)).error?.errorCode).toBe('22_002');
  });

  test('When the payment was captured, then an amount update gets 422 with code 22_005', async () => {
    const psp = await authorisedPayment(server);
    await capture(server, psp, 100);
    expect((await update(psp, 2000)).error).toMatchObject({ status: 422, errorCode: ERR_AMOUNT_UPDATE_NOT_ALLOWED.code });
  });

  test('When the new amount equals the authorised amount, then the answer is 422 with code 22_009', async () => {
    const psp = await authorisedPayment(server);
    expect((await update(psp, 1000)).error?.errorCode).toBe(ERR_AMOUNT_UNCHANGED.code);
  });
});
