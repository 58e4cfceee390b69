/**
 * Real checkout integrations run unchanged. For every checkout operation that mirrors one of
 * Adyen's, two things are proved:
 *
 * 1. Our spec's request schema holds every property of Adyen's v71 request schema for that
 *    operation, and of every object nested in it, and nothing Adyen does not document (so a
 *    typo is still refused). Adyen's property names come from the committed fixture
 *    test/fixtures/adyen-v71-request-properties.json (scripts/adyen-request-properties.mjs).
 * 2. A body that carries every one of those properties, built from our own spec (so the spec
 *    must hold them all), with values that fit together (a real merchant account, a test card,
 *    an existing payment to modify), gets the operation's success answer, never a validation
 *    refusal.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildPaymentRequest, rawCard, uniqueReference } from '../../helpers/factories.js';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { eur } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { specAjv } from '../suite.js';

type Json = Record<string, any>;

interface Fixture {
  source: string;
  operations: Record<string, string>;
  schemas: Record<string, Record<string, string | null>>;
}
const fixture = JSON.parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'adyen-v71-request-properties.json'), 'utf8')) as Fixture;
const spec = JSON.parse(readFileSync(join(process.cwd(), 'generated', 'checkout.json'), 'utf8')) as Json;

/** Adyen operations this service does not serve (none today; kept for the next Adyen version's additions). */
const NOT_SERVED = new Set<string>();
/** Our own paths of an Adyen operation: the design document's path of the wallet order update. */
const ALIASES: Record<string, string> = { 'POST /wallet/updateOrder': 'POST /paypal/updateOrder' };
/** Nested schemas of the payment methods, which their own tests cover (they grow with every method). */
const METHOD_SCHEMAS = new Set(['CardDetails', 'PaymentCompletionDetails']);
/**
 * Properties our schemas have beyond Adyen's, and why: Adyen's `ShopperIdPaymentMethod` is the
 * base of a discriminated union whose subtypes (PayToPaymentMethod, UPIPaymentMethod) add them.
 */
const BEYOND_ADYEN: Record<string, string[]> = { ShopperIdPaymentMethod: ['shopperReference', 'virtualPaymentAddress'] };

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

/** What our schema lacks of Adyen's (or adds to it), walking the nested objects Adyen names. */
function differences(adyen: string, ours: Json | undefined, where: string, seen: Set<string>, out: string[]): void {
  if (METHOD_SCHEMAS.has(adyen)) return;
  const properties = fixture.schemas[adyen] ?? {};
  const our = ours?.properties ?? {};
  for (const name of Object.keys(properties)) if (!(name in our)) out.push(`${where}: no '${name}' (Adyen ${adyen})`);
  for (const name of Object.keys(our))
    if (!(name in properties) && !BEYOND_ADYEN[adyen]?.includes(name)) out.push(`${where}: '${name}' is not Adyen's (${adyen})`);
  if (seen.has(`${adyen} ${where}`)) return;
  seen.add(`${adyen} ${where}`);
  for (const [name, child] of Object.entries(properties)) {
    if (child === null || child === 'oneOf' || !(name in our)) continue;
    const nested = objectOf(our[name]);
    if (!nested?.properties) out.push(`${where}.${name}: not an object with properties (Adyen ${child})`);
    else differences(child, nested, `${where}.${name}`, seen, out);
  }
}

describe('Every checkout request schema against Adyen v71', () => {
  test('When the fixture is read, then it lists Adyen’s checkout operations with their request schemas', () => {
    expect(fixture.source).toMatch(/v71/);
    expect(Object.keys(fixture.operations).length).toBeGreaterThanOrEqual(24);
    expect(Object.keys(fixture.schemas.PaymentRequest ?? {})).toHaveLength(74);
    expect(Object.keys(fixture.schemas.CreateCheckoutSessionRequest ?? {})).toHaveLength(61);
  });

  test('When every operation Adyen documents is looked up, then this service serves it (only /paymentMethods/balance is left out)', () => {
    expect(Object.keys(fixture.operations).filter((key) => !operationOf(key) && !NOT_SERVED.has(key))).toEqual([]);
  });

  test('When our request schemas are compared with Adyen’s, then each holds every Adyen property, nested objects included, and nothing else', () => {
    const out: string[] = [];
    for (const key of [...served, ...Object.keys(ALIASES)]) {
      const ours = requestSchemaOf(key);
      if (!ours) out.push(`${key}: no request schema`);
      else differences(adyenSchemaOf(key), ours, key, new Set(), out);
    }
    expect(out).toEqual([]);
  });

  test('When our request schemas are read, then each is closed, so that a property Adyen does not document is refused', () => {
    const open = [...served, ...Object.keys(ALIASES)].filter((key) => requestSchemaOf(key)?.additionalProperties !== false);
    expect(open).toEqual([]);
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

const ARRANGE: Record<string, () => Promise<Arranged>> = {
  'POST /payments': async () => ({
    body: { merchantAccount: M, amount: eur(1000), reference: uniqueReference('full'), returnUrl, paymentMethod: card, order: await order(5000) },
  }),
  'POST /payments/details': async () => {
    const { data } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: rawCard('4212345678910006') }) });
    const complete = await fetch(`${(data!.action as { url: string }).url}/complete?outcome=authorised`, { redirect: 'manual' });
    const redirectResult = new URL(complete.headers.get('location')!).searchParams.get('redirectResult')!;
    return { body: { details: exactly({ redirectResult }) } };
  },
  'POST /sessions': async () => ({ body: { merchantAccount: M, amount: eur(1000), returnUrl, expiresAt: inHours(2) } }),
  'POST /paymentMethods': async () => ({ body: { merchantAccount: M, amount: eur(1000) } }),
  'POST /cardDetails': async () => ({
    body: { merchantAccount: M, cardNumber: '4111111111111111', encryptedCardNumber: 'test_4111111111111111', supportedBrands: ['visa', 'mc'] },
  }),
  'POST /orders': async () => ({ body: { merchantAccount: M, amount: eur(3000), expiresAt: inHours(2) } }),
  'POST /orders/cancel': async () => ({ body: { merchantAccount: M, order: exactly(await order(3000)) } }),
  'POST /storedPaymentMethods': async () => ({ body: { merchantAccount: M, paymentMethod: exactly(rawCard('4111111111111111')) } }),
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
const CASES = [...served, ...Object.keys(ALIASES)].map((key) => [key] as const);

describe('Bodies with every Adyen v71 property', () => {
  test('When the operations are listed, then each one has its arrangement', () => {
    expect(CASES.map(([key]) => key).filter((key) => !ARRANGE[key])).toEqual([]);
  });

  test.each(CASES)(
    'When %s gets a body with every property of Adyen’s request schema, then the answer is its success, not a validation refusal',
    async (key) => {
      const operation = operationOf(key)!;
      const [method, template] = key.split(' ') as [string, string];
      const arranged = await ARRANGE[key]!();
      const body = merge(complete(requestSchemaOf(key)), arranged.body ?? {}) as Json;

      // Every property Adyen documents is in the body, and the body is valid against our spec.
      expect(Object.keys(fixture.schemas[adyenSchemaOf(key)]!).filter((name) => !(name in body))).toEqual([]);
      const { ajv, id } = checkoutAjv;
      const pointer = `#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/requestBody/content/application~1json/schema`;
      const validate = ajv.compile({ $ref: `${id}${pointer}` });
      expect(validate(body) ? [] : validate.errors).toEqual([]);

      const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(arranged.path![name]!));
      const response = await fetch(`${server.checkoutUrl}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
        body: JSON.stringify(body),
      });
      const success = Number(Object.keys(operation.responses).find((status) => /^2/.test(status)));
      expect({ status: response.status, body: await response.json() }).toMatchObject({ status: success });
    },
  );
});
