/**
 * Payment method settings through the official Adyen Node library 31 (ManagementAPI), seen from
 * checkout through the same library (CheckoutAPI): what a merchant enables is what /paymentMethods
 * offers, at once. On the PostgreSQL run a second server instance on the same database must see
 * the same (the offer is read from the database, never from one instance's memory).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adyenClient, CheckoutAPI, ManagementAPI, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let database: TestDatabase | undefined;
let server: TestServer;
/** On PostgreSQL: another instance on the same database; on SQLite (one process per file) unset. */
let other: TestServer | undefined;
let management: InstanceType<typeof ManagementAPI>;
let checkout: InstanceType<typeof CheckoutAPI>;

beforeAll(async () => {
  if (TEST_ENGINE === 'postgres') {
    database = await freshDatabase(mkdtempSync(join(tmpdir(), 'pm-settings-')));
    server = await startServer(database.config, { https: true });
    other = await startServer(database.config);
  } else {
    server = await startServer({}, { https: true });
  }
  pointAdyenLibraryAt(server.baseUrl);
  management = new ManagementAPI(adyenClient(COMPANY_KEY));
  checkout = new CheckoutAPI(adyenClient(COMPANY_KEY));
});
afterAll(async () => {
  await other?.stop();
  await server.stop();
  await database?.drop();
});

const merchantId = 'DemoMerchantECOM';
const dutchShopper = { merchantAccount: merchantId, countryCode: 'NL', amount: { currency: 'EUR', value: 2500 } };
const klarna = { region: 'EU', supportEmail: 'help@shop.example.com', disputeEmail: 'disputes@shop.example.com', autoCapture: false };

/** The method types /paymentMethods offers, through the library. */
const offered = async (request: Record<string, unknown> = dutchShopper) =>
  ((await checkout.PaymentsApi.paymentMethods(request as never)).paymentMethods ?? []).map((m) => m.type);
/** The same on the other instance (plain HTTP: the library points at one server). */
const offeredElsewhere = async () => {
  const { data } = await other!.checkout.POST('/paymentMethods', { body: dutchShopper as never });
  return (data?.paymentMethods ?? []).map((m) => m.type);
};

describe('The Adyen Node library 31.0.0: payment method settings and the checkout offer', () => {
  test('When Klarna is enabled with its klarna object, then /paymentMethods offers it; disabled, it is gone; enabled again, back', async () => {
    const methods = management.PaymentMethodsMerchantLevelApi;
    expect(await offered()).not.toContain('klarna_account');

    const setting = await methods.requestPaymentMethod(merchantId, {
      type: 'klarna_account' as never,
      countries: ['NL', 'DE'],
      currencies: ['EUR'],
      shopperInteraction: 'eCommerce' as never,
      klarna: klarna as never,
    });
    expect(setting).toMatchObject({ type: 'klarna_account', enabled: true, klarna });
    expect((await methods.getPaymentMethodDetails(merchantId, setting.id)).klarna).toEqual(klarna);
    expect(await offered()).toContain('klarna_account');
    // Outside the setting's countries or currencies it is not offered.
    expect(await offered({ ...dutchShopper, countryCode: 'SE', amount: { currency: 'SEK', value: 2500 } })).not.toContain('klarna_account');
    if (other) expect(await offeredElsewhere()).toContain('klarna_account');

    expect((await methods.updatePaymentMethod(merchantId, setting.id, { enabled: false })).enabled).toBe(false);
    expect(await offered()).not.toContain('klarna_account');
    if (other) expect(await offeredElsewhere()).not.toContain('klarna_account');

    await methods.updatePaymentMethod(merchantId, setting.id, { enabled: true });
    expect(await offered()).toContain('klarna_account');
  });

  test('When the seeded Klarna is disabled and enabled through the library, then the checkout offer follows', async () => {
    const methods = management.PaymentMethodsMerchantLevelApi;
    const seeded = (await methods.getAllPaymentMethods(merchantId, undefined, undefined, 100, 1)).data!.find((m) => m.type === 'klarna')!;
    expect(await offered()).toContain('klarna');
    await methods.updatePaymentMethod(merchantId, seeded.id, { enabled: false });
    expect(await offered()).not.toContain('klarna');
    if (other) expect(await offeredElsewhere()).not.toContain('klarna');
    await methods.updatePaymentMethod(merchantId, seeded.id, { enabled: true });
    expect(await offered()).toContain('klarna');
  });

  test('When a klarna object comes with type paypal, then the library gets 422 naming klarna and nothing is offered or stored', async () => {
    const methods = management.PaymentMethodsMerchantLevelApi;
    const before = (await methods.getAllPaymentMethods(merchantId, undefined, undefined, 100, 1)).itemsTotal;
    const refused = await methods.requestPaymentMethod(merchantId, { type: 'paypal' as never, storeIds: ['NEW-STORE'], klarna: klarna as never }).then(
      () => undefined,
      (error: unknown) => error as { statusCode?: number; responseBody?: string },
    );
    expect(refused?.statusCode).toBe(422);
    expect(JSON.parse(refused?.responseBody ?? '{}')).toMatchObject({ invalidFields: [expect.objectContaining({ name: 'klarna' })] });
    expect((await methods.getAllPaymentMethods(merchantId, undefined, undefined, 100, 1)).itemsTotal).toBe(before);
  });

  test('When a statement text is set on iDEAL through the library, then it is stored and read back', async () => {
    const methods = management.PaymentMethodsMerchantLevelApi;
    const ideal = (await methods.getAllPaymentMethods(merchantId, undefined, undefined, 100, 1)).data!.find((m) => m.type === 'ideal')!;
    const transactionDescription = { type: 'fixed', doingBusinessAsName: 'DEMO SHOP' };
    await methods.updatePaymentMethod(merchantId, ideal.id, { ideal: { transactionDescription } as never });
    expect((await methods.getPaymentMethodDetails(merchantId, ideal.id)).ideal).toEqual({ transactionDescription });
  });
});
