import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { CHECKOUT_ROLES, ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const companyId = DEMO.companyId;
const ecom = DEMO.merchantEcom;

/**
 * The same operations at company and at merchant level: a credential of that level, and the
 * calls on its allowed origins (each level's paths, typed).
 */
const LEVELS = {
  company: {
    create: async (allowedOrigins: string[] = [], roles: string[] = [ROLES.checkout]) =>
      (await server.management.POST('/companies/{companyId}/apiCredentials', { params: { path: { companyId } }, body: { roles, allowedOrigins } })).data!,
    list: (apiCredentialId: string, client = server.management) =>
      client.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins', { params: { path: { companyId, apiCredentialId } } }),
    add: (apiCredentialId: string, domain: string, client = server.management) =>
      client.POST('/companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins', {
        params: { path: { companyId, apiCredentialId } },
        body: { domain },
      }),
    get: (apiCredentialId: string, originId: string) =>
      server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId}', {
        params: { path: { companyId, apiCredentialId, originId } },
      }),
    remove: (apiCredentialId: string, originId: string, client = server.management) =>
      client.DELETE('/companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId}', {
        params: { path: { companyId, apiCredentialId, originId } },
      }),
    self: (apiCredentialId: string) => `${server.managementUrl}/companies/${companyId}/apiCredentials/${apiCredentialId}`,
  },
  merchant: {
    create: async (allowedOrigins: string[] = [], roles: string[] = [ROLES.checkout]) =>
      (await server.management.POST('/merchants/{merchantId}/apiCredentials', { params: { path: { merchantId: ecom } }, body: { roles, allowedOrigins } }))
        .data!,
    list: (apiCredentialId: string, client = server.management) =>
      client.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins', { params: { path: { merchantId: ecom, apiCredentialId } } }),
    add: (apiCredentialId: string, domain: string, client = server.management) =>
      client.POST('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins', {
        params: { path: { merchantId: ecom, apiCredentialId } },
        body: { domain },
      }),
    get: (apiCredentialId: string, originId: string) =>
      server.management.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId}', {
        params: { path: { merchantId: ecom, apiCredentialId, originId } },
      }),
    remove: (apiCredentialId: string, originId: string, client = server.management) =>
      client.DELETE('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId}', {
        params: { path: { merchantId: ecom, apiCredentialId, originId } },
      }),
    self: (apiCredentialId: string) => `${server.managementUrl}/merchants/${ecom}/apiCredentials/${apiCredentialId}`,
  },
};

/** A browser request with the credential's client key from `origin` (a session call: its 422 for an unknown session still shows the origin was let through). */
const fromBrowser = (clientKey: string, origin: string) =>
  fetch(`${server.checkoutUrl}/sessions/CS0000000000000000/payments`, {
    method: 'POST',
    headers: { 'X-Client-Key': clientKey, Origin: origin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ sessionData: 'none', paymentMethod: { type: 'scheme', encryptedCardNumber: 'test_4111111111111111' } }),
  });

describe.each([
  [
    'company',
    'POST /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins, GET /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins, GET /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId} and DELETE /companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId}',
  ],
  [
    'merchant',
    'POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins, GET /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins, GET /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId} and DELETE /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins/{originId}',
  ],
] satisfies Array<[keyof typeof LEVELS, string]>)('%s level: %s', (level, _operations) => {
  const at = LEVELS[level];

  test('When an origin is added, read, listed and removed, then the client key works from it and no other while it is on the list, and from any origin while the list is empty', async () => {
    const credential = await at.create();
    // An empty list: any origin (the 422 is the unknown session's: the origin was let through).
    expect((await fromBrowser(credential.clientKey, 'https://elsewhere.example.com')).status).toBe(422);

    const { data: added } = await at.add(credential.id, 'https://www.mystore.com');
    expect(added).toEqual({
      id: expect.any(String),
      domain: 'https://www.mystore.com',
      _links: { self: { href: `${at.self(credential.id)}/allowedOrigins/${added!.id}` } },
    });
    expect((await at.get(credential.id, added!.id!)).data).toEqual(added);
    expect((await at.list(credential.id)).data?.data).toEqual([added]);
    const allowed = await fromBrowser(credential.clientKey, 'https://www.mystore.com');
    expect(allowed.status).toBe(422);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://www.mystore.com');
    expect((await fromBrowser(credential.clientKey, 'https://elsewhere.example.com')).status).toBe(403);

    expect((await at.remove(credential.id, added!.id!)).response.status).toBe(204);
    expect((await at.list(credential.id)).data?.data).toEqual([]);
    expect((await at.get(credential.id, added!.id!)).response.status).toBe(404);
    expect((await fromBrowser(credential.clientKey, 'https://elsewhere.example.com')).status).toBe(422);
  });

  test.each([
    ['www.mystore.com'],
    ['https://www.mystore.com/path'],
    ['https://www.mystore.com?x=1'],
    ['ftp://www.mystore.com'],
    ['https://user@www.mystore.com'],
  ])('When the origin %s is added, then the answer is 422 naming domain and nothing is added', async (domain) => {
    const credential = await at.create();
    const { error } = await at.add(credential.id, domain);
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'domain', value: domain })] });
    expect((await at.list(credential.id)).data?.data).toEqual([]);
  });

  test('When an origin the credential already allows is added again, then the answer is 422; a port makes another origin', async () => {
    const credential = await at.create(['http://localhost:3000']);
    expect((await at.add(credential.id, 'http://localhost:3000')).response.status).toBe(422);
    expect((await at.add(credential.id, 'http://localhost:3000/')).response.status).toBe(422);
    expect((await at.add(credential.id, 'http://localhost:3001')).response.status).toBe(200);
  });

  test("When another credential's origin is named, then it is not found and stays", async () => {
    const owner = await at.create(['https://owner.example.com']);
    const other = await at.create();
    const originId = owner.allowedOrigins![0]!.id!;
    expect((await at.get(other.id, originId)).response.status).toBe(404);
    expect((await at.remove(other.id, originId)).response.status).toBe(404);
    expect((await at.list(owner.id)).data?.data?.map((o) => o.id)).toEqual([originId]);
  });

  test('When a credential that may not manage the target changes its origins, then the answer is 403; it may still list them', async () => {
    const target = await at.create(['https://target.example.com'], [ROLES.checkout, ROLES.accountsRead]);
    const { data: weaker } = await server.management.POST('/companies/{companyId}/apiCredentials', {
      params: { path: { companyId } },
      body: { roles: [ROLES.apiCredentialsReadWrite, ...CHECKOUT_ROLES] },
    });
    const client = createManagementClient({ baseUrl: server.managementUrl, apiKey: weaker!.apiKey });
    expect((await at.add(target.id, 'https://other.example.com', client)).response.status).toBe(403);
    expect((await at.remove(target.id, target.allowedOrigins![0]!.id!, client)).response.status).toBe(403);
    expect((await at.list(target.id, client)).data?.data?.map((o) => o.domain)).toEqual(['https://target.example.com']);
  });
});

describe('GET /merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins', () => {
  test('When the credential is named under another merchant account, then it is not found', async () => {
    const { response } = await server.management.GET('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/allowedOrigins', {
      params: { path: { merchantId: DEMO.merchantPos, apiCredentialId: DEMO.merchantCredentialId } },
    });
    expect(response.status).toBe(404);
  });
});
