import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_SESSION_NOT_FOUND } from '../../../server/kernel/errors.js';
import { createSession, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const order = (id: string, sessionData: string) => fromBrowser(server, `/v1/sessions/${id}/orders`, { sessionData }, { clientKey, origin: SHOP });

describe('POST /v1/sessions/{sessionId}/orders', () => {
  test("When the gift card component asks for an order, then an order for the session's amount and reference is opened", async () => {
    const s = await createSession(server, { reference: 'dropin-order-1' });
    const response = await order(s.id, s.sessionData);
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({ sessionData: s.sessionData, orderData: expect.any(String), pspReference: expect.any(String) });
    const stored = await server.store.transaction((tx) => tx.orders.getForUpdate(response.body.pspReference));
    expect(stored).toMatchObject({ merchantAccount: 'DemoMerchantECOM', reference: 'dropin-order-1', currency: 'EUR', value: 1000, status: 'open' });
  });

  test("When the session is of a merchant account the key's credential does not reach, then the answer is 422 with code 14_0021 and no order is opened", async () => {
    const s = await createSession(server, { merchantAccount: 'DemoMerchantPOS', reference: 'dropin-order-pos' });
    const response = await order(s.id, s.sessionData);
    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_SESSION_NOT_FOUND.code });
  });
});
