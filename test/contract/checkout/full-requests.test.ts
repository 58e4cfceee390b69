/**
 * Real checkout integrations run unchanged. For every checkout operation that mirrors one of
 * Adyen's, and for the sessions flow's client-side calls, three things are proved:
 *
 * 1. Our spec's request schema holds every property of Adyen's v71 request schema for that
 *    operation, and of every object nested in it, and nothing Adyen does not document (so a
 *    typo is still refused). Unions are compared member by member: every `*Details` schema of
 *    `paymentMethod` with its properties and the `type` values it takes, and the donation
 *    methods. Adyen's names come from the committed fixture
 *    test/fixtures/adyen-v71-request-properties.json (scripts/adyen-request-properties.mjs).
 *    The sessions flow's calls are Adyen's client endpoints, outside its v71 API: each of their
 *    properties is typed exactly as on `/payments` and `/payments/details`.
 * 2. A body that carries every one of those properties, nested ones included (every
 *    `PaymentCompletionDetails` key on `/payments/details`), built from our own spec (so the
 *    spec must hold them all), with values that fit together (a real merchant account, a test
 *    card, an existing payment to modify), gets the operation's success answer.
 * 3. For every member of each `paymentMethod` union, a payment whose `paymentMethod` carries
 *    every property of that member is valid against our spec and is not refused by the request
 *    validator (the sandbox may still answer that it does not support the method).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildPaymentRequest, rawCard, uniqueReference, webClientState } from '../../helpers/factories.js';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { specAjv } from '../suite.js';

type Json = Record<string, any>;

interface Fixture {
  source: string;
  operations: Record<string, string>;
  schemas: Record<string, Record<string, string | null>>;
  /** Per union (owner and property: `PaymentRequestPaymentMethod`), its member schemas. */
  unions: Record<string, string[]>;
  /** Per union member, the values its `type` takes. */
  types: Record<string, string[]>;
}
const fixture = JSON.parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'adyen-v71-request-properties.json'), 'utf8')) as Fixture;
const spec = JSON.parse(readFileSync(join(process.cwd(), 'generated', 'checkout.json'), 'utf8')) as Json;

/** Adyen operations this service does not serve (none today; kept for the next Adyen version's additions). */
const NOT_SERVED = new Set<string>();
/** Our own paths of an Adyen operation: the design document's path of the wallet order update. */
const ALIASES: Record<string, string> = { 'POST /wallet/updateOrder': 'POST /paypal/updateOrder' };
/**
 * The sessions flow's client-side calls: Adyen serves them at its client endpoints, outside the
 * v71 API, so they have no Adyen request schema; each of their properties must be typed as the
 * same property of the server-side operation named here.
 */
const CLIENT_SIDE: Record<string, string> = {
  'POST /sessions/{sessionId}/payments': 'POST /payments',
  'POST /sessions/{sessionId}/paymentDetails': 'POST /payments/details',
};
/**
 * Union members of ours under another name: Adyen's donation union has `CardDonations`, a copy
 * of `CardDetails` (the same properties and types), which ours uses.
 */
const MEMBER_ALIASES: Record<string, string> = { CardDonations: 'CardDetails' };
/**
 * Properties our schemas have beyond Adyen's, and why: Adyen's `ShopperIdPaymentMethod` is the
 * base of a discriminated union whose subtypes (PayToPaymentMethod, UPIPaymentMethod) add them;
 * Adyen's web library (Drop-in, Components) adds `clientStateDataIndicator` to every state data
 * that a merchant passes on to `/payments` unchanged.
 */
const BEYOND_ADYEN: Record<string, string[]> = {
  ShopperIdPaymentMethod: ['shopperReference', 'virtualPaymentAddress'],
  PaymentRequest: ['clientStateDataIndicator'],
};

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
function resolve(node: Json | undefined): Json | undefined {
  let current = node;
  for (let i = 0; i < 32 && typeof current?.$ref === 'string'; i++) {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map(unescape)
      .reduce<any>((o, k) => o?.[k], spec);
  }
  return current;
}
/** The object a property holds: itself, the items of an array, or the values of a map. */
function objectOf(node: Json | undefined): Json | undefined {
  let schema = resolve(node);
  if (schema?.type === 'array') schema = resolve(schema.items);
  if (schema && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object')
    schema = resolve(schema.additionalProperties);
  return schema;
}
const operationOf = (key: string) => {
  const [method, path] = key.split(' ') as [string, string];
  return spec.paths[path]?.[method.toLowerCase()] as Json | undefined;
};
const requestSchemaOf = (key: string) => resolve(operationOf(key)?.requestBody?.content?.['application/json']?.schema);
const served = Object.keys(fixture.operations).filter((key) => !NOT_SERVED.has(key));
const adyenSchemaOf = (key: string) => fixture.operations[ALIASES[key] ?? key]!;

interface Member {
  name: string;
  schema: Json | undefined;
  /** The `type` values the member takes: its guard's in a `type`-guarded union, else its own. */
  types: string[];
}
/** The members of one of our unions (`anyOf`/`oneOf`), each a `$ref`, or `allOf` of a `type` guard and a `$ref`. */
function membersOf(node: Json | undefined): Member[] {
  const union = resolve(node);
  return ((union?.anyOf ?? union?.oneOf ?? []) as Json[]).map((branch) => {
    const parts = (branch.allOf as Json[] | undefined) ?? [branch];
    const ref = parts.find((part) => typeof part.$ref === 'string')?.$ref as string;
    const guard = parts.find((part) => part.$ref === undefined);
    const schema = resolve({ $ref: ref });
    return { name: ref.split('/').pop()!, schema, types: (guard?.properties?.type?.enum ?? schema?.properties?.type?.enum ?? []) as string[] };
  });
}
const sortedList = (list: string[]) => [...list].sort().join(', ');

/** What our union lacks of Adyen's (or adds to it): its members, the `type` values of each, and each member's properties. */
function unionDifferences(union: string, ours: Json | undefined, where: string, seen: Set<string>, out: string[]): void {
  const members = membersOf(ours);
  const adyen = fixture.unions[union]!;
  for (const member of adyen) {
    const mine = members.find((m) => m.name === (MEMBER_ALIASES[member] ?? member));
    if (!mine) {
      out.push(`${where}: no member ${member} (Adyen ${union})`);
      continue;
    }
    if (sortedList(mine.types) !== sortedList(fixture.types[member] ?? []))
      out.push(`${where}<${member}>: type takes [${sortedList(mine.types)}], Adyen's [${sortedList(fixture.types[member] ?? [])}]`);
    differences(member, mine.schema, `${where}<${member}>`, seen, out);
  }
  for (const mine of members)
    if (!adyen.some((member) => (MEMBER_ALIASES[member] ?? member) === mine.name)) out.push(`${where}: member ${mine.name} is not Adyen's (${union})`);
}

/** What our schema lacks of Adyen's (or adds to it), walking the nested objects and unions Adyen names. */
function differences(adyen: string, ours: Json | undefined, where: string, seen: Set<string>, out: string[]): void {
  const properties = fixture.schemas[adyen] ?? {};
  const our = ours?.properties ?? {};
  for (const name of Object.keys(properties)) if (!(name in our)) out.push(`${where}: no '${name}' (Adyen ${adyen})`);
  for (const name of Object.keys(our))
    if (!(name in properties) && !BEYOND_ADYEN[adyen]?.includes(name)) out.push(`${where}: '${name}' is not Adyen's (${adyen})`);
  if (seen.has(`${adyen} ${where}`)) return;
  seen.add(`${adyen} ${where}`);
  for (const [name, child] of Object.entries(properties)) {
    if (child === null || child === 'oneOf' || !(name in our)) continue;
    if (fixture.unions[child]) {
      unionDifferences(child, our[name], `${where}.${name}`, seen, out);
      continue;
    }
    const nested = objectOf(our[name]);
    if (!nested?.properties) out.push(`${where}.${name}: not an object with properties (Adyen ${child})`);
    else differences(child, nested, `${where}.${name}`, seen, out);
  }
}

const ANNOTATIONS = new Set(['description', 'summary', 'examples', 'example', 'deprecated']);
/** A schema without its annotations (a `$ref` with a description is bundled as `allOf` of both): what a value must be. */
function typed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typed);
  if (typeof node !== 'object' || node === null) return node;
  const kept = Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key));
  const out: Json = Object.fromEntries(kept.map(([key, value]) => [key, typed(value)]));
  if (Array.isArray(out.allOf)) {
    const parts = (out.allOf as Json[]).filter((part) => Object.keys(part).length > 0);
    const { allOf: _allOf, ...rest } = out;
    if (parts.length === 1 && Object.keys(rest).length === 0) return parts[0];
    return { ...rest, allOf: parts };
  }
  return out;
}

/** What a property's value must be, its `$ref` followed. */
const shape = (property: Json) => typed(resolve(typed(property) as Json));

describe('Every checkout request schema against Adyen v71', () => {
  test('When the fixture is read, then it lists Adyen’s checkout operations, their request schemas and the members of their unions', () => {
    expect(fixture.source).toMatch(/v71/);
    expect(Object.keys(fixture.operations).length).toBeGreaterThanOrEqual(24);
    expect(Object.keys(fixture.schemas.PaymentRequest ?? {})).toHaveLength(74);
    expect(Object.keys(fixture.schemas.CreateCheckoutSessionRequest ?? {})).toHaveLength(61);
    expect(Object.keys(fixture.schemas.PaymentCompletionDetails ?? {})).toHaveLength(20);
    expect(fixture.schemas.PaymentRequest?.paymentMethod).toBe('PaymentRequestPaymentMethod');
    expect(fixture.unions.PaymentRequestPaymentMethod).toHaveLength(58);
    expect(fixture.unions.DonationPaymentRequestPaymentMethod).toHaveLength(5);
    for (const member of Object.values(fixture.unions).flat()) {
      expect(Object.keys(fixture.schemas[member] ?? {}).length).toBeGreaterThan(0);
      expect(fixture.types[member]?.length).toBeGreaterThan(0);
    }
  });

  test('When every operation Adyen documents is looked up, then this service serves it', () => {
    expect(Object.keys(fixture.operations).filter((key) => !operationOf(key) && !NOT_SERVED.has(key))).toEqual([]);
  });

  test('When our request schemas are compared with Adyen’s, then each holds every Adyen property, nested objects and every member of a union included, and nothing else', () => {
    const out: string[] = [];
    for (const key of [...served, ...Object.keys(ALIASES)]) {
      const ours = requestSchemaOf(key);
      if (!ours) out.push(`${key}: no request schema`);
      else differences(adyenSchemaOf(key), ours, key, new Set(), out);
    }
    expect(out).toEqual([]);
  });

  test('When a property is dropped from our payment method union, then the comparison names it (the comparison can fail)', () => {
    const ideal = membersOf(requestSchemaOf('POST /payments')?.properties?.paymentMethod).find((m) => m.name === 'IdealDetails')!;
    const { issuer: _issuer, ...rest } = ideal.schema!.properties as Json;
    const out: string[] = [];
    differences('IdealDetails', { ...ideal.schema, properties: rest }, 'POST /payments.paymentMethod<IdealDetails>', new Set(), out);
    expect(out).toEqual(["POST /payments.paymentMethod<IdealDetails>: no 'issuer' (Adyen IdealDetails)"]);
  });

  test('When our request schemas are read, then each is closed, so that a property Adyen does not document is refused', () => {
    const open = [...served, ...Object.keys(ALIASES), ...Object.keys(CLIENT_SIDE)].filter((key) => requestSchemaOf(key)?.additionalProperties !== false);
    expect(open).toEqual([]);
  });

  test('When the sessions flow’s client-side calls are read, then each property is typed exactly as on the server-side operation', () => {
    const out: string[] = [];
    for (const [key, serverSide] of Object.entries(CLIENT_SIDE)) {
      const theirs = requestSchemaOf(serverSide)!.properties as Json;
      for (const [name, property] of Object.entries<Json>(requestSchemaOf(key)!.properties)) {
        if (name === 'sessionData') continue;
        if (!(name in theirs)) out.push(`${key}: '${name}' is not a property of ${serverSide}`);
        else if (JSON.stringify(shape(property)) !== JSON.stringify(shape(theirs[name])))
          out.push(`${key}: '${name}' is typed otherwise than on ${serverSide}`);
      }
    }
    expect(out).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Bodies with every property, built from our spec.
// ---------------------------------------------------------------------------------------------

/** An override that replaces the built value instead of being merged into it. */
class Exactly {
  constructor(readonly value: unknown) {}
}
const exactly = (value: unknown) => new Exactly(value);
const isPlain = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Exactly);
function merge(built: unknown, over: unknown): unknown {
  if (over instanceof Exactly) return over.value;
  if (isPlain(built) && isPlain(over)) {
    const out: Json = { ...built };
    for (const [k, v] of Object.entries(over)) out[k] = merge(built[k], v);
    return out;
  }
  return over;
}

let now = new Date();
function sampleMatching(pattern: string, min: number, max: number): string {
  const [value] = fc.sample(
    fc.stringMatching(new RegExp(pattern, 'u')).filter((s) => s.length >= min && s.length <= max),
    { numRuns: 1, seed: 71 },
  );
  return value!;
}
function stringFor(schema: Json): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 1000;
  switch (schema.format) {
    case 'date-time':
      return new Date(now.getTime() + 60 * 60 * 1000).toISOString();
    case 'date':
      return '1990-01-31';
    case 'byte':
      return Buffer.from('twenty bytes of data').toString('base64');
    case 'email':
      return 'shopper@example.com';
    case 'uri':
      return 'https://www.example.com/';
    default:
      break;
  }
  if (typeof schema.pattern === 'string') return sampleMatching(schema.pattern, min, max);
  return 'value'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 5)));
}

/** A value for every property of a schema, one item per array and one entry per map. */
function complete(input: Json | undefined, ancestors: Json[] = []): unknown {
  const schema = resolve(input) ?? {};
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) {
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    return complete({ ...rest, ...resolve(branches[0]) }, ancestors);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (ancestors.includes(schema)) throw new Error('a recursive request schema: give this property an override');
  const within = [...ancestors, schema];
  const type = schema.type ?? (schema.properties || schema.additionalProperties ? 'object' : schema.items ? 'array' : 'string');
  switch (type) {
    case 'object': {
      const out: Json = {};
      for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) out[name] = complete(property, within);
      if (!schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object')
        out.key1 = complete(schema.additionalProperties, within);
      return out;
    }
    case 'array':
      return [complete(schema.items, within)];
    case 'integer':
    case 'number':
      return schema.default ?? Math.min(schema.maximum ?? Number.MAX_SAFE_INTEGER, Math.max(schema.minimum ?? 1, 1));
    case 'boolean':
      return true;
    default:
      return stringFor(schema);
  }
}

// ---------------------------------------------------------------------------------------------
// What each operation needs to exist first, and the values that must fit it.
// ---------------------------------------------------------------------------------------------

let server: TestServer;
let thirdParty: Server;
let thirdPartyUrl: string;
const M = 'DemoMerchantECOM';
const returnUrl = 'https://shop.example.com/return';

async function authorised(value = 2000, overrides: Json = {}): Promise<string> {
  const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ amount: eur(value), ...overrides }) });
  expect(data?.resultCode).toBe('Authorised');
  return data!.pspReference!;
}
async function captured(value: number): Promise<{ psp: string; capture: string }> {
  const psp = await authorised(value);
  const { data } = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
    params: { path: { paymentPspReference: psp } },
    body: { merchantAccount: M, amount: eur(value) },
  });
  return { psp, capture: data!.pspReference };
}
async function order(value: number) {
  const { data } = await server.checkout.POST('/orders', { body: { merchantAccount: M, reference: uniqueReference('order'), amount: eur(value) } });
  return { pspReference: data!.pspReference!, orderData: data!.orderData };
}
async function token(shopperReference: string): Promise<string> {
  const { data } = await server.checkout.POST('/storedPaymentMethods', {
    body: { merchantAccount: M, shopperReference, recurringProcessingModel: 'CardOnFile', paymentMethod: rawCard('5555341244441115') },
  });
  return data!.id!;
}
/** A pending PayPal Express payment made the payment of a session, as the sessions flow leaves it (see updateWalletOrder.test.ts). */
async function payPalInSession() {
  const session = await server.checkout.POST('/sessions', {
    body: { merchantAccount: M, reference: uniqueReference('session'), returnUrl, amount: eur(1000) },
  });
  const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'paypal', subtype: 'express' } }) });
  await server.store.transaction(async (tx) => {
    const payment = await tx.payments.getForUpdate(data!.pspReference!);
    await tx.payments.update({ ...payment!, sessionId: session.data!.id });
  });
  return { pspReference: data!.pspReference!, sessionId: session.data!.id, paymentData: (data!.action as { paymentData: string }).paymentData };
}
const card = exactly({
  type: 'scheme',
  encryptedCardNumber: 'test_4111111111111111',
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
  holderName: 'John Smith',
});
const inHours = (hours: number) => new Date(now.getTime() + hours * 60 * 60 * 1000).toISOString();
const payPalUpdate = async () => ({ body: { ...(await payPalInSession()), amount: eur(1500) } });

interface Arranged {
  path?: Record<string, string>;
  body?: Json;
}
const onPayment =
  (body: (psp: string) => Json, value = 2000) =>
  async (): Promise<Arranged> => {
    const psp = await authorised(value);
    return { path: { paymentPspReference: psp }, body: body(psp) };
  };

/** A session, and one of its card payments that waits for the shopper at the hosted 3D Secure page. */
async function sessionAt3DSecure() {
  const { data: session } = await server.checkout.POST('/sessions', {
    body: { merchantAccount: M, reference: uniqueReference('session'), returnUrl, amount: eur(1000) },
  });
  const { data: paid } = await server.checkout.POST('/sessions/{sessionId}/payments', {
    params: { path: { sessionId: session!.id } },
    body: { sessionData: session!.sessionData!, paymentMethod: rawCard('4212345678910006') },
  });
  expect(paid?.resultCode).toBe('RedirectShopper');
  return { session: session!, action: paid!.action as { url: string } };
}
/** The redirectResult the shopper brings back from the hosted 3D Secure page, authenticated. */
async function authenticated(action: { url: string }): Promise<string> {
  const complete = await fetch(`${action.url}/complete?outcome=authorised`, { redirect: 'manual' });
  return new URL(complete.headers.get('location')!).searchParams.get('redirectResult')!;
}

const ARRANGE: Record<string, () => Promise<Arranged>> = {
  'POST /payments': async () => ({
    body: { merchantAccount: M, amount: eur(1000), reference: uniqueReference('full'), returnUrl, paymentMethod: card, order: await order(5000) },
  }),
  'POST /payments/details': async () => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: rawCard('4212345678910006') }) });
    const redirectResult = await authenticated(data!.action as { url: string });
    // Every other key of PaymentCompletionDetails is sent too: the redirect result decides.
    return { body: { details: { redirectResult } } };
  },
  'POST /sessions': async () => ({ body: { merchantAccount: M, amount: eur(1000), returnUrl, expiresAt: inHours(2) } }),
  'POST /paymentMethods': async () => ({ body: { merchantAccount: M, amount: eur(1000) } }),
  'POST /cardDetails': async () => ({
    body: { merchantAccount: M, cardNumber: '4111111111111111', encryptedCardNumber: 'test_4111111111111111', supportedBrands: ['visa', 'mc'] },
  }),
  'POST /orders': async () => ({ body: { merchantAccount: M, amount: eur(3000), expiresAt: inHours(2) } }),
  'POST /orders/cancel': async () => ({ body: { merchantAccount: M, order: await order(3000) } }),
  'POST /storedPaymentMethods': async () => ({
    body: {
      merchantAccount: M,
      paymentMethod: {
        ...rawCard('4111111111111111'),
        brand: 'visa',
        encryptedCardNumber: 'test_4111111111111111',
        encryptedExpiryMonth: 'test_03',
        encryptedExpiryYear: 'test_2030',
        encryptedSecurityCode: 'test_737',
      },
    },
  }),
  'POST /forward': async () => ({
    body: {
      merchantAccount: M,
      baseUrl: thirdPartyUrl,
      shopperReference: 'full-forward-shopper',
      storedPaymentMethodId: await token('full-forward-shopper'),
      options: { dryRun: false },
      request: { urlSuffix: '/cards', headers: exactly({ 'Content-Type': 'application/json' }), body: '{"number":"{{number}}"}' },
    },
  }),
  'POST /donationCampaigns': async () => ({ body: { merchantAccount: M, currency: 'EUR' } }),
  'POST /donations': async () => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest() });
    return {
      body: {
        merchantAccount: M,
        amount: eur(500),
        returnUrl,
        donationCampaignId: 'DONATION_CAMPAIGN_OCEAN',
        donationAccount: 'OCEAN_CLEANUP_FUND',
        donationOriginalPspReference: data!.pspReference!,
        donationToken: data!.donationToken!,
        paymentMethod: exactly({ type: 'scheme' }),
      },
    };
  },
  'POST /paymentLinks': async () => ({ body: { merchantAccount: M, amount: eur(4200), expiresAt: inHours(48) } }),
  'PATCH /paymentLinks/{linkId}': async () => {
    const { data } = await server.checkout.POST('/paymentLinks', { body: { merchantAccount: M, reference: uniqueReference('link'), amount: eur(4200) } });
    return { path: { linkId: data!.id } };
  },
  'POST /payments/{paymentPspReference}/captures': onPayment(() => ({ merchantAccount: M, amount: eur(2000) })),
  'POST /payments/{paymentPspReference}/refunds': async () => {
    const { psp, capture } = await captured(2000);
    return { path: { paymentPspReference: psp }, body: { merchantAccount: M, amount: eur(500), capturePspReference: capture } };
  },
  'POST /payments/{paymentPspReference}/cancels': onPayment(() => ({ merchantAccount: M })),
  'POST /payments/{paymentPspReference}/reversals': onPayment(() => ({ merchantAccount: M })),
  'POST /payments/{paymentPspReference}/amountUpdates': onPayment(() => ({ merchantAccount: M, amount: eur(2500) })),
  'POST /cancels': async () => {
    const paymentReference = uniqueReference('cancel-me');
    await authorised(1000, { reference: paymentReference });
    return { body: { merchantAccount: M, paymentReference } };
  },
  'POST /paypal/updateOrder': payPalUpdate,
  'POST /wallet/updateOrder': payPalUpdate,
  'POST /originKeys': async () => ({ body: { originDomains: exactly(['https://www.shop.example.com']) } }),
  'POST /applePay/sessions': async () => ({ body: { merchantIdentifier: `merchant.${M}`, domainName: 'shop.example.com' } }),
  'POST /validateShopperId': async () => ({ body: { merchantAccount: M } }),
  'POST /sessions/{sessionId}/payments': async () => {
    const reference = uniqueReference('session');
    const { data: session } = await server.checkout.POST('/sessions', { body: { merchantAccount: M, reference, returnUrl, amount: eur(1000) } });
    // The session's own order (one of its merchant account and reference), which the payment pays the rest of.
    const { data: order } = await server.checkout.POST('/orders', { body: { merchantAccount: M, reference, amount: eur(1000) } });
    return {
      path: { sessionId: session!.id },
      body: { sessionData: session!.sessionData, paymentMethod: card, order: { pspReference: order!.pspReference!, orderData: order!.orderData } },
    };
  },
  'POST /sessions/{sessionId}/paymentDetails': async () => {
    const { session, action } = await sessionAt3DSecure();
    return { path: { sessionId: session.id }, body: { sessionData: session.sessionData, details: { redirectResult: await authenticated(action) } } };
  },
  'POST /paymentMethods/balance': async () => ({
    body: { merchantAccount: M, amount: eur(1000), paymentMethod: exactly({ type: 'giftcard', brand: 'givex', number: '6036283997595793321', cvc: '1234' }) },
  }),
};

beforeAll(async () => {
  server = await startServer();
  now = server.clock.now();
  thirdParty = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"vault-1"}'));
  });
  await new Promise<void>((resolve) => thirdParty.listen(0, '127.0.0.1', resolve));
  thirdPartyUrl = `http://127.0.0.1:${(thirdParty.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.stop();
  thirdParty.closeAllConnections();
  await new Promise((resolve) => thirdParty.close(resolve));
});

const checkoutAjv = specAjv('checkout');
const CASES = [...served, ...Object.keys(ALIASES), ...Object.keys(CLIENT_SIDE)].map((key) => [key] as const);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The properties of Adyen's schema (and of the objects nested in it) that a body lacks. A union
 * (`paymentMethod`) is left to the member tests below; a map's values are its objects.
 */
function missingIn(adyen: string, value: unknown, where: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => missingIn(adyen, item, `${where}[${i}]`));
  if (!isObject(value)) return [`${where}: not an object (Adyen ${adyen})`];
  const properties = fixture.schemas[adyen] ?? {};
  const names = Object.keys(properties);
  // A map of objects (for example `installmentOptions`): its values are the schema's objects.
  if (names.length > 0 && Object.keys(value).length > 0 && !Object.keys(value).some((key) => names.includes(key)))
    return Object.entries(value).flatMap(([key, item]) => missingIn(adyen, item, `${where}.${key}`));
  return Object.entries(properties).flatMap(([name, child]) => {
    if (!(name in value)) return [`${where}.${name}`];
    if (child === null || child === 'oneOf' || fixture.unions[child]) return [];
    return missingIn(child, value[name], `${where}.${name}`);
  });
}

function bodyValidity(key: string, body: unknown): unknown[] {
  const [method, template] = key.split(' ') as [string, string];
  const { ajv, id } = checkoutAjv;
  const pointer = `#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/requestBody/content/application~1json/schema`;
  const validate = ajv.getSchema(`${id}${pointer}`) ?? ajv.compile({ $ref: `${id}${pointer}` });
  return validate(body) ? [] : (validate.errors ?? []);
}

async function send(key: string, path: Record<string, string> | undefined, body: unknown) {
  const [method, template] = key.split(' ') as [string, string];
  const url = template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(path![name]!));
  const response = await fetch(`${server.checkoutUrl}${url}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/**
 * Properties a success cannot carry, and why: this sandbox cannot read `encryptedCard` (one
 * encrypted blob of the whole card; the separate `encrypted*` fields carry the same card), and
 * names it in its refusal. The success case leaves them out; the test after it sends them.
 */
const UNREADABLE: Record<string, string[]> = { 'POST /storedPaymentMethods': ['paymentMethod', 'encryptedCard'] };
function withoutUnreadable(key: string, body: Json): Json {
  const path = UNREADABLE[key];
  if (!path) return body;
  const [parent, name] = path as [string, string];
  const { [name]: _dropped, ...rest } = body[parent] as Json;
  return { ...body, [parent]: rest };
}

describe('What Adyen’s web library sends, passed on to POST /payments', () => {
  /** The state data of adyen-web's card component, as `onSubmit` hands it to the merchant. */
  const stateData = {
    paymentMethod: {
      type: 'scheme',
      encryptedCardNumber: 'test_4111111111111111',
      encryptedExpiryMonth: 'test_03',
      encryptedExpiryYear: 'test_2030',
      encryptedSecurityCode: 'test_737',
      holderName: 'John Smith',
      brand: 'visa',
      checkoutAttemptId: 'do-not-track',
    },
    ...webClientState,
  };
  const pay = (extra: Json) =>
    send('POST /payments', undefined, { merchantAccount: M, amount: eur(1000), reference: uniqueReference('web'), returnUrl, ...stateData, ...extra });

  test('When the state data with clientStateDataIndicator is passed on unchanged, then the payment is authorised; a property Adyen does not document is still refused', async () => {
    expect(await pay({})).toMatchObject({ status: 200, body: { resultCode: 'Authorised' } });
    expect(await pay({ clientStateDataIndicatorr: true })).toMatchObject({
      status: 422,
      body: { errorCode: '192', message: "Invalid field 'clientStateDataIndicatorr': is not a known field" },
    });
  });
});

describe('Bodies with every Adyen v71 property', () => {
  test('When the operations are listed, then each one has its arrangement', () => {
    expect(CASES.map(([key]) => key).filter((key) => !ARRANGE[key])).toEqual([]);
  });

  test.each(CASES)('When %s gets a body with every property of its request schema, nested objects included, then the answer is its success', async (key) => {
    const arranged = await ARRANGE[key]!();
    const body = merge(complete(requestSchemaOf(key)), arranged.body ?? {}) as Json;

    // Every property Adyen documents (of ours, for the client-side calls) is in the body, and the body is valid against our spec.
    const missing = CLIENT_SIDE[key]
      ? Object.keys(requestSchemaOf(key)!.properties as Json).filter((name) => !(name in body))
      : missingIn(adyenSchemaOf(key), body, 'body');
    expect(missing).toEqual([]);
    expect(bodyValidity(key, body)).toEqual([]);

    const success = Number(Object.keys(operationOf(key)!.responses).find((status) => /^2/.test(status)));
    expect(await send(key, arranged.path, withoutUnreadable(key, body))).toMatchObject({ status: success });
  });

  test('When /storedPaymentMethods also gets encryptedCard, then the sandbox says it cannot read it, and the validator took the body', async () => {
    const key = 'POST /storedPaymentMethods';
    const body = merge(complete(requestSchemaOf(key)), (await ARRANGE[key]!()).body ?? {}) as Json;
    expect(body.paymentMethod.encryptedCard).toBeDefined();
    const answer = await send(key, undefined, body);
    expect(refusedByValidator(answer)).toBe(false);
    expect(answer).toMatchObject({ status: 422, body: { errorCode: '192', message: expect.stringContaining("'paymentMethod.encryptedCard'") } });
  });
});

// ---------------------------------------------------------------------------------------------
// Every member of each `paymentMethod` union, with every property of its Adyen schema.
// ---------------------------------------------------------------------------------------------

/**
 * The answer of the request validator to a body it refuses: 400, or 422 with code 158 or 192
 * and its wording (the use cases word their own 158/192 otherwise, and none is met here).
 */
const VALIDATOR_REFUSAL =
  /^(Required field '[^']+' is not provided|Invalid field '[^']+': (is not a known field|must |is not a type this field takes|is not valid))/;
const refusedByValidator = ({ status, body }: { status: number; body: Json }) =>
  status === 400 || (status === 422 && ['158', '192'].includes(body.errorCode) && VALIDATOR_REFUSAL.test(String(body.message)));

/** Values the sandbox acts on, so that the methods it serves take their flow: test cards and tokens, a valid IBAN. */
const METHOD_VALUES: Record<string, Json> = {
  CardDetails: {
    type: 'scheme',
    brand: 'visa',
    number: '4111111111111111',
    expiryMonth: '03',
    expiryYear: '2030',
    cvc: '737',
    encryptedCardNumber: 'test_4111111111111111',
    encryptedExpiryMonth: 'test_03',
    encryptedExpiryYear: 'test_2030',
    encryptedSecurityCode: 'test_737',
    holderName: 'John Smith',
  },
  SepaDirectDebitDetails: { iban: 'NL13TEST0123456789', ownerName: 'A. Klaassen' },
  ApplePayDetails: { applePayToken: Buffer.from('{"number":"5555555555554444","expiryMonth":"03","expiryYear":"2030"}').toString('base64') },
  GooglePayDetails: { googlePayToken: '{"number":"4111111111111111","expiryMonth":"03","expiryYear":"2030"}', googlePayCardNetwork: 'VISA' },
  PayPalDetails: { subtype: 'sdk' },
};
/** The `type` a member is sent with: one this sandbox pays with where the member takes one (so that its flow runs), else its first. */
const SERVED_TYPES = ['scheme', 'sepadirectdebit', 'multibanco', 'bcmc_mobile', 'klarna', 'ideal', 'applepay', 'googlepay', 'paywithgoogle', 'paypal'];
const typeToSend = (types: string[]) => types.find((type) => SERVED_TYPES.includes(type)) ?? types[0]!;
/** What every member's payment carries besides its method: what methods need (Klarna's items, Boleto's payer). */
const PAYMENT = () => ({
  merchantAccount: M,
  amount: eur(1000),
  reference: uniqueReference('member'),
  returnUrl,
  countryCode: 'NL',
  shopperEmail: 'shopper@example.com',
  lineItems: [{ description: 'Item', quantity: 1, amountIncludingTax: 1000 }],
});

const UNIONS: Array<{ key: string; union: string }> = [
  { key: 'POST /payments', union: 'PaymentRequestPaymentMethod' },
  { key: 'POST /donations', union: 'DonationPaymentRequestPaymentMethod' },
];
const MEMBERS = UNIONS.flatMap(({ key, union }) => fixture.unions[union]!.map((member) => [key, member, union] as const));

describe('Payment methods with every property of their Adyen schema', () => {
  test('When the unions are listed, then every member of Adyen’s is sent (58 payment methods, 5 donation methods)', () => {
    expect(MEMBERS).toHaveLength(63);
  });

  test.each(MEMBERS)('When %s gets a paymentMethod with every property of %s (of %s), then the request validator takes it', async (key, member) => {
    const ours = membersOf(requestSchemaOf(key)!.properties.paymentMethod).find((m) => m.name === (MEMBER_ALIASES[member] ?? member))!;
    const paymentMethod = { ...(complete(ours.schema) as Json), ...METHOD_VALUES[ours.name], type: typeToSend(fixture.types[member]!) };
    const body =
      key === 'POST /donations' ? { ...(await ARRANGE[key]!()).body, reference: uniqueReference('donation'), paymentMethod } : { ...PAYMENT(), paymentMethod };
    expect(missingIn(member, body.paymentMethod, 'paymentMethod')).toEqual([]);
    expect(fixture.types[member]).toContain(body.paymentMethod.type);
    expect(bodyValidity(key, body)).toEqual([]);

    const answer = await send(key, {}, body);
    expect(answer.status).toBeLessThan(500);
    expect(refusedByValidator(answer) ? answer : 'not refused by the validator').toBe('not refused by the validator');
  });
});
