import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { CHECKOUT_ROLES, ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { rawCard } from '../../helpers/factories.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const ecom = DEMO.merchantEcom;
const SHOP = 'https://www.shop-clientkey.example.com';

/** A merchant credential of DemoMerchantECOM for a web shop: checkout roles, the shop's origin. */
async function shopCredential(roles: readonly string[] = CHECKOUT_ROLES, allowedOrigins = [SHOP]) {
  const { data } = await server.management.POST('/merchants/{merchantId}/apiCredentials', {
    params: { path: { merchantId: ecom } },
    body: { roles: [...roles], allowedOrigins },
  });
  return data!;
}

async function session() {
  const { data } = await server.checkout.POST('/sessions', {
    body: { merchantAccount: ecom, amount: eur(1000), reference: 'client-key-order', returnUrl: 'https://shop.example.com/return' },
  });
  return data!;
}

/** What a browser on `origin` sends to pay in a session with the client key (header, or `?clientKey=` as Adyen's Drop-in does). */
function payFromBrowser(sessionId: string, sessionData: string, clientKey: string, origin: string | undefined, carrier: 'header' | 'query' = 'header') {
  const query = carrier === 'query' ? `?clientKey=${encodeURIComponent(clientKey)}` : '';
  return fetch(`${server.checkoutUrl}/sessions/${sessionId}/payments${query}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(carrier === 'header' && { 'X-Client-Key': clientKey }),
      ...(origin !== undefined && { Origin: origin }),
    },
    body: JSON.stringify({ sessionData, paymentMethod: rawCard('4111111111111111') }),
  });
}

describe('POST /sessions/{sessionId}/payments with a client key', () => {
  test.each([['header' as const], ['query' as const]])(
    'When a browser on an allowed origin pays with the client key in the %s, then it is answered with CORS headers for that origin',
    async (carrier) => {
      const credential = await shopCredential();
      const s = await session();
      const response = await payFromBrowser(s.id, s.sessionData!, credential.clientKey, SHOP, carrier);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(await response.json()).toMatchObject({ resultCode: 'Authorised' });
    },
  );

  test('When the origin is not on the list, or no origin is sent, then the answer is 403 (readable by the refused page) and nothing is paid', async () => {
    const credential = await shopCredential();
    const s = await session();
    const elsewhere = await payFromBrowser(s.id, s.sessionData!, credential.clientKey, 'https://evil.example.com');
    expect(elsewhere.status).toBe(403);
    // The page may read the refusal (it says only that its origin may not use the key), in checkout's error shape.
    expect(elsewhere.headers.get('access-control-allow-origin')).toBe('https://evil.example.com');
    expect(await elsewhere.json()).toMatchObject({ status: 403, errorCode: '010', errorType: 'security' });
    const noOrigin = await payFromBrowser(s.id, s.sessionData!, credential.clientKey, undefined);
    expect(noOrigin.status).toBe(403);
    // Neither request paid: the session still takes its payment.
    expect((await payFromBrowser(s.id, s.sessionData!, credential.clientKey, SHOP)).status).toBe(200);
  });

  test("When the server's own origin sends a client key, then it is treated like any origin (not on the list: 403)", async () => {
    const credential = await shopCredential();
    const s = await session();
    expect((await payFromBrowser(s.id, s.sessionData!, credential.clientKey, server.baseUrl)).status).toBe(403);
  });

  test('When the credential has no allowed origins, then a page on any origin pays with its client key, answered with CORS headers for it; without an origin it is still refused', async () => {
    const credential = await shopCredential(CHECKOUT_ROLES, []);
    for (const origin of ['https://any-shop.example.com', server.baseUrl]) {
      const s = await session();
      const response = await payFromBrowser(s.id, s.sessionData!, credential.clientKey, origin);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('vary')).toMatch(/origin/i);
    }
    const s = await session();
    expect((await payFromBrowser(s.id, s.sessionData!, credential.clientKey, undefined)).status).toBe(403);
  });

  test('When the client key is unknown, then the answer is 401 and readable by the page', async () => {
    const s = await session();
    const response = await payFromBrowser(s.id, s.sessionData!, 'test_NOTACLIENTKEY000000000000000000', SHOP);
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  test('When the session belongs to a merchant account the credential does not reach, then it is not found', async () => {
    const { data: company } = await server.management.POST('/companies/{companyId}/apiCredentials', {
      params: { path: { companyId: DEMO.companyId } },
      body: { roles: [ROLES.checkout], associatedMerchantAccounts: [DEMO.merchantPos], allowedOrigins: [SHOP] },
    });
    const s = await session();
    const response = await payFromBrowser(s.id, s.sessionData!, company!.clientKey, SHOP);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ errorCode: '14_0021' });
  });

  test('When a browser sends a CORS preflight for the client key header, then it is allowed', async () => {
    const response = await fetch(`${server.checkoutUrl}/sessions/CS0000000000000000/payments`, {
      method: 'OPTIONS',
      headers: { Origin: SHOP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-client-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('X-Client-Key');
  });
});

/** What a browser on `origin` sends, with the client key in the query as Adyen's web library does, to a session's client-side operation. */
function fromBrowser(sessionId: string, operation: 'payments' | 'paymentDetails', body: Record<string, unknown>, clientKey: string, origin: string) {
  return fetch(`${server.checkoutUrl}/sessions/${sessionId}/${operation}?clientKey=${encodeURIComponent(clientKey)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify(body),
  });
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('POST /sessions/{sessionId}/paymentDetails with a client key', () => {
  test('When a browser on an allowed origin finishes a 3D Secure redirect of a session payment with the client key, then the payment is authorised', async () => {
    const credential = await shopCredential();
    const s = await session();
    const started = await fromBrowser(s.id, 'payments', { sessionData: s.sessionData, paymentMethod: rawCard('4212345678910006') }, credential.clientKey, SHOP);
    const paid = (await started.json()) as { resultCode: string; action: { url: string } };
    expect(paid).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect' } });
    const complete = await fetch(`${paid.action.url}/complete?outcome=authorised`, { redirect: 'manual' });
    const redirectResult = new URL(complete.headers.get('location')!).searchParams.get('redirectResult');
    const response = await fromBrowser(s.id, 'paymentDetails', { sessionData: s.sessionData, details: { redirectResult } }, credential.clientKey, SHOP);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(await response.json()).toMatchObject({ resultCode: 'Authorised', sessionData: s.sessionData, sessionResult: expect.any(String) });
  });

  test('When a browser on an allowed origin answers native 3D Secure 2 with the client key, then fingerprint and challenge complete the session payment; from another origin it is refused and the payment still waits', async () => {
    const credential = await shopCredential();
    const { data: s } = await server.checkout.POST('/sessions', {
      body: {
        merchantAccount: ecom,
        amount: eur(1000),
        reference: 'client-key-native',
        returnUrl: 'https://shop.example.com/return',
        authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
      },
    });
    const sessionData = s!.sessionData!;
    const started = await fromBrowser(s!.id, 'payments', { sessionData, paymentMethod: rawCard('5000550000000029') }, credential.clientKey, SHOP);
    const fingerprint = (await started.json()) as { resultCode: string; action: { paymentData: string } };
    expect(fingerprint.resultCode).toBe('IdentifyShopper');
    const fingerprintStep = { sessionData, details: { threeDSResult: b64({ threeDSCompInd: 'U' }) }, paymentData: fingerprint.action.paymentData };

    const elsewhere = await fromBrowser(s!.id, 'paymentDetails', fingerprintStep, credential.clientKey, 'https://evil.example.com');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBe('https://evil.example.com');

    const challenged = (await (await fromBrowser(s!.id, 'paymentDetails', fingerprintStep, credential.clientKey, SHOP)).json()) as {
      resultCode: string;
      action: { authorisationToken: string };
    };
    expect(challenged).toMatchObject({ resultCode: 'ChallengeShopper', action: { type: 'threeDS2', subtype: 'challenge' } });
    const challengeStep = { sessionData, details: { threeDSResult: b64({ transStatus: 'Y', authorisationToken: challenged.action.authorisationToken }) } };
    expect((await fromBrowser(s!.id, 'paymentDetails', challengeStep, credential.clientKey, 'https://evil.example.com')).status).toBe(403);
    const done = await fromBrowser(s!.id, 'paymentDetails', challengeStep, credential.clientKey, SHOP);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ resultCode: 'Authorised' });
  });
});

describe('A client key on a server-side operation', () => {
  test.each([
    ['checkout', 'POST', '/payments'],
    ['checkout', 'POST', '/payments/details'],
    ['checkout', 'POST', '/sessions'],
    ['checkout', 'GET', '/sandbox/clock'],
    ['management', 'GET', '/me'],
    ['management', 'GET', `/merchants/${ecom}/apiCredentials`],
  ])('When a browser on an allowed origin calls %s %s %s with the client key, then the answer is 401, readable there', async (area, method, path) => {
    const credential = await shopCredential([...CHECKOUT_ROLES, ROLES.apiCredentialsReadWrite]);
    const response = await fetch(`${area === 'checkout' ? server.checkoutUrl : server.managementUrl}${path}`, {
      method,
      headers: { 'X-Client-Key': credential.clientKey, Origin: SHOP, ...(method === 'POST' && { 'Content-Type': 'application/json' }) },
      ...(method === 'POST' && { body: '{}' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP);
  });
});

describe('POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateClientKey', () => {
  test('When the client key is rotated, then the new one works at once and the old one until the sandbox clock passes 24 hours', async () => {
    const credential = await shopCredential();
    const { data } = await server.management.POST('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateClientKey', {
      params: { path: { merchantId: ecom, apiCredentialId: credential.id } },
    });
    expect(data?.clientKey).toMatch(/^test_/);
    expect(data?.clientKey).not.toBe(credential.clientKey);
    const read = await server.management.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', {
      params: { path: { merchantId: ecom, apiCredentialId: credential.id } },
    });
    expect(read.data?.clientKey).toBe(data?.clientKey);

    const pays = async (clientKey: string) => {
      const s = await session();
      return (await payFromBrowser(s.id, s.sessionData!, clientKey, SHOP)).status;
    };
    expect(await pays(data!.clientKey)).toBe(200);
    expect(await pays(credential.clientKey)).toBe(200);
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 24 * 3600 - 60 } });
    expect(await pays(credential.clientKey)).toBe(200);
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 61 } });
    expect(await pays(credential.clientKey)).toBe(401);
    expect(await pays(data!.clientKey)).toBe(200);
  });

  test('When a credential rotates the client key of one with roles it lacks, then the answer is 403 and the key stays', async () => {
    const target = await shopCredential([...CHECKOUT_ROLES, ROLES.accountsRead]);
    const { data: weaker } = await server.management.POST('/merchants/{merchantId}/apiCredentials', {
      params: { path: { merchantId: ecom } },
      body: { roles: [ROLES.apiCredentialsReadWrite, ...CHECKOUT_ROLES] },
    });
    const response = await fetch(`${server.managementUrl}/merchants/${ecom}/apiCredentials/${target.id}/generateClientKey`, {
      method: 'POST',
      headers: { 'X-API-Key': weaker!.apiKey },
    });
    expect(response.status).toBe(403);
    const read = await server.management.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', {
      params: { path: { merchantId: ecom, apiCredentialId: target.id } },
    });
    expect(read.data?.clientKey).toBe(target.clientKey);
  });
});

describe('POST /companies/{companyId}/apiCredentials/{apiCredentialId}/generateClientKey', () => {
  test('When a company credential gets a new client key, then reads show the new one; a merchant credential named there is not found', async () => {
    const { data: created } = await server.management.POST('/companies/{companyId}/apiCredentials', {
      params: { path: { companyId: DEMO.companyId } },
      body: { roles: [ROLES.checkout] },
    });
    const { data } = await server.management.POST('/companies/{companyId}/apiCredentials/{apiCredentialId}/generateClientKey', {
      params: { path: { companyId: DEMO.companyId, apiCredentialId: created!.id } },
    });
    const read = await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}', {
      params: { path: { companyId: DEMO.companyId, apiCredentialId: created!.id } },
    });
    expect(read.data?.clientKey).toBe(data?.clientKey);
    const merchantOne = await server.management.POST('/companies/{companyId}/apiCredentials/{apiCredentialId}/generateClientKey', {
      params: { path: { companyId: DEMO.companyId, apiCredentialId: DEMO.merchantCredentialId } },
    });
    expect(merchantOne.response.status).toBe(404);
  });
});

describe('POST /me/generateClientKey', () => {
  test('When the calling credential generates a client key, then /me shows it', async () => {
    const { data } = await server.management.POST('/me/generateClientKey');
    expect((await server.management.GET('/me')).data?.clientKey).toBe(data?.clientKey);
  });
});
