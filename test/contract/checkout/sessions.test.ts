import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_EXPIRES_AT_TOO_LATE, ERR_SESSION_COMPLETED, ERR_SESSION_DATA, ERR_SESSION_EXPIRED, ERR_SESSION_RESULT } from '../../../server/kernel/errors.js';
import { rawCard } from '../../helpers/factories.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const postSession = (overrides: Record<string, unknown> = {}) =>
  server.checkout.POST('/sessions', {
    body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000), reference: 'session-order', returnUrl: 'https://shop.example.com/return', ...overrides },
  });
const createSession = async (overrides: Record<string, unknown> = {}) => {
  const { data } = await postSession(overrides);
  expect(data?.id).toBeDefined();
  return data!;
};
const pay = (id: string, sessionData: string, holderName = 'John Smith', number = '4111111111111111') =>
  server.checkout.POST('/sessions/{sessionId}/payments', {
    params: { path: { sessionId: id } },
    body: { sessionData, paymentMethod: rawCard(number, { holderName }) },
  });
const result = (id: string, sessionResult: string) =>
  server.checkout.GET('/sessions/{sessionId}', { params: { path: { sessionId: id }, query: { sessionResult } } });

describe('POST /sessions', () => {
  test('When a session is created, then it is echoed with an id, session data and an expiry one hour later', async () => {
    const before = server.clock.now().getTime();
    const { data: created, response } = await postSession({ countryCode: 'NL' });
    const data = created!;
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ merchantAccount: 'DemoMerchantECOM', amount: eur(1000), reference: 'session-order', countryCode: 'NL', mode: 'embedded' });
    expect(data.id).toMatch(/^CS[0-9A-F]{16}$/);
    expect(Date.parse(data.expiresAt) - before).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(Date.parse(data.expiresAt) - before).toBeLessThanOrEqual(3600_000 + 5000);
  });

  test('When the expiry is more than 24 hours away, then the answer is 422 with code 14_0379', async () => {
    const { error } = await postSession({ expiresAt: new Date(server.clock.now().getTime() + 25 * 3600_000).toISOString() });
    expect(error).toMatchObject({ status: 422, errorCode: ERR_EXPIRES_AT_TOO_LATE.code });
  });
});

describe('POST /sessions/{sessionId}/payments and GET /sessions/{sessionId}', () => {
  test('When a session is paid, then its result is completed with the payment, and it takes no second payment', async () => {
    const session = await createSession();
    const { data: paid } = await pay(session.id, session.sessionData!);
    expect(paid).toMatchObject({ resultCode: 'Authorised', sessionData: session.sessionData });
    const { data } = await result(session.id, paid!.sessionResult!);
    expect(data).toEqual({
      id: session.id,
      reference: 'session-order',
      status: 'completed',
      payments: [{ pspReference: paid!.pspReference, resultCode: 'Authorised', amount: eur(1000), paymentMethod: { brand: 'visa', type: 'scheme' } }],
    });
    expect((await pay(session.id, session.sessionData!)).error?.errorCode).toBe(ERR_SESSION_COMPLETED.code);
  });

  test('When the first payment is refused, then the session is refused, and a second one can still complete it', async () => {
    const session = await createSession();
    const refused = await pay(session.id, session.sessionData!, 'DECLINED');
    expect(refused.data).toMatchObject({ resultCode: 'Refused', refusalReason: 'Refused' });
    expect((await result(session.id, refused.data!.sessionResult!)).data?.status).toBe('refused');
    const paid = await pay(session.id, session.sessionData!);
    const after = await result(session.id, paid.data!.sessionResult!);
    expect(after.data?.status).toBe('completed');
    expect(after.data?.payments).toHaveLength(2);
  });

  test('When the payment needs 3D Secure, then the session is paymentPending', async () => {
    const session = await createSession();
    const { data } = await pay(session.id, session.sessionData!, 'John Smith', '4212345678910006');
    expect(data).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect' } });
    expect((await result(session.id, data!.sessionResult!)).data?.status).toBe('paymentPending');
  });

  test('When the session expired on the sandbox clock, then a payment gets 422 code 14_008 and the result is expired', async () => {
    const session = await createSession({ expiresAt: new Date(server.clock.now().getTime() + 60_000).toISOString() });
    const first = await pay(session.id, session.sessionData!, 'DECLINED');
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 61 } });
    expect((await pay(session.id, session.sessionData!)).error?.errorCode).toBe(ERR_SESSION_EXPIRED.code);
    expect((await result(session.id, first.data!.sessionResult!)).data?.status).toBe('expired');
  });

  test("When another session's data or result is used, then the answer is 422", async () => {
    const a = await createSession();
    const b = await createSession();
    expect((await pay(a.id, b.sessionData!)).error?.errorCode).toBe(ERR_SESSION_DATA.code);
    const paidB = await pay(b.id, b.sessionData!);
    expect((await result(a.id, paidB.data!.sessionResult!)).error?.errorCode).toBe(ERR_SESSION_RESULT.code);
  });
});
