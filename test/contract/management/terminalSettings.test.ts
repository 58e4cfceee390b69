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

/** One valid value for every section Adyen documents (26). */
const EVERY_SECTION = {
  cardholderReceipt: { headerForAuthorizedReceipt: 'header1,header2,filler' },
  connectivity: {
    simcardStatus: 'ACTIVATED',
    terminalIPAddressURL: { eventPublicUrls: [{ url: 'https://pos.example.com/ip', username: 'pos', password: 'url-secret-1', encrypted: false }] },
  },
  dcc: { enableDcc: true },
  gratuities: [{ currency: 'EUR', usePredefinedTipEntries: true, allowCustomAmount: true, predefinedTipEntries: ['5%', '10%', '500'] }],
  hardware: { displayMaximumBackLight: 80, resetTotalsHour: 5, restartHour: 4 },
  homeScreen: { hideNavigationBar: true, showPaymentsMenu: false, showSettingsMenu: false },
  kioskMode: { allowedAppsInKioskMode: ['com.example.pos'], kioskAppOnStartup: 'com.example.pos' },
  localization: { language: 'nl', secondaryLanguage: 'en', timezone: 'Europe/Brussels' },
  moto: { enableMoto: true, maxAmount: 50000 },
  nexo: {
    displayUrls: { localUrls: [{ url: 'https://10.0.0.5/display', password: 'url-secret-2' }] },
    encryptionKey: { identifier: 'key1', passphrase: 'Str0ng&Secret!', version: 1 },
    eventUrls: { eventLocalUrls: [{ url: 'https://10.0.0.5/events' }] },
    notification: { category: 'SaleWakeUp', enabled: true, showButton: true, title: 'Call', details: 'Call a waiter' },
  },
  offlineProcessing: { chipFloorLimit: 2500 },
  opi: { enablePayAtTable: true, payAtTableStoreNumber: '12', payAtTableURL: 'https://opi.example.com:9000' },
  passcodes: { adminMenuPin: '1357', refundPin: '2468', screenLockPin: '9999', txMenuPin: '1111' },
  payAtTable: { authenticationMethod: 'MKE', enablePayAtTable: true, paymentInstrument: 'Card' },
  payment: { contactlessCurrency: 'EUR', hideMinorUnitsInCurrencies: ['JPY'] },
  receiptOptions: { headerLine1: 'Terminal', headerLine2: 'Line 2', promptBeforePrinting: true, qrCodeData: 'https://example.com/${pspreference}' },
  receiptPrinting: { merchantApproved: true, shopperApproved: true, shopperRefused: false },
  refunds: { referenced: { enableStandaloneRefunds: true }, unreferenced: { enableUnreferencedRefunds: false } },
  signature: { askSignatureOnScreen: false, skipSignature: true, deviceName: 'Till 1', deviceSlogan: 'Welcome' },
  standalone: { currencyCode: 'EUR', enableGratuities: true, enableStandalone: false },
  storeAndForward: { maxAmount: [{ currencyCode: 'EUR', amount: 10000 }], maxPayments: 50, supportedCardTypes: { credit: true, debit: true } },
  surcharge: {
    askConfirmation: true,
    excludeGratuityFromSurcharge: true,
    configurations: [{ brand: 'mc', currencies: [{ currencyCode: 'EUR', percentage: 1.25, maxAmount: 500 }], sources: ['Credit'] }],
  },
  tapToPay: { merchantDisplayName: 'Demo POS' },
  terminalInstructions: { adyenAppRestart: true },
  timeouts: { fromActiveToSleep: 60 },
  wifiProfiles: {
    profiles: [{ name: 'Shop', ssid: 'shop-wifi', bssType: 'infra', authType: 'wpa2-psk', psk: 'wifi-secret-1', wsec: 'ccmp', defaultProfile: true }],
    settings: { band: 'All', roaming: true, timeout: 5 },
  },
} as const;

const patchTerminal = (body: unknown, client = () => server.management) =>
  client().PATCH('/terminals/{terminalId}/terminalSettings', { params: { path: { terminalId: TERMINAL } }, body: body as never });

describe('PATCH /terminals/{terminalId}/terminalSettings with every section', () => {
  test('When every section Adyen documents is set at a terminal, then each is in force there, secrets other than passcodes are masked and the company does not change', async () => {
    const { data, error } = await patchTerminal(EVERY_SECTION);
    expect(error).toBeUndefined();
    expect(Object.keys(data!).sort()).toEqual(Object.keys(EVERY_SECTION).sort());
    expect(data).toMatchObject({
      ...EVERY_SECTION,
      connectivity: { simcardStatus: 'ACTIVATED', terminalIPAddressURL: { eventPublicUrls: [{ url: 'https://pos.example.com/ip', password: '********' }] } },
      nexo: {
        ...EVERY_SECTION.nexo,
        displayUrls: { localUrls: [{ url: 'https://10.0.0.5/display', password: '********' }] },
        encryptionKey: { identifier: 'key1', passphrase: '********', version: 1 },
      },
      wifiProfiles: { ...EVERY_SECTION.wifiProfiles, profiles: [{ ...EVERY_SECTION.wifiProfiles.profiles[0], psk: '********' }] },
    });
    expect((await terminal()).data).toEqual(data);
    expect(Object.keys((await company()).data!).sort()).toEqual(['hardware', 'localization', 'moto', 'receiptOptions', 'signature', 'timeouts']);
  });

  test('When secrets are stored, then no password, passphrase or passcode is in the database in plain text', async () => {
    await patchTerminal(EVERY_SECTION);
    const stored = JSON.stringify(await server.store.read((tx) => tx.terminals.getSettings('terminal', TERMINAL)));
    for (const secret of ['url-secret-1', 'url-secret-2', 'Str0ng&Secret!', 'wifi-secret-1', '1357', '2468', '9999']) expect(stored).not.toContain(secret);
    expect(stored).toContain('com.example.pos');
  });

  test('When a masked secret is sent back unchanged, then the stored one is kept; masked where nothing is stored, then 422', async () => {
    await patchTerminal({ wifiProfiles: EVERY_SECTION.wifiProfiles });
    const read = (await terminal()).data!.wifiProfiles!;
    expect(read.profiles?.[0]?.psk).toBe('********');
    // Read, change one field, send the whole object back.
    const { data } = await patchTerminal({ wifiProfiles: { ...read, settings: { band: '5GHz' } } });
    expect(data?.wifiProfiles?.settings).toEqual({ band: '5GHz' });
    const stored = (await server.store.read((tx) => tx.terminals.getSettings('terminal', TERMINAL)))!.wifiProfiles as { profiles: Array<{ psk: unknown }> };
    expect(stored.profiles[0]!.psk).toEqual({ sealed: expect.any(String) });
    const { error } = await server.management.PATCH('/stores/{storeId}/terminalSettings', {
      params: { path: { storeId: STORE } },
      body: { wifiProfiles: { profiles: [{ ssid: 'x', bssType: 'infra', authType: 'wpa2-psk', psk: '********' }] } },
    });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'wifiProfiles.profiles.0.psk' })] });
  });
});

describe('PATCH /merchants/{merchantId}/terminalSettings and PATCH /terminals/{terminalId}/terminalSettings: restoring inherited values', () => {
  test('When a section or a field is null, then the level above shows through; sections not included stay', async () => {
    await server.management.PATCH('/merchants/{merchantId}/terminalSettings', {
      params: { path: { merchantId: 'DemoMerchantPOS' } },
      body: { hardware: { restartHour: 2 }, gratuities: [{ currency: 'EUR', usePredefinedTipEntries: false }] },
    });
    await patchTerminal({
      hardware: { restartHour: 5, displayMaximumBackLight: 70 },
      gratuities: [{ currency: 'USD', usePredefinedTipEntries: false }],
      dcc: { enableDcc: true },
    });
    expect((await terminal()).data?.gratuities).toEqual([{ currency: 'USD', usePredefinedTipEntries: false }]);
    const fieldNull = await patchTerminal({ hardware: { restartHour: null, displayMaximumBackLight: 70 } });
    expect(fieldNull.data?.hardware).toEqual({ restartHour: 2, resetTotalsHour: 6, displayMaximumBackLight: 70 });
    const sectionNull = await patchTerminal({ gratuities: null, hardware: null });
    expect(sectionNull.data?.gratuities).toEqual([{ currency: 'EUR', usePredefinedTipEntries: false }]);
    expect(sectionNull.data?.hardware).toEqual({ restartHour: 2, resetTotalsHour: 6 });
    expect(sectionNull.data?.dcc).toEqual({ enableDcc: true });
  });
});

describe('PATCH /merchants/{merchantId}/terminalSettings and PATCH /companies/{companyId}/terminalSettings: restoring inherited values', () => {
  const patchMerchant = (body: unknown) =>
    server.management.PATCH('/merchants/{merchantId}/terminalSettings', { params: { path: { merchantId: 'DemoMerchantPOS' } }, body: body as never });
  const patchCompany = (body: unknown) =>
    server.management.PATCH('/companies/{companyId}/terminalSettings', { params: { path: { companyId: 'DemoCompany' } }, body: body as never });

  test('When a merchant account sets a field or a section to null, then the company value shows through there and at its terminals; sections not included stay', async () => {
    await patchCompany({ hardware: { restartHour: 1 }, gratuities: [{ currency: 'EUR', usePredefinedTipEntries: false }] });
    await patchMerchant({
      hardware: { restartHour: 2, displayMaximumBackLight: 80 },
      gratuities: [{ currency: 'USD', usePredefinedTipEntries: false }],
      receiptOptions: { headerLine1: 'Demo POS' },
      dcc: { enableDcc: true },
    });
    expect((await terminal()).data).toMatchObject({ hardware: { restartHour: 2 }, receiptOptions: { headerLine1: 'Demo POS' } });

    const fieldNull = await patchMerchant({ hardware: { restartHour: null, displayMaximumBackLight: 80 } });
    expect(fieldNull.data?.hardware).toEqual({ restartHour: 1, resetTotalsHour: 6, displayMaximumBackLight: 80 });
    const sectionNull = await patchMerchant({ gratuities: null, receiptOptions: null });
    expect(sectionNull.data?.gratuities).toEqual([{ currency: 'EUR', usePredefinedTipEntries: false }]);
    expect(sectionNull.data?.receiptOptions?.headerLine1).toBe('Demo Company');
    expect(sectionNull.data?.dcc).toEqual({ enableDcc: true });
    expect((await merchant()).data).toMatchObject({
      hardware: { restartHour: 1, displayMaximumBackLight: 80 },
      receiptOptions: { headerLine1: 'Demo Company' },
    });
    expect((await terminal()).data).toMatchObject({
      hardware: { restartHour: 1, displayMaximumBackLight: 80 },
      receiptOptions: { headerLine1: 'Demo Company' },
      gratuities: [{ currency: 'EUR', usePredefinedTipEntries: false }],
      dcc: { enableDcc: true },
    });
    // The company is untouched by the merchant account's resets.
    expect((await company()).data).toMatchObject({ hardware: { restartHour: 1 }, receiptOptions: { headerLine1: 'Demo Company' } });
  });

  test('When the company sets a field or a section to null, then the default value comes back at the company and at every level that does not set it', async () => {
    await patchCompany({ hardware: { restartHour: 1, resetTotalsHour: 4 }, dcc: { enableDcc: true } });
    expect((await terminal()).data?.hardware).toEqual({ restartHour: 1, resetTotalsHour: 4 });

    const fieldNull = await patchCompany({ hardware: { restartHour: null, resetTotalsHour: 4 } });
    expect(fieldNull.data?.hardware).toEqual({ restartHour: 3, resetTotalsHour: 4 });
    // The seeded company header goes with its section; the default receipt options remain.
    const sectionNull = await patchCompany({ receiptOptions: null, hardware: null });
    expect(sectionNull.data?.receiptOptions).toEqual({ promptBeforePrinting: false });
    expect(sectionNull.data?.hardware).toEqual({ restartHour: 3, resetTotalsHour: 6 });
    expect(sectionNull.data?.dcc).toEqual({ enableDcc: true });
    for (const read of [company, merchant, store, terminal]) {
      expect((await read()).data).toMatchObject({ receiptOptions: { promptBeforePrinting: false }, hardware: { restartHour: 3, resetTotalsHour: 6 } });
      expect((await read()).data?.receiptOptions?.headerLine1).toBeUndefined();
    }
  });
});

describe('PATCH /stores/{storeId}/terminalSettings: rules of the sections', () => {
  const patchStore = (body: unknown) =>
    server.management.PATCH('/stores/{storeId}/terminalSettings', { params: { path: { storeId: STORE } }, body: body as never });

  test.each([
    ['a SIM card status above terminal level', { connectivity: { simcardStatus: 'INVENTORY' } }, 'connectivity.simcardStatus'],
    ['a kiosk app that is not allowed', { kioskMode: { allowedAppsInKioskMode: ['a.b'], kioskAppOnStartup: 'c.d' } }, 'kioskMode.kioskAppOnStartup'],
    ['store-and-forward without a maximum amount', { storeAndForward: { maxPayments: 5, supportedCardTypes: { credit: true } } }, 'storeAndForward.maxAmount'],
    ['a weak shared key passphrase', { nexo: { encryptionKey: { identifier: 'k', passphrase: 'short', version: 1 } } }, 'nexo.encryptionKey.passphrase'],
    ['a time zone that does not exist', { localization: { timezone: 'Europe/Atlantis' } }, 'localization.timezone'],
    [
      'four tip options and a custom tip',
      { gratuities: [{ currency: 'EUR', allowCustomAmount: true, predefinedTipEntries: ['1%', '2%', '3%', '4%'] }] },
      'gratuities.0.predefinedTipEntries',
    ],
    [
      'a surcharge percentage with three decimals',
      { surcharge: { configurations: [{ brand: 'visa', currencies: [{ currencyCode: 'EUR', percentage: 1.255 }] }] } },
      'surcharge.configurations.0.currencies.0.percentage',
    ],
    ['an unknown field in a section', { dcc: { enableDcc: true, lasers: true } }, 'dcc.lasers'],
  ])('When the update has %s, then the answer is 422 naming the field and nothing changes', async (_what, body, field) => {
    const before = (await store()).data;
    const { error } = await patchStore(body);
    expect(error).toMatchObject({ status: 422, invalidFields: expect.arrayContaining([expect.objectContaining({ name: field })]) });
    expect((await store()).data).toEqual(before);
  });

  test('When the SIM card status is set at a terminal, then the terminal shows it and its store does not', async () => {
    await patchTerminal({ connectivity: { simcardStatus: 'INVENTORY' } });
    expect((await terminal()).data?.connectivity).toEqual({ simcardStatus: 'INVENTORY' });
    expect((await store()).data?.connectivity).toBeUndefined();
  });

  test('When Wi-Fi profiles are changed without the advanced role, then the answer is 403; they are hidden from that credential', async () => {
    await patchStore({ wifiProfiles: EVERY_SECTION.wifiProfiles });
    const key = 'terminal-basic-key-000000000000000001';
    await server.store.transaction(async (tx) => {
      const createdAt = new Date().toISOString();
      await tx.credentials.insert({
        id: 'S2-TERMINALBASIC1',
        companyId: 'DemoCompany',
        merchantId: null,
        username: 'ws_basic@Company.DemoCompany',
        description: 'terminal settings only',
        active: true,
        roles: [ROLES.terminalSettingsReadWrite],
        allowedIpAddresses: [],
        associatedMerchantAccounts: [],
        clientKey: 'test_B',
        createdAt,
      });
      await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(key), credentialId: 'S2-TERMINALBASIC1', createdAt, expiresAt: null });
    });
    const basic = createManagementClient({ baseUrl: server.managementUrl, apiKey: key });
    expect((await basic.GET('/stores/{storeId}/terminalSettings', { params: { path: { storeId: STORE } } })).data?.wifiProfiles).toBeUndefined();
    const { error } = await basic.PATCH('/stores/{storeId}/terminalSettings', { params: { path: { storeId: STORE } }, body: { wifiProfiles: null } });
    expect(error).toMatchObject({ status: 403, detail: expect.stringContaining('wifiProfiles') });
    expect((await store()).data?.wifiProfiles?.profiles).toHaveLength(1);
  });
});

describe('GET /companies/{companyId}/terminalSettings: settings stored by earlier versions', () => {
  test('When an IP address URL was stored as a plain string, then it is answered in Adyen’s shape, as a public address', async () => {
    await server.store.transaction((tx) =>
      tx.terminals.putSettings('company', 'DemoCompany', { connectivity: { terminalIPAddressURL: 'https://old.example.com/ip' } }, new Date().toISOString()),
    );
    expect((await company()).data?.connectivity).toEqual({ terminalIPAddressURL: { eventPublicUrls: [{ url: 'https://old.example.com/ip' }] } });
  });
});
