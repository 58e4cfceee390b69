import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const start = {
  version: '6.45.2',
  buildType: 'esm',
  channel: 'web',
  platform: 'web',
  locale: 'en-US',
  referrer: `${SHOP}/checkout`,
  screenWidth: 1920,
  checkoutStage: 'checkout',
  level: 'all',
};

describe('POST /v3/analytics', () => {
  test('When the library starts, then it gets a new attempt identifier, and nothing is stored', async () => {
    const before = await server.store.read((tx) => tx.payments.ofSession('none'));
    const response = await fromBrowser(server, '/v3/analytics', start, { clientKey, origin: SHOP });
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({ checkoutAttemptId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await server.store.read((tx) => tx.payments.ofSession('none'))).toEqual(before);
  });

  test('When the library holds an attempt identifier, or reports its flavor with it, then that identifier is answered', async () => {
    const held = await fromBrowser(server, '/v3/analytics', { ...start, checkoutAttemptId: 'attempt-1' }, { clientKey, origin: SHOP });
    expect(held.body).toEqual({ checkoutAttemptId: 'attempt-1' });
    const flavor = await fromBrowser(server, '/v3/analytics', { flavor: 'dropin', checkoutAttemptId: 'attempt-1' }, { clientKey, origin: SHOP });
    expect(flavor.body).toEqual({ checkoutAttemptId: 'attempt-1' });
  });

  test('When the page is on another origin, then the answer is 403', async () => {
    expect((await fromBrowser(server, '/v3/analytics', start, { clientKey, origin: 'https://evil.example.com' })).status).toBe(403);
  });
});
