/**
 * What sessions and payment links keep of their requests (and answer back): every field, except a
 * telephone number that is not submitted for authentication (design 2.6 and 2.12) and a fund
 * recipient's card. A telephone number of the wrong form never refuses a request.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildPaymentRequest, rawCard, uniqueReference } from '../../helpers/factories.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const base = { merchantAccount: 'DemoMerchantECOM', amount: eur(4200) };
const WELL_FORMED = '+31612345678';
const NOT_SUBMITTABLE = ['0612345678', '+31 6 1234 5678', '+3161', '+1234567890123456789', 'call me'];

describe('POST /paymentMethods', () => {
  test.each(NOT_SUBMITTABLE)('When the telephone number is %j, then the methods are listed all the same', async (telephoneNumber) => {
    const { data, response } = await server.checkout.POST('/paymentMethods', { body: { ...base, telephoneNumber } });
    expect(response.status).toBe(200);
    expect(data?.paymentMethods?.length).toBeGreaterThan(0);
  });
});

describe('POST /paymentLinks', () => {
  test.each(NOT_SUBMITTABLE)('When the telephone number is %j, then the link is made without it, and reading it back shows none', async (telephoneNumber) => {
    const { data, response } = await server.checkout.POST('/paymentLinks', { body: { ...base, reference: uniqueReference('link'), telephoneNumber } });
    expect(response.status).toBe(201);
    expect(data).not.toHaveProperty('telephoneNumber');
    const read = await server.checkout.GET('/paymentLinks/{linkId}', { params: { path: { linkId: data!.id } } });
    expect(read.data).not.toHaveProperty('telephoneNumber');
  });

  test('When the telephone number is well formed, then the link keeps it', async () => {
    const { data } = await server.checkout.POST('/paymentLinks', { body: { ...base, reference: uniqueReference('link'), telephoneNumber: WELL_FORMED } });
    expect(data?.telephoneNumber).toBe(WELL_FORMED);
  });

  test('When a fund recipient comes with a card, then the link keeps the recipient but never the card', async () => {
    const fundRecipient = {
      shopperReference: 'recipient-1',
      walletIdentifier: 'wallet-1',
      paymentMethod: rawCard('4111111111111111'),
    };
    const { data } = await server.checkout.POST('/paymentLinks', { body: { ...base, reference: uniqueReference('link'), fundRecipient } });
    expect(data?.fundRecipient).toEqual({ shopperReference: 'recipient-1', walletIdentifier: 'wallet-1' });
    const read = await server.checkout.GET('/paymentLinks/{linkId}', { params: { path: { linkId: data!.id } } });
    expect(JSON.stringify(read.data)).not.toContain('4111111111111111');
    const kept = await server.store.read((tx) => tx.links.get(data!.id));
    expect(JSON.stringify(kept)).not.toContain('4111111111111111');
    // The CVC as a value: the bare digits may occur in the reference, which holds the process id.
    expect(JSON.stringify(kept)).not.toContain('"737"');
    expect(JSON.stringify(kept)).not.toContain('"cvc"');
  });
});

describe('POST /sessions', () => {
  const session = (extra: Record<string, unknown>) =>
    server.checkout.POST('/sessions', { body: { ...base, reference: uniqueReference('session'), returnUrl: 'https://shop.example.com/return', ...extra } });

  test.each(NOT_SUBMITTABLE)('When the telephone number is %j, then the session is made without it', async (telephoneNumber) => {
    const { data, response } = await session({ telephoneNumber });
    expect(response.status).toBe(201);
    expect(data).not.toHaveProperty('telephoneNumber');
  });

  test('When the telephone number is well formed, then the session keeps it', async () => {
    expect((await session({ telephoneNumber: WELL_FORMED })).data?.telephoneNumber).toBe(WELL_FORMED);
  });

  test('When a fund recipient comes with a card, then the session keeps the recipient but never the card', async () => {
    const { data } = await session({ fundRecipient: { walletIdentifier: 'wallet-2', paymentMethod: rawCard('5555341244441115') } });
    expect(data?.fundRecipient).toEqual({ walletIdentifier: 'wallet-2' });
    expect(JSON.stringify(await server.store.read((tx) => tx.sessions.get(data!.id)))).not.toContain('5555341244441115');
  });

  test('When storePaymentMethod is true with a shopperReference, then the card of the session’s payment is stored', async () => {
    const created = await session({ storePaymentMethod: true, shopperReference: 'session-shopper-1' });
    expect(created.data?.storePaymentMethod).toBe(true);
    const paid = await server.checkout.POST('/sessions/{sessionId}/payments', {
      params: { path: { sessionId: created.data!.id } },
      body: { sessionData: created.data!.sessionData!, paymentMethod: rawCard('5555341244441115') },
    });
    expect(paid.data?.resultCode).toBe('Authorised');
    const tokens = await server.checkout.GET('/storedPaymentMethods', {
      params: { query: { merchantAccount: 'DemoMerchantECOM', shopperReference: 'session-shopper-1' } },
    });
    expect(tokens.data?.storedPaymentMethods).toEqual([expect.objectContaining({ lastFour: '1115', brand: 'mc' })]);
  });

  test('When storePaymentMethodMode is disabled, then storePaymentMethod does not store the card', async () => {
    const created = await session({ storePaymentMethod: true, storePaymentMethodMode: 'disabled', shopperReference: 'session-shopper-2' });
    await server.checkout.POST('/sessions/{sessionId}/payments', {
      params: { path: { sessionId: created.data!.id } },
      body: { sessionData: created.data!.sessionData!, paymentMethod: rawCard('5555341244441115') },
    });
    const tokens = await server.checkout.GET('/storedPaymentMethods', {
      params: { query: { merchantAccount: 'DemoMerchantECOM', shopperReference: 'session-shopper-2' } },
    });
    expect(tokens.data?.storedPaymentMethods ?? []).toEqual([]);
  });
});

describe('POST /payments', () => {
  test.each(NOT_SUBMITTABLE)('When the telephone number is %j, then the payment is made all the same', async (telephoneNumber) => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ telephoneNumber }) });
    expect(data?.resultCode).toBe('Authorised');
  });
});
