import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createCheckoutClient } from '../../../client/index.js';
import { CHECKOUT_ROLES } from '../../../server/kernel/auth/roles.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const merchantAccount = 'DemoMerchantECOM';
const givex = { type: 'giftcard', brand: 'givex', number: '6036283997595793321', cvc: '1234' };
const balance = (value: number, paymentMethod: Record<string, string> = givex) =>
  server.checkout.POST('/paymentMethods/balance', { body: { merchantAccount, amount: eur(value), paymentMethod } });

describe('POST /paymentMethods/balance', () => {
  test('When the balance covers the amount, then the answer is Success with the balance', async () => {
    const { data, response } = await balance(1000, { type: 'svs', number: '6006491286999921374', cvc: '1111' });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ resultCode: 'Success', balance: eur(2500) });
    expect(data?.pspReference).toMatch(/^[0-9A-Z]{16}$/);
  });

  test('When the amount is more than the balance, then the answer is NotEnoughBalance with the balance', async () => {
    const { data } = await balance(50000, { type: 'svs', number: '6006491286999921374', cvc: '1111' });
    expect(data).toMatchObject({ resultCode: 'NotEnoughBalance', balance: eur(2500) });
  });

  test('When the card is unknown, its PIN is wrong or it holds another currency, then the answer is Failed with a zero balance', async () => {
    const cases: Array<Record<string, string>> = [
      { ...givex, number: '6036283997595790000' },
      { ...givex, cvc: '9999' },
      { type: 'valuelink', encryptedCardNumber: 'test_7777182708544835', encryptedSecurityCode: 'test_2416' },
    ];
    for (const paymentMethod of cases) {
      const { data } = await balance(100, paymentMethod);
      expect(data).toMatchObject({ resultCode: 'Failed', balance: eur(0), refusalReason: expect.any(String) });
    }
  });

  test('When a gift card pays, is refunded, and another company asks, then each sees its own balance', async () => {
    const card = { type: 'giftcard', brand: 'givex', number: '4126491073027401', cvc: '737' };
    const { data: paid } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ amount: eur(2000), paymentMethod: card as never, captureDelayHours: 0 }),
    });
    expect(paid).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'giftcard', brand: 'givex' } });
    expect((await balance(1, card)).data?.balance).toEqual(eur(3000));
    await server.checkout.POST('/payments/{paymentPspReference}/refunds', {
      params: { path: { paymentPspReference: paid!.pspReference! } },
      body: { merchantAccount, amount: eur(500) },
    });
    expect((await balance(1, card)).data?.balance).toEqual(eur(3500));

    await insertCompany(server.store, 'GiftCompany', 'GiftMerchant');
    const key = await insertCredential(server.store, { id: 'S2-GIFTCOMPANY01', companyId: 'GiftCompany', merchantId: null, roles: CHECKOUT_ROLES });
    const other = createCheckoutClient({ baseUrl: server.checkoutUrl, apiKey: key });
    const { data: theirs } = await other.POST('/paymentMethods/balance', { body: { merchantAccount: 'GiftMerchant', amount: eur(1), paymentMethod: card } });
    expect(theirs?.balance).toEqual(eur(5000));
  });

  test('When the merchant credential asks on a merchant account it does not reach, then the answer is 403 with code 901', async () => {
    const { error, response } = await server.merchantCheckout.POST('/paymentMethods/balance', {
      body: { merchantAccount: 'DemoMerchantPOS', amount: eur(100), paymentMethod: givex },
    });
    expect(response.status).toBe(403);
    expect(error?.errorCode).toBe('901');
  });

  test('When paymentMethod is missing, then the answer is 422 naming it and the body is refused', async () => {
    const { error } = await server.checkout.POST('/paymentMethods/balance', { body: { merchantAccount, amount: eur(100) } as never });
    expect(error).toMatchObject({ status: 422, errorCode: '158', message: expect.stringContaining("'paymentMethod'") });
  });
});
