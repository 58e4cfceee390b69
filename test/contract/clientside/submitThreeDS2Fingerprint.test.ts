import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ERR_INVALID_DETAILS, ERR_UNAUTHORIZED } from '../../../server/kernel/errors.js';
import { createSession, dropinCard, fromBrowser, SHOP, shopClientKey } from '../../helpers/clientside.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let clientKey: string;
beforeAll(async () => {
  server = await startServer();
  clientKey = await shopClientKey(server);
});
afterAll(() => server.stop());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const decode = (text: string) => JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Record<string, string>;
const native = { authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } } };

/** What Drop-in's fingerprint component sends once its 3DS method iframe reported. */
const fingerprint = (body: unknown, key: { clientKey: string | undefined } = { clientKey }) =>
  fromBrowser(server, '/v1/submitThreeDS2Fingerprint', body, { ...key, origin: SHOP, keyParam: 'token' });
const inSession = (s: { id: string }, operation: 'payments' | 'paymentDetails', body: unknown) =>
  fromBrowser(server, `/v1/sessions/${s.id}/${operation}`, body, { clientKey, origin: SHOP });

/** A session asking for native 3D Secure 2, paid with the card: the session and its fingerprint action's paymentData. */
async function identified(card: string) {
  const s = await createSession(server, native);
  const paid = await inSession(s, 'payments', { sessionData: s.sessionData, paymentMethod: dropinCard(card) });
  expect(paid.body).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } });
  return { session: s, paymentData: paid.body.action.paymentData as string };
}

describe('POST /v1/submitThreeDS2Fingerprint', () => {
  test('When the full-flow card is fingerprinted, then the challenge action comes back and its result completes the session payment', async () => {
    const { session, paymentData } = await identified('5000550000000029');

    const response = await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData });

    expect(response.status).toBe(200);
    expect(response.allowOrigin).toBe(SHOP);
    expect(response.body).toEqual({
      type: 'action',
      action: {
        type: 'threeDS2',
        subtype: 'challenge',
        token: expect.any(String),
        authorisationToken: expect.any(String),
        paymentData: expect.any(String),
        paymentMethodType: 'scheme',
      },
    });
    const { action } = response.body;
    expect(decode(action.token)).toMatchObject({ acsURL: expect.stringContaining('/hosted/3ds2/acs/'), messageVersion: '2.2.0' });
    const done = await inSession(session, 'paymentDetails', {
      sessionData: session.sessionData,
      details: { threeDSResult: b64({ transStatus: 'Y', authorisationToken: action.authorisationToken }) },
    });
    expect(done.body).toEqual({ resultCode: 'Authorised', sessionData: session.sessionData, sessionResult: expect.any(String) });
  });

  test('When the frictionless card is fingerprinted, then the details come back and the session payment details authorise it', async () => {
    const { session, paymentData } = await identified('5201281505129736');

    const response = await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'N' }), paymentData });

    expect(response.body).toEqual({ type: 'completed', details: { threeDSResult: expect.any(String) } });
    expect(decode(response.body.details.threeDSResult)).toEqual({ threeDSCompInd: 'N', authorisationToken: expect.any(String) });
    const done = await inSession(session, 'paymentDetails', { sessionData: session.sessionData, details: response.body.details });
    expect(done.body).toMatchObject({ resultCode: 'Authorised' });
    const { data } = await server.checkout.GET('/sessions/{sessionId}', {
      params: { path: { sessionId: session.id }, query: { sessionResult: done.body.sessionResult } },
    });
    expect(data?.status).toBe('completed');
  });

  test('When the same fingerprint is sent again, then the answer is 422 with code 14_005: the action was used', async () => {
    for (const card of ['5000550000000029', '5201281505129736']) {
      const { paymentData } = await identified(card);
      await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData });

      const again = await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData });

      expect(again.body).toMatchObject({ status: 422, errorCode: ERR_INVALID_DETAILS.code });
    }
  });

  test('When the frictionless details carry a made-up token that names the payment, then they are refused and the real ones still authorise', async () => {
    const { session, paymentData } = await identified('5201281505129736');
    const { body } = await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData });
    const token = decode(body.details.threeDSResult).authorisationToken!;
    const psp = (JSON.parse(Buffer.from(token.replace('Ab02b4c0!', ''), 'base64url').toString('utf8')) as { psp: string }).psp;
    const madeUp = `Ab02b4c0!${Buffer.from(JSON.stringify({ psp, n: 'guessed' })).toString('base64url')}`;

    const refused = await inSession(session, 'paymentDetails', {
      sessionData: session.sessionData,
      details: { threeDSResult: b64({ threeDSCompInd: 'Y', authorisationToken: madeUp }) },
    });

    expect(refused.body).toMatchObject({ status: 422, errorCode: ERR_INVALID_DETAILS.code });
    expect((await inSession(session, 'paymentDetails', { sessionData: session.sessionData, details: body.details })).body.resultCode).toBe('Authorised');
  });

  test('When the result is not base64 JSON with threeDSCompInd, or the paymentData names nothing, then the answer is 422 with code 14_005 and the fingerprint can still be sent', async () => {
    const { paymentData } = await identified('5000550000000029');

    for (const body of [
      { fingerprintResult: 'not json', paymentData },
      { fingerprintResult: b64({ transStatus: 'Y' }), paymentData },
      { fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData: 'Ab02b4c0!made-up' },
    ]) {
      expect((await fingerprint(body)).body).toMatchObject({ status: 422, errorCode: ERR_INVALID_DETAILS.code });
    }
    expect((await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData })).body.type).toBe('action');
  });

  test('When no key is sent, then the answer is 401 and the payment still waits for its fingerprint', async () => {
    const { paymentData } = await identified('5000550000000029');

    const response = await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData }, { clientKey: undefined });

    expect(response.body).toMatchObject({ status: 401, errorCode: ERR_UNAUTHORIZED.code });
    expect((await fingerprint({ fingerprintResult: b64({ threeDSCompInd: 'Y' }), paymentData })).body.type).toBe('action');
  });
});
