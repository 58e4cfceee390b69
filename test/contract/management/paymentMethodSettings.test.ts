import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const m = { merchantId: 'DemoMerchantECOM' };
const checkoutTypes = async (body: Record<string, unknown>) =>
  ((await server.checkout.POST('/paymentMethods', { body: { merchantAccount: 'DemoMerchantECOM', ...body } })).data?.paymentMethods ?? []).map((x) => x.type);
const settingOf = async (type: string) =>
  (await server.management.GET('/merchants/{merchantId}/paymentMethodSettings', { params: { path: m, query: { pageSize: 100 } } })).data!.data!.find(
    (s) => s.type === type,
  )!;

describe('POST /merchants/{merchantId}/paymentMethodSettings and GET /merchants/{merchantId}/paymentMethodSettings', () => {
  test('When Klarna pay over time is requested for Sweden, then checkout offers it to Swedish shoppers paying SEK, and only them', async () => {
    expect(await checkoutTypes({ countryCode: 'SE', amount: { currency: 'SEK', value: 1000 } })).not.toContain('klarna_account');
    const { data } = await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', {
      params: { path: m },
      body: { type: 'klarna_account', countries: ['SE'], currencies: ['SEK'], shopperInteraction: 'eCommerce' },
    });
    expect(data).toMatchObject({ type: 'klarna_account', enabled: true, allowed: true, verificationStatus: 'valid', countries: ['SE'] });
    expect(await checkoutTypes({ countryCode: 'SE', amount: { currency: 'SEK', value: 1000 } })).toContain('klarna_account');
    expect(await checkoutTypes({ countryCode: 'NL', amount: { currency: 'EUR', value: 1000 } })).not.toContain('klarna_account');
  });

  test('When the same type is requested twice for the same stores, then the second gets 422', async () => {
    const { error } = await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', { params: { path: m }, body: { type: 'ideal' } });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'type' })] });
  });

  test('When the type is unknown or a country is not a code, then the answer is 422', async () => {
    expect(
      (await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', { params: { path: m }, body: { type: 'bitcoin' } as never })).response
        .status,
    ).toBe(422);
    expect(
      (await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', { params: { path: m }, body: { type: 'blik', countries: ['Poland'] } }))
        .response.status,
    ).toBe(422);
  });

  test('When the settings of a store are asked for, then only those tied to it come', async () => {
    const { data } = await server.management.GET('/merchants/{merchantId}/paymentMethodSettings', { params: { path: m, query: { storeId: 'AMS01' } } });
    expect(data?.data?.map((s) => s.type)).toEqual(['giftcard']);
    expect(data?.data?.[0]).toMatchObject({ store: 'AMS01', stores: ['AMS01'] });
  });
});

describe('GET /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId} and PATCH /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', () => {
  test('When iDEAL is disabled, then checkout stops offering it; enabled again, it comes back', async () => {
    const ideal = await settingOf('ideal');
    const p = { params: { path: { ...m, paymentMethodId: ideal.id } } };
    expect((await server.management.GET('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', p)).data).toMatchObject({
      type: 'ideal',
      countries: ['NL'],
    });
    await server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', { ...p, body: { enabled: false } });
    expect(await checkoutTypes({ countryCode: 'NL', amount: { currency: 'EUR', value: 1000 } })).not.toContain('ideal');
    await server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', { ...p, body: { enabled: true } });
    expect(await checkoutTypes({ countryCode: 'NL', amount: { currency: 'EUR', value: 1000 } })).toContain('ideal');
  });

  test('When PayPal is tied to a store with `store`, then checkout offers it only with that store', async () => {
    const paypal = await settingOf('paypal');
    const { data } = await server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
      params: { path: { ...m, paymentMethodId: paypal.id } },
      body: { store: 'RTM02', currencies: ['EUR'] },
    });
    expect(data).toMatchObject({ store: 'RTM02', stores: ['RTM02'], currencies: ['EUR'] });
    expect(await checkoutTypes({ amount: { currency: 'EUR', value: 1000 } })).not.toContain('paypal');
    expect(await checkoutTypes({ amount: { currency: 'EUR', value: 1000 }, store: 'RTM02' })).toContain('paypal');
  });

  test('When a setting of another company is asked for, then it is not found', async () => {
    expect(
      (
        await server.management.GET('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
          params: { path: { merchantId: 'Elsewhere', paymentMethodId: 'PM1' } },
        })
      ).response.status,
    ).toBe(404);
  });
});

describe('POST /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/addApplePayDomains and GET /merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/getApplePayDomains', () => {
  test('When a domain is added to Apple Pay, then it is listed after the existing one', async () => {
    const applepay = await settingOf('applepay');
    const p = { params: { path: { ...m, paymentMethodId: applepay.id } } };
    expect(
      (
        await server.management.POST('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/addApplePayDomains', {
          ...p,
          body: { domains: ['checkout.example.com'] },
        })
      ).response.status,
    ).toBe(204);
    expect((await server.management.GET('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/getApplePayDomains', p)).data).toEqual({
      domains: ['shop.example.com', 'checkout.example.com'],
    });
  });

  test('When a domain is added to a setting that is not Apple Pay, then the answer is 422', async () => {
    const ideal = await settingOf('ideal');
    const { response } = await server.management.POST('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/addApplePayDomains', {
      params: { path: { ...m, paymentMethodId: ideal.id } },
      body: { domains: ['x.example.com'] },
    });
    expect(response.status).toBe(422);
  });
});
