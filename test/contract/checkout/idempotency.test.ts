import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { CHECKOUT_ROLES } from '../../../server/kernel/auth/roles.js';
import { createCheckoutClient } from '../../../client/index.js';
import { ERR_ALREADY_PROCESSED, ERR_IDEMPOTENCY_KEY_MALFORMED, ERR_IDEMPOTENCY_KEY_TOO_LONG } from '../../../server/kernel/errors.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment, eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const post = (path: string, body: unknown, key?: string, apiKey = COMPANY_KEY) =>
  fetch(`${server.checkoutUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey, ...(key !== undefined && { 'Idempotency-Key': key }) },
    body: JSON.stringify(body),
  });

describe('Idempotency-Key on checkout POSTs', () => {
  test('When a payment is repeated with the same key, then the first response is replayed and no second payment is made', async () => {
    const body = buildPaymentRequest();
    const first = await post('/payments', body, 'pay-once-1');
    const second = await post('/payments', body, 'pay-once-1');
    expect(second.status).toBe(first.status);
    expect(second.headers.get('idempotency-key')).toBe('pay-once-1');
    expect(first.headers.get('idempotency-key')).toBe('pay-once-1');
    const [a, b] = [await first.json(), await second.json()];
    expect(b).toEqual(a);
  });

  test('When twenty repeats of a finished request arrive at once, then every one gets the first response', async () => {
    const body = buildPaymentRequest();
    const first = await (await post('/payments', body, 'many-replays')).json();
    const replays = await Promise.all(Array.from({ length: 20 }, () => post('/payments', body, 'many-replays')));
    expect(replays.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const r of replays) expect(await r.json()).toEqual(first);
  });

  test('When a capture is repeated with the same key, then it is captured once', async () => {
    const psp = await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS' });
    const body = { merchantAccount: 'DemoMerchantPOS', amount: eur(600) };
    const first = await post(`/payments/${psp}/captures`, body, 'capture-once');
    const replay = await post(`/payments/${psp}/captures`, body, 'capture-once');
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(await replay.json()).toEqual(await first.json());
    // Were it captured twice (1200 > 1000) this would fail; 400 more fits only if 600 was captured once.
    const rest = await post(`/payments/${psp}/captures`, { merchantAccount: 'DemoMerchantPOS', amount: eur(400) });
    expect(rest.status).toBe(201);
  });

  test('When a key is reused for a different request, then the answer is 422 with code 704 and nothing is done', async () => {
    await post('/payments', buildPaymentRequest(), 'reused-key');
    const other = await post('/payments', buildPaymentRequest({ amount: eur(1) }), 'reused-key');
    expect(other.status).toBe(422);
    expect((await other.json()) as Record<string, any>).toMatchObject({ status: 422, errorCode: ERR_ALREADY_PROCESSED.code, errorType: 'validation' });
  });

  test('When a request fails, then its key stores nothing and a corrected retry with that key goes through', async () => {
    const psp = await authorisedPayment(server);
    const tooMuch = await post(`/payments/${psp}/captures`, { merchantAccount: 'DemoMerchantECOM', amount: eur(5000) }, 'retry-after-error');
    expect(tooMuch.status).toBe(422);
    const corrected = await post(`/payments/${psp}/captures`, { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) }, 'retry-after-error');
    expect(corrected.status).toBe(201);
  });

  test('When the key is longer than 64 characters, then the answer is 400 with code 29_001', async () => {
    const response = await post('/payments', buildPaymentRequest(), 'k'.repeat(65));
    expect(response.status).toBe(400);
    expect((await response.json()) as Record<string, any>).toMatchObject({ status: 400, errorCode: ERR_IDEMPOTENCY_KEY_TOO_LONG.code });
  });

  test('When the key has 64 characters, then it is accepted', async () => {
    expect((await post('/payments', buildPaymentRequest(), 'k'.repeat(64))).status).toBe(200);
  });

  test.each([['has space'], ['ünïcode'], ['']])('When the key is malformed (%j), then the answer is 400', async (key) => {
    const response = await post('/payments', buildPaymentRequest(), key);
    expect(response.status).toBe(400);
    expect((await response.json()) as Record<string, any>).toMatchObject({ status: 400, errorCode: ERR_IDEMPOTENCY_KEY_MALFORMED.code });
  });

  test('When the typed client posts without a key, then it sends a UUID key that the server echoes', async () => {
    const { response } = await server.checkout.POST('/payments', { body: buildPaymentRequest() });
    expect(response.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('When another company uses the same key, then its request is processed on its own', async () => {
    const otherKey = 'other-company-key-0000000000000001';
    await server.store.transaction(async (tx) => {
      const createdAt = new Date().toISOString();
      await tx.companies.insert({ id: 'OtherCompany', name: 'OtherCompany', createdAt });
      await tx.merchants.insert({
        id: 'OtherMerchant',
        companyId: 'OtherCompany',
        name: 'Other',
        description: 'Other',
        reference: 'Other',
        status: 'Active',
        captureDelay: 'manual',
        multiplePartialCaptures: false,
        defaultShopperInteraction: 'Ecommerce',
        primarySettlementCurrency: 'EUR',
        shopWebAddress: 'https://other.example.com',
        merchantCity: 'Utrecht',
        pricingPlan: 'Standard',
        createdAt,
      });
      await tx.credentials.insert({
        id: 'S2-OTHERCOMPANY1',
        companyId: 'OtherCompany',
        merchantId: null,
        username: 'ws@Company.OtherCompany',
        description: 'other',
        active: true,
        roles: [...CHECKOUT_ROLES],
        allowedIpAddresses: [],
        associatedMerchantAccounts: [],
        clientKey: 'test_OTHER',
        createdAt,
      });
      await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(otherKey), credentialId: 'S2-OTHERCOMPANY1', createdAt, expiresAt: null });
    });
    const mine = (await (await post('/payments', buildPaymentRequest(), 'shared-key')).json()) as Record<string, any>;
    const theirs = await post('/payments', buildPaymentRequest({ merchantAccount: 'OtherMerchant' }), 'shared-key', otherKey);
    expect(theirs.status).toBe(200);
    expect(((await theirs.json()) as Record<string, any>).pspReference).not.toBe(mine.pspReference);
    // And the other company cannot reach the demo merchant account.
    const other = createCheckoutClient({ baseUrl: server.checkoutUrl, apiKey: otherKey });
    expect((await other.POST('/payments', { body: buildPaymentRequest() })).error?.errorCode).toBe('901');
  });

  test('When 31 days pass on the company clock, then the stored response is purged and the key is processed as new', async () => {
    const first = (await (await post('/payments', buildPaymentRequest({ reference: 'retention' }), 'retention-key')).json()) as Record<string, any>;
    const count = () => server.store.read(async (tx) => (await tx.idempotency.get('S2-DEMOCOMPANY01', 'retention-key')) !== undefined);
    expect(await count()).toBe(true);

    // 30 days later the record still replays.
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 30 * 86_400 } });
    await server.dispatcher.purgeIdempotencyRecords();
    const within = (await (await post('/payments', buildPaymentRequest({ reference: 'retention' }), 'retention-key')).json()) as Record<string, any>;
    expect(within.pspReference).toBe(first.pspReference);

    // Past 31 days the purge deletes it, and the same key starts a new payment.
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 86_400 + 1 } });
    expect(await server.dispatcher.purgeIdempotencyRecords()).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(false);
    const after = (await (await post('/payments', buildPaymentRequest({ reference: 'retention' }), 'retention-key')).json()) as Record<string, any>;
    expect(after.pspReference).not.toBe(first.pspReference);
  });

  test('When another credential of the same company sends a key already used, then it neither replays nor is blocked', async () => {
    const key = 'per-credential-key';
    const mine = (await (await post('/payments', buildPaymentRequest({ reference: 'mine' }), key)).json()) as Record<string, any>;
    const theirs = await post('/payments', buildPaymentRequest({ reference: 'theirs' }), key, MERCHANT_KEY);
    expect(theirs.status).toBe(200);
    expect(((await theirs.json()) as Record<string, any>).pspReference).not.toBe(mine.pspReference);
  });
});
