import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_ALREADY_PROCESSED, ERR_INVALID_DETAILS } from '../../../server/kernel/errors.js';
import { buildPaymentRequest, rawCard } from '../../helpers/factories.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const native = { threeDSRequestData: { nativeThreeDS: 'preferred' as const } };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, string>;
type Action = { type: string; subtype?: string; token?: string; paymentData?: string; authorisationToken?: string };

async function start(number: string, extra: Record<string, unknown> = {}) {
  const { data, response } = await server.checkout.POST('/payments', {
    body: buildPaymentRequest({ paymentMethod: rawCard(number), authenticationData: native, ...extra }),
  });
  expect(response.status).toBe(200);
  return data!;
}
const details = (body: Record<string, unknown>) => server.checkout.POST('/payments/details', { body: body as never });
/** What the device fingerprint sends with the action's paymentData (threeDSCompInd U: the client ran no 3DS method). */
const fingerprint = (action: Action) => details({ details: { threeDSResult: b64({ threeDSCompInd: 'U' }) }, paymentData: action.paymentData });
/** What adyen-web sends after the challenge. */
const challengeResult = (action: Action, transStatus: string) =>
  details({ details: { threeDSResult: b64({ transStatus, authorisationToken: action.authorisationToken }) } });

describe('POST /payments with native 3D Secure 2, then POST /payments/details', () => {
  test('When the frictionless card is paid natively, then a fingerprint is asked and its result authorises with a threeDS2Result', async () => {
    const started = await start('5201281505129736');
    expect(started).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint', paymentMethodType: 'scheme' } });
    const action = started.action as Action;
    expect(decode(action.token!)).toMatchObject({
      threeDSMethodUrl: expect.stringContaining('/hosted/3ds2/method'),
      threeDSServerTransID: expect.any(String),
      threeDSMethodNotificationURL: expect.stringContaining('/hosted/3ds2/notification'),
    });
    const { data } = await fingerprint(action);
    expect(data).toMatchObject({ pspReference: started.pspReference, resultCode: 'Authorised', threeDS2Result: { transStatus: 'Y', eci: '05' } });
    expect(data?.action).toBeUndefined();
  });

  test('When the full-flow card is paid natively, then fingerprint, challenge and the right answer authorise it', async () => {
    const started = await start('5000550000000029');
    expect(started.resultCode).toBe('IdentifyShopper');
    const { data: challenged } = await fingerprint(started.action as Action);
    expect(challenged).toMatchObject({
      resultCode: 'ChallengeShopper',
      action: { type: 'threeDS2', subtype: 'challenge', authorisationToken: expect.any(String) },
    });
    const action = challenged!.action as Action;
    const token = decode(action.token!);
    expect(token).toMatchObject({
      acsTransID: expect.any(String),
      messageVersion: '2.2.0',
      acsURL: expect.stringContaining(`/hosted/3ds2/acs/${started.pspReference}`),
    });
    const { data } = await challengeResult(action, 'Y');
    expect(data).toMatchObject({ resultCode: 'Authorised', threeDS2Result: { transStatus: 'Y' } });
  });

  test('When the challenge-only card is paid natively and the shopper fails the challenge page, then the payment is refused whatever the client reports', async () => {
    const started = await start('4212345678910006');
    expect(started).toMatchObject({ resultCode: 'ChallengeShopper', action: { subtype: 'challenge' } });
    const action = started.action as Action;
    const acsURL = decode(action.token!).acsURL!;
    const page = await fetch(acsURL, { method: 'POST', body: new URLSearchParams({ creq: b64({ acsTransID: 'x', messageType: 'CReq' }) }) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="password"');
    const answered = await fetch(`${acsURL}/answer`, { method: 'POST', body: new URLSearchParams({ password: 'wrong' }) });
    expect(await answered.text()).toContain('data-trans-status="N"');
    const { data } = await challengeResult(action, 'Y');
    expect(data).toMatchObject({ resultCode: 'Refused', refusalReason: '3D Not Authenticated', threeDS2Result: { transStatus: 'N' } });
  });

  test('When the challenge page gets the password, then the challenge result authorises the payment', async () => {
    const started = await start('4212345678910006');
    const action = started.action as Action;
    await fetch(`${decode(action.token!).acsURL!}/answer`, { method: 'POST', body: new URLSearchParams({ password: 'password' }) });
    expect((await challengeResult(action, 'N')).data?.resultCode).toBe('Authorised');
  });

  test('When the older keys threeds2.fingerprint and threeds2.challengeResult are sent with paymentData, then the flow completes', async () => {
    const started = await start('5000550000000029');
    const first = started.action as Action;
    const { data: challenged } = await details({ details: { 'threeds2.fingerprint': b64({ threeDSCompInd: 'Y' }) }, paymentData: first.paymentData });
    const second = challenged!.action as Action;
    const { data } = await details({ details: { 'threeds2.challengeResult': b64({ transStatus: 'Y' }) }, paymentData: second.paymentData });
    expect(data?.resultCode).toBe('Authorised');
  });

  test('When a challenge result carries another payment token, or the step is sent twice, then the answer is 422', async () => {
    const started = await start('4212345678910006');
    const action = started.action as Action;
    const forged = await details({
      details: { threeDSResult: b64({ transStatus: 'Y', authorisationToken: `${action.authorisationToken!.slice(0, -4)}AAAA` }) },
    });
    expect(forged.error?.errorCode).toBe(ERR_INVALID_DETAILS.code);
    expect((await challengeResult(action, 'Y')).data?.resultCode).toBe('Authorised');
    expect((await challengeResult(action, 'Y')).error?.errorCode).toBe(ERR_ALREADY_PROCESSED.code);
    expect((await details({ details: { threeDSResult: 'not base64 json' } })).error?.errorCode).toBe(ERR_INVALID_DETAILS.code);
  });

  test('When nativeThreeDS is absent or disabled, then the same cards use the hosted redirect and the frictionless one is authorised at once', async () => {
    const redirect = await start('5000550000000029', { authenticationData: { threeDSRequestData: { nativeThreeDS: 'disabled' } } });
    expect(redirect).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'GET' } });
    const plain = await start('5201281505129736', { authenticationData: undefined });
    expect(plain.resultCode).toBe('Authorised');
  });

  test('When a Bancontact card is paid, then it is always authenticated and reported as bcmc', async () => {
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ paymentMethod: { ...rawCard('4871049999999910'), type: 'bcmc' }, authenticationData: native }),
    });
    expect(data).toMatchObject({ resultCode: 'ChallengeShopper', paymentMethod: { type: 'bcmc', brand: 'bcmc' }, action: { paymentMethodType: 'bcmc' } });
    const { data: done } = await challengeResult(data!.action as Action, 'Y');
    expect(done).toMatchObject({ resultCode: 'Authorised', paymentMethod: { type: 'bcmc', brand: 'bcmc' } });
  });

  test('When only authentication is asked, then the result is AuthenticationFinished and its paymentData authorises later', async () => {
    const started = await start('5201281505129736', { authenticationData: { ...native, authenticationOnly: true } });
    const { data: finished } = await fingerprint(started.action as Action);
    expect(finished).toMatchObject({ resultCode: 'AuthenticationFinished', threeDS2Result: { transStatus: 'Y' }, threeDSPaymentData: expect.any(String) });
    const { data } = await details({ details: {}, paymentData: finished!.threeDSPaymentData });
    expect(data?.resultCode).toBe('Authorised');
    const none = await start('4111111111111111', { authenticationData: { authenticationOnly: true } });
    expect(none).toMatchObject({ resultCode: 'AuthenticationNotRequired', threeDSPaymentData: expect.any(String) });
  });
});
