import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

// One server for the file: the tests board terminals to stores of their own, and read the seeded
// ones, so they pass in any order (jest --randomize).
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

let made = 0;
async function store(merchantId: string = DEMO.merchantEcom, country = 'NL', extra: Record<string, unknown> = {}): Promise<string> {
  const { data } = await server.management.POST('/stores', {
    body: {
      merchantId,
      reference: `TT${++made}-${Date.now()}`,
      description: 'Terminal test store',
      shopperStatement: 'Terminal test',
      phoneNumber: '+31301234567',
      address: { country, ...extra },
    },
  });
  return data!.id;
}
const board = (storeId: string, model: 'S1F2' | 'V400m' | 'e285' = 'S1F2') => server.management.POST('/sandbox/terminals', { body: { storeId, model } });
const list = (query: Record<string, string | number> = {}) => server.management.GET('/terminals', { params: { query } });
const ids = (page: Awaited<ReturnType<typeof list>>) => page.data?.data?.map((t) => t.id) ?? [];

describe('GET /terminals', () => {
  test('When the company credential lists terminals, then the seeded ones are answered with their store, merchant account and country', async () => {
    const { data } = await list({ merchantIds: DEMO.merchantPos, storeIds: `${DEMO.storeAmsterdam},${DEMO.storeRotterdam}` });
    expect(data?.data).toEqual([
      {
        id: DEMO.terminalAmsterdam,
        model: 'S1F2',
        serialNumber: '000150183300032',
        firmwareVersion: expect.stringContaining('Castles'),
        countryCode: 'NL',
        assignment: { companyId: DEMO.companyId, merchantId: DEMO.merchantPos, storeId: DEMO.storeAmsterdam, status: 'boarded' },
      },
      expect.objectContaining({ id: DEMO.terminalRotterdam, model: 'V400m', assignment: expect.objectContaining({ storeId: DEMO.storeRotterdam }) }),
    ]);
  });

  test('When filters are combined, then only terminals matching all of them are answered', async () => {
    const be = await store(DEMO.merchantEcom, 'BE');
    const s1f2 = (await board(be, 'S1F2')).data!.id;
    const v400m = (await board(be, 'V400m')).data!.id;
    expect(ids(await list({ storeIds: be }))).toEqual([s1f2, v400m].sort());
    expect(ids(await list({ storeIds: be, brandModels: 'Verifone.V400m' }))).toEqual([v400m]);
    expect(ids(await list({ storeIds: be, brandModels: 'Castles.S1F2,Verifone.V400m' }))).toEqual([s1f2, v400m].sort());
    expect(ids(await list({ countries: 'BE', merchantIds: DEMO.merchantEcom, storeIds: be }))).toEqual([s1f2, v400m].sort());
    expect(ids(await list({ countries: 'NL', storeIds: be }))).toEqual([]);
    expect(ids(await list({ merchantIds: DEMO.merchantPos, storeIds: be }))).toEqual([]);
  });

  test('When searchQuery is given, then terminals whose id contains it in any case are answered and the other filters are ignored', async () => {
    const found = await list({ searchQuery: '150183300', merchantIds: DEMO.merchantEcom, countries: 'US' });
    expect(ids(found)).toEqual([DEMO.terminalAmsterdam]);
    expect(ids(await list({ searchQuery: 'v400M-32468817' }))).toEqual([DEMO.terminalRotterdam]);
    expect(ids(await list({ searchQuery: '%' }))).toEqual([]);
  });

  test('When otpQuery is given, then nothing is found (sandbox terminals have no boarding passwords)', async () => {
    const { data } = await list({ otpQuery: '123456' });
    expect(data).toMatchObject({ itemsTotal: 0, data: [] });
  });

  test('When pages are asked for, then the page size and links follow', async () => {
    const s = await store();
    for (let i = 0; i < 3; i++) await board(s, 'e285');
    const first = await list({ storeIds: s, pageSize: 2 });
    expect(first.data).toMatchObject({ itemsTotal: 3, pagesTotal: 2 });
    expect(first.data?.data).toHaveLength(2);
    const second = await list({ storeIds: s, pageSize: 2, pageNumber: 2 });
    expect(second.data?.data).toHaveLength(1);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(3);
  });

  test('When a brandModels value is not brand.model, or pageSize is above 100, then the answer is 422', async () => {
    expect((await list({ brandModels: 'S1F2' })).error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'brandModels' })] });
    expect((await list({ pageSize: 101 })).response.status).toBe(422);
  });

  test("When a merchant-level credential lists terminals, then only its merchant account's are answered, even when it names another", async () => {
    const mine = (await board(await store(DEMO.merchantEcom))).data!.id;
    const key = await insertCredential(server.store, { id: 'S2-TERMINALSECOM1', merchantId: DEMO.merchantEcom, roles: [ROLES.terminalActionsRead] });
    const ecom = createManagementClient({ baseUrl: server.managementUrl, apiKey: key });
    const all = await ecom.GET('/terminals', { params: { query: { pageSize: 100 } } });
    expect(all.data?.data?.map((t) => t.id)).toContain(mine);
    expect(all.data?.data?.every((t) => t.assignment.merchantId === DEMO.merchantEcom)).toBe(true);
    expect((await ecom.GET('/terminals', { params: { query: { merchantIds: DEMO.merchantPos } } })).data?.data).toEqual([]);
    expect((await ecom.GET('/terminals', { params: { query: { searchQuery: DEMO.terminalAmsterdam } } })).data?.data).toEqual([]);
  });

  test('When a credential without a terminal actions role lists terminals, then the answer is 403', async () => {
    const key = await insertCredential(server.store, { id: 'S2-TERMINALSNONE', merchantId: null, roles: [ROLES.storesRead] });
    const none = createManagementClient({ baseUrl: server.managementUrl, apiKey: key });
    expect((await none.GET('/terminals')).response.status).toBe(403);
  });
});

describe('POST /sandbox/terminals', () => {
  test('When a terminal is boarded to a new store, then it is listed there and takes settings through the store and its own id', async () => {
    const s = await store(DEMO.merchantEcom, 'NL', { city: 'Utrecht' });
    const { data, response } = await board(s, 'S1F2');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      id: expect.stringMatching(/^S1F2-[0-9]{15}$/),
      model: 'S1F2',
      countryCode: 'NL',
      assignment: { companyId: DEMO.companyId, merchantId: DEMO.merchantEcom, storeId: s, status: 'boarded' },
    });
    await server.management.PATCH('/stores/{storeId}/terminalSettings', { params: { path: { storeId: s } }, body: { timeouts: { fromActiveToSleep: 45 } } });
    const settings = await server.management.GET('/terminals/{terminalId}/terminalSettings', { params: { path: { terminalId: data!.id } } });
    expect(settings.data?.timeouts?.fromActiveToSleep).toBe(45);
  });

  test('When the store is inactive, unknown or of another company, then the answer is 422 and no terminal is made', async () => {
    const s = await store();
    await server.management.PATCH('/stores/{storeId}', { params: { path: { storeId: s } }, body: { status: 'inactive' } });
    expect((await board(s)).error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'storeId' })] });
    await insertCompany(server.store, 'TerminalsOtherCo', 'TerminalsOtherMerchant');
    await server.store.transaction((tx) =>
      tx.stores.insert({
        id: 'STOTHERCOMPANY00000000001',
        merchantId: 'TerminalsOtherMerchant',
        reference: 'OTHER1',
        description: 'Other company',
        shopperStatement: 'Other',
        phoneNumber: '+31301234567',
        address: { country: 'NL' },
        status: 'active',
        details: {},
      }),
    );
    for (const storeId of ['STNOSUCHSTORE00000000000000', 'STOTHERCOMPANY00000000001']) {
      const { error } = await board(storeId);
      expect(error).toMatchObject({ status: 422, detail: expect.not.stringContaining('Other company') });
    }
    expect(ids(await list({ storeIds: `${s},STOTHERCOMPANY00000000001` }))).toEqual([]);
  });

  test('When a merchant-level credential boards to a store of another merchant account, then the answer is 403', async () => {
    const key = await insertCredential(server.store, { id: 'S2-BOARDECOM00001', merchantId: DEMO.merchantEcom, roles: [ROLES.assignTerminal] });
    const ecom = createManagementClient({ baseUrl: server.managementUrl, apiKey: key });
    const { response } = await ecom.POST('/sandbox/terminals', { body: { storeId: DEMO.storeAmsterdam, model: 'S1F2' } });
    expect(response.status).toBe(403);
  });

  test('When the server runs in production mode, then boarding answers 404', async () => {
    const production = await startServer({ mode: 'production' });
    try {
      const { response } = await production.management.POST('/sandbox/terminals', { body: { storeId: DEMO.storeAmsterdam, model: 'S1F2' } });
      expect(response.status).toBe(404);
    } finally {
      await production.stop();
    }
  });
});
