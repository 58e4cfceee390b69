import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Native 3D Secure 2 as the sandbox runs it: the tokens a `threeDS2` action carries (base64
 * JSON that adyen-web and the mobile SDKs read), the `threeDSResult` the client sends back, and
 * the result of the authentication. No real directory server or issuer is involved: the test
 * card decides whether a fingerprint and a challenge are needed, and the hosted access control
 * server page (or the `transStatus` the client reports) decides the challenge's outcome.
 */

/** What a card's authentication needs: nothing, the fingerprint only, fingerprint then challenge, the challenge only. */
export type ThreeDSFlow = 'none' | 'frictionless' | 'full' | 'challenge';

/** The state a card payment keeps in `methodState` while it authenticates. */
export interface ThreeDSState {
  flow: ThreeDSFlow;
  /** native: threeDS2 actions; redirect: the hosted 3D Secure page. */
  mode: 'native' | 'redirect';
  /** Authenticate only, do not authorise (authenticationData.authenticationOnly). */
  authenticationOnly: boolean;
  threeDSServerTransID: string;
  acsTransID: string;
  dsTransID: string;
  /** The token the challenge result must carry back (challenge stage). */
  authorisationToken?: string;
  /** The shopper's answer on the hosted access control server page: `Y` or `N`. */
  acsAnswer?: 'Y' | 'N';
  /** The outcome, once authenticated (the response's threeDS2Result). */
  result?: ThreeDS2Result;
}

export interface ThreeDS2Result {
  authenticationValue?: string;
  eci?: string;
  dsTransID: string;
  messageVersion: string;
  threeDSServerTransID: string;
  transStatus: string;
  transStatusReason?: string;
  timestamp: string;
}

export const MESSAGE_VERSION = '2.2.0';
/** The password the hosted challenge page accepts (as Adyen's test issuer does for browsers). */
export const CHALLENGE_PASSWORD = 'password';

/** Cards whose authentication Adyen's test platform runs in a fixed way (adyen-web's test constants). */
const FLOW_OF_CARD: Record<string, ThreeDSFlow> = {
  '5201281505129736': 'frictionless',
  '5000550000000029': 'full',
  '4212345678910006': 'challenge',
};

/**
 * The authentication a card payment needs. Bancontact cards (`type: bcmc`) are always
 * challenged, as Adyen's Bancontact test cards are enrolled; `executeThreeD: true` asks for a
 * challenge on any card.
 */
export function flowOfCard(number: string, options: { bcmc: boolean; executeThreeD: boolean }): ThreeDSFlow {
  const fixed = FLOW_OF_CARD[number];
  if (fixed) return fixed;
  return options.bcmc || options.executeThreeD ? 'challenge' : 'none';
}

/** Base64 of JSON: the form of 3D Secure 2 tokens and results. */
export const encodeJson = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');

/** A base64 or base64url JSON object, or undefined when the text is not one. */
export function decodeJson(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function newThreeDSState(flow: ThreeDSFlow, mode: 'native' | 'redirect', authenticationOnly: boolean): ThreeDSState {
  return { flow, mode, authenticationOnly, threeDSServerTransID: randomUUID(), acsTransID: randomUUID(), dsTransID: randomUUID() };
}

/**
 * The token a challenge result carries back: it names the payment (so the result alone finds
 * it) and holds a random part that only the payment's state knows.
 */
export function newAuthorisationToken(pspReference: string): string {
  return `Ab02b4c0!${Buffer.from(JSON.stringify({ psp: pspReference, n: randomBytes(18).toString('base64url') })).toString('base64url')}`;
}

/** The payment an authorisation token names (not yet checked against the payment's state). */
export function pspOfAuthorisationToken(token: string): string | undefined {
  const decoded = decodeJson(token.replace(/^Ab02b4c0!/, ''));
  return typeof decoded?.psp === 'string' ? decoded.psp : undefined;
}

export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Where the hosted pages of native 3D Secure 2 live (three-ds2-pages.ts). */
const hostedBase = (baseUrl: string) => `${baseUrl}/hosted/3ds2`;

/**
 * The fingerprint token: the issuer's 3DS method page, which adyen-web posts `threeDSMethodData`
 * to in a hidden iframe, and the notification page that reports the method done to the framing
 * page (the client then sends `threeDSCompInd` `Y`; `N` when it timed out).
 */
export function fingerprintToken(state: ThreeDSState, baseUrl: string): string {
  return encodeJson({
    threeDSMethodNotificationURL: `${hostedBase(baseUrl)}/notification`,
    threeDSMethodUrl: `${hostedBase(baseUrl)}/method`,
    threeDSServerTransID: state.threeDSServerTransID,
  });
}

/** The challenge token: the hosted access control server page and the transaction ids. */
export function challengeToken(state: ThreeDSState, baseUrl: string, pspReference: string): string {
  return encodeJson({
    acsReferenceNumber: 'SANDBOX-ACS-SIMULATOR',
    acsTransID: state.acsTransID,
    acsURL: `${hostedBase(baseUrl)}/acs/${pspReference}`,
    messageVersion: MESSAGE_VERSION,
    threeDSNotificationURL: `${hostedBase(baseUrl)}/notification`,
    threeDSServerTransID: state.threeDSServerTransID,
  });
}

/** The outcome of an authentication with that status (`Y` authenticated, anything else not). */
export function resultOf(state: ThreeDSState, transStatus: string, now: Date): ThreeDS2Result {
  const authenticated = transStatus === 'Y' || transStatus === 'A';
  return {
    ...(authenticated && { authenticationValue: randomBytes(20).toString('base64'), eci: transStatus === 'Y' ? '05' : '06' }),
    dsTransID: state.dsTransID,
    messageVersion: MESSAGE_VERSION,
    threeDSServerTransID: state.threeDSServerTransID,
    transStatus,
    ...(!authenticated && { transStatusReason: '01' }),
    timestamp: now.toISOString(),
  };
}

/** What a /payments/details `threeDSResult` (or a legacy key) reports, decoded. */
export interface ThreeDSSubmission {
  threeDSCompInd?: string;
  transStatus?: string;
  authorisationToken?: string;
}

export function readThreeDSSubmission(details: {
  threeDSResult?: string;
  'threeds2.fingerprint'?: string;
  'threeds2.challengeResult'?: string;
}): ThreeDSSubmission | undefined {
  const text = details.threeDSResult ?? details['threeds2.challengeResult'] ?? details['threeds2.fingerprint'];
  if (text === undefined) return undefined;
  const decoded = decodeJson(text);
  if (!decoded) return undefined;
  const field = (name: string) => (typeof decoded[name] === 'string' ? decoded[name] : undefined);
  const submission: ThreeDSSubmission = {};
  const compInd = field('threeDSCompInd');
  const transStatus = field('transStatus');
  const token = field('authorisationToken');
  if (compInd !== undefined) submission.threeDSCompInd = compInd;
  // The legacy fingerprint key carries the device data itself: any object counts as done.
  else if (details['threeds2.fingerprint'] !== undefined) submission.threeDSCompInd = 'Y';
  if (transStatus !== undefined) submission.transStatus = transStatus;
  if (token !== undefined) submission.authorisationToken = token;
  return submission;
}
