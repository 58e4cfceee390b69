import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createCheckoutClient, createManagementClient } from '../../../client/index.js';
import { ALL_ROLES, CHECKOUT_ROLES, knownRole, ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { buildPaymentRequest, rawCard } from '../../helpers/factories.js';
import { insertCredential } from '../../helpers/boundary.js';
import { freshDatabase, TEST_ENGINE } from '../../helpers/database.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { loadBundled } from '../suite.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const companyId = DEMO.companyId;
const ecom = DEMO.merchantEcom;
const pos = DEMO.merchantPos;
let counter = 0;
const nextId = (prefix: string) => `S2-${prefix}${String(++counter).padStart(4, '0')}`;

/** A management client for another credential of the demo company, inserted with its roles and reach. */
async function caller(roles: readonly string[], merchantId: string | null = null, associatedMerchantAccounts: string[] = []) {
  const id = nextId('CRUD');
  const apiKey = await insertCredential(server.store, { id, merchantId, roles, associatedMerchantAccounts });
  return { id, apiKey, management: createManagementClient({ baseUrl: server.managementUrl, apiKey }) };
}

/** Whether the key (or the Basic user name and password) authenticates: any authenticated call shows it. */
const status = async (headers: Record<string, string>) => (await fetch(`${server.checkoutUrl}/sandbox/clock`, { headers })).status;
const basic = (username: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` });

const createCompanyCredential = (body: Record<string, unknown>, client = server.management) =>
  client.POST('/companies/{companyId}/apiCredentials', { params: { path: { companyId } }, body });
const createMerchantCredential = (merchantId: string, body: Record<string, unknown>, client = server.management) =>
  client.POST('/merchants/{merchantId}/apiCredentials', { params: { path: { merchantId } }, body });

describe('POST /companies/{companyId}/apiCredentials', () => {
  test('When a company credential is created, then its API key and password are shown once, work, and are stored only as keyed hashes', async () => {
    const { data, response } = await createCompanyCredential({
      description: 'Reporting',
      roles: [ROLES.checkout, ROLES.accountsRead],
      associatedMerchantAccounts: [ecom],
      allowedOrigins: ['https://www.mystore.com'],
    });
    expect(response.status).toBe(200);
    const created = data!;
    expect(created).toMatchObject({
      id: expect.stringMatching(/^S2-/),
      username: expect.stringMatching(/^ws_\d{6}@Company\.DemoCompany$/),
      active: true,
      description: 'Reporting',
      roles: [ROLES.checkout, ROLES.accountsRead],
      associatedMerchantAccounts: [ecom],
      allowedIpAddresses: [],
      allowedOrigins: [{ domain: 'https://www.mystore.com', id: expect.any(String) }],
      clientKey: expect.stringMatching(/^test_/),
      _links: { company: { href: `${server.managementUrl}/companies/${companyId}` } },
    });
    expect(await status({ 'X-API-Key': created.apiKey })).toBe(200);
    expect(await status(basic(created.username, created.password))).toBe(200);
    expect(await status(basic(created.username, 'not-the-password-0000'))).toBe(401);

    const read = await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}', {
      params: { path: { companyId, apiCredentialId: created.id } },
    });
    expect(read.data).toMatchObject({ id: created.id, clientKey: created.clientKey });
    expect(JSON.stringify(read.data)).not.toContain(created.apiKey);
    expect(JSON.stringify(read.data)).not.toContain(created.password);
    // A page large enough to hold the new credential (ids are random, and the default page is 10).
    const list = await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: { companyId }, query: { pageSize: 100 } } });
    expect(list.data?.data?.map((c) => c.id)).toContain(created.id);
    expect(JSON.stringify(list.data)).not.toContain(created.password);

    const stored = await server.store.read(async (tx) => ({
      password: await tx.credentials.passwordOf(created.username),
      keys: await tx.credentials.keys(created.id),
      hash: (secret: string) => tx.credentials.hashKey(secret),
    }));
    expect(stored.password?.passwordHash).toBe(stored.hash(created.password));
    expect(stored.keys.map((k) => k.keyHash)).toEqual([stored.hash(created.apiKey)]);
    expect(JSON.stringify(stored)).not.toContain(created.apiKey);
    expect(JSON.stringify(stored)).not.toContain(created.password);
  });

  test('When the caller grants a role it does not have, then the answer is 403 naming it and nothing is created', async () => {
    const limited = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout]);
    const before = (await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: { companyId } } })).data!.itemsTotal;
    const { error } = await createCompanyCredential({ roles: [ROLES.checkout, ROLES.webhooksReadWrite] }, limited.management);
    expect(error).toMatchObject({ status: 403, errorCode: '00_403', detail: expect.stringContaining(ROLES.webhooksReadWrite) });
    expect((await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: { companyId } } })).data!.itemsTotal).toBe(before);
    expect((await createCompanyCredential({ roles: [ROLES.checkout] }, limited.management)).response.status).toBe(200);
  });

  test.each([
    ['an unknown role', { roles: ['Merchant Superpowers role'] }, 'roles'],
    ['a merchant account of no company', { associatedMerchantAccounts: ['NoSuchMerchant'] }, 'associatedMerchantAccounts'],
    ['an origin with a path', { allowedOrigins: ['https://www.mystore.com/checkout'] }, 'allowedOrigins'],
    ['an origin without a scheme', { allowedOrigins: ['www.mystore.com'] }, 'allowedOrigins'],
    ['an origin with user info', { allowedOrigins: ['https://user@www.mystore.com'] }, 'allowedOrigins'],
    ['the same origin twice', { allowedOrigins: ['https://www.mystore.com', 'https://www.mystore.com/'] }, 'allowedOrigins'],
  ])('When the request has %s, then the answer is 422 naming the field', async (_name, body, field) => {
    const { error } = await createCompanyCredential(body);
    expect(error).toMatchObject({ status: 422, errorCode: '00_422', invalidFields: [expect.objectContaining({ name: field })] });
  });

  test('When a merchant-level credential with every role creates a company credential, then the answer is 403', async () => {
    const merchant = await caller(ALL_ROLES, ecom);
    const { error } = await createCompanyCredential({ roles: [ROLES.checkout] }, merchant.management);
    expect(error).toMatchObject({ status: 403, errorCode: '00_403' });
  });

  test('When a credential limited to one merchant account creates company credentials, then only ones limited within its merchant accounts are allowed', async () => {
    const limited = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout], null, [ecom]);
    expect((await createCompanyCredential({ roles: [ROLES.checkout] }, limited.management)).response.status).toBe(403);
    expect((await createCompanyCredential({ roles: [ROLES.checkout], associatedMerchantAccounts: [pos] }, limited.management)).response.status).toBe(403);
    const { data } = await createCompanyCredential({ roles: [ROLES.checkout], associatedMerchantAccounts: [ecom] }, limited.management);
    expect(data?.associatedMerchantAccounts).toEqual([ecom]);
  });
});

describe("POST /companies/{companyId}/apiCredentials and PATCH /merchants/{merchantId}/apiCredentials/{apiCredentialId} with Adyen's other role names", () => {
  // The roles of Adyen's own examples (its Management API reference and its role tables).
  const ADYEN_EXAMPLE_ROLES = ['Checkout webservice role', 'Merchant Recurring role', 'Checkout encrypted cardholder data'];

  test("When a credential is created with Adyen's example roles, then it holds, lists and shows them, and the roles this service does not act on open nothing", async () => {
    const { data, response } = await createCompanyCredential({ roles: ADYEN_EXAMPLE_ROLES, associatedMerchantAccounts: [ecom] });
    expect(response.status).toBe(200);
    expect(data?.roles).toEqual(ADYEN_EXAMPLE_ROLES);
    const read = await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}', {
      params: { path: { companyId, apiCredentialId: data!.id } },
    });
    expect(read.data?.roles).toEqual(ADYEN_EXAMPLE_ROLES);
    const listed = await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: { companyId }, query: { pageSize: 100 } } });
    expect(listed.data?.data?.find((c) => c.id === data!.id)?.roles).toEqual(ADYEN_EXAMPLE_ROLES);

    // Only the Adyen-only roles: no checkout operation answers it.
    const { data: recurringOnly } = await createCompanyCredential({ roles: ['Merchant Recurring role', 'API PCI Payments role'] });
    const checkout = createCheckoutClient({ baseUrl: server.checkoutUrl, apiKey: recurringOnly!.apiKey });
    expect((await checkout.POST('/payments', { body: buildPaymentRequest() })).error).toMatchObject({ status: 403 });
  });

  test('When a role is spelled as Adyen also writes it (another dash, another case), then the credential gets the role as this service spells it, and it works', async () => {
    const { data } = await createCompanyCredential({
      roles: ['Management API — Webhooks read', 'Management API—Accounts read', 'merchant pal webservice role', 'Checkout webservice role'],
    });
    expect(data?.roles).toEqual([ROLES.webhooksRead, ROLES.accountsRead, ROLES.merchantPal, ROLES.checkout]);
    const management = createManagementClient({ baseUrl: server.managementUrl, apiKey: data!.apiKey });
    expect((await management.GET('/merchants/{merchantId}/webhooks', { params: { path: { merchantId: ecom } } })).response.status).toBe(200);
  });

  test('When a caller grants an Adyen role it does not hold, then the answer is 403 naming it; one it holds is granted', async () => {
    const limited = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout, 'Merchant Recurring role'], ecom);
    const patch = (apiCredentialId: string, roles: string[]) =>
      limited.management.PATCH('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', {
        params: { path: { merchantId: ecom, apiCredentialId } },
        body: { roles },
      });
    const { data: created } = await createMerchantCredential(ecom, { roles: [ROLES.checkout] }, limited.management);
    const refused = await patch(created!.id, [ROLES.checkout, 'Checkout encrypted cardholder data']);
    expect(refused.error).toMatchObject({ status: 403, detail: expect.stringContaining('Checkout encrypted cardholder data') });
    expect((await patch(created!.id, [ROLES.checkout, 'Merchant Recurring role'])).data?.roles).toEqual([ROLES.checkout, 'Merchant Recurring role']);
  });

  test('When a role name is unknown, then the answer is 422 naming it and where the known names come from, and nothing is created', async () => {
    const before = (await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: { companyId } } })).data!.itemsTotal;
    const { error } = await createCompanyCredential({ roles: [ROLES.checkout, 'Merchant Superpowers role'] });
    expect(error).toMatchObject({
      status: 422,
      invalidFields: [
        { name: 'roles', value: 'Merchant Superpowers role', message: expect.stringContaining('docs.adyen.com/development-resources/api-credentials/roles') },
      ],
    });
    expect((await server.management.GET('/companies/{companyId}/apiCredentials', { params: { path: { companyId } } })).data!.itemsTotal).toBe(before);
  });

  test("When the spec is read, then the role names it lists are exactly the service's known roles", () => {
    const listed = loadBundled('management').components.schemas.ApiCredentialRole.examples as string[];
    expect(listed).toEqual([...ALL_ROLES]);
    expect(ALL_ROLES.every((role) => knownRole(role) === role)).toBe(true);
  });
});

describe('POST /merchants/{merchantId}/apiCredentials', () => {
  test('When a merchant credential is created, then its key reaches that merchant account only, and its answer has no company fields', async () => {
    const { data } = await createMerchantCredential(ecom, { roles: CHECKOUT_ROLES, description: 'Shop' });
    const created = data!;
    expect(created).not.toHaveProperty('associatedMerchantAccounts');
    expect(created._links?.merchant?.href).toBe(`${server.managementUrl}/merchants/${ecom}`);
    const checkout = createCheckoutClient({ baseUrl: server.checkoutUrl, apiKey: created.apiKey });
    expect((await checkout.POST('/payments', { body: buildPaymentRequest() })).response.status).toBe(200);
    expect((await checkout.POST('/payments', { body: buildPaymentRequest({ merchantAccount: pos }) })).error).toMatchObject({ status: 403, errorCode: '901' });
    // Other tests in this file create credentials for the same merchant account: with random ids and
    // the default page of 10, the new one may sort onto the second page.
    const listed = await server.management.GET('/merchants/{merchantId}/apiCredentials', { params: { path: { merchantId: ecom }, query: { pageSize: 100 } } });
    expect(listed.data?.data?.map((c) => c.id)).toContain(created.id);
  });

  test('When a merchant-level credential creates one for its own merchant account, then it may, with its own roles only; another merchant account is refused', async () => {
    const merchant = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout], ecom);
    expect((await createMerchantCredential(ecom, { roles: [ROLES.checkout] }, merchant.management)).response.status).toBe(200);
    expect((await createMerchantCredential(ecom, { roles: [ROLES.merchantPal] }, merchant.management)).response.status).toBe(403);
    expect((await createMerchantCredential(pos, { roles: [ROLES.checkout] }, merchant.management)).response.status).toBe(403);
  });

  test('When company fields are sent for a merchant credential, then the answer is 422 naming the field', async () => {
    const { error } = await createMerchantCredential(ecom, { roles: [ROLES.checkout], associatedMerchantAccounts: [ecom] });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'associatedMerchantAccounts' })] });
  });
});

describe('PATCH /companies/{companyId}/apiCredentials/{apiCredentialId}', () => {
  const patch = (apiCredentialId: string, body: Record<string, unknown>, client = server.management) =>
    client.PATCH('/companies/{companyId}/apiCredentials/{apiCredentialId}', { params: { path: { companyId, apiCredentialId } }, body });

  test('When roles, description, merchant accounts and origins change, then the credential has them, the origin list is replaced and kept origins keep their ids', async () => {
    const { data: created } = await createCompanyCredential({ roles: [ROLES.checkout], allowedOrigins: ['https://a.example.com', 'https://b.example.com'] });
    const kept = created!.allowedOrigins!.find((o) => o.domain === 'https://b.example.com')!;
    const { data } = await patch(created!.id, {
      roles: [ROLES.checkout, ROLES.accountsRead],
      description: 'Changed',
      associatedMerchantAccounts: [pos],
      allowedOrigins: ['https://b.example.com', 'https://c.example.com'],
      subjectDN: 'CN=shop,O=Demo',
    });
    expect(data).toMatchObject({
      roles: [ROLES.checkout, ROLES.accountsRead],
      description: 'Changed',
      associatedMerchantAccounts: [pos],
      subjectDN: 'CN=shop,O=Demo',
    });
    expect(data?.allowedOrigins?.map((o) => o.domain)).toEqual(['https://b.example.com', 'https://c.example.com']);
    expect(data?.allowedOrigins?.find((o) => o.domain === 'https://b.example.com')?.id).toBe(kept.id);
    const origins = await server.management.GET('/companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins', {
      params: { path: { companyId, apiCredentialId: created!.id } },
    });
    expect(origins.data?.data?.map((o) => o.domain)).toEqual(['https://b.example.com', 'https://c.example.com']);
  });

  test('When a credential is deactivated, then its API key, password and client key are refused at once, and work again once it is reactivated', async () => {
    const { data: created } = await createCompanyCredential({ roles: [ROLES.checkout], allowedOrigins: ['https://shop.example.com'] });
    const c = created!;
    const clientKeyCall = () =>
      fetch(`${server.checkoutUrl}/sessions/CS0000000000000000/payments`, {
        method: 'POST',
        headers: { 'X-Client-Key': c.clientKey, Origin: 'https://shop.example.com', 'Content-Type': 'application/json' },
        body: JSON.stringify({ sessionData: 'x', paymentMethod: { type: 'scheme' } }),
      });
    expect(await status({ 'X-API-Key': c.apiKey })).toBe(200);
    expect((await clientKeyCall()).status).not.toBe(401);

    expect((await patch(c.id, { active: false })).data?.active).toBe(false);
    expect(await status({ 'X-API-Key': c.apiKey })).toBe(401);
    expect(await status(basic(c.username, c.password))).toBe(401);
    expect((await clientKeyCall()).status).toBe(401);

    expect((await patch(c.id, { active: true })).data?.active).toBe(true);
    expect(await status({ 'X-API-Key': c.apiKey })).toBe(200);
  });

  test('When another instance deactivates a credential (a write this process did not make), then this one refuses its key at once', async () => {
    const { data: created } = await createCompanyCredential({ roles: [ROLES.checkout] });
    expect(await status({ 'X-API-Key': created!.apiKey })).toBe(200);
    await server.store.transaction(async (tx) => {
      const stored = (await tx.credentials.get(created!.id))!;
      await tx.credentials.update({ ...stored, active: false });
    });
    expect(await status({ 'X-API-Key': created!.apiKey })).toBe(401);
  });

  test('When a credential deactivates itself or removes its own API credentials role, then the answer is 422 and it still works', async () => {
    const self = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout]);
    const deactivate = await patch(self.id, { active: false }, self.management);
    expect(deactivate.error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'active' })] });
    const demote = await patch(self.id, { roles: [ROLES.checkout] }, self.management);
    expect(demote.error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'roles' })] });
    expect(await status({ 'X-API-Key': self.apiKey })).toBe(200);
    // Dropping another role of its own is allowed.
    expect((await patch(self.id, { roles: [ROLES.apiCredentialsReadWrite] }, self.management)).data?.roles).toEqual([ROLES.apiCredentialsReadWrite]);
  });

  test('When a credential gives itself a role it lacks or widens its own merchant accounts, then the answer is 403 and nothing changes', async () => {
    const self = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout], null, [ecom]);
    expect((await patch(self.id, { roles: [ROLES.apiCredentialsReadWrite, ROLES.checkout, ROLES.webhooksReadWrite] }, self.management)).response.status).toBe(
      403,
    );
    expect((await patch(self.id, { associatedMerchantAccounts: [] }, self.management)).response.status).toBe(403);
    expect((await patch(self.id, { associatedMerchantAccounts: [ecom, pos] }, self.management)).response.status).toBe(403);
    const me = await self.management.GET('/me');
    expect(me.data).toMatchObject({ roles: [ROLES.apiCredentialsReadWrite, ROLES.checkout], associatedMerchantAccounts: [ecom] });
  });

  test('When the caller changes a credential that has roles the caller lacks, then the answer is 403', async () => {
    const limited = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout]);
    const { data: stronger } = await createCompanyCredential({ roles: [ROLES.checkout, ROLES.accountsRead] });
    const { error } = await patch(stronger!.id, { description: 'mine now' }, limited.management);
    expect(error).toMatchObject({ status: 403, errorCode: '00_403' });
  });

  test('When a merchant credential is named at company level, then it is not found', async () => {
    expect((await patch(DEMO.merchantCredentialId, { description: 'x' })).response.status).toBe(404);
  });
});

describe('PATCH /merchants/{merchantId}/apiCredentials/{apiCredentialId}', () => {
  const patch = (merchantId: string, apiCredentialId: string, body: Record<string, unknown>, client = server.management) =>
    client.PATCH('/merchants/{merchantId}/apiCredentials/{apiCredentialId}', { params: { path: { merchantId, apiCredentialId } }, body });

  test('When a merchant credential is updated, then it has the new roles and origins; under another merchant account it is not found', async () => {
    const { data: created } = await createMerchantCredential(ecom, { roles: [ROLES.checkout] });
    const { data } = await patch(ecom, created!.id, { roles: CHECKOUT_ROLES, allowedOrigins: ['https://dropin.example.com'], description: 'Drop-in' });
    expect(data).toMatchObject({ roles: CHECKOUT_ROLES, description: 'Drop-in', allowedOrigins: [{ domain: 'https://dropin.example.com' }] });
    expect(data).not.toHaveProperty('associatedMerchantAccounts');
    expect((await patch(pos, created!.id, { description: 'x' })).response.status).toBe(404);
  });

  test('When a merchant-level caller updates a credential of its merchant account, then roles it lacks are refused (403)', async () => {
    const merchant = await caller([ROLES.apiCredentialsReadWrite, ROLES.checkout], ecom);
    const { data: created } = await createMerchantCredential(ecom, { roles: [ROLES.checkout] }, merchant.management);
    expect((await patch(ecom, created!.id, { description: 'ok' }, merchant.management)).response.status).toBe(200);
    expect((await patch(ecom, created!.id, { roles: [ROLES.checkout, ROLES.merchantPal] }, merchant.management)).response.status).toBe(403);
  });
});

describe('POST /merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateApiKey and POST /companies/{companyId}/apiCredentials/{apiCredentialId}/generateApiKey', () => {
  test('When a created credential rotates its key, then the old key works until the sandbox clock passes 24 hours and the password is not affected', async () => {
    const { data: created } = await createMerchantCredential(ecom, { roles: CHECKOUT_ROLES });
    const c = created!;
    const { data: rotated } = await server.management.POST('/merchants/{merchantId}/apiCredentials/{apiCredentialId}/generateApiKey', {
      params: { path: { merchantId: ecom, apiCredentialId: c.id } },
    });
    expect(await status({ 'X-API-Key': rotated!.apiKey })).toBe(200);
    expect(await status({ 'X-API-Key': c.apiKey })).toBe(200);
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 24 * 3600 + 1 } });
    expect(await status({ 'X-API-Key': c.apiKey })).toBe(401);
    expect(await status({ 'X-API-Key': rotated!.apiKey })).toBe(200);
    expect(await status(basic(c.username, c.password))).toBe(200);
  });

  test('When a credential without a role of the target rotates its key, then the answer is 403', async () => {
    const limited = await caller([ROLES.apiCredentialsReadWrite]);
    const { data: created } = await createCompanyCredential({ roles: [ROLES.checkout] });
    const { response } = await limited.management.POST('/companies/{companyId}/apiCredentials/{apiCredentialId}/generateApiKey', {
      params: { path: { companyId, apiCredentialId: created!.id } },
    });
    expect(response.status).toBe(403);
  });
});

(TEST_ENGINE === 'postgres' ? describe : describe.skip)('PATCH /companies/{companyId}/apiCredentials/{apiCredentialId} on two instances', () => {
  test('When one instance deactivates a credential, then the other refuses its key, its client key and its password at once', async () => {
    const database = await freshDatabase();
    const a = await startServer(database.config);
    const b = await startServer(database.config);
    try {
      const shop = 'https://www.shop-two-instances.example.com';
      const { data: created } = await a.management.POST('/companies/{companyId}/apiCredentials', {
        params: { path: { companyId } },
        body: { roles: [ROLES.checkout], associatedMerchantAccounts: [ecom], allowedOrigins: [shop] },
      });
      const keyOnB = () => fetch(`${b.checkoutUrl}/sandbox/clock`, { headers: { 'X-API-Key': created!.apiKey } });
      const passwordOnB = () => fetch(`${b.checkoutUrl}/sandbox/clock`, { headers: basic(created!.username, created!.password) });
      // What a browser on the shop sends to pay in a session with the client key.
      const clientKeyOnB = async () => {
        const { data: session } = await b.checkout.POST('/sessions', {
          body: { merchantAccount: ecom, amount: { currency: 'EUR', value: 1000 }, reference: 'two-instances', returnUrl: `${shop}/return` },
        });
        return fetch(`${b.checkoutUrl}/sessions/${session!.id}/payments`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Client-Key': created!.clientKey, Origin: shop },
          body: JSON.stringify({ sessionData: session!.sessionData, paymentMethod: rawCard('4111111111111111') }),
        });
      };
      expect([(await keyOnB()).status, (await passwordOnB()).status, (await clientKeyOnB()).status]).toEqual([200, 200, 200]);
      await a.management.PATCH('/companies/{companyId}/apiCredentials/{apiCredentialId}', {
        params: { path: { companyId, apiCredentialId: created!.id } },
        body: { active: false },
      });
      expect([(await keyOnB()).status, (await passwordOnB()).status, (await clientKeyOnB()).status]).toEqual([401, 401, 401]);
    } finally {
      await b.stop();
      await a.stop();
      await database.drop();
    }
  });
});
