import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { advanceClock, answerRedirect } from '../../helpers/methods.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const createSession = async (overrides: Record<string, unknown> = {}) => {
  const { data } = await server.checkout.POST('/sessions', {
    body: { merchantAccount: 'DemoMerchantECOM', amount: eur(8000), reference: 'session-methods', returnUrl: 'https://shop.example.com/return', ...overrides },
  });
  return data!;
};
const pay = (session: { id: string; sessionData?: string }, paymentMethod: Record<string, unknown>) =>
  server.checkout.POST('/sessions/{sessionId}/payments', {
    params: { path: { sessionId: session.id } },
    body: { sessionData: session.sessionData!, paymentMethod: paymentMethod as never },
  });
const status = async (id: string, sessionResult: string) =>
  (await server.checkout.GET('/sessions/{sessionId}', { params: { path: { sessionId: id }, query: { sessionResult } } })).data;

describe('POST /sessions/{sessionId}/payments with the other payment methods', () => {
  test('When iDEAL is paid in a session, then the redirect action comes back, and after the details call the session is completed', async () => {
    const session = await createSession({ countryCode: 'NL' });
    const { data: paid } = await pay(session, { type: 'ideal' });
    expect(paid).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', paymentMethodType: 'ideal' } });
    expect((await status(session.id, paid!.sessionResult!))?.status).toBe('paymentPending');
    await server.checkout.POST('/payments/details', { body: { details: { redirectResult: await answerRedirect(paid!.action, 'authorised') } } });
    expect(await status(session.id, paid!.sessionResult!)).toMatchObject({
      status: 'completed',
      payments: [{ resultCode: 'Authorised', paymentMethod: { type: 'ideal' } }],
    });
  });

  test('When Klarna is paid in a session with line items, then the session takes the items to the Klarna page', async () => {
    const lineItems = [{ description: 'Jacket', quantity: 1, amountIncludingTax: 8000 }];
    const session = await createSession({ countryCode: 'NL', lineItems, shopperEmail: 'customer@example.com' });
    const { data: paid } = await pay(session, { type: 'klarna_account' });
    expect(paid).toMatchObject({ resultCode: 'RedirectShopper', action: { paymentMethodType: 'klarna_account' } });
    expect(await (await fetch((paid!.action as { url: string }).url)).text()).toContain('Jacket');
    const noItems = await createSession();
    expect((await pay(noItems, { type: 'klarna' })).error).toMatchObject({ status: 422, errorCode: '158' });
  });

  test('When a voucher, a QR code or a debit is paid in a session, then the action is handed over and the session waits', async () => {
    const session = await createSession();
    const { data: voucher } = await pay(session, { type: 'multibanco' });
    expect(voucher).toMatchObject({ resultCode: 'PresentToShopper', action: { type: 'voucher' } });
    const { data: qr } = await pay(await createSession(), { type: 'bcmc_mobile' });
    expect(qr).toMatchObject({ resultCode: 'Pending', action: { type: 'qrCode' } });
    const debitSession = await createSession();
    const { data: debit } = await pay(debitSession, { type: 'sepadirectdebit', iban: 'NL13TEST0123456789', ownerName: 'A. Klaassen' });
    expect(debit?.resultCode).toBe('Received');
    expect((await status(debitSession.id, debit!.sessionResult!))?.status).toBe('paymentPending');
    await advanceClock(server, 24 * 3600);
    expect((await status(debitSession.id, debit!.sessionResult!))?.status).toBe('completed');
  });

  test('When a gift card pays a session, then its brand is in the session result', async () => {
    const session = await createSession({ amount: eur(1000) });
    const { data: paid } = await pay(session, { type: 'giftcard', brand: 'svs', number: '6006491286999921374', cvc: '1111' });
    expect(paid?.resultCode).toBe('Authorised');
    expect((await status(session.id, paid!.sessionResult!))?.payments).toEqual([
      { pspReference: paid!.pspReference, resultCode: 'Authorised', amount: eur(1000), paymentMethod: { type: 'giftcard', brand: 'svs' } },
    ]);
  });
});
