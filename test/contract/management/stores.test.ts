import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCredential } from '../../helpers/boundary.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { createManagementClient } from '../../../client/index.js';

// One server for the file: every test makes stores of its own (references are unique per test),
// so the tests pass in any order (jest --randomize).
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

let made = 0;
const reference = () => `T${++made}-${Date.now()}`;
const newStore = (overrides: Record<string, unknown> = {}) => ({
  merchantId: DEMO.merchantPos,
  reference: reference(),
  description: 'Pop-up store',
  shopperStatement: 'Demo Pop-up',
  phoneNumber: '+31 20-123.4567',
  address: { country: 'NL', city: 'Haarlem', line1: 'Grote Markt 2', postalCode: '2011 RD' },
  ...overrides,
});
const create = (overrides: Record<string, unknown> = {}) => server.management.POST('/stores', { body: newStore(overrides) as never });
const patch = (storeId: string, body: Record<string, unknown>) =>
  server.management.PATCH('/stores/{storeId}', { params: { path: { storeId } }, body: body as never });
const getById = (storeId: string) => server.management.GET('/stores/{storeId}', { params: { path: { storeId } } });

describe('POST /stores', () => {
  test('When a store is created, then it is active, its phone number is E.164, and its terminal settings and logos answer under its reference', async () => {
    const body = newStore();
    const { data, response } = await server.management.POST('/stores', { body: body as never });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      id: expect.stringMatching(/^ST[0-9A-Z]{23}$/),
      merchantId: DEMO.merchantPos,
      reference: body.reference,
      status: 'active',
      phoneNumber: '+31201234567',
      address: body.address,
      shopperStatement: 'Demo Pop-up',
    });
    const path = { merchantId: DEMO.merchantPos, reference: body.reference };
    const settings = await server.management.PATCH('/merchants/{merchantId}/stores/{reference}/terminalSettings', {
      params: { path },
      body: { receiptOptions: { headerLine1: 'Pop-up' } },
    });
    expect(settings.data?.receiptOptions?.headerLine1).toBe('Pop-up');
    expect(
      (await server.management.GET('/stores/{storeId}/terminalSettings', { params: { path: { storeId: data!.id } } })).data?.receiptOptions?.headerLine1,
    ).toBe('Pop-up');
    const logo = await server.management.GET('/merchants/{merchantId}/stores/{reference}/terminalLogos', { params: { path, query: { model: 'S1F2' } } });
    expect(logo.response.status).toBe(200);
  });

  test('When no reference is given, then the reference is the store id', async () => {
    const { reference: _none, ...body } = newStore();
    const { data } = await server.management.POST('/stores', { body: body as never });
    expect(data?.reference).toBe(data?.id);
  });

  test('When a reference is taken in the merchant account, then the answer is 422 and no second store exists; another merchant account may use it', async () => {
    const first = await create();
    const taken = first.data!.reference;
    const { error } = await create({ reference: taken });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'reference' })] });
    const list = await server.management.GET('/stores', { params: { query: { reference: taken } } });
    expect(list.data?.data?.map((s) => s.id)).toEqual([first.data!.id]);
    expect((await create({ reference: taken, merchantId: DEMO.merchantEcom })).response.status).toBe(200);
  });

  test.each([
    ['a shopper statement of only digits', { shopperStatement: '1234567' }, 'shopperStatement'],
    ['a shopper statement longer than 22 characters', { shopperStatement: 'A shopper statement of 30 char' }, 'shopperStatement'],
    ['a phone number that is not E.164', { phoneNumber: '020-1234567' }, 'phoneNumber'],
    ['a reference with a diacritic', { reference: 'Zürich-1' }, 'reference'],
    ['an address without a country', { address: { city: 'Haarlem' } }, 'address.country'],
    ['a US address without a state', { address: { country: 'US', city: 'Austin' } }, 'address.stateOrProvince'],
    ['an unknown split configuration', { splitConfiguration: { splitConfigurationId: 'SCNF000000000000' } }, 'splitConfiguration.splitConfigurationId'],
  ])('When the request has %s, then the answer is 422 naming the field and nothing is stored', async (_what, overrides, field) => {
    const body = newStore(overrides);
    const { error } = await server.management.POST('/stores', { body: body as never });
    expect(error).toMatchObject({ status: 422, invalidFields: expect.arrayContaining([expect.objectContaining({ name: field })]) });
    if (typeof body.reference === 'string') {
      const list = await server.management.GET('/stores', { params: { query: { reference: body.reference } } });
      expect(list.data?.itemsTotal).toBe(0);
    }
  });

  test('When a credential without Stores read and write creates a store, then the answer is 403', async () => {
    const key = await insertCredential(server.store, { id: 'S2-STORESREAD0001', merchantId: null, roles: [ROLES.storesRead] });
    const readOnly = createManagementClient({ baseUrl: server.managementUrl, apiKey: key });
    const body = newStore();
    expect((await readOnly.POST('/stores', { body: body as never })).response.status).toBe(403);
    expect((await server.management.GET('/stores', { params: { query: { reference: body.reference } } })).data?.itemsTotal).toBe(0);
  });
});

describe('GET /stores', () => {
  test('When stores are listed with merchantId, reference and paging, then only the matching page is answered', async () => {
    const created = await create({ merchantId: DEMO.merchantEcom });
    const byReference = await server.management.GET('/stores', { params: { query: { reference: created.data!.reference } } });
    expect(byReference.data).toMatchObject({ itemsTotal: 1, pagesTotal: 1, data: [{ id: created.data!.id }] });
    const ecom = await server.management.GET('/stores', { params: { query: { merchantId: DEMO.merchantEcom, pageSize: 100 } } });
    expect(ecom.data?.data?.every((s) => s.merchantId === DEMO.merchantEcom)).toBe(true);
    const firstPage = await server.management.GET('/stores', { params: { query: { pageSize: 1, pageNumber: 1 } } });
    expect(firstPage.data?.data).toHaveLength(1);
    expect(firstPage.data?.pagesTotal).toBe(firstPage.data?.itemsTotal);
    expect(firstPage.data?._links.next?.href).toContain('pageNumber=2');
  });

  test('When a merchant-level credential lists stores, then it sees only its merchant account; naming another is 403', async () => {
    const key = await insertCredential(server.store, { id: 'S2-STORESECOM001', merchantId: DEMO.merchantEcom, roles: [ROLES.storesRead] });
    const ecom = createManagementClient({ baseUrl: server.managementUrl, apiKey: key });
    await create({ merchantId: DEMO.merchantEcom });
    const { data } = await ecom.GET('/stores', { params: { query: { pageSize: 100 } } });
    expect(data?.data?.length).toBeGreaterThan(0);
    expect(data?.data?.every((s) => s.merchantId === DEMO.merchantEcom)).toBe(true);
    expect((await ecom.GET('/stores', { params: { query: { merchantId: DEMO.merchantPos } } })).response.status).toBe(403);
  });
});

describe('GET /stores/{storeId}', () => {
  test('When a seeded store is read, then its address, phone and status are answered; an unknown one is 404', async () => {
    const { data } = await getById(DEMO.storeAmsterdam);
    expect(data).toMatchObject({ reference: 'AMS01', status: 'active', phoneNumber: '+31201234567', address: { country: 'NL', city: 'Amsterdam' } });
    expect((await getById('STNOSUCHSTORE00000000000000')).response.status).toBe(404);
  });
});

describe('PATCH /stores/{storeId}', () => {
  test('When fields are changed, then only they change; an empty address line is cleared and the country stays', async () => {
    const { data: store } = await create({ externalReferenceId: '12345678901234' });
    const { data } = await patch(store!.id, {
      description: 'Pop-up, winter',
      phoneNumber: '0031 23 765 4321',
      address: { line1: 'Grote Markt 3', postalCode: '' },
    });
    expect(data).toMatchObject({
      description: 'Pop-up, winter',
      phoneNumber: '+31237654321',
      address: { country: 'NL', city: 'Haarlem', line1: 'Grote Markt 3' },
      shopperStatement: 'Demo Pop-up',
      externalReferenceId: '12345678901234',
    });
    expect(data?.address.postalCode).toBeUndefined();
    expect((await getById(store!.id)).data).toEqual(data);
  });

  test('When the address country is sent, then the answer is 422 and the store is unchanged', async () => {
    const { data: store } = await create();
    const { error } = await patch(store!.id, { address: { country: 'BE' } });
    expect(error).toMatchObject({ status: 422 });
    expect((await getById(store!.id)).data?.address.country).toBe('NL');
  });

  test('When the status moves active → inactive → active → inactive → closed, then each step is taken; active → closed and any change after closing are 422', async () => {
    const { data: store } = await create();
    const id = store!.id;
    expect((await patch(id, { status: 'closed' })).error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'status' })] });
    for (const status of ['inactive', 'active', 'inactive', 'closed'] as const) expect((await patch(id, { status })).data?.status).toBe(status);
    expect((await patch(id, { status: 'active' })).response.status).toBe(422);
    expect((await patch(id, { description: 'Reopened' })).response.status).toBe(422);
    expect((await getById(id)).data).toMatchObject({ status: 'closed', description: 'Pop-up store' });
  });

  test("When a store is closed, then its terminals go to the merchant account's inventory and keep their settings from above", async () => {
    const { data: store } = await create();
    const board = await server.management.POST('/sandbox/terminals', { body: { storeId: store!.id, model: 'V400m' } });
    const terminalId = board.data!.id;
    await patch(store!.id, { status: 'inactive' });
    await patch(store!.id, { status: 'closed' });
    const { data } = await server.management.GET('/terminals', { params: { query: { searchQuery: terminalId } } });
    expect(data?.data).toEqual([
      expect.objectContaining({ id: terminalId, assignment: { companyId: DEMO.companyId, merchantId: DEMO.merchantPos, status: 'inventory' } }),
    ]);
    const settings = await server.management.GET('/terminals/{terminalId}/terminalSettings', { params: { path: { terminalId } } });
    expect(settings.data?.receiptOptions?.headerLine1).toBe('Demo Company');
  });
});

describe('GET /merchants/{merchantId}/stores', () => {
  test('When the stores of a merchant account are listed, then only its stores are answered, narrowed by reference', async () => {
    const created = await create({ merchantId: DEMO.merchantEcom });
    const all = await server.management.GET('/merchants/{merchantId}/stores', {
      params: { path: { merchantId: DEMO.merchantEcom }, query: { pageSize: 100 } },
    });
    expect(all.data?.data?.map((s) => s.id)).toContain(created.data!.id);
    expect(all.data?.data?.every((s) => s.merchantId === DEMO.merchantEcom)).toBe(true);
    const one = await server.management.GET('/merchants/{merchantId}/stores', {
      params: { path: { merchantId: DEMO.merchantPos }, query: { reference: 'RTM02' } },
    });
    expect(one.data?.data?.map((s) => s.id)).toEqual([DEMO.storeRotterdam]);
  });
});

describe('POST /merchants/{merchantId}/stores', () => {
  test('When a store is created for the merchant account of the path, then it belongs to it', async () => {
    const { merchantId: _body, ...body } = newStore();
    const { data } = await server.management.POST('/merchants/{merchantId}/stores', {
      params: { path: { merchantId: DEMO.merchantEcom } },
      body: body as never,
    });
    expect(data).toMatchObject({ merchantId: DEMO.merchantEcom, reference: body.reference, status: 'active' });
  });

  test('When the body names a merchant account, then the answer is 422 (it comes from the path)', async () => {
    const { response } = await server.management.POST('/merchants/{merchantId}/stores', {
      params: { path: { merchantId: DEMO.merchantEcom } },
      body: newStore() as never,
    });
    expect(response.status).toBe(422);
  });
});

describe('GET /merchants/{merchantId}/stores/{storeId}', () => {
  test('When a store is read under its merchant account, then it is answered; under another merchant account it is 404', async () => {
    const path = { merchantId: DEMO.merchantPos, storeId: DEMO.storeAmsterdam };
    expect((await server.management.GET('/merchants/{merchantId}/stores/{storeId}', { params: { path } })).data?.reference).toBe('AMS01');
    const other = await server.management.GET('/merchants/{merchantId}/stores/{storeId}', { params: { path: { ...path, merchantId: DEMO.merchantEcom } } });
    expect(other.response.status).toBe(404);
  });
});

describe('PATCH /merchants/{merchantId}/stores/{storeId}', () => {
  test('When a store is changed under its merchant account, then it changes; under another merchant account it is 404 and unchanged', async () => {
    const { data: store } = await create();
    const path = { merchantId: DEMO.merchantPos, storeId: store!.id };
    const changed = await server.management.PATCH('/merchants/{merchantId}/stores/{storeId}', {
      params: { path },
      body: { subMerchantData: { id: 'SUB001', name: 'Sub shop', mcc: '5411', email: 'sub@example.com' } },
    });
    expect(changed.data?.subMerchantData).toEqual({ id: 'SUB001', name: 'Sub shop', mcc: '5411', email: 'sub@example.com' });
    const other = await server.management.PATCH('/merchants/{merchantId}/stores/{storeId}', {
      params: { path: { ...path, merchantId: DEMO.merchantEcom } },
      body: { description: 'Moved' },
    });
    expect(other.response.status).toBe(404);
    expect((await getById(store!.id)).data?.description).toBe('Pop-up store');
  });
});
