import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { adyenClient, ManagementAPI, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { pngBase64 } from '../helpers/png.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
let management: InstanceType<typeof ManagementAPI>;
beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  management = new ManagementAPI(adyenClient(COMPANY_KEY));
});
afterAll(() => server.stop());

const companyId = 'DemoCompany';
const merchantId = 'DemoMerchantECOM';

/**
 * The sandbox has no devices to board: its own operation (not Adyen's, so not in the library)
 * puts a simulated terminal in the store, as an operator's boarding of a real one would.
 */
async function boardTerminal(storeId: string): Promise<string> {
  const response = await fetch(`${server.managementUrl}/sandbox/terminals`, {
    method: 'POST',
    headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ storeId, model: 'S1F2' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

describe('The Adyen Node library 31.0.0 running a store and its terminal over HTTPS', () => {
  test('When an operator opens a store, finds its terminal and configures it at every level, then the terminal shows the nearest value and a reset shows the level above', async () => {
    const store = await management.AccountStoreLevelApi.createStoreByMerchantId(merchantId, {
      reference: 'UTR-CENTRAAL',
      description: 'Utrecht Centraal',
      shopperStatement: 'Demo Utrecht',
      phoneNumber: '+31 30 123 4567',
      address: { country: 'NL', city: 'Utrecht', line1: 'Stationshal 1', postalCode: '3511 CE' },
    });
    expect(store).toMatchObject({ merchantId, reference: 'UTR-CENTRAAL', status: 'active', phoneNumber: '+31301234567' });
    expect((await management.AccountStoreLevelApi.getStoreById(store.id!)).description).toBe('Utrecht Centraal');
    expect((await management.AccountStoreLevelApi.listStoresByMerchantId(merchantId, 1, 10, 'UTR-CENTRAAL')).data?.map((s) => s.id)).toEqual([store.id]);

    const boarded = await boardTerminal(store.id!);
    const found = await management.TerminalsTerminalLevelApi.listTerminals(undefined, undefined, 'NL', merchantId, store.id, 'Castles.S1F2', 1, 20);
    expect(found.data?.map((t) => t.id)).toEqual([boarded]);
    const terminalId = found.data![0]!.id!;
    expect(found.data![0]!.assignment).toMatchObject({ companyId, merchantId, storeId: store.id, status: 'boarded' });

    // Each level sets a section of its own and overrides the receipt header of the level above.
    await management.TerminalSettingsCompanyLevelApi.updateTerminalSettings(companyId, {
      localization: { language: 'fr', timezone: 'Europe/Paris' },
      receiptOptions: { headerLine1: 'Company' },
    });
    await management.TerminalSettingsMerchantLevelApi.updateTerminalSettings(merchantId, {
      hardware: { restartHour: 2 },
      receiptOptions: { headerLine1: 'Merchant' },
    });
    await management.TerminalSettingsStoreLevelApi.updateTerminalSettings(merchantId, store.reference!, {
      timeouts: { fromActiveToSleep: 90 },
      receiptOptions: { headerLine1: 'Store' },
    });
    await management.TerminalSettingsTerminalLevelApi.updateTerminalSettings(terminalId, {
      moto: { enableMoto: true, maxAmount: 10000 },
      receiptOptions: { headerLine1: 'Terminal' },
    });
    const merged = await management.TerminalSettingsTerminalLevelApi.getTerminalSettings(terminalId);
    expect(merged).toMatchObject({
      localization: { language: 'fr', timezone: 'Europe/Paris' },
      hardware: { restartHour: 2, resetTotalsHour: 6 },
      timeouts: { fromActiveToSleep: 90 },
      moto: { enableMoto: true, maxAmount: 10000 },
      receiptOptions: { headerLine1: 'Terminal' },
    });

    // Back to inherited: the terminal's section (null), then the store's field (null).
    const reset = await management.TerminalSettingsTerminalLevelApi.updateTerminalSettings(terminalId, { receiptOptions: null });
    expect(reset.receiptOptions?.headerLine1).toBe('Store');
    await management.TerminalSettingsStoreLevelApi.updateTerminalSettingsByStoreId(store.id!, { receiptOptions: { headerLine1: null as never } });
    expect((await management.TerminalSettingsTerminalLevelApi.getTerminalSettings(terminalId)).receiptOptions?.headerLine1).toBe('Merchant');
    expect((await management.TerminalSettingsStoreLevelApi.getTerminalSettingsByStoreId(store.id!)).timeouts?.fromActiveToSleep).toBe(90);
  });

  test('When logos are set at company and store level, then the terminal shows the nearest one and the company keeps its own', async () => {
    const store = await management.AccountStoreLevelApi.createStore({
      merchantId,
      description: 'Logo store',
      shopperStatement: 'Demo Logo',
      phoneNumber: '+31301234568',
      address: { country: 'NL' },
    });
    const terminalId = await boardTerminal(store.id!);
    const companyLogo = pngBase64(64, 32, [200, 0, 0]);
    const storeLogo = pngBase64(64, 32, [0, 0, 200]);

    expect((await management.TerminalSettingsCompanyLevelApi.updateTerminalLogo(companyId, { data: companyLogo }, 'S1F2')).data).toBe(companyLogo);
    expect((await management.TerminalSettingsTerminalLevelApi.getTerminalLogo(terminalId)).data).toBe(companyLogo);
    await management.TerminalSettingsStoreLevelApi.updateTerminalLogoByStoreId(store.id!, { data: storeLogo }, 'S1F2');
    expect((await management.TerminalSettingsTerminalLevelApi.getTerminalLogo(terminalId)).data).toBe(storeLogo);
    expect((await management.TerminalSettingsStoreLevelApi.getTerminalLogo(merchantId, store.reference!, 'S1F2')).data).toBe(storeLogo);
    expect((await management.TerminalSettingsCompanyLevelApi.getTerminalLogo(companyId, 'S1F2')).data).toBe(companyLogo);

    await management.TerminalSettingsStoreLevelApi.updateTerminalLogoByStoreId(store.id!, { data: '' }, 'S1F2');
    expect((await management.TerminalSettingsTerminalLevelApi.getTerminalLogo(terminalId)).data).toBe(companyLogo);
  });
});
