import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_ALREADY_PROCESSED, ERR_INVALID_DETAILS } from '../../../server/kernel/errors.js';
import { createSession, dropinCard, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const call = (id: string, operation: 'payments' | 'paymentDetails', body: unknown) =>
  fromBrowser(server, `/v1/sessions/${id}/${operation}`, body, { clientKey, origin: SHOP });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

/** Pays with the 3D Secure card and completes the hosted challenge: the redirect result the shopper comes back with. */
async function redirectResultOf(s: { id: string; sessionData: string }, outcome = 'authorised'): Promise<string> {
  const started = await call(s.id, 'payments', { sessionData: s.sessionData, paymentMethod: dropinCard('4212345678910006') });
  const complete = await fetch(`${started.body.action.url as string}/complete?outcome=${outcome}`, { redirect: 'manual' });
  return new URL(complete.headers.get('location')!).searchParams.get('redirectResult')!;
}

describe('POST /v1/sessions/{sessionId}/paymentDetails', () => {
  test('When the shopper comes back from 3D Secure and Drop-in submits the redirect result, then the payment is authorised, answered without pspReference', async () => {
    const s = await createSession(server);
    const redirectResult = await redirectResultOf(s);
    const response = await call(s.id, 'paymentDetails', { sessionData: s.sessionData, details: { redirectResult } });
    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({ resultCode: 'Authorised', sessionData: s.sessionData, sessionResult: expect.any(String) });
  });

  test('When the same redirect result is submitted twice, then the second is 422 with code 704', async () => {
    const s = await createSession(server);
    const redirectResult = await redirectResultOf(s);
    await call(s.id, 'paymentDetails', { sessionData: s.sessionData, details: { redirectResult } });
    const again = await call(s.id, 'paymentDetails', { sessionData: s.sessionData, details: { redirectResult } });
    expect(again.body).toMatchObject({ status: 422, errorCode: ERR_ALREADY_PROCESSED.code });
  });

  test("When the redirect result is of another session's payment, then the answer is 422 with code 14_005 and that payment still waits", async () => {
    const a = await createSession(server);
    const b = await createSession(server);
    const redirectResult = await redirectResultOf(a);
    const response = await call(b.id, 'paymentDetails', { sessionData: b.sessionData, details: { redirectResult } });
    expect(response.body).toMatchObject({ status: 422, errorCode: ERR_INVALID_DETAILS.code });
    expect((await call(a.id, 'paymentDetails', { sessionData: a.sessionData, details: { redirectResult } })).body).toMatchObject({ resultCode: 'Authorised' });
  });

  test('When native 3D Secure 2 runs (fingerprint, then challenge), then each step answers the next action and the last the result', async () => {
    const s = await createSession(server, { authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } } });
    const started = await call(s.id, 'payments', { sessionData: s.sessionData, paymentMethod: dropinCard('5000550000000029') });
    expect(started.body).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } });
    const challenged = await call(s.id, 'paymentDetails', {
      sessionData: s.sessionData,
      details: { threeDSResult: b64({ threeDSCompInd: 'Y' }) },
      paymentData: started.body.action.paymentData,
    });
    expect(challenged.body).toMatchObject({ resultCode: 'ChallengeShopper', action: { type: 'threeDS2', subtype: 'challenge' } });
    const done = await call(s.id, 'paymentDetails', {
      sessionData: s.sessionData,
      details: { threeDSResult: b64({ transStatus: 'Y', authorisationToken: challenged.body.action.authorisationToken }) },
    });
    expect(done.body).toEqual({ resultCode: 'Authorised', sessionData: s.sessionData, sessionResult: expect.any(String) });
  });
});
