import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_APPLE_PAY_DOMAIN, ERR_APPLE_PAY_MERCHANT } from '../../../server/kernel/errors.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const session = (body: { displayName?: string; domainName?: string; merchantIdentifier?: string } = {}) =>
  server.checkout.POST('/applePay/sessions', {
    body: { displayName: 'Demo Shop', domainName: 'shop.example.com', merchantIdentifier: 'merchant.DemoMerchantECOM', ...body },
  });
const decoded = (data: string) => JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Record<string, unknown>;
const applePaySetting = async (merchantId: string) =>
  (
    await server.management.GET('/merchants/{merchantId}/paymentMethodSettings', { params: { path: { merchantId }, query: { pageSize: 100 } } })
  ).data!.data!.find((s) => s.type === 'applepay' && s.enabled)!;

describe('POST /applePay/sessions', () => {
  test('When the domain is an Apple Pay domain of the merchant account, then the answer is a base64 merchant session shaped as Apple’s, for an hour from now', async () => {
    const { data, response } = await session();
    expect(response.status).toBe(200);
    const merchantSession = decoded(data!.data);
    const now = server.clock.now().getTime();
    expect(merchantSession).toEqual({
      epochTimestamp: expect.any(Number),
      expiresAt: expect.any(Number),
      merchantSessionIdentifier: expect.stringMatching(/^SSH[0-9A-F]{32}_[0-9A-F]{8}$/),
      nonce: expect.stringMatching(/^[0-9a-f]{8}$/),
      merchantIdentifier: expect.stringMatching(/^[0-9A-F]{64}$/),
      domainName: 'shop.example.com',
      displayName: 'Demo Shop',
      signature: expect.stringMatching(/^[0-9a-f]+$/),
      operationalAnalyticsIdentifier: expect.stringMatching(/^Demo Shop:[0-9A-F]{64}$/),
      retries: 0,
      pspId: merchantSession.merchantIdentifier,
    });
    expect(Math.abs((merchantSession.epochTimestamp as number) - now)).toBeLessThan(60_000);
    expect((merchantSession.expiresAt as number) - (merchantSession.epochTimestamp as number)).toBe(60 * 60 * 1000);
  });

  test('When two sessions are asked for, then each has its own identifier and nonce', async () => {
    const [a, b] = await Promise.all([session(), session()]);
    expect(decoded(a.data!.data).merchantSessionIdentifier).not.toBe(decoded(b.data!.data).merchantSessionIdentifier);
    expect(decoded(a.data!.data).nonce).not.toBe(decoded(b.data!.data).nonce);
  });

  test('When the merchant account is named without the merchant. prefix, or the domain in capitals, then it is the same merchant', async () => {
    expect((await session({ merchantIdentifier: 'DemoMerchantECOM', domainName: 'SHOP.example.com' })).response.status).toBe(200);
  });

  test('When the domain is not one of the merchant’s Apple Pay domains, then the answer is 422 code 23_011 naming it, until it is added', async () => {
    const refused = await session({ domainName: 'pay.other.example.net' });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toMatchObject({ errorCode: ERR_APPLE_PAY_DOMAIN.code, message: expect.stringContaining('pay.other.example.net') });
    const setting = await applePaySetting('DemoMerchantPOS');
    const added = await server.management.POST('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}/addApplePayDomains', {
      params: { path: { merchantId: 'DemoMerchantPOS', paymentMethodId: setting.id } },
      body: { domains: ['pay.other.example.net'] },
    });
    expect(added.response.ok).toBe(true);
    // Each merchant account has its own domains: only DemoMerchantPOS now has this one.
    expect((await session({ domainName: 'pay.other.example.net', merchantIdentifier: 'merchant.DemoMerchantPOS' })).response.status).toBe(200);
    expect((await session({ domainName: 'pay.other.example.net' })).error).toMatchObject({ errorCode: ERR_APPLE_PAY_DOMAIN.code });
  });

  test('When the merchant identifier names no merchant account the credential reaches, then the answer is 422 code 23_010', async () => {
    expect((await session({ merchantIdentifier: 'merchant.NoSuchMerchant' })).error).toMatchObject({ errorCode: ERR_APPLE_PAY_MERCHANT.code });
    const merchantLevel = await server.merchantCheckout.POST('/applePay/sessions', {
      body: { displayName: 'Demo Shop', domainName: 'shop.example.com', merchantIdentifier: 'merchant.DemoMerchantPOS' },
    });
    expect(merchantLevel.error).toMatchObject({ errorCode: ERR_APPLE_PAY_MERCHANT.code });
  });

  test('When Apple Pay is disabled for the merchant account, then the answer is 422 code 23_010', async () => {
    const setting = await applePaySetting('DemoMerchantPOS');
    await server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
      params: { path: { merchantId: 'DemoMerchantPOS', paymentMethodId: setting.id } },
      body: { enabled: false },
    });
    try {
      const { error } = await session({ merchantIdentifier: 'merchant.DemoMerchantPOS' });
      expect(error).toMatchObject({ errorCode: ERR_APPLE_PAY_MERCHANT.code, message: expect.stringContaining('not enabled') });
    } finally {
      // The tests of this file share a server and run in any order: the others need it enabled.
      await server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
        params: { path: { merchantId: 'DemoMerchantPOS', paymentMethodId: setting.id } },
        body: { enabled: true },
      });
    }
  });
});
