import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DEMO, defaultPaymentMethodSettings } from '../../server/seed.js';
import { adyenClient, CheckoutAPI, hmacValidator, ManagementAPI, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
let management: InstanceType<typeof ManagementAPI>;
let checkout: InstanceType<typeof CheckoutAPI>;
let receiver: Receiver;
/** A third merchant account of the demo company, left out of the webhook (the seed has two). */
const OUTLET = 'DemoMerchantOUTLET';

beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  management = new ManagementAPI(adyenClient(COMPANY_KEY));
  checkout = new CheckoutAPI(adyenClient(COMPANY_KEY));
  receiver = await new Receiver().start();
  const createdAt = new Date().toISOString();
  await server.store.transaction(async (tx) => {
    const ecom = (await tx.merchants.get(DEMO.merchantEcom))!;
    await tx.merchants.insert({ ...ecom, id: OUTLET, name: 'Demo Merchant OUTLET', reference: OUTLET, createdAt });
    for (const setting of defaultPaymentMethodSettings(OUTLET, createdAt)) await tx.paymentMethodSettings.insert(setting);
  });
});
afterAll(async () => {
  await server.stop();
  await receiver.stop();
});

const card = {
  type: 'scheme',
  encryptedCardNumber: 'test_4111111111111111',
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
};

const pay = (merchantAccount: string) =>
  checkout.PaymentsApi.payments(
    {
      amount: { currency: 'EUR', value: 2500 },
      reference: `sdk-webhook-${merchantAccount}`,
      merchantAccount,
      returnUrl: 'https://shop.example.com/return',
      paymentMethod: card,
    } as never,
    { idempotencyKey: crypto.randomUUID() },
  );

describe('The Adyen Node library 31.0.0 managing company webhooks over HTTPS', () => {
  test('When an operator routes two merchant accounts to one company webhook, then both payments arrive signed, the third account sends nothing, and the test call reports per account', async () => {
    const webhooks = management.WebhooksCompanyLevelApi;
    const webhook = await webhooks.setUpWebhook(DEMO.companyId, {
      type: 'standard',
      url: receiver.url,
      active: true,
      communicationFormat: 'json' as never,
      filterMerchantAccountType: 'includeAccounts' as never,
      filterMerchantAccounts: [DEMO.merchantEcom, DEMO.merchantPos],
      description: 'Web shop and stores',
    });
    expect(webhook).toMatchObject({ filterMerchantAccountType: 'includeAccounts', accountReference: DEMO.companyId });
    const { hmacKey } = await webhooks.generateHmacKey(DEMO.companyId, webhook.id!);
    expect((await webhooks.getWebhook(DEMO.companyId, webhook.id!)).hmacKeyCheckValue).toMatch(/^[0-9A-F]{8}$/);
    expect((await webhooks.listAllWebhooks(DEMO.companyId, 1, 10)).data?.map((w) => w.id)).toEqual([webhook.id]);

    const payments = [await pay(DEMO.merchantEcom), await pay(DEMO.merchantPos), await pay(OUTLET)];
    expect(payments.map((p) => p.resultCode)).toEqual(['Authorised', 'Authorised', 'Authorised']);
    await server.dispatcher.drain();

    const items = receiver.items();
    expect(items.map((i) => [i.merchantAccountCode, i.eventCode, i.pspReference])).toEqual([
      [DEMO.merchantEcom, 'AUTHORISATION', payments[0]!.pspReference],
      [DEMO.merchantPos, 'AUTHORISATION', payments[1]!.pspReference],
    ]);
    const validator = new hmacValidator();
    for (const item of items) expect(validator.validateHMAC(item as never, hmacKey)).toBe(true);

    const tested = await webhooks.testWebhook(DEMO.companyId, webhook.id!, { types: ['AUTHORISATION'] });
    expect(tested.data?.map((r) => [r.merchantId, r.status, r.responseCode])).toEqual([
      [DEMO.merchantEcom, 'success', '200'],
      [DEMO.merchantPos, 'success', '200'],
    ]);
    const sent = JSON.parse(tested.data![1]!.requestSent!) as { notificationItems: Array<{ NotificationRequestItem: object }> };
    expect(validator.validateHMAC(sent.notificationItems[0]!.NotificationRequestItem as never, hmacKey)).toBe(true);

    const updated = await webhooks.updateWebhook(DEMO.companyId, webhook.id!, {
      filterMerchantAccountType: 'excludeAccounts' as never,
      filterMerchantAccounts: [DEMO.merchantPos],
    });
    expect(updated.filterMerchantAccounts).toEqual([DEMO.merchantPos]);
    await webhooks.removeWebhook(DEMO.companyId, webhook.id!);
    expect((await webhooks.listAllWebhooks(DEMO.companyId, 1, 10)).data ?? []).toEqual([]);
  });

  test('When an operator sets up a report webhook for a merchant account, then it keeps its type, gets no payment event, and its test sends REPORT_AVAILABLE', async () => {
    // Its own receiver: the other test counts what arrives at the shared one.
    const reports = await new Receiver().start();
    try {
      const webhooks = management.WebhooksMerchantLevelApi;
      const webhook = await webhooks.setUpWebhook(DEMO.merchantEcom, {
        type: 'report-notification',
        url: reports.url,
        active: true,
        communicationFormat: 'json' as never,
      });
      expect((await webhooks.getWebhook(DEMO.merchantEcom, webhook.id!)).type).toBe('report-notification');
      await pay(DEMO.merchantEcom);
      await server.dispatcher.drain();
      expect(reports.received).toHaveLength(0);

      const tested = await webhooks.testWebhook(DEMO.merchantEcom, webhook.id!, {});
      expect(tested.data?.map((r) => [r.merchantId, r.status])).toEqual([[DEMO.merchantEcom, 'success']]);
      expect(reports.items().map((i) => i.eventCode)).toEqual(['REPORT_AVAILABLE']);
      await webhooks.removeWebhook(DEMO.merchantEcom, webhook.id!);
    } finally {
      await reports.stop();
    }
  });
});
