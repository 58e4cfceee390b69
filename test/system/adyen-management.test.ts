import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildTestApk } from '../../scripts/build-test-apk.mjs';
import { adyenClient, ManagementAPI, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
let management: InstanceType<typeof ManagementAPI>;
let receiver: Receiver;
beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  management = new ManagementAPI(adyenClient(COMPANY_KEY));
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await server.stop();
  await receiver.stop();
});

const companyId = 'DemoCompany';
const merchantId = 'DemoMerchantECOM';

describe('The Adyen Node library 31.0.0 against the management area over HTTPS', () => {
  test('When it runs the rotation and audit recipes and manages allowed origins, then every call succeeds', async () => {
    const merchants = await management.AccountCompanyLevelApi.listMerchantAccounts(companyId, 1, 10);
    expect(merchants.data?.map((m) => m.id)).toEqual(['DemoMerchantECOM', 'DemoMerchantPOS']);
    const merchantCredentials = await management.APICredentialsMerchantLevelApi.listApiCredentials(merchantId, 1, 10);
    const merchantCredential = await management.APICredentialsMerchantLevelApi.getApiCredential(merchantId, merchantCredentials.data![0]!.id);
    const rotated = await management.APIKeyMerchantLevelApi.generateNewApiKey(merchantId, merchantCredential.id);
    expect(rotated.apiKey).toMatch(/^AQE/);

    const me = await management.MyAPICredentialApi.getApiCredentialDetails();
    expect(me.id).toBe('S2-DEMOCOMPANY01');
    const origin = await management.MyAPICredentialApi.addAllowedOrigin({ domain: 'https://www.mystore.com' });
    expect((await management.MyAPICredentialApi.getAllowedOrigins()).data?.map((o) => o.domain)).toEqual(['https://www.mystore.com']);
    expect((await management.MyAPICredentialApi.getAllowedOriginDetails(origin.id!)).domain).toBe('https://www.mystore.com');

    const companyCredentials = await management.APICredentialsCompanyLevelApi.listApiCredentials(companyId, 1, 10);
    const origins = await management.AllowedOriginsCompanyLevelApi.listAllowedOrigins(companyId, companyCredentials.data![0]!.id);
    expect(origins.data?.[0]?.domain).toBe('https://www.mystore.com');
    const credential = await management.APICredentialsCompanyLevelApi.getApiCredential(companyId, companyCredentials.data![0]!.id);
    expect(credential.roles).toContain('Management API - API credentials read and write');
    await management.MyAPICredentialApi.removeAllowedOrigin(origin.id!);
    expect((await management.MyAPICredentialApi.getAllowedOrigins()).data).toEqual([]);
    const companyKey = await management.APIKeyCompanyLevelApi.generateNewApiKey(companyId, 'S2-DEMOCOMPANY01');
    expect(companyKey.apiKey).toMatch(/^AQE/);
  });

  test('When it lists, reads and reprocesses Android files, then each call succeeds (uploads carry no file from the library)', async () => {
    const form = new FormData();
    form.append('file', new Blob([(buildTestApk as (o: object) => Buffer)({ packageName: 'com.example.sdk', versionCode: 3 })]), 'sdk.apk');
    const uploaded = (await (
      await fetch(`${server.managementUrl}/companies/${companyId}/androidApps`, { method: 'POST', headers: { 'X-API-Key': COMPANY_KEY }, body: form })
    ).json()) as { id: string };
    await server.android.idle();
    const apps = await management.AndroidFilesCompanyLevelApi.listAndroidApps(companyId, 1, 20, 'com.example.sdk', 3);
    expect(apps.data?.map((a) => a.id)).toEqual([uploaded.id]);
    expect((await management.AndroidFilesCompanyLevelApi.getAndroidApp(companyId, uploaded.id)).status).toBe('ready');
    expect((await management.AndroidFilesCompanyLevelApi.reprocessAndroidApp(companyId, uploaded.id)).Message).toContain('reprocessed');
    expect((await management.AndroidFilesCompanyLevelApi.listAndroidCertificates(companyId, 1, 20)).data).toEqual([]);
    // The library sends an empty JSON body for uploads: the server asks for the file.
    await expect(management.AndroidFilesCompanyLevelApi.uploadAndroidApp(companyId)).rejects.toMatchObject({ statusCode: 422 });
  });

  test('When it reads and updates terminal settings at every level, then each call succeeds', async () => {
    expect((await management.TerminalSettingsCompanyLevelApi.getTerminalSettings(companyId)).receiptOptions?.headerLine1).toBe('Demo Company');
    await management.TerminalSettingsCompanyLevelApi.updateTerminalSettings(companyId, { localization: { language: 'de' } });
    await management.TerminalSettingsMerchantLevelApi.updateTerminalSettings('DemoMerchantPOS', { receiptOptions: { headerLine1: 'POS' } });
    expect((await management.TerminalSettingsMerchantLevelApi.getTerminalSettings('DemoMerchantPOS')).localization?.language).toBe('de');
    await management.TerminalSettingsStoreLevelApi.updateTerminalSettings('DemoMerchantPOS', 'AMS01', { hardware: { restartHour: 4 } });
    expect((await management.TerminalSettingsStoreLevelApi.getTerminalSettings('DemoMerchantPOS', 'AMS01')).hardware?.restartHour).toBe(4);
    await management.TerminalSettingsStoreLevelApi.updateTerminalSettingsByStoreId('ST322LJ223223K5F4SQNR9XL5', { timeouts: { fromActiveToSleep: 60 } });
    expect((await management.TerminalSettingsStoreLevelApi.getTerminalSettingsByStoreId('ST322LJ223223K5F4SQNR9XL5')).timeouts?.fromActiveToSleep).toBe(60);
    await management.TerminalSettingsTerminalLevelApi.updateTerminalSettings('S1F2-000150183300032', { moto: { enableMoto: true } });
    const terminal = await management.TerminalSettingsTerminalLevelApi.getTerminalSettings('S1F2-000150183300032');
    expect(terminal).toMatchObject({
      moto: { enableMoto: true },
      receiptOptions: { headerLine1: 'POS' },
      localization: { language: 'de' },
      hardware: { restartHour: 4 },
    });
  });

  test('When it manages split configurations, payout settings and payment method settings, then each call succeeds', async () => {
    const splits = management.SplitConfigurationMerchantLevelApi;
    const rule = (paymentMethod: string) =>
      ({ currency: 'EUR', fundingSource: 'ANY', paymentMethod, shopperInteraction: 'Ecommerce', splitLogic: { commission: { fixedAmount: 100 } } }) as never;
    const profile = await splits.createSplitConfiguration(merchantId, { description: 'SDK', rules: [rule('visa')] });
    const id = profile.splitConfigurationId!;
    const withRule = await splits.createRule(merchantId, id, rule('mc'));
    const [visa, mc] = withRule.rules;
    await splits.updateSplitConditions(merchantId, id, mc!.ruleId!, {
      currency: 'EUR',
      fundingSource: 'credit',
      paymentMethod: 'mc',
      shopperInteraction: 'Ecommerce',
    });
    await splits.updateSplitLogic(merchantId, id, visa!.ruleId!, visa!.splitLogic.splitLogicId!, { commission: { variablePercentage: 250 } });
    await splits.updateSplitConfigurationDescription(merchantId, id, { description: 'SDK 2' });
    expect((await splits.getSplitConfiguration(merchantId, id)).description).toBe('SDK 2');
    expect((await splits.listSplitConfigurations(merchantId)).data?.length).toBeGreaterThan(0);
    expect((await splits.deleteSplitConfigurationRule(merchantId, id, mc!.ruleId!)).rules).toHaveLength(1);
    expect((await splits.deleteSplitConfiguration(merchantId, id)).splitConfigurationId).toBe(id);

    const payouts = management.PayoutSettingsMerchantLevelApi;
    const payout = await payouts.addPayoutSetting(merchantId, { transferInstrumentId: 'SE322JV223222F5GJVKHH6BDT' });
    expect(payout).toMatchObject({ allowed: true, verificationStatus: 'valid' });
    expect((await payouts.updatePayoutSetting(merchantId, payout.id, { enabled: false })).enabled).toBe(false);
    expect((await payouts.getPayoutSetting(merchantId, payout.id)).id).toBe(payout.id);
    expect((await payouts.listPayoutSettings(merchantId)).data?.length).toBe(1);
    await payouts.deletePayoutSetting(merchantId, payout.id);

    const methods = management.PaymentMethodsMerchantLevelApi;
    const swish = await methods.requestPaymentMethod(merchantId, { type: 'swish' as never, countries: ['SE'], currencies: ['SEK'] });
    expect((await methods.updatePaymentMethod(merchantId, swish.id, { enabled: false })).enabled).toBe(false);
    expect((await methods.getPaymentMethodDetails(merchantId, swish.id)).type).toBe('swish');
    const all = await methods.getAllPaymentMethods(merchantId, undefined, undefined, 100, 1);
    const applepay = all.data!.find((m) => m.type === 'applepay')!;
    await methods.addApplePayDomain(merchantId, applepay.id, { domains: ['pay.example.com'] });
    expect((await methods.getApplePayDomains(merchantId, applepay.id)).domains).toContain('pay.example.com');
  });

  test('When it manages webhooks, then each call succeeds', async () => {
    const webhooks = management.WebhooksMerchantLevelApi;
    const webhook = await webhooks.setUpWebhook(merchantId, { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' as never });
    expect((await webhooks.generateHmacKey(merchantId, webhook.id!)).hmacKey).toMatch(/^[0-9A-F]{64}$/);
    expect((await webhooks.testWebhook(merchantId, webhook.id!, {})).data?.[0]?.status).toBe('success');
    expect((await webhooks.updateWebhook(merchantId, webhook.id!, { active: false })).active).toBe(false);
    expect((await webhooks.getWebhook(merchantId, webhook.id!)).id).toBe(webhook.id);
    expect((await webhooks.listAllWebhooks(merchantId, 1, 10)).data?.map((w) => w.id)).toContain(webhook.id);
    await webhooks.removeWebhook(merchantId, webhook.id!);
  });
});
