import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_SESSION_DATA, ERR_SESSION_EXPIRED, ERR_SESSION_NOT_FOUND, ERR_UNAUTHORIZED } from '../../../server/kernel/errors.js';
import { type BrowserCall, createSession, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const setup = (id: string, sessionData: string, call: Partial<BrowserCall> = {}) =>
  fromBrowser(
    server,
    `/v1/sessions/${id}/setup`,
    {
      sessionData,
      browserInfo: {
        acceptHeader: '*/*',
        colorDepth: 24,
        javaEnabled: false,
        language: 'en-US',
        screenHeight: 1080,
        screenWidth: 1920,
        timeZoneOffset: -60,
        userAgent: 'Mozilla/5.0',
      },
    },
    { clientKey, origin: SHOP, ...call },
  );

describe('POST /v1/sessions/{sessionId}/setup', () => {
  test('When Drop-in sets up a session from an allowed origin, then it gets the methods, amount, country, locale and session data, readable there', async () => {
    const s = await createSession(server, { countryCode: 'NL', shopperLocale: 'nl-NL' });
    const response = await setup(s.id, s.sessionData);
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toMatchObject({
      id: s.id,
      sessionData: s.sessionData,
      amount: eur(1000),
      countryCode: 'NL',
      shopperLocale: 'nl-NL',
      returnUrl: 'https://shop.example.com/return',
      configuration: { enableStoreDetails: false },
    });
    const types = (response.body.paymentMethods.paymentMethods as Array<{ type: string }>).map((m) => m.type);
    expect(types).toContain('scheme');
  });

  test('When the session has no locale and asks for consent to store cards, then the locale is en-US and the card component offers storing', async () => {
    const s = await createSession(server, { storePaymentMethodMode: 'askForConsent', shopperReference: 'shopper-dropin-1' });
    const response = await setup(s.id, s.sessionData);
    expect(response.body).toMatchObject({ shopperLocale: 'en-US', configuration: { enableStoreDetails: true } });
  });

  test("When the session data is not the session's own, then the answer is 422 with code 14_0022", async () => {
    const a = await createSession(server);
    const b = await createSession(server);
    const response = await setup(a.id, b.sessionData);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_SESSION_DATA.code });
  });

  test('When the session expired, then the answer is 422 with code 14_008', async () => {
    const s = await createSession(server, { expiresAt: new Date(server.clock.now().getTime() + 60_000).toISOString() });
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 120 } });
    const response = await setup(s.id, s.sessionData);
    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_SESSION_EXPIRED.code });
  });

  test('When the session is unknown, then the answer is 422 with code 14_0021', async () => {
    const s = await createSession(server);
    const response = await setup('CS0000000000000000', s.sessionData);
    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_SESSION_NOT_FOUND.code });
  });

  test('When no client key or an unknown one is sent, then the answer is 401 in the checkout error shape, readable by the page', async () => {
    const s = await createSession(server);
    for (const key of [undefined, 'test_UNKNOWNKEY000000000000000000000000000000000000']) {
      const response = await setup(s.id, s.sessionData, { clientKey: key });
      expect(response.status).toBe(401);
      expect(response.allowOrigin).toBe(SHOP);
      expect(response.body).toMatchObject({ status: 401, errorCode: ERR_UNAUTHORIZED.code, errorType: 'security' });
    }
  });

  test('When the page is on another origin, or sends none, then the answer is 403', async () => {
    const s = await createSession(server);
    expect((await setup(s.id, s.sessionData, { origin: 'https://evil.example.com' })).status).toBe(403);
    expect((await setup(s.id, s.sessionData, { origin: undefined })).status).toBe(403);
  });

  test("When the key's credential has no allowed origins, then a page on any origin may set up the session", async () => {
    const anyOrigin = await shopClientKey(server, []);
    const s = await createSession(server);
    const response = await setup(s.id, s.sessionData, { clientKey: anyOrigin, origin: 'https://anywhere.example.com' });
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe('https://anywhere.example.com');
  });

  test('When the browser asks before the call (CORS preflight), then any origin may send JSON', async () => {
    const s = await createSession(server);
    const response = await fetch(`${server.clientsideUrl}/v1/sessions/${s.id}/setup?clientKey=${clientKey}`, {
      method: 'OPTIONS',
      headers: { Origin: SHOP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });
});
