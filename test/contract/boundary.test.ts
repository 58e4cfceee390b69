/**
 * The authorization boundary, table-driven from the bundled specs: every operation of the four
 * specs is called as each kind of caller (a company credential with every role, one without the
 * role the operation needs, a merchant-level credential in scope, one out of scope, a
 * merchant-level credential aimed at a company resource, no key, a wrong key) and answers the
 * status its row says. Client-side operations are called with each credential's client key from a
 * page's Origin, and also with an API key instead (never read there) and from an origin the
 * credential does not allow. Console operations are called with each kind's session cookie and
 * CSRF token (its sign-in with each kind's key in the body), and every unsafe checkout and
 * management operation with a company session's cookie but no CSRF token. Every refusal leaves every table, the upload folder, the outbox and the rate-limit slots
 * as they were. The example requests and their arrangements are the contract suite's.
 */
import type { OperationId } from '../../server/operations.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scope } from '../../server/kernel/auth/policy.js';
import { ALL_ROLES, ROLES } from '../../server/kernel/auth/roles.js';
import { DEMO } from '../../server/seed.js';
import { OPERATIONS, type OperationEntry } from '../../server/operations.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import {
  BOUNDARY,
  type BoundaryKeys,
  type BoundaryServer,
  expectUnchanged,
  insertBoundaryFixtures,
  insertCompany,
  insertCredential,
  startBoundaryServer,
} from '../helpers/boundary.js';
import { ARRANGE, closeArranged } from './arrange.js';
import { type Area, type Arranged, type ExampleCase, exampleCases, replay, type Target } from './suite.js';

type Json = Record<string, any>;
const AREAS: Area[] = ['checkout', 'management', 'clientside', 'console'];

/** Every operation of the bundled JSON specs (what the server loads), with its documented statuses. */
const SPEC_OPERATIONS = AREAS.flatMap((area) => {
  const spec = JSON.parse(readFileSync(join(process.cwd(), 'generated', `${area}.json`), 'utf8')) as Json;
  return Object.values<Json>(spec.paths).flatMap((item) =>
    Object.values<Json>(item)
      .filter((op) => typeof op?.operationId === 'string')
      .map((op) => ({ area, operationId: op.operationId as string, statuses: Object.keys(op.responses ?? {}).map(Number) })),
  );
});
const CASES = AREAS.flatMap((area) => exampleCases(area));
/** One example per operation: its first scenario (request, paired success status). */
const EXAMPLE = new Map<string, ExampleCase>();
for (const c of CASES) if (!EXAMPLE.has(c.operation.operationId)) EXAMPLE.set(c.operation.operationId, c);

// ---------------------------------------------------------------------------------------------
// The table: one row per operation. `ok` is the example's success status.
// lacking: (b) a company credential without the needed role; ecom: (c) DemoMerchantECOM's
// merchant credential with every role; pos: (d) DemoMerchantPOS's, about DemoMerchantECOM.
// (a) is always `ok`; (e) merchant-level on a company resource, and (f) no key / wrong key, follow
// from the scope (403, 401).
// ---------------------------------------------------------------------------------------------
const ok = 'ok' as const;
type Outcome = typeof ok | 400 | 401 | 403 | 404 | 422;
interface Row {
  scope: Scope;
  lacking: Outcome;
  ecom: Outcome;
  pos: Outcome;
  /** The error code of the POS refusal (checkout `errorCode`, management `errorCode`). */
  posCode?: string;
}
/** Checkout, merchant named in the body or query: the POS credential gets 403 code 901. */
const checkoutMerchant = (scope: 'merchantBody' | 'merchantQuery'): Row => ({ scope, lacking: 403, ecom: ok, pos: 403, posCode: '901' });
/** Checkout, a resource of DemoMerchantECOM named in the path or body: refused as not found. */
const checkoutResource = (pos: Outcome, posCode: string): Row => ({ scope: 'resource', lacking: 403, ecom: ok, pos, posCode });
const self = (lacking: Outcome = 403): Row => ({ scope: 'self', lacking, ecom: ok, pos: ok });
const company = (): Row => ({ scope: 'company', lacking: 403, ecom: 403, pos: 403, posCode: '00_403' });
/** Management, a merchant account named by the path (directly, or as the owner of the store or terminal): 403. */
const merchantPath = (scope: 'merchantPath' | 'storePath' | 'terminalPath' = 'merchantPath'): Row => ({
  scope,
  lacking: 403,
  ecom: ok,
  pos: 403,
  posCode: '00_403',
});
const managementResource = (pos: Outcome, posCode?: string): Row => ({ scope: 'resource', lacking: 403, ecom: ok, pos, ...(posCode && { posCode }) });
/** Client-side, the session of the path: one of a merchant account the key's credential does not reach is not found. */
const sessionPath = (): Row => ({ scope: 'sessionPath', lacking: 403, ecom: ok, pos: 422, posCode: '14_0021' });

const ROWS: Record<string, Row> = {
  payments: checkoutMerchant('merchantBody'),
  paymentsDetails: checkoutResource(422, '14_005'),
  captureAuthorisedPayment: checkoutMerchant('merchantBody'),
  refundCapturedPayment: checkoutMerchant('merchantBody'),
  cancelAuthorisedPaymentByPspReference: checkoutMerchant('merchantBody'),
  cancelAuthorisedPayment: checkoutMerchant('merchantBody'),
  refundOrCancelPayment: checkoutMerchant('merchantBody'),
  updateAuthorisedAmount: checkoutMerchant('merchantBody'),
  orders: checkoutMerchant('merchantBody'),
  cancelOrder: checkoutMerchant('merchantBody'),
  getBalanceOfGiftCard: checkoutMerchant('merchantBody'),
  sessions: checkoutMerchant('merchantBody'),
  sessionPayments: checkoutResource(422, '14_0021'),
  sessionPaymentDetails: checkoutResource(422, '14_0021'),
  getResultOfPaymentSession: checkoutResource(422, '14_0021'),
  paymentMethods: checkoutMerchant('merchantBody'),
  cardDetails: checkoutMerchant('merchantBody'),
  storedPaymentMethods: checkoutMerchant('merchantBody'),
  getTokensForStoredPaymentDetails: checkoutMerchant('merchantQuery'),
  deleteTokenForStoredPaymentDetails: checkoutMerchant('merchantQuery'),
  forward: checkoutMerchant('merchantBody'),
  donationCampaigns: checkoutMerchant('merchantBody'),
  paymentLinks: checkoutMerchant('merchantBody'),
  getPaymentLink: checkoutResource(422, '14_0386'),
  updatePaymentLink: checkoutResource(422, '14_0386'),
  updatesOrderForPaypalExpressCheckout: checkoutResource(422, '14_0030'),
  originKeys: self(),
  getSandboxClock: self(ok),
  advanceSandboxClock: { scope: 'ownCompany', lacking: ok, ecom: 403, pos: 403, posCode: '010' },
  triggerSandboxEvent: { scope: 'ownCompany', lacking: ok, ecom: 403, pos: 403, posCode: '010' },
  getSandboxWebhookFaults: { scope: 'ownCompany', lacking: ok, ecom: 403, pos: 403, posCode: '010' },
  setSandboxWebhookFaults: { scope: 'ownCompany', lacking: ok, ecom: 403, pos: 403, posCode: '010' },
  donations: checkoutMerchant('merchantBody'),
  getApplePaySession: checkoutResource(422, '23_010'),
  validateShopperId: checkoutMerchant('merchantBody'),
  updateWalletOrder: checkoutResource(422, '14_0030'),

  setupSession: sessionPath(),
  makeSessionPayment: sessionPath(),
  submitSessionPaymentDetails: sessionPath(),
  checkSessionPaymentMethodBalance: sessionPath(),
  createSessionOrder: sessionPath(),
  cancelSessionOrder: sessionPath(),
  checkPaymentStatus: checkoutResource(422, '14_003'),
  binLookup: self(),
  submitThreeDS2Fingerprint: checkoutResource(422, '14_005'),
  setUpAnalytics: self(ok),
  sendAnalyticsEvents: self(ok),

  getApiCredentialDetails: self(),
  listMerchantAccounts: managementResource(ok),
  listCompanyApiCredentials: company(),
  getCompanyApiCredential: company(),
  listCompanyAllowedOrigins: company(),
  generateNewCompanyApiKey: company(),
  listMerchantApiCredentials: merchantPath(),
  getMerchantApiCredential: merchantPath(),
  generateNewMerchantApiKey: merchantPath(),
  getAllowedOrigins: self(),
  addAllowedOrigin: self(),
  getAllowedOriginDetails: self(),
  removeAllowedOrigin: self(),
  listPayoutSettings: merchantPath(),
  addPayoutSetting: merchantPath(),
  getPayoutSetting: merchantPath(),
  updatePayoutSetting: merchantPath(),
  deletePayoutSetting: merchantPath(),
  getAllPaymentMethods: merchantPath(),
  requestPaymentMethod: merchantPath(),
  getPaymentMethodDetails: merchantPath(),
  updatePaymentMethod: merchantPath(),
  addApplePayDomain: merchantPath(),
  getApplePayDomains: merchantPath(),
  listSplitConfigurations: merchantPath(),
  createSplitConfiguration: merchantPath(),
  getSplitConfiguration: merchantPath(),
  updateSplitConfigurationDescription: merchantPath(),
  deleteSplitConfiguration: merchantPath(),
  createRule: merchantPath(),
  updateSplitConditions: merchantPath(),
  deleteSplitConfigurationRule: merchantPath(),
  updateSplitLogic: merchantPath(),
  listAndroidApps: company(),
  uploadAndroidApp: company(),
  getAndroidApp: company(),
  reprocessAndroidApp: company(),
  listAndroidCertificates: company(),
  uploadAndroidCertificate: company(),
  getCompanyTerminalSettings: company(),
  updateCompanyTerminalSettings: company(),
  getMerchantTerminalSettings: merchantPath(),
  updateMerchantTerminalSettings: merchantPath(),
  getStoreTerminalSettingsByReference: merchantPath(),
  updateStoreTerminalSettingsByReference: merchantPath(),
  getStoreTerminalSettings: merchantPath('storePath'),
  updateStoreTerminalSettings: merchantPath('storePath'),
  getTerminalTerminalSettings: merchantPath('terminalPath'),
  updateTerminalTerminalSettings: merchantPath('terminalPath'),
  listAllWebhooks: merchantPath(),
  setUpWebhook: merchantPath(),
  getWebhook: merchantPath(),
  updateWebhook: merchantPath(),
  removeWebhook: merchantPath(),
  generateHmacKey: merchantPath(),
  testWebhook: merchantPath(),
  listWebhookEvents: merchantPath(),
  resendWebhookEvent: merchantPath(),
  listAllCompanyWebhooks: company(),
  setUpCompanyWebhook: company(),
  getCompanyWebhook: company(),
  updateCompanyWebhook: company(),
  removeCompanyWebhook: company(),
  generateCompanyHmacKey: company(),
  testCompanyWebhook: company(),
  listCompanyWebhookEvents: company(),
  resendCompanyWebhookEvent: company(),
  listStores: managementResource(ok),
  createStore: managementResource(403, '00_403'),
  getStoreById: merchantPath('storePath'),
  updateStoreById: merchantPath('storePath'),
  listStoresByMerchantId: merchantPath(),
  createStoreByMerchantId: merchantPath(),
  getStore: merchantPath(),
  updateStore: merchantPath(),
  listTerminals: managementResource(ok),
  boardSandboxTerminal: managementResource(403, '00_403'),
  getCompanyTerminalLogo: company(),
  updateCompanyTerminalLogo: company(),
  getMerchantTerminalLogo: merchantPath(),
  updateMerchantTerminalLogo: merchantPath(),
  getStoreTerminalLogoByReference: merchantPath(),
  updateStoreTerminalLogoByReference: merchantPath(),
  getStoreTerminalLogo: merchantPath('storePath'),
  updateStoreTerminalLogo: merchantPath('storePath'),
  getTerminalTerminalLogo: merchantPath('terminalPath'),
  updateTerminalTerminalLogo: merchantPath('terminalPath'),
  createCompanyApiCredential: company(),
  updateCompanyApiCredential: company(),
  generateNewCompanyClientKey: company(),
  createCompanyAllowedOrigin: company(),
  getCompanyAllowedOrigin: company(),
  deleteCompanyAllowedOrigin: company(),
  createMerchantApiCredential: merchantPath(),
  updateMerchantApiCredential: merchantPath(),
  generateNewMerchantClientKey: merchantPath(),
  listMerchantAllowedOrigins: merchantPath(),
  createMerchantAllowedOrigin: merchantPath(),
  getMerchantAllowedOrigin: merchantPath(),
  deleteMerchantAllowedOrigin: merchantPath(),
  generateClientKey: self(),
  listCompanyUsers: company(),
  createNewCompanyUser: company(),
  getCompanyUserDetails: company(),
  updateCompanyUserDetails: company(),
  listMerchantUsers: merchantPath(),
  createNewMerchantUser: merchantPath(),
  getMerchantUserDetails: merchantPath(),
  updateMerchantUser: merchantPath(),
  // The console, called with each kind's session cookie (and its CSRF token); its sign-in with each kind's key in the body.
  createConsoleSession: self(ok),
  getConsoleSession: self(ok),
  deleteConsoleSession: self(ok),
  listConsoleRequests: self(ok),
  // An entry of a DemoMerchantECOM payment: out of the POS credential's scope, so not found.
  getConsoleRequest: { scope: 'self', lacking: ok, ecom: ok, pos: 404, posCode: '30_112' },
  listConsolePayments: self(403),
  getConsolePaymentTimeline: { scope: 'self', lacking: 403, ecom: ok, pos: 404, posCode: '30_112' },
  streamConsoleEvents: self(403),
  listConsoleWebhookDeliveries: { scope: 'self', lacking: 403, ecom: ok, pos: 404, posCode: '30_112' },
  advanceConsoleClock: { scope: 'ownCompany', lacking: ok, ecom: 403, pos: 403, posCode: '00_403' },
};

// ---------------------------------------------------------------------------------------------
// The callers.
// ---------------------------------------------------------------------------------------------
type KindId = 'a' | 'b' | 'c' | 'd' | 'e' | 'noKey' | 'wrongKey' | 'apiKey' | 'otherOrigin';
interface Kind {
  id: KindId;
  name: string;
  /** The API key sent (undefined: none). */
  key: (op: string, keys: BoundaryKeys) => string | undefined;
}
const WRONG_KEY = 'boundary-this-key-was-never-issued-000000000001';
const area = (op: string) => SPEC_OPERATIONS.find((o) => o.operationId === op)?.area;
const KINDS: Kind[] = [
  { id: 'a', name: 'a company-level credential with every role', key: (_op, k) => k.companyAll },
  {
    id: 'b',
    name: 'a company-level credential without the needed role',
    key: (op, k) => (area(op) === 'management' ? k.companyCheckout : k.companyAccountsRead),
  },
  { id: 'c', name: 'the DemoMerchantECOM merchant-level credential with every role (in scope)', key: (_op, k) => k.ecomAll },
  { id: 'd', name: 'the DemoMerchantPOS merchant-level credential with every role (about DemoMerchantECOM)', key: (_op, k) => k.posAll },
  { id: 'e', name: 'a merchant-level credential with every role aimed at a company resource', key: (_op, k) => k.ecomAll },
  { id: 'noKey', name: 'a caller without an API key', key: () => undefined },
  { id: 'wrongKey', name: 'a caller with a wrong API key', key: () => WRONG_KEY },
  // Client-side only: the company API key instead of a client key, and a client key used from an origin its credential does not allow.
  { id: 'apiKey', name: 'a page sending an API key instead of a client key', key: (_op, k) => k.companyAll },
  { id: 'otherOrigin', name: "a page on an origin the key's credential does not allow", key: () => undefined },
];
const CLIENTSIDE_ONLY: KindId[] = ['apiKey', 'otherOrigin'];
const COMPANY_SCOPES: Scope[] = ['company', 'ownCompany'];

/** What a kind of caller gets from an operation. */
function expectedFor(op: string, kind: KindId): Outcome {
  const row = ROWS[op]!;
  switch (kind) {
    case 'a':
      return ok;
    case 'b':
      return row.lacking;
    case 'c':
      return row.ecom;
    case 'd':
      return row.pos;
    case 'e':
    case 'otherOrigin':
      return 403;
    default:
      return 401;
  }
}
/** The sign-in takes its key in the body: without one it is a validation error, not a refusal of a caller. */
const SIGN_IN = 'createConsoleSession';
const kindsOf = (op: string): Kind[] =>
  KINDS.filter(
    (k) =>
      (k.id !== 'e' || COMPANY_SCOPES.includes(ROWS[op]?.scope as Scope)) &&
      (area(op) === 'clientside' || !CLIENTSIDE_ONLY.includes(k.id)) &&
      (op !== SIGN_IN || k.id !== 'noKey'),
  );

/** Arrangements made with the caller's own credential: `/me/allowedOrigins/{originId}` names the caller's origin. */
const ARRANGED_BY_CALLER = new Set(['getAllowedOriginDetails', 'removeAllowedOrigin']);

/** Path parameters that make a request about DemoMerchantECOM (the seed's stores are DemoMerchantPOS's) or a rotation target. */
const PATH_OVERRIDES: Record<string, Record<string, string>> = {
  getStoreTerminalSettingsByReference: { merchantId: 'DemoMerchantECOM', reference: BOUNDARY.ecomStoreReference },
  updateStoreTerminalSettingsByReference: { merchantId: 'DemoMerchantECOM', reference: BOUNDARY.ecomStoreReference },
  getStoreTerminalSettings: { storeId: BOUNDARY.ecomStore },
  updateStoreTerminalSettings: { storeId: BOUNDARY.ecomStore },
  getTerminalTerminalSettings: { terminalId: BOUNDARY.ecomTerminal },
  updateTerminalTerminalSettings: { terminalId: BOUNDARY.ecomTerminal },
  generateNewCompanyApiKey: { companyId: 'DemoCompany', apiCredentialId: BOUNDARY.companyTarget },
  generateNewMerchantApiKey: { merchantId: 'DemoMerchantECOM', apiCredentialId: BOUNDARY.ecomTarget },
  getStoreById: { storeId: BOUNDARY.ecomStore },
  updateStoreById: { storeId: BOUNDARY.ecomStore },
  getStore: { merchantId: 'DemoMerchantECOM', storeId: BOUNDARY.ecomStore },
  updateStore: { merchantId: 'DemoMerchantECOM', storeId: BOUNDARY.ecomStore },
  getStoreTerminalLogoByReference: { merchantId: 'DemoMerchantECOM', reference: BOUNDARY.ecomStoreReference },
  updateStoreTerminalLogoByReference: { merchantId: 'DemoMerchantECOM', reference: BOUNDARY.ecomStoreReference },
  getStoreTerminalLogo: { storeId: BOUNDARY.ecomStore },
  updateStoreTerminalLogo: { storeId: BOUNDARY.ecomStore },
  getTerminalTerminalLogo: { terminalId: BOUNDARY.ecomTerminal },
  updateTerminalTerminalLogo: { terminalId: BOUNDARY.ecomTerminal },
};

/** A second success of the same request would be a conflict: the later caller asks for something else of the same kind. */
const SUCCESS_BODY: Record<string, Partial<Record<KindId, (body: Json) => Json>>> = {
  // The same payment method type for the same stores twice is refused (422): the merchant credential sets it up for a store.
  requestPaymentMethod: { c: (body) => ({ ...body, storeIds: [BOUNDARY.ecomStoreReference] }) },
  // A minute, not the example's day: the later tests use client keys a rotation retired, valid for 24 hours of the company's clock.
  advanceConsoleClock: { a: () => ({ seconds: 60 }), b: () => ({ seconds: 60 }) },
};

/** What a success must (not) show a merchant-level caller: only its own merchant account and credential. */
const SUCCESS_CHECK: Record<string, Partial<Record<KindId, (body: Json) => void>>> = {
  listMerchantAccounts: {
    c: (body) => expect(body.data.map((m: Json) => m.id)).toEqual(['DemoMerchantECOM']),
    d: (body) => expect(body.data.map((m: Json) => m.id)).toEqual(['DemoMerchantPOS']),
  },
  listConsolePayments: {
    c: (body) => expect([...new Set(body.data.map((p: Json) => p.merchantAccount))]).toEqual(['DemoMerchantECOM']),
    d: (body) => expect([...new Set(body.data.map((p: Json) => p.merchantAccount))]).not.toContain('DemoMerchantECOM'),
  },
  listConsoleRequests: {
    // Of DemoMerchantECOM's entries, only the requests the POS credential made itself (refused ones among them).
    d: (body) =>
      expect(
        body.data.filter((e: Json) => e.merchantAccount === 'DemoMerchantECOM' && e.credentialUsername !== `ws_${BOUNDARY.posAll}@Company.DemoCompany`),
      ).toEqual([]),
  },
  listStores: {
    c: (body) => expect([...new Set(body.data.map((s: Json) => s.merchantId))]).toEqual(['DemoMerchantECOM']),
    d: (body) => expect([...new Set(body.data.map((s: Json) => s.merchantId))]).toEqual(['DemoMerchantPOS']),
  },
  listTerminals: {
    c: (body) => expect([...new Set(body.data.map((t: Json) => t.assignment.merchantId))]).toEqual(['DemoMerchantECOM']),
    d: (body) => expect([...new Set(body.data.map((t: Json) => t.assignment.merchantId))]).toEqual(['DemoMerchantPOS']),
  },
  getApiCredentialDetails: {
    a: (body) => expect(body.id).toBe(BOUNDARY.companyAll),
    c: (body) => expect(body.id).toBe(BOUNDARY.ecomAll),
    d: (body) => expect(body.id).toBe(BOUNDARY.posAll),
  },
};

// ---------------------------------------------------------------------------------------------
// The suite.
// ---------------------------------------------------------------------------------------------
let bs: BoundaryServer;
let keys: BoundaryKeys;
const exercised: Array<[string, KindId]> = [];

const targetOn = (on: BoundaryServer, key: string | undefined): Target => ({
  baseUrl: { checkout: on.server.checkoutUrl, management: on.server.managementUrl, clientside: on.server.clientsideUrl, console: on.server.consoleUrl },
  headers: key === undefined ? {} : { 'X-API-Key': key },
  preferExample: false,
});
const targetWith = (key: string | undefined) => targetOn(bs, key);

/** The page the client-side calls come from: an allowed origin of each boundary credential. */
const PAGE = 'https://www.shop-boundary.example.com';
/** The client key of each boundary credential, by its API key; and one whose credential allows only another origin. */
const clientKeys = new Map<string, string>();
let otherOriginClientKey: string;

/**
 * How a kind of caller calls a client-side operation: from the page, with its credential's client
 * key in the query parameter the operation names (an empty one without a key, a made-up one for a
 * wrong key), or with an API key in its header and no client key.
 */
function clientsideCall(op: string, kind: Kind, arranged: Arranged): { target: Target; arranged: Arranged } {
  const param = EXAMPLE.get(op)!.operation.parameters.find((p) => p.in === 'query')!.name;
  const apiKey = kind.key(op, keys);
  const clientKey =
    kind.id === 'noKey' || kind.id === 'apiKey'
      ? ''
      : kind.id === 'wrongKey'
        ? 'test_BOUNDARY0NEVER0ISSUED000000000000000000000001'
        : kind.id === 'otherOrigin'
          ? otherOriginClientKey
          : clientKeys.get(apiKey!)!;
  const target = targetWith(kind.id === 'apiKey' ? apiKey : undefined);
  return { target: { ...target, headers: { ...target.headers, Origin: PAGE } }, arranged: { ...arranged, query: { ...arranged.query, [param]: clientKey } } };
}

/** A session cookie that names no session. */
const UNKNOWN_SESSION = `console_session=${'B'.repeat(43)}`;

/**
 * How a kind of caller calls a console operation: as the console page does, with the session its
 * key signs in to (the cookie and the CSRF token; no key: no cookie; a wrong key: a cookie of no
 * session). The sign-in itself carries the kind's key in its body.
 */
async function consoleCall(op: string, kind: Kind, arranged: Arranged): Promise<{ target: Target; arranged: Arranged }> {
  const key = kind.key(op, keys);
  const target = targetWith(undefined);
  if (op === SIGN_IN) return { target, arranged: { ...arranged, body: { apiKey: key } } };
  if (kind.id === 'wrongKey') return { target: { ...target, headers: { Cookie: UNKNOWN_SESSION } }, arranged };
  if (key === undefined) return { target, arranged };
  const response = await fetch(`${bs.server.consoleUrl}/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiKey: key }),
  });
  const session = (await response.json()) as Json;
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { target: { ...target, headers: { Cookie: cookie, 'X-Console-Csrf': session.csrfToken as string } }, arranged };
}

/** The call a kind of caller makes: with its API key, from a page for a client-side operation, or with its console session. */
async function callAs(op: string, kind: Kind, arranged: Arranged): Promise<{ target: Target; arranged: Arranged }> {
  if (area(op) === 'console') return consoleCall(op, kind, arranged);
  return area(op) === 'clientside' ? clientsideCall(op, kind, arranged) : { target: targetWith(kind.key(op, keys)), arranged };
}

/** The live feed answers with a stream that stays open: its status and media type, then it is closed. */
async function openStream(target: Target): Promise<{ status: number; body: undefined }> {
  const abort = new AbortController();
  const response = await fetch(`${target.baseUrl.console}/events/stream`, { headers: target.headers, signal: abort.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  abort.abort();
  return { status: response.status, body: undefined };
}

async function arrange(op: string, arrangerKey: string, on: BoundaryServer = bs): Promise<Arranged> {
  const c = EXAMPLE.get(op)!;
  const make = ARRANGE[op];
  const arranged: Arranged = make ? await make(targetOn(on, arrangerKey), c) : {};
  const override = PATH_OVERRIDES[op];
  return override ? { ...arranged, path: { ...arranged.path, ...override } } : arranged;
}

/** One arrangement per operation for every refusal (a refusal changes nothing, so it can be shared). */
const shared = new Map<string, Promise<Arranged>>();
const sharedArrangement = (op: string) => {
  if (!shared.has(op)) shared.set(op, arrange(op, keys.companyAll));
  return shared.get(op)!;
};

/** Checkout operations whose errors are RFC 7807 problem details, as management's are (server/kernel/errors.ts). */
const CHECKOUT_PROBLEM_DETAILS = new Set(['validateShopperId']);

function expectErrorShape(op: string, body: Json | undefined, status: number): void {
  // Client-side errors are in the checkout area's body, as Adyen's web library reads them.
  if (area(op) !== 'management' && area(op) !== 'console' && !CHECKOUT_PROBLEM_DETAILS.has(op)) {
    expect(body).toMatchObject({ status, errorCode: expect.any(String), message: expect.any(String), errorType: expect.any(String) });
  } else {
    expect(body).toMatchObject({
      type: expect.any(String),
      title: expect.any(String),
      status,
      detail: expect.any(String),
      errorCode: expect.any(String),
      requestId: expect.any(String),
    });
  }
}

beforeAll(async () => {
  bs = await startBoundaryServer();
  keys = await insertBoundaryFixtures(bs.server.store, ALL_ROLES, { accountsRead: ROLES.accountsRead, checkout: ROLES.checkout });
  const ids: Record<keyof BoundaryKeys, string> = {
    companyAll: BOUNDARY.companyAll,
    companyAccountsRead: BOUNDARY.companyAccountsRead,
    companyCheckout: BOUNDARY.companyCheckout,
    ecomAll: BOUNDARY.ecomAll,
    posAll: BOUNDARY.posAll,
  };
  const otherOrigin = 'S2-BNDOTHERORIGIN';
  await insertCredential(bs.server.store, { id: otherOrigin, merchantId: 'DemoMerchantECOM', roles: ALL_ROLES });
  await bs.server.store.transaction(async (tx) => {
    for (const [name, id] of Object.entries(ids)) {
      clientKeys.set(keys[name as keyof BoundaryKeys], (await tx.credentials.get(id))!.clientKey);
      // On the list, not only allowed by an empty one: the allowed-origin rows of the table add origins to these credentials.
      await tx.credentials.insertOrigin({ id: `BNDPAGE-${id}`, credentialId: id, domain: PAGE, createdAt: new Date().toISOString() });
    }
    await tx.credentials.insertOrigin({
      id: 'BNDORIGIN0000001',
      credentialId: otherOrigin,
      domain: 'https://elsewhere.example.com',
      createdAt: new Date().toISOString(),
    });
    otherOriginClientKey = (await tx.credentials.get(otherOrigin))!.clientKey;
  });
});
afterAll(async () => {
  const operations = new Set(exercised.map(([op]) => op)).size;
  const kinds = new Set(exercised.map(([, k]) => k)).size;
  console.log(`boundary: ${operations} operations × ${kinds} credential kinds → ${exercised.length} (operation, kind) calls exercised`);
  await closeArranged();
  await bs?.stop();
});

describe('The table covers the specs and agrees with OPERATIONS', () => {
  test('When the specs are read, then every operation has a row, an entry in OPERATIONS and an example, and nothing else does', () => {
    const inSpec = SPEC_OPERATIONS.map((o) => o.operationId).sort();
    expect(new Set(inSpec).size).toBe(inSpec.length);
    expect(Object.keys(ROWS).sort()).toEqual(inSpec);
    expect(Object.keys(OPERATIONS).sort()).toEqual(inSpec);
    expect([...EXAMPLE.keys()].sort()).toEqual(inSpec);
  });

  test('When a row is compared with OPERATIONS, then the scope agrees and a role requirement matches the lacking-role expectation', () => {
    const entries = OPERATIONS as Record<string, OperationEntry<OperationId>>;
    const disagreements = Object.entries(ROWS).flatMap(([op, row]) => {
      const entry = entries[op];
      if (!entry) return [`${op}: not in OPERATIONS`];
      const out: string[] = [];
      if (entry.scope !== row.scope) out.push(`${op}: row scope ${row.scope}, OPERATIONS ${entry.scope}`);
      if ((entry.requires === 'authenticated') !== (row.lacking === ok))
        out.push(`${op}: requires ${String(entry.requires)} but lacking-role row is ${row.lacking}`);
      return out;
    });
    expect(disagreements).toEqual([]);
  });

  test('When the statuses the table expects are compared with the spec, then each is documented for its operation, and 429 exactly for rate-limited ones', () => {
    const entries = OPERATIONS as Record<string, OperationEntry<OperationId>>;
    const undocumented = SPEC_OPERATIONS.flatMap(({ operationId, statuses }) => {
      const expected = new Set(
        kindsOf(operationId)
          .map((k) => expectedFor(operationId, k.id))
          .filter((s): s is Exclude<Outcome, 'ok'> => s !== ok),
      );
      const out = [...expected].filter((s) => !statuses.includes(s)).map((s) => `${operationId}: ${s} not documented`);
      if (statuses.includes(429) !== (entries[operationId]?.rateLimited === true))
        out.push(`${operationId}: 429 documented ${statuses.includes(429)}, rateLimited ${entries[operationId]?.rateLimited === true}`);
      return out;
    });
    expect(undocumented).toEqual([]);
  });
});

const ROW_TESTS = SPEC_OPERATIONS.flatMap(({ operationId }) =>
  kindsOf(operationId).map((kind) => {
    const expected = ROWS[operationId] ? expectedFor(operationId, kind.id) : ok;
    const example = EXAMPLE.get(operationId);
    const outcome = expected === ok ? `the answer is the documented success ${example?.status ?? '?'}` : `the answer is ${expected} and nothing changed`;
    return [`When ${kind.name} calls ${operationId}, then ${outcome}`, operationId, kind, expected] as const;
  }),
);

describe('Every operation as every kind of caller', () => {
  test.each(ROW_TESTS)('%s', async (_name, op, kind, expected) => {
    const c = EXAMPLE.get(op);
    expect(ROWS[op]).toBeDefined();
    expect(c).toBeDefined();
    exercised.push([op, kind.id]);
    const key = kind.key(op, keys);
    if (expected === ok) {
      const arrangedHere = await arrange(op, ARRANGED_BY_CALLER.has(op) ? key! : keys.companyAll);
      const body = SUCCESS_BODY[op]?.[kind.id];
      const { target, arranged } = await callAs(op, kind, body ? { ...arrangedHere, body: body((arrangedHere.body ?? c!.body) as Json) } : arrangedHere);
      const result = op === 'streamConsoleEvents' ? await openStream(target) : await replay(target, c!, arranged);
      // The body's schema is the contract examples' concern (examples.test.ts); here the status decides.
      expect({ status: result.status, body: result.body }).toMatchObject({ status: c!.status });
      SUCCESS_CHECK[op]?.[kind.id]?.(result.body as Json);
      return;
    }
    const call = await callAs(op, kind, await sharedArrangement(op));
    const before = await bs.snapshot();
    const result = await replay(call.target, c!, call.arranged);
    expect({ status: result.status, body: result.body }).toMatchObject({ status: expected });
    expectErrorShape(op, result.body as Json, expected);
    if (kind.id === 'd' && ROWS[op]!.posCode) expect((result.body as Json).errorCode).toBe(ROWS[op]!.posCode);
    expectUnchanged(before, await bs.snapshot());
  });
});

// ---------------------------------------------------------------------------------------------
// The console's session cookie on the public APIs: the same authorization, and no cross-site writes.
// ---------------------------------------------------------------------------------------------
const UNSAFE_PUBLIC = SPEC_OPERATIONS.filter(
  (o) => (o.area === 'checkout' || o.area === 'management') && EXAMPLE.get(o.operationId) && EXAMPLE.get(o.operationId)!.operation.method !== 'GET',
).map((o) => o.operationId);

describe('The console session cookie on the checkout and management APIs', () => {
  /** A session of the company credential with every role, signed in as the console page does. */
  const companySession = async () => {
    const response = await fetch(`${bs.server.consoleUrl}/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: keys.companyAll }),
    });
    return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]!, csrfToken: ((await response.json()) as Json).csrfToken as string };
  };

  test.each(UNSAFE_PUBLIC)('When the cookie carries %s without the CSRF token, then the answer is 403 and nothing changed', async (op) => {
    const { cookie } = await companySession();
    const arranged = await sharedArrangement(op);
    const before = await bs.snapshot();
    const result = await replay({ ...targetWith(undefined), headers: { Cookie: cookie } }, EXAMPLE.get(op)!, arranged);
    expect({ status: result.status }).toEqual({ status: 403 });
    expectErrorShape(op, result.body as Json, 403);
    expectUnchanged(before, await bs.snapshot());
  });

  const SAMPLE = ['payments', 'captureAuthorisedPayment', 'setUpWebhook', 'advanceSandboxClock'];
  test.each(SAMPLE)('When the cookie and the CSRF token carry %s from another origin, then the answer is 403 and nothing changed', async (op) => {
    const session = await companySession();
    const arranged = await sharedArrangement(op);
    const before = await bs.snapshot();
    const headers = { Cookie: session.cookie, 'X-Console-Csrf': session.csrfToken, Origin: 'https://attacker.example.com' };
    const result = await replay({ ...targetWith(undefined), headers }, EXAMPLE.get(op)!, arranged);
    expect(result.status).toBe(403);
    expectUnchanged(before, await bs.snapshot());
  });

  test.each(SAMPLE)('When a signed-out session carries %s with its CSRF token, then the answer is 401 and nothing changed', async (op) => {
    const session = await companySession();
    const headers = { Cookie: session.cookie, 'X-Console-Csrf': session.csrfToken };
    expect((await fetch(`${bs.server.consoleUrl}/session`, { method: 'DELETE', headers })).status).toBe(204);
    const arranged = await sharedArrangement(op);
    const before = await bs.snapshot();
    const result = await replay({ ...targetWith(undefined), headers }, EXAMPLE.get(op)!, arranged);
    expect(result.status).toBe(401);
    expectUnchanged(before, await bs.snapshot());
  });

  test('When the cookie and the CSRF token carry a payment of the company credential, then it is made as with its API key', async () => {
    const session = await companySession();
    const result = await replay(
      { ...targetWith(undefined), headers: { Cookie: session.cookie, 'X-Console-Csrf': session.csrfToken } },
      EXAMPLE.get('payments')!,
      {
        body: buildPaymentRequest(),
      },
    );
    expect(result).toMatchObject({ status: 200, body: { resultCode: 'Authorised' } });
  });
});

// ---------------------------------------------------------------------------------------------
// Idempotent replays across credentials.
// ---------------------------------------------------------------------------------------------
describe('Idempotency keys across credentials', () => {
  const pay = (key: string, idempotencyKey: string, body: unknown) =>
    fetch(`${bs.server.checkoutUrl}/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key, 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(body),
    });

  test("When the ECOM merchant credential sends the company credential's key and body, then it gets a new payment, not a replay", async () => {
    const body = buildPaymentRequest();
    const first = (await (await pay(keys.companyAll, 'boundary-K1', body)).json()) as Json;
    const second = await pay(keys.ecomAll, 'boundary-K1', body);
    expect(second.status).toBe(200);
    const again = (await second.json()) as Json;
    expect(again.pspReference).toEqual(expect.any(String));
    expect(again.pspReference).not.toBe(first.pspReference);
  });

  test("When the POS merchant credential sends the company credential's key and body, then the answer is 403 901 without the first response and nothing changed", async () => {
    const body = buildPaymentRequest();
    const first = (await (await pay(keys.companyAll, 'boundary-K2', body)).json()) as Json;
    const before = await bs.snapshot();
    const response = await pay(keys.posAll, 'boundary-K2', body);
    const text = await response.text();
    expect(response.status).toBe(403);
    expect(JSON.parse(text)).toMatchObject({ status: 403, errorCode: '901' });
    expect(text).not.toContain(first.pspReference as string);
    expectUnchanged(before, await bs.snapshot());
  });

  test("When a rotated credential's new key sends the old key's Idempotency-Key and body, then the old response is replayed", async () => {
    const id = 'S2-BNDROTATED0001';
    const oldKey = await insertCredential(bs.server.store, { id, merchantId: null, roles: [ROLES.checkout] });
    const body = buildPaymentRequest();
    const first = await pay(oldKey, 'boundary-K3', body);
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as Json;
    const rotated = await fetch(`${bs.server.managementUrl}/companies/DemoCompany/apiCredentials/${id}/generateApiKey`, {
      method: 'POST',
      headers: { 'X-API-Key': keys.companyAll },
    });
    expect(rotated.status).toBe(200);
    const newKey = ((await rotated.json()) as Json).apiKey as string;
    expect(newKey).not.toBe(oldKey);
    const before = await bs.snapshot();
    const replayed = await pay(newKey, 'boundary-K3', body);
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toEqual(firstBody);
    expect(before.tables.payments).toEqual((await bs.snapshot()).tables.payments);
  });
});

// ---------------------------------------------------------------------------------------------
// The sandbox clock belongs to the company; only a company-level credential moves it.
// ---------------------------------------------------------------------------------------------
describe('The sandbox clock', () => {
  const clockOf = async (key: string) => (await (await fetch(`${bs.server.checkoutUrl}/sandbox/clock`, { headers: { 'X-API-Key': key } })).json()) as Json;
  const advance = (key: string, seconds: number) =>
    fetch(`${bs.server.checkoutUrl}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify({ seconds }),
    });

  test('When a merchant-level credential advances the clock, then the answer is 403 and the clock has not moved', async () => {
    const offset = (await clockOf(keys.companyAll)).offsetSeconds as number;
    const before = await bs.snapshot();
    const response = await advance(keys.ecomAll, 3600);
    expect(response.status).toBe(403);
    expect((await clockOf(keys.companyAll)).offsetSeconds).toBe(offset);
    expect((await clockOf(keys.ecomAll)).offsetSeconds).toBe(offset);
    expectUnchanged(before, await bs.snapshot());
  });

  test("When a company credential advances the clock, then its company's clock moves and another company's does not", async () => {
    await insertCompany(bs.server.store, 'BoundaryOtherCompany', 'BoundaryOtherMerchant');
    const otherKey = await insertCredential(bs.server.store, {
      id: 'S2-BNDOTHERCO0001',
      companyId: 'BoundaryOtherCompany',
      merchantId: null,
      roles: [ROLES.checkout],
    });
    const mine = (await clockOf(keys.companyAll)).offsetSeconds as number;
    const theirs = (await clockOf(otherKey)).offsetSeconds as number;
    const response = await advance(keys.companyAll, 7200);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).offsetSeconds).toBe(mine + 7200);
    expect((await clockOf(keys.companyAll)).offsetSeconds).toBe(mine + 7200);
    expect((await clockOf(otherKey)).offsetSeconds).toBe(theirs);
    expect(bs.server.clocks!.offsetSeconds('BoundaryOtherCompany')).toBe(theirs);
  });
});

// ---------------------------------------------------------------------------------------------
// Rate-limit slots: with one request a minute, a refused call takes no slot, so the same
// credential's allowed call right after still succeeds (and a third is 429: the limit is real).
// ---------------------------------------------------------------------------------------------
interface RateLimitCase {
  op: string;
  caller: 'companyAll' | 'ecomAll';
  refusals: Array<{ what: string; path?: Record<string, string>; body?: unknown; status: number }>;
}
const otherCompany = { what: "another company's id", path: { companyId: 'OtherCompany' }, status: 404 };
const RATE_LIMITED: RateLimitCase[] = [
  { op: 'listAndroidApps', caller: 'companyAll', refusals: [otherCompany] },
  { op: 'uploadAndroidApp', caller: 'companyAll', refusals: [otherCompany] },
  {
    op: 'reprocessAndroidApp',
    caller: 'companyAll',
    refusals: [otherCompany, { what: 'a body where the operation takes none', body: { reprocess: true }, status: 400 }],
  },
  { op: 'listAndroidCertificates', caller: 'companyAll', refusals: [otherCompany] },
  { op: 'uploadAndroidCertificate', caller: 'companyAll', refusals: [otherCompany] },
  { op: 'updateCompanyTerminalSettings', caller: 'companyAll', refusals: [otherCompany] },
  { op: 'updateMerchantTerminalSettings', caller: 'ecomAll', refusals: [{ what: 'DemoMerchantPOS', path: { merchantId: 'DemoMerchantPOS' }, status: 403 }] },
  {
    op: 'updateStoreTerminalSettingsByReference',
    caller: 'ecomAll',
    refusals: [{ what: "DemoMerchantPOS's store", path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' }, status: 403 }],
  },
  {
    op: 'updateStoreTerminalSettings',
    caller: 'ecomAll',
    refusals: [{ what: "DemoMerchantPOS's store", path: { storeId: DEMO.storeAmsterdam }, status: 403 }],
  },
  {
    op: 'updateTerminalTerminalSettings',
    caller: 'ecomAll',
    refusals: [{ what: "DemoMerchantPOS's terminal", path: { terminalId: DEMO.terminalAmsterdam }, status: 403 }],
  },
  { op: 'updateCompanyTerminalLogo', caller: 'companyAll', refusals: [otherCompany] },
  { op: 'updateMerchantTerminalLogo', caller: 'ecomAll', refusals: [{ what: 'DemoMerchantPOS', path: { merchantId: 'DemoMerchantPOS' }, status: 403 }] },
  {
    op: 'updateStoreTerminalLogoByReference',
    caller: 'ecomAll',
    refusals: [{ what: "DemoMerchantPOS's store", path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' }, status: 403 }],
  },
  { op: 'updateStoreTerminalLogo', caller: 'ecomAll', refusals: [{ what: "DemoMerchantPOS's store", path: { storeId: DEMO.storeAmsterdam }, status: 403 }] },
  {
    op: 'updateTerminalTerminalLogo',
    caller: 'ecomAll',
    refusals: [{ what: "DemoMerchantPOS's terminal", path: { terminalId: DEMO.terminalAmsterdam }, status: 403 }],
  },
];

// ---------------------------------------------------------------------------------------------
// What Adyen's web library loads without an API call: pages gated by the client key in their
// address, and its images and translations, public as on Adyen's CDN. None writes anything.
// ---------------------------------------------------------------------------------------------
describe('Client-side pages and the library assets', () => {
  const pages = (clientKey: string) => [
    `securedfields/${clientKey}/6.3.0/securedFields.html?type=card&d=eA==`,
    `utility/v1/barcode.png?type=qrCode&data=${encodeURIComponent('https://example.com/pay')}&clientKey=${clientKey}`,
  ];
  const get = (path: string) => fetch(`${bs.server.clientsideUrl}/${path}`, { headers: { Origin: PAGE } });

  test('When a client-key page is asked for with the client key of an active credential, then it answers; with none, an unknown or another kind of key, then 404, and nothing changed', async () => {
    const own = clientKeys.get(keys.ecomAll)!;
    const before = await bs.snapshot();
    const answers: Array<[string, number]> = [];
    for (const [kind, key] of [
      ['own', own],
      ['none', ''],
      ['unknown', 'test_BOUNDARY0NEVER0ISSUED000000000000000000000001'],
      ['API key', keys.ecomAll],
    ] as const) {
      for (const path of pages(key)) answers.push([`${kind} ${path.split('?')[0]!.split('/').pop()}`, (await get(path)).status]);
    }
    expect(answers).toEqual([
      ['own securedFields.html', 200],
      ['own barcode.png', 200],
      ['none securedFields.html', 404],
      ['none barcode.png', 404],
      ['unknown securedFields.html', 404],
      ['unknown barcode.png', 404],
      ['API key securedFields.html', 404],
      ['API key barcode.png', 404],
    ]);
    expectUnchanged(before, await bs.snapshot());
  });

  test("When the library's images and translations are asked for, then they answer without any key, and nothing changed", async () => {
    const before = await bs.snapshot();
    const statuses = await Promise.all(
      ['images/logos/visa.svg', 'images/components/success.gif', 'sdk/6.45.2/translations/nl-NL.json'].map(async (path) => (await get(path)).status),
    );
    expect(statuses).toEqual([200, 200, 200]);
    expectUnchanged(before, await bs.snapshot());
  });
});

describe('Refusals take no rate-limit slot (RATE_LIMIT_PER_MINUTE=1)', () => {
  let rl: BoundaryServer;
  let rlKeys: BoundaryKeys;
  let arranger: string;
  beforeAll(async () => {
    rl = await startBoundaryServer({ rateLimitPerMinute: 1, androidMaxApkBytes: 64 * 1024 });
    rlKeys = await insertBoundaryFixtures(rl.server.store, ALL_ROLES, { accountsRead: ROLES.accountsRead, checkout: ROLES.checkout });
    arranger = await insertCredential(rl.server.store, { id: 'S2-BNDRLARRANGER1', merchantId: null, roles: ALL_ROLES });
  });
  afterAll(async () => {
    await rl?.stop();
  });

  test('When the rate-limited operations are listed, then each has a row here', () => {
    const limited = Object.entries(OPERATIONS as Record<string, OperationEntry<OperationId>>)
      .filter(([, e]) => e.rateLimited === true)
      .map(([op]) => op)
      .sort();
    expect(RATE_LIMITED.map((r) => r.op).sort()).toEqual(limited);
  });

  test.each(
    RATE_LIMITED.map(
      (r) =>
        [
          `When ${r.caller === 'companyAll' ? 'a company-level credential' : 'the DemoMerchantECOM merchant-level credential'} calls ${r.op} about ${r.refusals.map((x) => x.what).join(' and ')}, then it is refused, and its allowed call right after still succeeds`,
          r,
        ] as const,
    ),
  )('%s', async (_name, r) => {
    const c = EXAMPLE.get(r.op)!;
    const key = rlKeys[r.caller];
    const arranged = await arrange(r.op, arranger, rl);
    for (const refusal of r.refusals) {
      const before = await rl.snapshot();
      const refused = await replay(targetOn(rl, key), c, {
        ...arranged,
        path: { ...arranged.path, ...refusal.path },
        ...(refusal.body !== undefined && { body: refusal.body }),
      });
      expect({ what: refusal.what, status: refused.status }).toEqual({ what: refusal.what, status: refusal.status });
      expectErrorShape(r.op, refused.body as Json, refusal.status);
      expectUnchanged(before, await rl.snapshot());
    }
    const allowed = await replay(targetOn(rl, key), c, arranged);
    expect({ status: allowed.status, body: allowed.body }).toMatchObject({ status: c.status });
    const before = await rl.snapshot();
    const limited = await replay(targetOn(rl, key), c, arranged);
    expect(limited.status).toBe(429);
    expectUnchanged(before, await rl.snapshot());
  });

  test("When a merchant-level credential is refused on a company operation, then the company credential's slot is untouched and it may still call once", async () => {
    const path = `${rl.server.managementUrl}/companies/DemoCompany/androidCertificates`;
    const before = await rl.snapshot();
    expect((await fetch(path, { headers: { 'X-API-Key': rlKeys.ecomAll } })).status).toBe(403);
    expect((await fetch(path, { headers: { 'X-API-Key': rlKeys.ecomAll } })).status).toBe(403);
    expectUnchanged(before, await rl.snapshot());
    const fresh = await insertCredential(rl.server.store, { id: 'S2-BNDRLFRESH0001', merchantId: null, roles: ALL_ROLES });
    expect((await fetch(path, { headers: { 'X-API-Key': fresh } })).status).toBe(200);
    expect((await fetch(path, { headers: { 'X-API-Key': fresh } })).status).toBe(429);
  });
});
