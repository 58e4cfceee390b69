import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_ORDER_CLOSED, ERR_ORDER_NOT_FOUND } from '../../../server/kernel/errors.js';
import { createSession, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const browser = () => ({ clientKey, origin: SHOP });

describe('POST /v1/sessions/{sessionId}/orders/cancel', () => {
  test("When Drop-in cancels the session's order (sending back the whole order it holds), then the order is cancelled and the answer is the session data", async () => {
    const s = await createSession(server);
    const opened = await fromBrowser(server, `/v1/sessions/${s.id}/orders`, { sessionData: s.sessionData }, browser());
    const order = {
      orderData: opened.body.orderData as string,
      pspReference: opened.body.pspReference as string,
      reference: 'dropin-order',
      expiresAt: '2026-11-30T10:00:00Z',
      amount: { currency: 'EUR', value: 1000 },
      remainingAmount: { currency: 'EUR', value: 1000 },
    };
    const response = await fromBrowser(server, `/v1/sessions/${s.id}/orders/cancel`, { sessionData: s.sessionData, order }, browser());
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({ sessionData: s.sessionData });
    expect(await server.store.transaction((tx) => tx.orders.getForUpdate(order.pspReference))).toMatchObject({ status: 'cancelled' });
    const again = await fromBrowser(server, `/v1/sessions/${s.id}/orders/cancel`, { sessionData: s.sessionData, order }, browser());
    expect(again.body).toMatchObject({ status: 422, errorCode: ERR_ORDER_CLOSED.code });
  });

  test('When the order data does not match the order, then the answer is 422 with code 22_013 and the order stays open', async () => {
    const s = await createSession(server);
    const opened = await fromBrowser(server, `/v1/sessions/${s.id}/orders`, { sessionData: s.sessionData }, browser());
    const order = { orderData: 'not-the-order-data', pspReference: opened.body.pspReference as string };
    const response = await fromBrowser(server, `/v1/sessions/${s.id}/orders/cancel`, { sessionData: s.sessionData, order }, browser());
    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_ORDER_NOT_FOUND.code });
    expect(await server.store.transaction((tx) => tx.orders.getForUpdate(order.pspReference))).toMatchObject({ status: 'open' });
  });
});
