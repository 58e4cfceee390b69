import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { ERR_NOT_ALLOWED } from '../../../server/kernel/errors.js';
import { MERCHANT_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const list = (query: { pageNumber?: number; pageSize?: number } = {}, companyId = 'DemoCompany') =>
  server.management.GET('/companies/{companyId}/merchants', { params: { path: { companyId }, query } });

describe('GET /companies/{companyId}/merchants', () => {
  test('When the company credential lists merchant accounts, then both demo accounts come with pagination totals', async () => {
    const { data, response } = await list();
    expect(response.status).toBe(200);
    expect(data?.data?.map((m) => m.id)).toEqual(['DemoMerchantECOM', 'DemoMerchantPOS']);
    expect(data).toMatchObject({ itemsTotal: 2, pagesTotal: 1 });
    expect(data?._links.self.href).toBe(`${server.managementUrl}/companies/DemoCompany/merchants?pageNumber=1&pageSize=10`);
    expect(data?._links.next).toBeUndefined();
  });

  test('When pages of one are asked for, then next and prev links walk through them', async () => {
    const first = await list({ pageSize: 1 });
    expect(first.data).toMatchObject({ itemsTotal: 2, pagesTotal: 2, data: [{ id: 'DemoMerchantECOM' }] });
    expect(first.data?._links.next?.href).toContain('pageNumber=2&pageSize=1');
    expect(first.data?._links.prev).toBeUndefined();
    const second = await list({ pageSize: 1, pageNumber: 2 });
    expect(second.data?.data?.map((m) => m.id)).toEqual(['DemoMerchantPOS']);
    expect(second.data?._links.prev?.href).toContain('pageNumber=1&pageSize=1');
    expect(second.data?._links.next).toBeUndefined();
  });

  test('When a page past the end is asked for, then it is empty', async () => {
    const { data } = await list({ pageSize: 10, pageNumber: 3 });
    expect(data).toMatchObject({ data: [], itemsTotal: 2 });
  });

  test('When another company is asked for, then it is not found (and not forbidden)', async () => {
    const { error, response } = await list({}, 'SomeOtherCompany');
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ status: 404, errorCode: '30_112', type: 'https://docs.adyen.com/errors/not-found' });
  });

  test('When a credential without an accounts role lists merchant accounts, then the answer is 403 in the RFC 7807 shape', async () => {
    const merchantOnly = createManagementClient({ baseUrl: server.managementUrl, apiKey: MERCHANT_KEY });
    const { error, response } = await merchantOnly.GET('/companies/{companyId}/merchants', { params: { path: { companyId: 'DemoCompany' } } });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({
      status: 403,
      errorCode: ERR_NOT_ALLOWED.managementCode,
      title: 'Forbidden',
      detail: expect.stringContaining('Management API - Accounts read'),
    });
  });
});
