import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { CHECKOUT_ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { createSession, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { advanceClock, recordedEvents } from '../../helpers/methods.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

type QrAction = { qrCodeData: string; paymentData: string };

/** A Bancontact mobile payment of the demo shop, started by the merchant's server: its QR code action and reference. */
async function qrPayment(merchantAccount: string = DEMO.merchantEcom): Promise<{ action: QrAction; pspReference: string }> {
  const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ merchantAccount, paymentMethod: { type: 'bcmc_mobile' } }) });
  return { action: data!.action as QrAction, pspReference: data!.pspReference! };
}

const poll = (paymentData: string, key = clientKey) =>
  fromBrowser(server, '/services/PaymentInitiation/v1/status', { paymentData }, { clientKey: key, origin: SHOP });
const pay = (action: QrAction, outcome: 'authorised' | 'refused') =>
  fetch(`${action.qrCodeData}/answer`, { method: 'POST', body: new URLSearchParams({ outcome }) });

describe('POST /services/PaymentInitiation/v1/status', () => {
  test('When nobody has scanned the QR code yet, then the poll answers pending and the payment stays Pending', async () => {
    const { action, pspReference } = await qrPayment();

    const response = await poll(action.paymentData);

    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({ type: 'pending', resultCode: 'pending' });
    expect(await recordedEvents(server, pspReference)).toEqual([]);
  });

  test('When the shopper pays in the app, then the next poll is complete with authorised and a payload, and the payment is reported once', async () => {
    const { action, pspReference } = await qrPayment();
    await pay(action, 'authorised');

    const first = await poll(action.paymentData);
    const again = await poll(action.paymentData);

    expect(first.body).toEqual({ type: 'complete', resultCode: 'authorised', payload: expect.any(String) });
    expect(again.body).toMatchObject({ type: 'complete', resultCode: 'authorised' });
    expect(await recordedEvents(server, pspReference)).toEqual(['AUTHORISATION:true', 'CAPTURE:true']);
  });

  test('When the shopper declines in the app, then the poll is complete with refused', async () => {
    const { action } = await qrPayment();
    await pay(action, 'refused');

    expect((await poll(action.paymentData)).body).toMatchObject({ type: 'complete', resultCode: 'refused', payload: expect.any(String) });
  });

  test('When the QR code expired unscanned, then the poll is complete with cancelled', async () => {
    const { action } = await qrPayment();
    await advanceClock(server, 16 * 60);

    expect((await poll(action.paymentData)).body).toMatchObject({ type: 'complete', resultCode: 'cancelled' });
  });

  test("When the library submits the poll's payload with the paymentData in the session, then the session's payment is Authorised", async () => {
    const session = await createSession(server);
    const paid = await fromBrowser(
      server,
      `/v1/sessions/${session.id}/payments`,
      { sessionData: session.sessionData, paymentMethod: { type: 'bcmc_mobile' } },
      { clientKey, origin: SHOP },
    );
    const action = paid.body.action as QrAction;
    await pay(action, 'authorised');
    const { payload } = (await poll(action.paymentData)).body as { payload: string };

    const submitted = await fromBrowser(
      server,
      `/v1/sessions/${session.id}/paymentDetails`,
      { sessionData: session.sessionData, details: { payload }, paymentData: action.paymentData },
      { clientKey, origin: SHOP },
    );

    expect(submitted.body).toMatchObject({ resultCode: 'Authorised' });
  });

  test('When the paymentData names no payment, or one of a merchant account the key does not reach, then the answer is 422 with code 14_003', async () => {
    const { action } = await qrPayment();
    const posKey = (
      await server.management.POST('/merchants/{merchantId}/apiCredentials', {
        params: { path: { merchantId: DEMO.merchantPos } },
        body: { roles: [...CHECKOUT_ROLES], allowedOrigins: [SHOP] },
      })
    ).data!.clientKey;

    expect((await poll('Ab02b4c0!made-up')).body).toMatchObject({ status: 422, errorCode: '14_003' });
    expect((await poll(action.paymentData, posKey)).body).toMatchObject({ status: 422, errorCode: '14_003' });
    expect((await poll(action.paymentData)).body).toEqual({ type: 'pending', resultCode: 'pending' });
  });
});
