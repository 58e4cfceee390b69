import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
// Each test gets its own server: tests must pass in any order (jest --randomize).
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.stop());

const c = { companyId: 'DemoCompany' };

describe('GET /companies/{companyId}/apiCredentials and GET /companies/{companyId}/apiCredentials/{apiCredentialId}', () => {
  test('When the company credentials are listed, then the company credential comes with roles, client key and no key', async () => {
    const { data } = await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: c } });
    expect(data).toMatchObject({
      itemsTotal: 1,
      pagesTotal: 1,
      data: [{ id: 'S2-DEMOCOMPANY01', username: 'ws@Company.DemoCompany', active: true, associatedMerchantAccounts: [] }],
    });
    expect(JSON.stringify(data)).not.toContain(COMPANY_KEY);
    const one = await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}', {
      params: { path: { ...c, apiCredentialId: 'S2-DEMOCOMPANY01' } },
    });
    expect(one.data?.roles).toContain('Management API - API credentials read and write');
    expect(one.data?.clientKey).toMatch(/^test_/);
  });

  test('When a merchant credential is asked for at company level, or another company is named, then it is not found', async () => {
    expect(
      (
        await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}', {
          params: { path: { ...c, apiCredentialId: 'S2-DEMOMERCHANT1' } },
        })
      ).response.status,
    ).toBe(404);
    expect((await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: { companyId: 'OtherCompany' } } })).error).toMatchObject({
      status: 404,
      errorCode: '30_112',
    });
  });

  test('When a credential without the API credentials role lists them, then the answer is 403', async () => {
    const limited = createManagementClient({ baseUrl: server.managementUrl, apiKey: MERCHANT_KEY });
    const { error } = await limited.GET('/companies/{companyId}/apiCredentials', { params: { path: c } });
    expect(error).toMatchObject({ status: 403, errorCode: '00_403', detail: expect.stringContaining('API credentials read and write') });
  });
});

describe('GET /merchants/{merchantId}/apiCredentials and GET /merchants/{merchantId}/apiCredentials/{apiCredentialId}', () => {
  test('When the merchant credentials are listed, then the merchant credential comes, with its merchant link', async () => {
    const { data } = await server.management.GET('/merchants/{merchantId}/apiCredentials', { params: { path: { merchantId: 'DemoMerchantECOM' } } });
    expect(data?.data?.map((x) => x.id)).toEqual(['S2-DEMOMERCHANT1']);
    const one = await server.management.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', {
      params: { path: { merchantId: 'DemoMerchantECOM', apiCredentialId: 'S2-DEMOMERCHANT1' } },
    });
    expect(one.data).toMatchObject({
      id: 'S2-DEMOMERCHANT1',
      roles: ['Checkout webservice role', 'Merchant PAL Webservice role'],
      _links: { merchant: { href: `${server.managementUrl}/merchants/DemoMerchantECOM` } },
    });
  });

  test('When the credential is asked for under another merchant account, then it is not found', async () => {
    const { response } = await server.management.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', {
      params: { path: { merchantId: 'DemoMerchantPOS', apiCredentialId: 'S2-DEMOMERCHANT1' } },
    });
    expect(response.status).toBe(404);
  });
});

describe('POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateApiKey and POST /companies/{companyId}/apiCredentials/{apiCredentialId}/generateApiKey', () => {
  test('When the key is rotated (the rotation recipe), then the new key works at once, the old one for 24 hours and not after', async () => {
    // Recipe: list merchants → list merchant credentials → generate key.
    const merchants = await server.management.GET('/companies/{companyId}/merchants', { params: { path: c } });
    const merchantId = merchants.data!.data!.find((m) => m.id === 'DemoMerchantECOM')!.id!;
    const credentials = await server.management.GET('/merchants/{merchantId}/apiCredentials', { params: { path: { merchantId } } });
    const apiCredentialId = credentials.data!.data![0]!.id;
    const { data } = await server.management.POST('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateApiKey', {
      params: { path: { merchantId, apiCredentialId } },
    });
    const newKey = data!.apiKey;
    expect(newKey).not.toBe(MERCHANT_KEY);

    // The merchant credential has checkout roles only: any authenticated call shows whether a key works.
    const meWith = (apiKey: string) => fetch(`${server.checkoutUrl}/sandbox/clock`, { headers: { 'X-API-Key': apiKey } });
    expect((await meWith(newKey)).status).toBe(200);
    expect((await meWith(MERCHANT_KEY)).status).toBe(200);
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 24 * 3600 - 60 } });
    expect((await meWith(MERCHANT_KEY)).status).toBe(200);
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 61 } });
    expect((await meWith(MERCHANT_KEY)).status).toBe(401);
    expect((await meWith(newKey)).status).toBe(200);
  });

  test('When the company credential rotates its own key, then the answer carries a new key that works', async () => {
    const { data } = await server.management.POST('/companies/{companyId}/apiCredentials/{apiCredentialId}/generateApiKey', {
      params: { path: { ...c, apiCredentialId: 'S2-DEMOCOMPANY01' } },
    });
    expect((await fetch(`${server.managementUrl}/me`, { headers: { 'X-API-Key': data!.apiKey } })).status).toBe(200);
  });
});

describe('POST /me/allowedOrigins, GET /me/allowedOrigins, GET /me/allowedOrigins/{originId}, DELETE /me/allowedOrigins/{originId} and GET /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins', () => {
  test('When an origin is added (the audit recipe reads it back), then CORS serves that origin only, until it is removed; with an empty list, any origin', async () => {
    const browser = (origin: string) => fetch(`${server.managementUrl}/me`, { headers: { 'X-API-Key': COMPANY_KEY, Origin: origin } });
    // An empty list means any domain may use the credential.
    const before = await browser('https://anything.example.com');
    expect(before.status).toBe(200);
    expect(before.headers.get('access-control-allow-origin')).toBe('https://anything.example.com');

    const { data: added } = await server.management.POST('/me/allowedOrigins', { body: { domain: 'https://www.mystore.com' } });
    expect(added).toMatchObject({ domain: 'https://www.mystore.com', id: expect.any(String) });

    // Audit recipe: list company credentials → list allowed origins → get credential.
    const credentials = await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: c } });
    const apiCredentialId = credentials.data!.data![0]!.id;
    const origins = await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins', {
      params: { path: { ...c, apiCredentialId } },
    });
    expect(origins.data?.data?.map((o) => o.domain)).toEqual(['https://www.mystore.com']);
    const credential = await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}', { params: { path: { ...c, apiCredentialId } } });
    expect(credential.data?.allowedOrigins?.map((o) => o.id)).toEqual([added!.id]);

    const allowed = await browser('https://www.mystore.com');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://www.mystore.com');
    // Another origin is refused, readably: the page there can show why.
    const refused = await browser('https://evil.example.com');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://evil.example.com');
    expect(await refused.json()).toMatchObject({ status: 403, errorCode: '00_403', detail: expect.stringContaining('https://evil.example.com') });

    expect((await server.management.GET('/me/allowedOrigins/{originId}', { params: { path: { originId: added!.id! } } })).data?.domain).toBe(
      'https://www.mystore.com',
    );
    expect((await server.management.DELETE('/me/allowedOrigins/{originId}', { params: { path: { originId: added!.id! } } })).response.status).toBe(204);
    expect((await server.management.GET('/me/allowedOrigins')).data?.data).toEqual([]);
    // The list is empty again: any origin.
    expect((await browser('https://evil.example.com')).status).toBe(200);
  });

  test('When the same origin is added twice at once, then one is added and the other refused with 422, never a 500', async () => {
    const add = () => server.management.POST('/me/allowedOrigins', { body: { domain: 'https://twice.example.com' } });
    const answers = await Promise.all([add(), add(), add()]);
    const statuses = answers.map((a) => a.response.status).sort();
    expect(statuses).toEqual([200, 422, 422]);
    const listed = (await server.management.GET('/me/allowedOrigins')).data?.data ?? [];
    const added = listed.filter((o) => o.domain === 'https://twice.example.com');
    expect(added).toHaveLength(1);
    await server.management.DELETE('/me/allowedOrigins/{originId}', { params: { path: { originId: added[0]!.id! } } });
  });

  test('When a request comes from an allowed origin and fails, then its error is readable there; a 401 is readable anywhere', async () => {
    const { data: added } = await server.management.POST('/me/allowedOrigins', { body: { domain: 'https://errors.example.com' } });
    try {
      const missing = await fetch(`${server.managementUrl}/merchants/NoSuchMerchant`, {
        headers: { 'X-API-Key': COMPANY_KEY, Origin: 'https://errors.example.com' },
      });
      expect(missing.status).toBeGreaterThanOrEqual(400);
      expect(missing.headers.get('access-control-allow-origin')).toBe('https://errors.example.com');
      const unknownKey = await fetch(`${server.managementUrl}/me`, {
        headers: { 'X-API-Key': 'not-a-key-of-anyone-000000', Origin: 'https://elsewhere.example.com' },
      });
      expect(unknownKey.status).toBe(401);
      expect(unknownKey.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example.com');
    } finally {
      await server.management.DELETE('/me/allowedOrigins/{originId}', { params: { path: { originId: added!.id! } } });
    }
  });

  test("When a page of the server itself calls it (the API reference's Try it), then the request is same-origin and served without a list", async () => {
    const own = await fetch(`${server.checkoutUrl}/payments`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', Origin: server.baseUrl },
      body: JSON.stringify(buildPaymentRequest()),
    });
    expect(own.status).toBe(200);
  });

  test('When a browser sends a CORS preflight, then it is answered without credentials', async () => {
    const response = await fetch(`${server.checkoutUrl}/payments`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://www.mystore.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
  });

  describe('from a web page of a credential without allowed origins', () => {
    const SHOP = 'https://shop.example.com';
    /** A request as a browser page on `origin` sends it to /me/allowedOrigins with the API key in a header. */
    const fromPage = (origin: string, method: 'GET' | 'POST', body?: unknown) =>
      fetch(`${server.managementUrl}/me/allowedOrigins`, {
        method,
        headers: { 'X-API-Key': COMPANY_KEY, Origin: origin, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    /** The preflight a browser sends before that request (X-API-Key and JSON are not CORS-safelisted). */
    const preflight = (origin: string, method: string, headers: string) =>
      fetch(`${server.managementUrl}/me/allowedOrigins`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
      });
    const varyOnOrigin = (response: Response) => expect(response.headers.get('vary') ?? '').toMatch(/\borigin\b/i);

    test('When the page sends the preflights and then POST and GET /me/allowedOrigins, then each is answered with CORS headers for its origin', async () => {
      for (const [method, headers] of [
        ['POST', 'content-type,x-api-key'],
        ['GET', 'x-api-key'],
      ] as const) {
        const answer = await preflight(SHOP, method, headers);
        expect(answer.status).toBe(204);
        expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP);
        expect(answer.headers.get('access-control-allow-methods')).toContain(method);
        expect(answer.headers.get('access-control-allow-headers')).toEqual(expect.stringContaining('X-API-Key'));
        expect(answer.headers.get('access-control-allow-headers')).toEqual(expect.stringContaining('Content-Type'));
        varyOnOrigin(answer);
      }

      const empty = await fromPage(SHOP, 'GET');
      expect(empty.status).toBe(200);
      expect(empty.headers.get('access-control-allow-origin')).toBe(SHOP);
      varyOnOrigin(empty);
      expect(await empty.json()).toMatchObject({ data: [] });

      const added = await fromPage(SHOP, 'POST', { domain: SHOP });
      expect(added.status).toBe(200);
      expect(added.headers.get('access-control-allow-origin')).toBe(SHOP);
      varyOnOrigin(added);
      const origin = (await added.json()) as { id: string; domain: string };
      expect(origin).toMatchObject({ id: expect.any(String), domain: SHOP });

      const listed = await fromPage(SHOP, 'GET');
      expect(listed.status).toBe(200);
      expect(listed.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(((await listed.json()) as { data: Array<{ id: string }> }).data.map((o) => o.id)).toEqual([origin.id]);
    });

    test('When the page adds an origin other than its own, then the list holds that one only: its own next request is refused with a 403 it can read', async () => {
      const page = 'https://admin.example.com';
      const added = await fromPage(page, 'POST', { domain: SHOP });
      expect(added.status).toBe(200);
      expect(added.headers.get('access-control-allow-origin')).toBe(page);

      const refused = await fromPage(page, 'GET');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBe(page);
      varyOnOrigin(refused);
      expect(await refused.json()).toMatchObject({
        status: 403,
        errorCode: '00_403',
        detail: `Not allowed: the origin ${page} is not an allowed origin of this credential`,
      });
      // A refused request changes nothing: the POST from there is refused too, and the list keeps the one origin.
      expect((await fromPage(page, 'POST', { domain: page })).status).toBe(403);
      const fromShop = await fromPage(SHOP, 'GET');
      expect(fromShop.status).toBe(200);
      expect(((await fromShop.json()) as { data: Array<{ domain: string }> }).data.map((o) => o.domain)).toEqual([SHOP]);
      // A server (no Origin) is not held to the list.
      expect((await server.management.GET('/me/allowedOrigins')).response.status).toBe(200);
    });
  });

  test.each([['www.mystore.com'], ['https://www.mystore.com/path'], ['ftp://www.mystore.com'], ['https://user@www.mystore.com']])(
    'When the origin %s is added, then the answer is 422 naming domain',
    async (domain) => {
      const { error } = await server.management.POST('/me/allowedOrigins', { body: { domain } });
      expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'domain' })] });
    },
  );

  test('When the same origin is added twice, then the second gets 422', async () => {
    await server.management.POST('/me/allowedOrigins', { body: { domain: 'https://twice.example.com' } });
    expect((await server.management.POST('/me/allowedOrigins', { body: { domain: 'https://twice.example.com' } })).response.status).toBe(422);
  });

  test('When a credential with no management role adds an origin, then the answer is 403', async () => {
    // A fresh server: the rotation test above retired this server's merchant key.
    const fresh = await startServer();
    try {
      const limited = createManagementClient({ baseUrl: fresh.managementUrl, apiKey: MERCHANT_KEY });
      expect((await limited.POST('/me/allowedOrigins', { body: { domain: 'https://x.example.com' } })).response.status).toBe(403);
    } finally {
      await fresh.stop();
    }
  });
});
