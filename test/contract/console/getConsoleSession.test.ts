import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { consoleSessionHash } from '../../../server/kernel/auth/console-session.js';
import { DEMO } from '../../../server/seed.js';
import { asPage, signIn } from '../../helpers/console.js';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('GET /session', () => {
  test('When the page reads its session, then it gets the same credential, reach and CSRF token as the sign-in answered', async () => {
    const session = await signIn(server, COMPANY_KEY);
    const { status, body } = await asPage(`${server.consoleUrl}/session`, { cookie: session.cookie });
    expect(status).toBe(200);
    expect(body).toEqual(session.body);
  });

  test('When no cookie is sent, then the answer is 401 without a Basic challenge (a browser would ask for a password)', async () => {
    const response = await asPage(`${server.consoleUrl}/session`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(response.body).toMatchObject({ status: 401, errorCode: '00_401' });
  });

  test('When the session has expired, then its cookie is refused with 401 here and on the checkout API', async () => {
    const token = 'E'.repeat(43);
    await server.store.transaction(async (tx) =>
      tx.console.insertSession({
        tokenHash: consoleSessionHash(tx, token),
        keyHash: tx.credentials.hashKey(COMPANY_KEY),
        credentialId: DEMO.companyCredentialId,
        companyId: DEMO.companyId,
        createdAt: '2020-01-01T00:00:00.000Z',
        expiresAt: '2020-01-01T08:00:00.000Z',
      }),
    );
    expect((await asPage(`${server.consoleUrl}/session`, { cookie: `console_session=${token}` })).status).toBe(401);
    expect((await asPage(`${server.checkoutUrl}/sandbox/clock`, { cookie: `console_session=${token}` })).status).toBe(401);
  });

  test('When the credential of a session is deactivated, then the session is refused at once', async () => {
    const { data } = await server.management.POST('/merchants/{merchantId}/apiCredentials', {
      params: { path: { merchantId: DEMO.merchantEcom } },
      body: { roles: ['Checkout webservice role'] },
    });
    const session = await signIn(server, data!.apiKey);
    expect((await asPage(`${server.consoleUrl}/session`, { cookie: session.cookie })).status).toBe(200);
    await server.management.PATCH('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', {
      params: { path: { merchantId: DEMO.merchantEcom, apiCredentialId: data!.id } },
      body: { active: false },
    });
    expect((await asPage(`${server.consoleUrl}/session`, { cookie: session.cookie })).status).toBe(401);
  });

  test('When the page is called with an API key instead of a session, then there is no session to read (401)', async () => {
    expect((await asPage(`${server.consoleUrl}/session`, { headers: { 'X-API-Key': COMPANY_KEY } })).status).toBe(401);
  });
});
