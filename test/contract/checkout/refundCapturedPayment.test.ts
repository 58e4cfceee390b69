import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_NOTHING_CAPTURED, ERR_REFUND_EXCEEDS_CAPTURED } from '../../../server/kernel/errors.js';
import { authorisedPayment, capture, eur, refund } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('POST /payments/{paymentPspReference}/refunds', () => {
  test('When a captured payment is refunded in parts, then the parts add up to at most the captured amount', async () => {
    const psp = await authorisedPayment(server);
    await capture(server, psp, 800);
    const first = await refund(server, psp, 500, { reference: 'refund-1', merchantRefundReason: 'RETURN' });
    expect(first.response.status).toBe(201);
    expect(first.data).toMatchObject({ paymentPspReference: psp, status: 'received', amount: eur(500), reference: 'refund-1', merchantRefundReason: 'RETURN' });
    const tooMuch = await refund(server, psp, 301);
    expect(tooMuch.error).toMatchObject({ status: 422, errorCode: ERR_REFUND_EXCEEDS_CAPTURED.code });
    expect((await refund(server, psp, 300)).response.status).toBe(201);
    expect((await refund(server, psp, 1)).error?.errorCode).toBe(ERR_REFUND_EXCEEDS_CAPTURED.code);
  });

  test('When nothing was captured, then a refund gets 422 with code 22_004', async () => {
    const psp = await authorisedPayment(server);
    const { error } = await refund(server, psp, 100);
    expect(error).toMatchObject({ status: 422, errorCode: ERR_NOTHING_CAPTURED.code });
  });

  test('When refunds of one payment race each other, then together they never exceed the captured amount', async () => {
    const psp = await authorisedPayment(server);
    await capture(server, psp, 1000);
    const results = await Promise.all(Array.from({ length: 12 }, () => refund(server, psp, 250)));
    expect(results.filter((r) => r.response.status === 201)).toHaveLength(4);
  });
});
