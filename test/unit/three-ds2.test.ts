import { describe, expect, test } from '@jest/globals';
import {
  challengeToken,
  decodeJson,
  encodeJson,
  fingerprintToken,
  flowOfCard,
  newAuthorisationToken,
  newThreeDSState,
  pspOfAuthorisationToken,
  readThreeDSSubmission,
  resultOf,
  sameToken,
} from '../../server/checkout/payments/three-ds2.js';

describe('3D Secure 2 tokens and results', () => {
  test.each<[string, boolean, boolean, string]>([
    ['5201281505129736', false, false, 'frictionless'],
    ['5000550000000029', false, false, 'full'],
    ['4212345678910006', false, false, 'challenge'],
    ['4111111111111111', false, false, 'none'],
    ['4111111111111111', false, true, 'challenge'],
    ['4871049999999910', true, false, 'challenge'],
  ])('When the card is %s (bcmc %s, executeThreeD %s), then the flow is %s', (number, bcmc, executeThreeD, flow) => {
    expect(flowOfCard(number, { bcmc, executeThreeD })).toBe(flow);
  });

  test('When JSON is encoded, then base64 and base64url both decode it, and anything else is undefined', () => {
    const value = { threeDSCompInd: 'Y', note: '>>>???' };
    const encoded = encodeJson(value);
    expect(decodeJson(encoded)).toEqual(value);
    expect(decodeJson(Buffer.from(JSON.stringify(value)).toString('base64url'))).toEqual(value);
    expect(decodeJson('not json at all')).toBeUndefined();
    expect(decodeJson(encodeJson([1, 2]))).toBeUndefined();
    expect(decodeJson(encodeJson('text'))).toBeUndefined();
  });

  test('When an authorisation token is made, then it names its payment and only an equal token matches it', () => {
    const token = newAuthorisationToken('ABCD1234EFGH5678');
    expect(pspOfAuthorisationToken(token)).toBe('ABCD1234EFGH5678');
    expect(sameToken(token, token)).toBe(true);
    expect(sameToken(token, newAuthorisationToken('ABCD1234EFGH5678'))).toBe(false);
    expect(sameToken(undefined, token)).toBe(false);
    expect(pspOfAuthorisationToken('garbage')).toBeUndefined();
  });

  test('When the action tokens are made, then they hold what adyen-web reads', () => {
    const state = newThreeDSState('full', 'native', false);
    expect(decodeJson(fingerprintToken(state, 'https://pay.example'))).toEqual({
      threeDSMethodNotificationURL: 'https://pay.example/hosted/3ds2/notification',
      threeDSMethodUrl: 'https://pay.example/hosted/3ds2/method',
      threeDSServerTransID: state.threeDSServerTransID,
    });
    expect(decodeJson(challengeToken(state, 'https://pay.example', 'PSP1'))).toEqual({
      acsReferenceNumber: expect.any(String),
      acsTransID: state.acsTransID,
      acsURL: 'https://pay.example/hosted/3ds2/acs/PSP1',
      messageVersion: '2.2.0',
      threeDSNotificationURL: 'https://pay.example/hosted/3ds2/notification',
      threeDSServerTransID: state.threeDSServerTransID,
    });
  });

  test('When a result is made, then an authenticated one carries a cryptogram and ECI, and a failed one a reason', () => {
    const state = newThreeDSState('challenge', 'native', false);
    const now = new Date('2030-01-01T00:00:00Z');
    expect(resultOf(state, 'Y', now)).toMatchObject({ transStatus: 'Y', eci: '05', authenticationValue: expect.any(String), timestamp: now.toISOString() });
    const failed = resultOf(state, 'N', now);
    expect(failed).toMatchObject({ transStatus: 'N', transStatusReason: '01' });
    expect(failed.authenticationValue).toBeUndefined();
  });

  test('When details are read, then threeDSResult and the older keys give the same submission', () => {
    expect(readThreeDSSubmission({ threeDSResult: encodeJson({ threeDSCompInd: 'U' }) })).toEqual({ threeDSCompInd: 'U' });
    expect(readThreeDSSubmission({ threeDSResult: encodeJson({ transStatus: 'Y', authorisationToken: 't' }) })).toEqual({
      transStatus: 'Y',
      authorisationToken: 't',
    });
    expect(readThreeDSSubmission({ 'threeds2.fingerprint': encodeJson({ threeDSServerTransID: 'x' }) })).toEqual({ threeDSCompInd: 'Y' });
    expect(readThreeDSSubmission({ 'threeds2.challengeResult': encodeJson({ transStatus: 'N' }) })).toEqual({ transStatus: 'N' });
    expect(readThreeDSSubmission({ redirectResult: 'x' } as never)).toBeUndefined();
    expect(readThreeDSSubmission({ threeDSResult: '%%%' })).toBeUndefined();
  });
});
