import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  ERR_ALREADY_PROCESSED,
  ERR_EXPIRES_AT_TOO_LATE,
  ERR_FIELD_INVALID,
  ERR_INVALID_DETAILS,
  ERR_SESSION_COMPLETED,
  ERR_SESSION_DATA,
  ERR_SESSION_EXPIRED,
  ERR_SESSION_RESULT,
} from '../../../server/kernel/errors.js';
import { rawCard, webClientState } from '../../helpers/factories.js';
import { storedPayment } from '../../helpers/methods.js';
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

type Action = { type: string; subtype?: string; url?: string; paymentData?: string; authorisationToken?: string };
/** Answers the hosted 3D Secure page as the shopper would; the redirectResult they bring back. */
async function authenticate(action: unknown): Promise<string> {
  const complete = await fetch(`${(action as Action).url!}/complete?outcome=authorised`, { redirect: 'manual' });
  expect(complete.status).toBe(302);
  return new URL(complete.headers.get('location')!).searchParams.get('redirectResult')!;
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const submitDetails = (id: string, body: Record<string, unknown>) =>
  server.checkout.POST('/sessions/{sessionId}/paymentDetails', { params: { path: { sessionId: id } }, body: body as never });
/** A session paid with the challenge-only test card, waiting for the hosted 3D Secure page (redirect flow). */
async function redirectedSession() {
  const session = await createSession();
  const { data } = await pay(session.id, session.sessionData!, 'John Smith', '4212345678910006');
  expect(data).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect' } });
  return { session, paid: data! };
}

describe('POST /sessions/{sessionId}/paymentDetails', () => {
  test('When the shopper comes back from 3D Secure, then the redirect result sent with the session data authorises the payment and completes the session', async () => {
    const { session, paid } = await redirectedSession();
    const redirectResult = await authenticate(paid.action);
    const { data, response } = await submitDetails(session.id, { sessionData: session.sessionData, details: { redirectResult } });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      pspReference: paid.pspReference,
      resultCode: 'Authorised',
      sessionData: session.sessionData,
      sessionResult: expect.any(String),
    });
    expect((await result(session.id, data!.sessionResult!)).data).toMatchObject({
      status: 'completed',
      payments: [{ pspReference: paid.pspReference, resultCode: 'Authorised' }],
    });
    // A step is used once.
    const again = await submitDetails(session.id, { sessionData: session.sessionData, details: { redirectResult } });
    expect(again.error?.errorCode).toBe(ERR_ALREADY_PROCESSED.code);
  });

  test('When the session asks for native 3D Secure 2, then the fingerprint and the challenge results complete the payment through the session', async () => {
    const session = await createSession({ authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } } });
    const { data: started } = await pay(session.id, session.sessionData!, 'John Smith', '5000550000000029');
    expect(started).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } });
    const fingerprint = started!.action as Action;
    const { data: challenged } = await submitDetails(session.id, {
      sessionData: session.sessionData,
      details: { threeDSResult: b64({ threeDSCompInd: 'U' }) },
      paymentData: fingerprint.paymentData,
    });
    expect(challenged).toMatchObject({
      pspReference: started!.pspReference,
      resultCode: 'ChallengeShopper',
      action: { type: 'threeDS2', subtype: 'challenge', authorisationToken: expect.any(String) },
      sessionData: session.sessionData,
    });
    expect((await result(session.id, challenged!.sessionResult!)).data?.status).toBe('paymentPending');
    const challenge = challenged!.action as Action;
    const { data } = await submitDetails(session.id, {
      sessionData: session.sessionData,
      details: { threeDSResult: b64({ transStatus: 'Y', authorisationToken: challenge.authorisationToken }) },
    });
    expect(data).toMatchObject({ resultCode: 'Authorised', sessionData: session.sessionData });
    expect((await result(session.id, data!.sessionResult!)).data?.status).toBe('completed');
  });

  test('When the details are for a payment of another session, then the answer is 422 code 14_005, nothing changes, and its own session still takes them', async () => {
    const { session, paid } = await redirectedSession();
    const other = await createSession();
    const redirectResult = await authenticate(paid.action);
    const refused = await submitDetails(other.id, { sessionData: other.sessionData, details: { redirectResult } });
    expect(refused.error).toMatchObject({ status: 422, errorCode: ERR_INVALID_DETAILS.code });
    expect((await storedPayment(server, paid.pspReference!))?.resultCode).toBe('RedirectShopper');
    const { data } = await submitDetails(session.id, { sessionData: session.sessionData, details: { redirectResult } });
    expect(data?.resultCode).toBe('Authorised');
  });

  test("When another session's data is sent, or the session is unknown, then the answer is 422 and the payment still waits", async () => {
    const { session, paid } = await redirectedSession();
    const other = await createSession();
    const redirectResult = await authenticate(paid.action);
    expect((await submitDetails(session.id, { sessionData: other.sessionData, details: { redirectResult } })).error?.errorCode).toBe(ERR_SESSION_DATA.code);
    expect((await submitDetails('CS0000000000000000', { sessionData: session.sessionData, details: { redirectResult } })).error?.errorCode).toBe('14_0021');
    expect((await storedPayment(server, paid.pspReference!))?.resultCode).toBe('RedirectShopper');
  });

  test('When the session expires while the shopper is at 3D Secure, then the step started in time still finishes the payment', async () => {
    const session = await createSession({ expiresAt: new Date(server.clock.now().getTime() + 120_000).toISOString() });
    const { data: paid } = await pay(session.id, session.sessionData!, 'John Smith', '4212345678910006');
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 121 } });
    const redirectResult = await authenticate(paid!.action);
    const { data } = await submitDetails(session.id, { sessionData: session.sessionData, details: { redirectResult } });
    expect(data?.resultCode).toBe('Authorised');
  });
});

/** The state data Adyen's web library (Drop-in, Components) hands a sessions payment: the component's fields and its own. */
const webStateData = {
  ...webClientState,
  checkoutAttemptId: 'b4a1c3f2-7c7b-4c56-9a2e-2bd1e1f1c9a1',
  storePaymentMethod: false,
  installments: { value: 1 },
  billingAddress: { street: 'Simon Carmiggeltstraat', houseNumberOrName: '6-50', postalCode: '1011DJ', city: 'Amsterdam', country: 'NL' },
  deliveryAddress: { street: 'Simon Carmiggeltstraat', houseNumberOrName: '6-50', postalCode: '1011DJ', city: 'Amsterdam', country: 'NL' },
  shopperName: { firstName: 'Jan', lastName: 'Jansen' },
  shopperEmail: 'jan@example.com',
  telephoneNumber: '+31612345678',
  dateOfBirth: '1990-01-31',
};

describe("POST /sessions/{sessionId}/payments with what Adyen's web library sends", () => {
  test("When the state data of Adyen's web library is passed on unchanged, then the payment is made; a property it does not send is refused with 192", async () => {
    const session = await createSession();
    const paymentMethod = { ...rawCard('4111111111111111'), checkoutAttemptId: webStateData.checkoutAttemptId };
    const { data, response } = await server.checkout.POST('/sessions/{sessionId}/payments', {
      params: { path: { sessionId: session.id } },
      body: { sessionData: session.sessionData!, paymentMethod, ...webStateData },
    });
    expect(response.status).toBe(200);
    expect(data?.resultCode).toBe('Authorised');
    const another = await createSession();
    const typo = await server.checkout.POST('/sessions/{sessionId}/payments', {
      params: { path: { sessionId: another.id } },
      body: { sessionData: another.sessionData!, paymentMethod, clientStateDataIndicatr: true } as never,
    });
    expect(typo.error).toMatchObject({
      status: 422,
      errorCode: ERR_FIELD_INVALID.code,
      message: "Invalid field 'clientStateDataIndicatr': is not a known field",
    });
  });

  test('When a Boleto component sends the payer it collected, then the session pays with it although the session has none', async () => {
    const session = await createSession({ amount: { currency: 'BRL', value: 15000 }, countryCode: 'BR' });
    const { data } = await server.checkout.POST('/sessions/{sessionId}/payments', {
      params: { path: { sessionId: session.id } },
      body: {
        sessionData: session.sessionData!,
        paymentMethod: { type: 'boletobancario' },
        clientStateDataIndicator: true,
        shopperName: { firstName: 'José', lastName: 'Silva' },
        socialSecurityNumber: '56861752509',
        billingAddress: {
          street: 'Rua Funcionarios',
          houseNumberOrName: '952',
          city: 'São Paulo',
          postalCode: '04386040',
          stateOrProvince: 'SP',
          country: 'BR',
        },
      },
    });
    expect(data).toMatchObject({ resultCode: 'PresentToShopper', action: { type: 'voucher', shopperName: 'José Silva' } });
  });
});
