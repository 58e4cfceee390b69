import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_UNAUTHORIZED } from '../../../server/kernel/errors.js';
import { fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const events = {
  channel: 'web',
  platform: 'web',
  info: [{ id: 'e1', timestamp: '1764410400000', component: 'dropin', type: 'rendered', configData: { showPayButton: true } }],
  errors: [],
  logs: [{ id: 'e2', timestamp: '1764410400001', component: 'scheme', type: 'Submit' }],
};

describe('POST /v3/analytics/{checkoutAttemptId}', () => {
  test('When the library sends a batch of events, then it is accepted with 204 and no body, readable by the page', async () => {
    const response = await fromBrowser(server, '/v3/analytics/attempt-1', events, { clientKey, origin: SHOP });
    expect(response).toEqual({ status: 204, allowOrigin: SHOP, body: undefined });
  });

  test('When the key is unknown, then the answer is 401 without a Basic challenge (a browser would ask the shopper for a password)', async () => {
    const response = await fetch(`${server.clientsideUrl}/v3/analytics/attempt-1?clientKey=test_NOPE0000000000000000`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: SHOP },
      body: JSON.stringify(events),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(await response.json()).toMatchObject({ status: 401, errorCode: ERR_UNAUTHORIZED.code });
  });
});
