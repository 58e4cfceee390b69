import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCredential } from '../../helpers/boundary.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const companyId = DEMO.companyId;
const ecom = DEMO.merchantEcom;
const pos = DEMO.merchantPos;
let counter = 0;
const email = (name: string) => `${name}.${++counter}@example.com`;
const name = { firstName: 'Jane', lastName: 'Doe' };

const createCompanyUser = (body: Record<string, unknown>, client = server.management) =>
  client.POST('/companies/{companyId}/users', { params: { path: { companyId } }, body: body as never });
const createMerchantUser = (merchantId: string, body: Record<string, unknown>, client = server.management) =>
  client.POST('/merchants/{merchantId}/users', { params: { path: { merchantId } }, body: body as never });

describe('POST /companies/{companyId}/users', () => {
  test('When a company user is created, then it is active, has what was sent and a default time zone, and no password anywhere', async () => {
    const address = email('jane');
    const { data, response } = await createCompanyUser({
      email: address,
      username: address,
      name,
      roles: ['Merchant admin', 'Merchant admin'],
      associatedMerchantAccounts: [ecom],
      accountGroups: ['Finance'],
      loginMethod: 'Email',
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      id: expect.stringMatching(/^S2-/),
      email: address,
      username: address,
      name,
      active: true,
      roles: ['Merchant admin'],
      associatedMerchantAccounts: [ecom],
      accountGroups: ['Finance'],
      timeZoneCode: 'UTC',
      _links: { self: { href: `${server.managementUrl}/companies/${companyId}/users/${data!.id}` } },
    });
    const stored = await server.store.read((tx) => tx.users.get(data!.id));
    expect(Object.keys(stored!).some((key) => /password|secret|token/i.test(key))).toBe(false);
  });

  test.each([
    ['a user name other than the email', (a: string) => ({ email: a, username: `other-${a}` }), 'username'],
    ['an unknown time zone', (a: string) => ({ email: a, username: a, timeZoneCode: 'Mars/Olympus_Mons' }), 'timeZoneCode'],
    ['a time zone that is not a name', (a: string) => ({ email: a, username: a, timeZoneCode: '+01:00' }), 'timeZoneCode'],
    ['the SSO login method (no company has SSO set up)', (a: string) => ({ email: a, username: a, loginMethod: 'SSO' }), 'loginMethod'],
    ['an unknown login method', (a: string) => ({ email: a, username: a, loginMethod: 'Password' }), 'loginMethod'],
    [
      'a merchant account of no company',
      (a: string) => ({ email: a, username: a, associatedMerchantAccounts: ['NoSuchMerchant'] }),
      'associatedMerchantAccounts',
    ],
    ['an email that is not one', () => ({ email: 'not-an-email', username: 'not-an-email' }), 'email'],
  ])('When the request has %s, then the answer is 422 naming the field and no user is created', async (_what, fields, field) => {
    const before = (await server.management.GET('/companies/{companyId}/users', { params: { path: { companyId } } })).data!.itemsTotal;
    const { error } = await createCompanyUser({ name, ...fields(email('bad')) });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: field })] });
    expect((await server.management.GET('/companies/{companyId}/users', { params: { path: { companyId } } })).data!.itemsTotal).toBe(before);
  });

  test('When the user name is taken in the company (by a company or a merchant user), then the answer is 422', async () => {
    const address = email('twice');
    expect((await createMerchantUser(ecom, { email: address, username: address, name })).response.status).toBe(200);
    const { error } = await createCompanyUser({ email: address, username: address, name });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'username' })] });
  });

  test('When a credential limited to one merchant account gives a user another, then the answer is 403', async () => {
    const apiKey = await insertCredential(server.store, {
      id: 'S2-USERSLIMITED01',
      merchantId: null,
      roles: [ROLES.usersReadWrite],
      associatedMerchantAccounts: [ecom],
    });
    const limited = createManagementClient({ baseUrl: server.managementUrl, apiKey });
    const a = email('limited');
    expect((await createCompanyUser({ email: a, username: a, name, associatedMerchantAccounts: [pos] }, limited)).response.status).toBe(403);
    const b = email('limited');
    expect((await createCompanyUser({ email: b, username: b, name, associatedMerchantAccounts: [ecom] }, limited)).response.status).toBe(200);
  });

  test('When a merchant-level credential with the users role creates a company user, then the answer is 403', async () => {
    const apiKey = await insertCredential(server.store, { id: 'S2-USERSMERCHANT1', merchantId: ecom, roles: [ROLES.usersReadWrite] });
    const merchant = createManagementClient({ baseUrl: server.managementUrl, apiKey });
    const a = email('merchant');
    expect((await createCompanyUser({ email: a, username: a, name }, merchant)).response.status).toBe(403);
  });
});

describe('GET /companies/{companyId}/users and GET /companies/{companyId}/users/{userId}', () => {
  test('When company users are listed, then they come a page at a time, filtered by user name, without merchant users', async () => {
    const tag = `list${Date.now()}`;
    const made = [];
    for (const n of [1, 2, 3]) {
      const address = `${tag}-${n}@example.com`;
      made.push((await createCompanyUser({ email: address, username: address, name })).data!.id);
    }
    const merchantAddress = `${tag}-merchant@example.com`;
    await createMerchantUser(ecom, { email: merchantAddress, username: merchantAddress, name });

    const page = await server.management.GET('/companies/{companyId}/users', {
      params: { path: { companyId }, query: { username: tag.toUpperCase(), pageSize: 2 } },
    });
    expect(page.data).toMatchObject({ itemsTotal: 3, pagesTotal: 2 });
    expect(page.data?.data).toHaveLength(2);
    const second = await server.management.GET('/companies/{companyId}/users', {
      params: { path: { companyId }, query: { username: tag, pageSize: 2, pageNumber: 2 } },
    });
    expect([...page.data!.data!, ...second.data!.data!].map((u) => u.id).sort()).toEqual([...made].sort());
    // A pattern character in the filter is taken literally.
    expect((await server.management.GET('/companies/{companyId}/users', { params: { path: { companyId }, query: { username: '%' } } })).data?.itemsTotal).toBe(
      0,
    );

    const one = await server.management.GET('/companies/{companyId}/users/{userId}', { params: { path: { companyId, userId: made[0]! } } });
    expect(one.data).toMatchObject({ id: made[0], username: `${tag}-1@example.com`, associatedMerchantAccounts: [] });
  });

  test('When a merchant user or an unknown user is asked for at company level, then it is not found', async () => {
    const address = email('merchant-only');
    const { data } = await createMerchantUser(ecom, { email: address, username: address, name });
    expect((await server.management.GET('/companies/{companyId}/users/{userId}', { params: { path: { companyId, userId: data!.id } } })).response.status).toBe(
      404,
    );
    expect(
      (await server.management.GET('/companies/{companyId}/users/{userId}', { params: { path: { companyId, userId: 'S2-NOSUCHUSER' } } })).response.status,
    ).toBe(404);
  });
});

describe('PATCH /companies/{companyId}/users/{userId}', () => {
  test('When a company user is updated, then absent fields stay, lists are replaced, a partial name changes only that part, and the user name stays', async () => {
    const address = email('patch');
    const { data: created } = await createCompanyUser({ email: address, username: address, name, roles: ['Merchant admin'], accountGroups: ['Finance'] });
    const newAddress = email('patched');
    const { data } = await server.management.PATCH('/companies/{companyId}/users/{userId}', {
      params: { path: { companyId, userId: created!.id } },
      body: {
        roles: ['Merchant report role'],
        associatedMerchantAccounts: [pos],
        name: { lastName: 'Smith' },
        timeZoneCode: 'Europe/Berlin',
        active: false,
        email: newAddress,
      },
    });
    expect(data).toMatchObject({
      id: created!.id,
      username: address,
      email: newAddress,
      name: { firstName: 'Jane', lastName: 'Smith' },
      roles: ['Merchant report role'],
      associatedMerchantAccounts: [pos],
      accountGroups: ['Finance'],
      timeZoneCode: 'Europe/Berlin',
      active: false,
    });
    const read = await server.management.GET('/companies/{companyId}/users/{userId}', { params: { path: { companyId, userId: created!.id } } });
    expect(read.data).toEqual(data);
  });

  test('When an update names a merchant account of no company or an unknown time zone, then the answer is 422 and nothing changes', async () => {
    const address = email('bad-patch');
    const { data: created } = await createCompanyUser({ email: address, username: address, name });
    const patch = (body: Record<string, unknown>) =>
      server.management.PATCH('/companies/{companyId}/users/{userId}', { params: { path: { companyId, userId: created!.id } }, body });
    expect((await patch({ associatedMerchantAccounts: ['OtherMerchant'], roles: ['x'] })).response.status).toBe(422);
    expect((await patch({ timeZoneCode: 'Nowhere/Town', roles: ['x'] })).response.status).toBe(422);
    const read = await server.management.GET('/companies/{companyId}/users/{userId}', { params: { path: { companyId, userId: created!.id } } });
    expect(read.data).toEqual(created);
  });
});

describe('POST /merchants/{merchantId}/users, GET /merchants/{merchantId}/users, GET /merchants/{merchantId}/users/{userId} and PATCH /merchants/{merchantId}/users/{userId}', () => {
  test('When a merchant user is created, listed, read and updated, then it belongs to that merchant account only and has no merchant account list', async () => {
    const address = email('sam');
    const { data: created } = await createMerchantUser(ecom, {
      email: address,
      username: address,
      name: { firstName: 'Sam', lastName: 'Lee' },
      timeZoneCode: 'Europe/Amsterdam',
    });
    expect(created).toMatchObject({ username: address, timeZoneCode: 'Europe/Amsterdam', active: true });
    expect(created).not.toHaveProperty('associatedMerchantAccounts');
    expect(created?._links?.self.href).toBe(`${server.managementUrl}/merchants/${ecom}/users/${created!.id}`);

    const listed = await server.management.GET('/merchants/{merchantId}/users', { params: { path: { merchantId: ecom }, query: { username: address } } });
    expect(listed.data?.data?.map((u) => u.id)).toEqual([created!.id]);
    expect(
      (await server.management.GET('/merchants/{merchantId}/users', { params: { path: { merchantId: pos }, query: { username: address } } })).data?.itemsTotal,
    ).toBe(0);
    expect(
      (await server.management.GET('/merchants/{merchantId}/users/{userId}', { params: { path: { merchantId: pos, userId: created!.id } } })).response.status,
    ).toBe(404);

    const { data: updated } = await server.management.PATCH('/merchants/{merchantId}/users/{userId}', {
      params: { path: { merchantId: ecom, userId: created!.id } },
      body: { roles: ['Merchant report role'], loginMethod: 'Username & account' },
    });
    expect(updated).toMatchObject({ roles: ['Merchant report role'], name: { firstName: 'Sam', lastName: 'Lee' } });
    expect(
      (await server.management.GET('/merchants/{merchantId}/users/{userId}', { params: { path: { merchantId: ecom, userId: created!.id } } })).data,
    ).toEqual(updated);
  });

  test('When company fields are sent for a merchant user, then the answer is 422 naming them', async () => {
    const address = email('merchant-extra');
    const { error } = await createMerchantUser(ecom, { email: address, username: address, name, associatedMerchantAccounts: [ecom] });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'associatedMerchantAccounts' })] });
  });

  test('When a merchant-level credential manages users of its merchant account, then it may; of another merchant account, it may not', async () => {
    const apiKey = await insertCredential(server.store, { id: 'S2-USERSECOM0001', merchantId: ecom, roles: [ROLES.usersReadWrite] });
    const merchant = createManagementClient({ baseUrl: server.managementUrl, apiKey });
    const a = email('ecom-own');
    expect((await createMerchantUser(ecom, { email: a, username: a, name }, merchant)).response.status).toBe(200);
    const b = email('pos-other');
    expect((await createMerchantUser(pos, { email: b, username: b, name }, merchant)).response.status).toBe(403);
  });
});
