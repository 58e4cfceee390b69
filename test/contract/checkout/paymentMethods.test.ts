import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

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
