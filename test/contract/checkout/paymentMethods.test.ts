import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { testPaymentsOf } from '../../helpers/methods.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  // An online gift card of store AMS01 (the demo's own gift card setting there is for the point of sale).
  await setUp({ type: 'givex', storeIds: ['AMS01'], shopperInteraction: 'eCommerce' });
});
afterAll(() => server.stop());

/** Adds a payment method setting to DemoMerchantECOM through the Management API. */
async function setUp(body: Record<string, unknown>): Promise<void> {
  const { response } = await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', {
    params: { path: { merchantId: 'DemoMerchantECOM' } },
    body: body as never,
  });
  expect({ type: body.type, status: response.status }).toEqual({ type: body.type, status: 200 });
}

/** Every payment method type Management can set up (its PaymentMethodSetupInfo.type enum). */
const SETUP_TYPES = (
  JSON.parse(readFileSync(join(process.cwd(), 'generated', 'management.json'), 'utf8')) as {
    components: { schemas: { PaymentMethodSetupInfo: { properties: { type: { enum: string[] } } } } };
  }
).components.schemas.PaymentMethodSetupInfo.properties.type.enum;

const methods = async (body: Record<string, unknown>) => {
  const { data, error, response } = await server.checkout.POST('/paymentMethods', { body: { merchantAccount: 'DemoMerchantECOM', ...body } });
  return { types: (data?.paymentMethods ?? []).map((m) => m.type), data, error, response };
};

describe('POST /paymentMethods', () => {
  test('When a Dutch shopper pays euros on the web, then cards (enabled brands only), iDEAL, PayPal, Klarna, SEPA and both wallets are offered', async () => {
    const { types, data } = await methods({ countryCode: 'NL', amount: eur(1000), channel: 'Web' });
    expect(types).toEqual(['scheme', 'ideal', 'paypal', 'klarna', 'sepadirectdebit', 'applepay', 'googlepay']);
    expect(data?.paymentMethods?.[0]).toEqual({ type: 'scheme', name: 'Cards', brands: ['visa', 'mc', 'amex', 'maestro', 'jcb', 'cup'] });
  });

  test.each([
    [{ countryCode: 'BE', amount: eur(1000) }, ['bcmc'], ['ideal']],
    [{ countryCode: 'NL', amount: { currency: 'USD', value: 1000 } }, ['scheme', 'paypal'], ['ideal', 'klarna', 'sepadirectdebit']],
    [{ countryCode: 'NL', amount: eur(50) }, ['ideal'], ['klarna']],
    [{ countryCode: 'NL', amount: eur(1000), channel: 'iOS' }, ['applepay'], ['googlepay']],
    [{ countryCode: 'NL', amount: eur(1000), channel: 'Android' }, ['googlepay'], ['applepay']],
    [{ countryCode: 'NL', amount: eur(1000), allowedPaymentMethods: ['scheme', 'ideal'] }, ['scheme', 'ideal'], ['paypal']],
    [{ countryCode: 'NL', amount: eur(1000), blockedPaymentMethods: ['paypal'] }, ['scheme'], ['paypal']],
    [{ countryCode: 'NL', amount: eur(1000) }, ['ideal'], ['giftcard']],
    [{ countryCode: 'NL', amount: eur(1000), store: 'AMS01' }, ['giftcard', 'ideal'], []],
    [{ countryCode: 'NL', amount: eur(1000), store: 'AMS01', storeFiltrationMode: 'exclusive' }, ['giftcard'], ['scheme', 'ideal']],
    [{ countryCode: 'NL', amount: eur(1000), store: 'RTM02', storeFiltrationMode: 'inclusive' }, ['scheme'], ['giftcard']],
    [{ countryCode: 'NL', amount: eur(1000), storeFiltrationMode: 'skipFilter' }, ['giftcard', 'scheme'], []],
  ])('When the request is %j, then %j are offered and %j are not', async (body, present, absent) => {
    const { types } = await methods(body);
    for (const type of present) expect(types).toContain(type);
    for (const type of absent) expect(types).not.toContain(type);
  });

  test('When a setting is for the point of sale only, then it is not offered online, whatever the store filter', async () => {
    await setUp({ type: 'klarna_paynow', storeIds: ['POS-ONLY'], shopperInteraction: 'pos' });
    await setUp({ type: 'sepadirectdebit', storeIds: ['POS-ONLY'], shopperInteraction: 'moto' });
    expect((await methods({ store: 'POS-ONLY', storeFiltrationMode: 'exclusive' })).types).toEqual([]);
    // The demo's gift card of store AMS01 is a point-of-sale setting: only the online Givex setting shows.
    const { data } = await methods({ store: 'AMS01', storeFiltrationMode: 'exclusive' });
    expect(data?.paymentMethods).toEqual([{ type: 'giftcard', name: 'Givex', brand: 'givex' }]);
  });

  test('When every setting type Management accepts is enabled, then every entry /paymentMethods offers is paid by POST /payments with its test data', async () => {
    for (const type of SETUP_TYPES) await setUp({ type, storeIds: ['EVERY-TYPE'], ...(type === 'bcmc' && { bcmc: { enableBcmcMobile: true } }) });
    const { data } = await methods({ store: 'EVERY-TYPE', storeFiltrationMode: 'exclusive', amount: eur(1000), countryCode: 'NL' });
    const offered = data?.paymentMethods ?? [];
    // As Adyen lists them: one card entry naming the brands, gift cards by brand, no point-of-sale variants.
    expect(offered.filter((m) => m.type === 'scheme')).toHaveLength(1);
    expect(offered[0]?.brands).toEqual(expect.arrayContaining(['visa', 'mc', 'amex', 'maestro', 'cartebancaire', 'jcb', 'diners', 'discover', 'cup']));
    expect(offered.filter((m) => m.type === 'giftcard').map((m) => m.brand)).toEqual(['givex', 'svs', 'valuelink']);
    expect(offered.map((m) => m.type)).toContain('bcmc_mobile');
    let paid = 0;
    for (const entry of offered) {
      const payments = testPaymentsOf(entry);
      // An entry without test data is a method offered that this service cannot pay.
      expect({ entry, payable: payments.length > 0 && payments.length >= (entry.brands?.length ?? 0) }).toEqual({ entry, payable: true });
      for (const payment of payments) {
        const { data: answer, error } = await server.checkout.POST('/payments', { body: buildPaymentRequest(payment.body as never) });
        expect({ method: payment.name, resultCode: answer?.resultCode, paymentMethod: answer?.paymentMethod, error }).toEqual({
          method: payment.name,
          resultCode: payment.resultCode,
          paymentMethod: payment.paidWith,
          error: undefined,
        });
        paid++;
      }
    }
    expect(paid).toBeGreaterThanOrEqual(offered.length);
  });

  test('When visa is blocked, then cards are offered without visa', async () => {
    const { data } = await methods({ countryCode: 'NL', amount: eur(1000), blockedPaymentMethods: ['visa'] });
    expect(data?.paymentMethods?.[0]?.brands).not.toContain('visa');
    expect(data?.paymentMethods?.[0]?.brands).toContain('mc');
  });

  test('When card funding sources are split, then cards come as a credit and a debit entry', async () => {
    const { data } = await methods({ amount: eur(1000), splitCardFundingSources: true, allowedPaymentMethods: ['scheme'] });
    expect(data?.paymentMethods?.map((m) => [m.name, m.fundingSource])).toEqual([
      ['Credit Card', 'credit'],
      ['Debit Card', 'debit'],
    ]);
  });

  test('When a shopper with a stored card asks, then the card is listed with its last four digits only', async () => {
    await server.checkout.POST('/storedPaymentMethods', {
      body: {
        merchantAccount: 'DemoMerchantECOM',
        shopperReference: 'pm-shopper',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: { type: 'scheme', number: '5555555555554444', expiryMonth: '03', expiryYear: '2030', holderName: 'Jane Doe' },
      },
    });
    const { data } = await methods({ amount: eur(1000), shopperReference: 'pm-shopper' });
    expect(data?.storedPaymentMethods).toEqual([
      expect.objectContaining({
        type: 'scheme',
        brand: 'mc',
        lastFour: '4444',
        expiryMonth: '3',
        expiryYear: '2030',
        holderName: 'Jane Doe',
        supportedRecurringProcessingModels: ['CardOnFile'],
      }),
    ]);
    expect(JSON.stringify(data)).not.toContain('5555555555554444');
  });

  test.each([
    ['a conversion id of 257 characters', { shopperConversionId: 'x'.repeat(257) }, 'shopperConversionId'],
    ['a store of 17 characters', { store: 'S'.repeat(17) }, 'store'],
    ['an empty store', { store: '' }, 'store'],
    ['a shopper reference of 2 characters', { shopperReference: 'ab' }, 'shopperReference'],
    ['an unknown channel', { channel: 'Desktop' }, 'channel'],
    ['an unknown store filtration mode', { store: 'AMS01', storeFiltrationMode: 'all' }, 'storeFiltrationMode'],
  ])('When the request has %s, then the answer is 422 naming the field', async (_name, body, field) => {
    const { error, response } = await methods(body);
    expect(response.status).toBe(422);
    expect(error?.message).toContain(`'${field}'`);
  });

  test('When the telephone number has a plus, a country code and up to 15 digits, then it is accepted', async () => {
    expect((await methods({ telephoneNumber: '+31612345678' })).response.status).toBe(200);
  });
});
