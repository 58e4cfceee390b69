import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { ROLES } from '../../../server/kernel/auth/roles.js';
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
    expect(data).toMatchObject({
      id: 'S2-DEMOCOMPANY01',
      username: 'ws@Company.DemoCompany',
      companyName: 'DemoCompany',
      active: true,
      associatedMerchantAccounts: [],
    });
    expect(data?.roles).toEqual(expect.arrayContaining(['Checkout webservice role', 'Management API - Accounts read']));
    expect(data?.clientKey).toMatch(/^test_/);
    expect(JSON.stringify(data)).not.toContain('test-company-key');
  });

  test('When the checkout-only merchant credential asks about itself, then it is refused with 403: /me needs a Management API role', async () => {
    const client = createManagementClient({ baseUrl: server.managementUrl, apiKey: MERCHANT_KEY });
    const { response, error } = await client.GET('/me');
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ status: 403, errorCode: '00_403' });
  });

  test('When a merchant credential with a management role asks about itself, then it sees its one merchant account', async () => {
    const key = 'merchant-with-management-role-key-0001';
    await server.store.transaction(async (tx) => {
      const createdAt = new Date().toISOString();
      await tx.credentials.insert({
        id: 'S2-MERCHANTMGMT01',
        companyId: 'DemoCompany',
        merchantId: 'DemoMerchantECOM',
        username: 'ws_200001@Company.DemoCompany',
        description: 'management',
        active: true,
        roles: [ROLES.checkout, ROLES.accountsRead],
        allowedIpAddresses: [],
        associatedMerchantAccounts: [],
        clientKey: 'test_M',
        createdAt,
      });
      await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(key), credentialId: 'S2-MERCHANTMGMT01', createdAt, expiresAt: null });
    });
    const { data } = await createManagementClient({ baseUrl: server.managementUrl, apiKey: key }).GET('/me');
    expect(data).toMatchObject({ id: 'S2-MERCHANTMGMT01', associatedMerchantAccounts: ['DemoMerchantECOM'], roles: [ROLES.checkout, ROLES.accountsRead] });
    expect(data?._links?.merchant?.href).toBe(`${server.managementUrl}/merchants/DemoMerchantECOM`);
  });
});
