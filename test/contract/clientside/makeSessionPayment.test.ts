import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_ORDER_NOT_FOUND, ERR_SESSION_COMPLETED, ERR_SESSION_NOT_FOUND } from '../../../server/kernel/errors.js';
import { createSession, dropinCard, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { webClientState } from '../../helpers/factories.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const pay = (id: string, sessionData: string, card = dropinCard(), origin = SHOP) =>
  fromBrowser(server, `/v1/sessions/${id}/payments`, { sessionData, paymentMethod: card, ...webClientState }, { clientKey, origin });

/** The fields Adyen's web library keeps from a session payment's answer; it warns about any other. */
const KEPT = ['action', 'resultCode', 'sessionData', 'order', 'sessionResult', 'donationToken', 'error', 'askDonation'];

describe('POST /v1/sessions/{sessionId}/payments', () => {
  test('When Drop-in pays with a card from an allowed origin, then it is authorised and the answer holds only what the library keeps (no pspReference)', async () => {
    const s = await createSession(server);
    const response = await pay(s.id, s.sessionData);
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({ resultCode: 'Authorised', sessionData: s.sessionData, sessionResult: expect.any(String) });
    expect(Object.keys(response.body).filter((k) => !KEPT.includes(k))).toEqual([]);
    const { data } = await server.checkout.GET('/sessions/{sessionId}', {
      params: { path: { sessionId: s.id }, query: { sessionResult: response.body.sessionResult } },
    });
    expect(data).toMatchObject({ status: 'completed', payments: [{ resultCode: 'Authorised', amount: { currency: 'EUR', value: 1000 } }] });
  });

  test('When the card is refused, then the answer is Refused without a refusal reason, and the session takes another payment', async () => {
    const s = await createSession(server);
    const refused = await pay(s.id, s.sessionData, dropinCard('4111111111111111', 'REFUSED'));
    expect(refused.body).toEqual({ resultCode: 'Refused', sessionData: s.sessionData, sessionResult: expect.any(String) });
    expect((await pay(s.id, s.sessionData)).body).toMatchObject({ resultCode: 'Authorised' });
  });

  test('When the card asks for 3D Secure, then the answer carries the redirect action', async () => {
    const s = await createSession(server);
    const response = await pay(s.id, s.sessionData, dropinCard('4212345678910006'));
    expect(response.body).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', url: expect.any(String) } });
    expect(response.body.pspReference).toBeUndefined();
  });

  test('When a gift card pays part of the session towards its order, then the answer carries the order and what remains, and a card then pays the rest and completes the session', async () => {
    // The demo shop sells gift cards online too (the seed offers them at the till only); the sandbox Givex card holds EUR 50.00.
    await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', {
      params: { path: { merchantId: 'DemoMerchantECOM' } },
      body: { type: 'givex', shopperInteraction: 'eCommerce' },
    });
    const s = await createSession(server, { amount: { currency: 'EUR', value: 6000 } });
    const created = await fromBrowser(server, `/v1/sessions/${s.id}/orders`, { sessionData: s.sessionData }, { clientKey, origin: SHOP });
    const order = { pspReference: created.body.pspReference as string, orderData: created.body.orderData as string };
    const giftCard = { type: 'giftcard', brand: 'givex', encryptedCardNumber: 'test_4126491073027401', encryptedSecurityCode: 'test_737' };

    const first = await fromBrowser(
      server,
      `/v1/sessions/${s.id}/payments`,
      { sessionData: s.sessionData, paymentMethod: giftCard, order },
      { clientKey, origin: SHOP },
    );
    expect(first.body).toMatchObject({
      resultCode: 'Authorised',
      order: { pspReference: order.pspReference, amount: { currency: 'EUR', value: 6000 }, remainingAmount: { currency: 'EUR', value: 1000 } },
    });
    const open = await server.checkout.GET('/sessions/{sessionId}', {
      params: { path: { sessionId: s.id }, query: { sessionResult: first.body.sessionResult } },
    });
    expect(open.data?.status).toBe('active');

    // The library sends back the order's data and reference (BaseElement's data).
    const rest = await fromBrowser(
      server,
      `/v1/sessions/${s.id}/payments`,
      {
        sessionData: s.sessionData,
        paymentMethod: dropinCard(),
        order: { pspReference: first.body.order.pspReference, orderData: first.body.order.orderData },
      },
      { clientKey, origin: SHOP },
    );
    expect(rest.body).toMatchObject({ resultCode: 'Authorised', order: { remainingAmount: { currency: 'EUR', value: 0 } } });
    const { data } = await server.checkout.GET('/sessions/{sessionId}', {
      params: { path: { sessionId: s.id }, query: { sessionResult: rest.body.sessionResult } },
    });
    expect(data).toMatchObject({
      status: 'completed',
      payments: [
        { resultCode: 'Authorised', amount: { currency: 'EUR', value: 5000 } },
        { resultCode: 'Authorised', amount: { currency: 'EUR', value: 1000 } },
      ],
    });
    expect((await pay(s.id, s.sessionData)).body).toMatchObject({ status: 422, errorCode: ERR_SESSION_COMPLETED.code });
  });

  test("When the order named is another session's, then the answer is 422 with code 22_013 and nothing is paid", async () => {
    const other = await createSession(server, { reference: 'another-order' });
    const created = await fromBrowser(server, `/v1/sessions/${other.id}/orders`, { sessionData: other.sessionData }, { clientKey, origin: SHOP });
    const s = await createSession(server);
    const order = { pspReference: created.body.pspReference as string, orderData: created.body.orderData as string };

    const response = await fromBrowser(
      server,
      `/v1/sessions/${s.id}/payments`,
      { sessionData: s.sessionData, paymentMethod: dropinCard(), order },
      { clientKey, origin: SHOP },
    );

    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_ORDER_NOT_FOUND.code });
    expect((await pay(s.id, s.sessionData)).body).toMatchObject({ resultCode: 'Authorised' });
  });

  test('When the session is already paid, then the answer is 422 with code 14_0023 and no second payment is made', async () => {
    const s = await createSession(server);
    await pay(s.id, s.sessionData);
    const again = await pay(s.id, s.sessionData);
    expect(again.body).toMatchObject({ status: 422, errorCode: ERR_SESSION_COMPLETED.code });
  });

  test("When the key's credential does not reach the session's merchant account, then the answer is 422 with code 14_0021 and nothing is paid", async () => {
    const s = await createSession(server, { merchantAccount: 'DemoMerchantPOS' });
    const response = await pay(s.id, s.sessionData);
    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_SESSION_NOT_FOUND.code });
    const result = await server.checkout.GET('/sessions/{sessionId}', { params: { path: { sessionId: s.id }, query: { sessionResult: 'x.y' } } });
    expect(result.response.status).toBe(422);
  });

  test('When the page is on another origin, then the answer is 403 and nothing is paid', async () => {
    const s = await createSession(server);
    expect((await pay(s.id, s.sessionData, dropinCard(), 'https://evil.example.com')).status).toBe(403);
    expect((await pay(s.id, s.sessionData)).body).toMatchObject({ resultCode: 'Authorised' });
  });
});
