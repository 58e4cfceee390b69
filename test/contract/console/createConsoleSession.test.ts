import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { consoleSessionHash } from '../../../server/kernel/auth/console-session.js';
import { ERR_NOT_ALLOWED, ERR_UNAUTHORIZED } from '../../../server/kernel/errors.js';
import { DEMO } from '../../../server/seed.js';
import { asPage, signIn } from '../../helpers/console.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment, capture } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('POST /session', () => {
  test('When the company key signs in, then the cookie is HttpOnly, SameSite=Strict, Path=/ for 8 hours and the answer names the credential, its merchant accounts, roles and a CSRF token', async () => {
    const { setCookie, body } = await signIn(server, COMPANY_KEY);
    expect(setCookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    expect(body).toMatchObject({
      username: DEMO.companyUsername,
      companyId: DEMO.companyId,
      level: 'company',
      merchantAccounts: [DEMO.merchantEcom, 'DemoMerchantPOS'].sort(),
      csrfToken: expect.any(String),
    });
    expect(Date.parse(body.expiresAt as string) - Date.now()).toBeGreaterThan(7.9 * 3600 * 1000);
  });

  test('When the console is served over HTTPS, then the session cookie is Secure', async () => {
    const secure = await startServer({}, { https: true });
    try {
      const { setCookie } = await signIn(secure, COMPANY_KEY);
      expect(setCookie).toMatch(/; Secure$/);
    } finally {
      await secure.stop();
    }
  });

  test('When the merchant key signs in, then the session reaches only its merchant account and has checkout roles', async () => {
    const { body } = await signIn(server, MERCHANT_KEY);
    expect(body).toMatchObject({ username: DEMO.merchantUsername, level: 'merchant', merchantAccounts: [DEMO.merchantEcom] });
  });

  test('When the key is wrong, then the answer is 401 in the problem shape without a cookie or a Basic challenge', async () => {
    const response = await fetch(`${server.consoleUrl}/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: 'not-a-key-of-anyone-0000' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(await response.json()).toMatchObject({ status: 401, errorCode: ERR_UNAUTHORIZED.managementCode });
  });

  test('When the session cookie is stored, then only a hash of its token is in the database', async () => {
    const { cookie } = await signIn(server, COMPANY_KEY);
    const token = cookie.split('=')[1]!;
    const stored = await server.store.read((tx) => tx.console.getSession(consoleSessionHash(tx, token)));
    expect(stored).toMatchObject({ credentialId: DEMO.companyCredentialId });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(COMPANY_KEY);
  });

  test('When the session cookie carries a capture with the CSRF token, then the capture is made as the session credential', async () => {
    const psp = await authorisedPayment(server);
    const { cookie, csrfToken } = await signIn(server, COMPANY_KEY);
    const response = await asPage(`${server.checkoutUrl}/payments/${psp}/captures`, {
      method: 'POST',
      cookie,
      csrfToken,
      body: { merchantAccount: DEMO.merchantEcom, amount: { currency: 'EUR', value: 1000 } },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ paymentPspReference: psp, status: 'received' });
  });

  test('When the session cookie carries a capture without the CSRF token, then it is refused with 403 and the payment stays uncaptured', async () => {
    const psp = await authorisedPayment(server);
    const { cookie } = await signIn(server, COMPANY_KEY);
    const response = await asPage(`${server.checkoutUrl}/payments/${psp}/captures`, {
      method: 'POST',
      cookie,
      body: { merchantAccount: DEMO.merchantEcom, amount: { currency: 'EUR', value: 1000 } },
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ errorCode: ERR_NOT_ALLOWED.code });
    const payment = await server.store.read((tx) => tx.payments.get(psp));
    expect(payment?.capturedValue).toBe(0);
  });

  test('When the session cookie carries a capture with the CSRF token from another origin, then it is refused and nothing is captured', async () => {
    const psp = await authorisedPayment(server);
    const { cookie, csrfToken } = await signIn(server, COMPANY_KEY);
    const response = await asPage(`${server.checkoutUrl}/payments/${psp}/captures`, {
      method: 'POST',
      cookie,
      csrfToken,
      origin: 'https://evil.example.com',
      body: { merchantAccount: DEMO.merchantEcom, amount: { currency: 'EUR', value: 1000 } },
    });
    expect(response.status).toBe(403);
    expect((await server.store.read((tx) => tx.payments.get(psp)))?.capturedValue).toBe(0);
    // The same capture from the console's own page goes through.
    const own = await asPage(`${server.checkoutUrl}/payments/${psp}/captures`, {
      method: 'POST',
      cookie,
      csrfToken,
      origin: server.baseUrl,
      body: { merchantAccount: DEMO.merchantEcom, amount: { currency: 'EUR', value: 1000 } },
    });
    expect(own.status).toBe(201);
  });

  test('When a merchant session asks to capture a payment of another merchant account, then it is refused as with its API key', async () => {
    const psp = await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS' });
    const { cookie, csrfToken } = await signIn(server, MERCHANT_KEY);
    const response = await asPage(`${server.checkoutUrl}/payments/${psp}/captures`, {
      method: 'POST',
      cookie,
      csrfToken,
      body: { merchantAccount: 'DemoMerchantPOS', amount: { currency: 'EUR', value: 1000 } },
    });
    expect(response.status).toBe(403);
    expect((await capture(server, psp, 1000, { merchantAccount: 'DemoMerchantPOS' })).response.status).toBe(201);
  });
});
