import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { ROLES } from '../../../server/kernel/auth/roles.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
const STORE = 'ST322LJ223223K5F4SQNR9XL5';
const TERMINAL = 'S1F2-000150183300032';
const OTHER_TERMINAL = 'V400m-324688179';
// Each test gets its own server: tests must pass in any order (jest --randomize).
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.stop());

const company = () => server.management.GET('/companies/{companyId}/terminalSettings', { params: { path: { companyId: 'DemoCompany' } } });
const merchant = () => server.management.GET('/merchants/{merchantId}/terminalSettings', { params: { path: { merchantId: 'DemoMerchantPOS' } } });
const store = () => server.management.GET('/stores/{storeId}/terminalSettings', { params: { path: { storeId: STORE } } });
const storeByReference = () =>
  server.management.GET('/merchants/{merchantId}/stores/{reference}/terminalSettings', {
    params: { path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' } },
  });
const terminal = (terminalId = TERMINAL) => server.management.GET('/terminals/{terminalId}/terminalSettings', { params: { path: { terminalId } } });

describe('GET /companies/{companyId}/terminalSettings, PATCH /companies/{companyId}/terminalSettings, GET /merchants/{merchantId}/terminalSettings and PATCH /merchants/{merchantId}/terminalSettings', () => {
  test('When the company sets a value, then merchant accounts, stores and terminals inherit it; a lower level overrides it for itself only', async () => {
    expect((await company()).data?.receiptOptions?.headerLine1).toBe('Demo Company');
    expect((await terminal()).data?.receiptOptions?.headerLine1).toBe('Demo Company');
    await server.management.PATCH('/merchants/{merchantId}/terminalSettings', {
      params: { path: { merchantId: 'DemoMerchantPOS' } },
      body: { receiptOptions: { headerLine1: 'Demo POS' } },
    });
    expect((await merchant()).data?.receiptOptions?.headerLine1).toBe('Demo POS');
    expect((await terminal()).data?.receiptOptions?.headerLine1).toBe('Demo POS');
    expect((await company()).data?.receiptOptions?.headerLine1).toBe('Demo Company');
  });
});

describe('GET /stores/{storeId}/terminalSettings, PATCH /stores/{storeId}/terminalSettings, GET /merchants/{merchantId}/stores/{reference}/terminalSettings and PATCH /merchants/{merchantId}/stores/{reference}/terminalSettings', () => {
  test('When a store section is replaced, then fields left out inherit again and sections not included stay', async () => {
    await server.management.PATCH('/stores/{storeId}/terminalSettings', {
      params: { path: { storeId: STORE } },
      body: { receiptOptions: { headerLine1: 'Amsterdam', headerLine2: 'Damrak 1' }, localization: { language: 'nl' } },
    });
    expect((await storeByReference()).data).toMatchObject({
      receiptOptions: { headerLine1: 'Amsterdam', headerLine2: 'Damrak 1' },
      localization: { language: 'nl', timezone: 'Europe/Amsterdam' },
    });
    // Only receiptOptions is included: headerLine2 is left out, so it inherits again; localization stays.
    const { data } = await server.management.PATCH('/merchants/{merchantId}/stores/{reference}/terminalSettings', {
      params: { path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' } },
      body: { receiptOptions: { headerLine1: 'Amsterdam Centraal' } },
    });
    expect(data?.receiptOptions).toEqual({ headerLine1: 'Amsterdam Centraal', promptBeforePrinting: false });
    expect(data?.localization?.language).toBe('nl');
  });

  test('When an empty value or an empty section is sent, then the inherited value comes back', async () => {
    await server.management.PATCH('/merchants/{merchantId}/terminalSettings', {
      params: { path: { merchantId: 'DemoMerchantPOS' } },
      body: { receiptOptions: { headerLine1: 'Demo POS' } },
    });
    await server.management.PATCH('/stores/{storeId}/terminalSettings', {
      params: { path: { storeId: STORE } },
      body: { receiptOptions: { headerLine1: 'Amsterdam' }, localization: { language: 'nl' } },
    });
    await server.management.PATCH('/stores/{storeId}/terminalSettings', { params: { path: { storeId: STORE } }, body: { localization: { language: '' } } });
    expect((await store()).data?.localization?.language).toBe('en');
    await server.management.PATCH('/stores/{storeId}/terminalSettings', { params: { path: { storeId: STORE } }, body: { receiptOptions: {} } });
    expect((await store()).data?.receiptOptions?.headerLine1).toBe('Demo POS');
  });
});

describe('GET /terminals/{terminalId}/terminalSettings and PATCH /terminals/{terminalId}/terminalSettings', () => {
  test('When one terminal changes a setting, then the other terminal keeps the inherited value', async () => {
    await server.management.PATCH('/terminals/{terminalId}/terminalSettings', {
      params: { path: { terminalId: TERMINAL } },
      body: { hardware: { restartHour: 5 } },
    });
    expect((await terminal()).data?.hardware).toEqual({ restartHour: 5, resetTotalsHour: 6 });
    expect((await terminal(OTHER_TERMINAL)).data?.hardware).toEqual({ restartHour: 3, resetTotalsHour: 6 });
  });

  test('When passcodes are set with the advanced role, then they are shown to it and hidden from a credential without it, which cannot change them', async () => {
    await server.management.PATCH('/terminals/{terminalId}/terminalSettings', {
      params: { path: { terminalId: TERMINAL } },
      body: { hardware: { restartHour: 5 } },
    });
    const patched = await server.management.PATCH('/terminals/{terminalId}/terminalSettings', {
      params: { path: { terminalId: TERMINAL } },
      body: { passcodes: { adminMenuPin: '1357' } },
    });
    expect(patched.data?.passcodes).toEqual({ adminMenuPin: '1357' });
    const key = 'terminal-only-key-00000000000000001';
    await server.store.transaction(async (tx) => {
      const createdAt = new Date().toISOString();
      await tx.credentials.insert({
        id: 'S2-TERMINALONLY1',
        companyId: 'DemoCompany',
        merchantId: null,
        username: 'ws_terminal@Company.DemoCompany',
        description: 'terminal settings only',
        active: true,
        roles: [ROLES.terminalSettingsReadWrite],
        allowedIpAddresses: [],
        associatedMerchantAccounts: [],
        clientKey: 'test_T',
        createdAt,
      });
      await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(key), credentialId: 'S2-TERMINALONLY1', createdAt, expiresAt: null });
    });
    const basic = createManagementClient({ baseUrl: server.managementUrl, apiKey: key });
    const read = await basic.GET('/terminals/{terminalId}/terminalSettings', { params: { path: { terminalId: TERMINAL } } });
    expect(read.data?.passcodes).toBeUndefined();
    expect(read.data?.hardware?.restartHour).toBe(5);
    const { error } = await basic.PATCH('/terminals/{terminalId}/terminalSettings', {
      params: { path: { terminalId: TERMINAL } },
      body: { passcodes: { adminMenuPin: '2468' } },
    });
    expect(error).toMatchObject({ status: 403, detail: expect.stringContaining('Advanced') });
  });

  test('When a passcode is not 4 to 6 digits, then the answer is 422', async () => {
    const { error } = await server.management.PATCH('/terminals/{terminalId}/terminalSettings', {
      params: { path: { terminalId: TERMINAL } },
      body: { passcodes: { adminMenuPin: 'abc' } },
    });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'passcodes.adminMenuPin' })] });
  });

  test('When an unknown terminal, store or section is named, then the answers are 404, 404 and 422', async () => {
    expect((await terminal('S1F2-UNKNOWN')).response.status).toBe(404);
    expect((await server.management.GET('/stores/{storeId}/terminalSettings', { params: { path: { storeId: 'ST-NOPE' } } })).response.status).toBe(404);
    const { response } = await server.management.PATCH('/terminals/{terminalId}/terminalSettings', {
      params: { path: { terminalId: TERMINAL } },
      body: { lasers: { on: true } } as never,
    });
    expect(response.status).toBe(422);
  });
});
