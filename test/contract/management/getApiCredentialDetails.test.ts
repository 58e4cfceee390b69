import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { MERCHANT_KEY } from '../../helpers/keys.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('GET /me', () => {
  test('When the company credential asks about itself, then it gets its roles, client key and links, and never a key', async () => {
    const { data, response } = await server.management.GET('/me');
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: 'S2-DEMOCOMPANY01', username: 'ws@Company.DemoCompany', companyName: 'DemoCompany', active: true, associatedMerchantAccounts: [] });
    expect(data?.roles).toEqual(expect.arrayContaining(['Checkout webservice role', 'Management API - Accounts read']));
    expect(data?.clientKey).toMatch(/^test_/);
    expect(JSON.stringify(data)).not.toContain('test-company-key');
  });

  test('When the merchant credential asks about itself, then it sees its one merchant account and checkout roles only', async () => {
    const client = createManagementClient({ baseUrl: server.managementUrl, apiKey: MERCHANT_KEY });
    const { data } = await client.GET('/me');
    expect(data).toMatchObject({ id: 'S2-DEMOMERCHANT1', associatedMerchantAccounts: ['DemoMerchantECOM'], roles: ['Checkout webservice role', 'Merchant PAL Webservice role'] });
    expect(data?._links?.merchant?.href).toBe(`${server.managementUrl}/merchants/DemoMerchantECOM`);
  });
});
