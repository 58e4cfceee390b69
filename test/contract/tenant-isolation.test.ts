/**
 * Tenant isolation: one test per finding of the review (idempotency keys across merchant
 * accounts, the sandbox clock, refused uploads left on disk, merchant-level credentials reaching
 * company resources), bodies sent to operations that take none, and the connection of a request
 * refused before its body is read (the body read and dropped before the answer and the
 * connection kept, up to 4 MiB; closed without waiting beyond; no `100 Continue` for a refused
 * one). Each fails on the code before its fix.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { ALL_ROLES, CHECKOUT_ROLES, ROLES } from '../../server/kernel/auth/roles.js';
import { DEMO } from '../../server/seed.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { type BoundaryServer, expectUnchanged, insertCredential, listFiles, rawRequest, startBoundaryServer } from '../helpers/boundary.js';
import { rawConnection, requestHead } from '../helpers/raw-connection.js';
import { exampleCases } from './suite.js';

type Json = Record<string, any>;

const exampleBody = (operationId: string) => exampleCases('management').find((c) => c.operation.operationId === operationId)!.body;

let bs: BoundaryServer;
/** DemoMerchantPOS's merchant-level credential with the checkout roles. */
let posCheckout: string;
/** DemoMerchantECOM's merchant-level credential with every role. */
let ecomAll: string;

beforeAll(async () => {
  bs = await startBoundaryServer();
  posCheckout = await insertCredential(bs.server.store, { id: 'S2-TIPOSCHECKOUT1', merchantId: DEMO.merchantPos, roles: CHECKOUT_ROLES });
  ecomAll = await insertCredential(bs.server.store, { id: 'S2-TIECOMALLROLE1', merchantId: DEMO.merchantEcom, roles: ALL_ROLES });
});
afterAll(async () => {
  await bs?.stop();
});

const call = (
  area: 'checkout' | 'management',
  method: string,
  path: string,
  apiKey: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${area === 'checkout' ? bs.server.checkoutUrl : bs.server.managementUrl}${path}`, {
    method,
    headers: { ...(apiKey !== undefined && { 'X-API-Key': apiKey }), ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
const pay = (apiKey: string, idempotencyKey: string, body: unknown) =>
  call('checkout', 'POST', '/payments', apiKey, body, { 'Idempotency-Key': idempotencyKey });

describe('Finding 1: idempotency keys are not shared across merchant accounts', () => {
  test("When the POS merchant credential sends the ECOM credential's key with its own DemoMerchantPOS body, then it gets its own payment, not the ECOM response", async () => {
    const first = await pay(MERCHANT_KEY, 'ti-K1', buildPaymentRequest());
    expect(first.status).toBe(200);
    const a = (await first.json()) as Json;
    const response = await pay(posCheckout, 'ti-K1', buildPaymentRequest({ merchantAccount: DEMO.merchantPos }));
    const text = await response.text();
    expect(response.status).toBe(200);
    const own = JSON.parse(text) as Json;
    expect(own.pspReference).toEqual(expect.any(String));
    expect(own.pspReference).not.toBe(a.pspReference);
    expect(own).not.toEqual(a);
    expect(text).not.toContain(a.pspReference as string);
    const stored = await bs.server.store.read((tx) => tx.payments.get(own.pspReference as string));
    expect(stored?.merchantAccount).toBe(DEMO.merchantPos);
  });

  test("When the POS merchant credential sends the ECOM credential's key and the ECOM body, then the answer is 403 901, carries nothing of the first response, and nothing changed", async () => {
    const body = buildPaymentRequest();
    const a = (await (await pay(MERCHANT_KEY, 'ti-K2', body)).json()) as Json;
    const before = await bs.snapshot();
    const response = await pay(posCheckout, 'ti-K2', body);
    const text = await response.text();
    expect(response.status).toBe(403);
    expect(JSON.parse(text)).toMatchObject({ status: 403, errorCode: '901', errorType: 'security' });
    expect(text).not.toContain(a.pspReference as string);
    expectUnchanged(before, await bs.snapshot());
  });

  test('When a key is used by one credential, then another credential of the company using it for another request gets no 704', async () => {
    await pay(MERCHANT_KEY, 'ti-K3', buildPaymentRequest());
    // The key is live for its own credential: another request under it is 704 there.
    expect((await pay(MERCHANT_KEY, 'ti-K3', buildPaymentRequest({ amount: { currency: 'EUR', value: 1 } }))).status).toBe(422);
    const company = await pay(COMPANY_KEY, 'ti-K3', buildPaymentRequest({ merchantAccount: DEMO.merchantPos }));
    expect(company.status).toBe(200);
    const pos = await pay(posCheckout, 'ti-K3', buildPaymentRequest({ merchantAccount: DEMO.merchantPos }));
    expect(pos.status).toBe(200);
    expect(((await pos.json()) as Json).errorCode).toBeUndefined();
  });
});

describe('Finding 2: only a company-level credential moves the sandbox clock', () => {
  test('When a merchant-level credential advances the sandbox clock, then the answer is 403 and the clock offset is unchanged', async () => {
    const offset = ((await (await call('checkout', 'GET', '/sandbox/clock', COMPANY_KEY)).json()) as Json).offsetSeconds as number;
    const before = await bs.snapshot();
    const response = await call('checkout', 'POST', '/sandbox/clock/advance', MERCHANT_KEY, { seconds: 86_400 });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ status: 403, errorType: 'security' });
    expect(((await (await call('checkout', 'GET', '/sandbox/clock', COMPANY_KEY)).json()) as Json).offsetSeconds).toBe(offset);
    expect(((await (await call('checkout', 'GET', '/sandbox/clock', MERCHANT_KEY)).json()) as Json).offsetSeconds).toBe(offset);
    expect(bs.server.clocks!.offsetSeconds(DEMO.companyId)).toBe(offset);
    expectUnchanged(before, await bs.snapshot());
  });
});

describe('Finding 3: refused uploads leave no file', () => {
  let up: BoundaryServer;
  const fileOf = (size: number) => Buffer.alloc(size, 0x61);
  const upload = (apiKey: string, content: Buffer, companyId: string = DEMO.companyId) => {
    const form = new FormData();
    form.append('file', new Blob([content]), 'app.apk');
    return fetch(`${up.server.managementUrl}/companies/${companyId}/androidApps`, { method: 'POST', headers: { 'X-API-Key': apiKey }, body: form });
  };
  const android = (id: string) => insertCredential(up.server.store, { id, merchantId: null, roles: [ROLES.androidFilesReadWrite] });
  /** Waits for the upload folder to hold no file (a dropped connection is cleaned up when its request closes). */
  async function noFileWithin(ms: number): Promise<string[]> {
    const until = Date.now() + ms;
    let files = listFiles(up.server.uploadDir);
    while (files.length > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      files = listFiles(up.server.uploadDir);
    }
    return files;
  }

  beforeAll(async () => {
    up = await startBoundaryServer({ rateLimitPerMinute: 1, androidMaxApkBytes: 1000 });
  });
  afterAll(async () => {
    await up?.stop();
  });

  test('When a credential without the Android role uploads, then the answer is 403 and no file is written', async () => {
    const checkoutOnly = await insertCredential(up.server.store, { id: 'S2-TIUPCHECKOUT01', merchantId: null, roles: [ROLES.checkout] });
    const response = await upload(checkoutOnly, fileOf(500));
    expect(response.status).toBe(403);
    expect(listFiles(up.server.uploadDir)).toEqual([]);
  });

  test("When another company's id is uploaded to, then the answer is 404 and no file is written", async () => {
    const response = await upload(await android('S2-TIUPOTHERCO001'), fileOf(500), 'OtherCompany');
    expect(response.status).toBe(404);
    expect(listFiles(up.server.uploadDir)).toEqual([]);
  });

  test('When a refused upload sends its body a while after its headers, then the answer waits for the body, which is discarded, and the connection serves the next request', async () => {
    const key = await android('S2-TIUPLATEBODY01');
    const url = new URL(`${up.server.managementUrl}/companies/OtherCompany/androidApps`);
    const body = Buffer.from(`--b\r\nContent-Disposition: form-data; name="file"; filename="app.apk"\r\n\r\n${'a'.repeat(500)}\r\n--b--\r\n`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'X-API-Key': key, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': body.length }));
    // Refused already, but answered only once the body is in: a client still writing it is never cut off.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.answers()).toEqual([]);
    client.socket.write(body);
    await client.answered(1);
    expect(client.answers()[0]).toMatch(/^404 /);
    expect(client.answers()[0]).not.toMatch(/^connection: close/im);
    client.socket.write(`GET /management/v3/me HTTP/1.1\r\nHost: ${url.host}\r\nX-API-Key: ${key}\r\n\r\n`);
    await client.answered(2);
    client.socket.destroy();
    expect(client.answers()[1]).toMatch(/^200 /);
    expect(listFiles(up.server.uploadDir)).toEqual([]);
  });

  test('When a request without a key declares a body over 4 MiB, then the answer is 401 and the connection closes without waiting for the body', async () => {
    const url = new URL(`${up.server.managementUrl}/companies/DemoCompany/androidApps`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': 5 * 1024 * 1024 }));
    await client.answered(1);
    expect(client.answers()[0]).toMatch(/^401 /);
    expect(client.answers()[0]).toMatch(/^connection: close/im);
    expect(client.closed()).toBe(true);
    client.socket.destroy();
  });

  test("When a request from an origin not on the credential's list declares a body over 4 MiB, then the answer is 403 and the connection closes without waiting for the body", async () => {
    // A credential whose list holds one origin (an empty list would let any origin through).
    const key = await android('S2-TIUPORIGINS001');
    await up.server.store.transaction((tx) =>
      tx.credentials.insertOrigin({
        id: 'ORIGIN-TIUP-0001',
        credentialId: 'S2-TIUPORIGINS001',
        domain: 'https://shop.example',
        createdAt: new Date().toISOString(),
      }),
    );
    const url = new URL(`${up.server.managementUrl}/companies/DemoCompany/androidApps`);
    const client = rawConnection(url);
    const head = {
      'X-API-Key': key,
      Origin: 'https://elsewhere.example',
      'Content-Type': 'multipart/form-data; boundary=b',
      'Content-Length': 5 * 1024 * 1024,
    };
    client.socket.write(requestHead(url, head));
    await client.answered(1);
    expect(client.answers()[0]).toMatch(/^403 /);
    expect(client.answers()[0]).toMatch(/^connection: close/im);
    expect(client.closed()).toBe(true);
    client.socket.destroy();
  });

  test('When a request without a key sends a short body a while after its headers, then the 401 comes after the body and the connection is kept', async () => {
    const url = new URL(`${up.server.managementUrl}/companies/DemoCompany/androidApps`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'Content-Type': 'application/json', 'Content-Length': 2 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.answers()).toEqual([]);
    client.socket.write('{}');
    await client.answered(1);
    expect(client.answers()[0]).toMatch(/^401 /);
    client.socket.write(requestHead(url, { 'Content-Type': 'application/json', 'Content-Length': 0 }));
    await client.answered(2);
    expect(client.closed()).toBe(false);
    client.socket.destroy();
    expect(client.answers()[1]).toMatch(/^401 /);
  });

  test('When an upload is over the rate limit, then the answer is 429 and no file is written', async () => {
    const key = await android('S2-TIUPLIMITED001');
    // Takes the one slot of the minute without writing a file: authorized, then refused by the validator.
    const first = await fetch(`${up.server.managementUrl}/companies/DemoCompany/androidApps`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(first.status).toBe(422);
    const response = await upload(key, fileOf(500));
    expect(response.status).toBe(429);
    expect(listFiles(up.server.uploadDir)).toEqual([]);
  });

  test('When an upload is larger than ANDROID_MAX_APK_BYTES, then the answer is 413 quickly and no file is kept', async () => {
    const started = Date.now();
    const response = await upload(await android('S2-TIUPTOOLARGE01'), fileOf(50 * 1024));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: 413, errorCode: '29_100' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await noFileWithin(1000)).toEqual([]);
  });

  test('When an upload declares a length far over the limit, then the answer is 413 before anything of the body is stored and no file is written', async () => {
    const response = await upload(await android('S2-TIUPDECLARED01'), fileOf(200 * 1024));
    expect(response.status).toBe(413);
    expect(listFiles(up.server.uploadDir)).toEqual([]);
  });

  test('When the connection of an upload is dropped mid-body, then no file is left', async () => {
    const key = await android('S2-TIUPABORTED001');
    const boundary = '----tenantisolation';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="app.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const content = fileOf(900);
    const url = new URL(`${up.server.managementUrl}/companies/DemoCompany/androidApps`);
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        'X-API-Key': key,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(head.length + content.length + tail.length),
      },
    });
    req.on('error', () => undefined);
    req.write(Buffer.concat([head, content.subarray(0, 400)]));
    // Until the server has started writing the part (or a short while): then the connection drops.
    const until = Date.now() + 1000;
    while (listFiles(up.server.uploadDir).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    req.destroy();
    expect(await noFileWithin(2000)).toEqual([]);
  });
});

describe('Finding 4: merchant-level credentials do not reach company resources', () => {
  test('When a merchant-level credential with every role calls the company operations, then each answer is 403, no key is made and the company key still works', async () => {
    const keysBefore = await bs.server.store.read((tx) => tx.credentials.keys(DEMO.companyCredentialId));
    const before = await bs.snapshot();
    const c = `/companies/${DEMO.companyId}`;
    const calls: Array<[string, string, string, unknown?]> = [
      ['listCompanyApiCredentials', 'GET', `${c}/apiCredentials`],
      ['getCompanyApiCredential', 'GET', `${c}/apiCredentials/${DEMO.companyCredentialId}`],
      ['listCompanyAllowedOrigins', 'GET', `${c}/apiCredentials/${DEMO.companyCredentialId}/allowedOrigins`],
      ['listAndroidApps', 'GET', `${c}/androidApps`],
      ['listAndroidCertificates', 'GET', `${c}/androidCertificates`],
      ['getCompanyTerminalSettings', 'GET', `${c}/terminalSettings`],
      ['updateCompanyTerminalSettings', 'PATCH', `${c}/terminalSettings`, exampleBody('updateCompanyTerminalSettings')],
      ['generateNewCompanyApiKey', 'POST', `${c}/apiCredentials/${DEMO.companyCredentialId}/generateApiKey`],
    ];
    const answers: Array<[string, number]> = [];
    for (const [op, method, path, body] of calls) {
      const response = await call('management', method, path, ecomAll, body);
      answers.push([op, response.status]);
      const json = (await response.json()) as Json;
      expect(json.apiKey).toBeUndefined();
    }
    expect(answers).toEqual(calls.map(([op]) => [op, 403]));
    expectUnchanged(before, await bs.snapshot());
    expect(await bs.server.store.read((tx) => tx.credentials.keys(DEMO.companyCredentialId))).toEqual(keysBefore);
    expect((await call('management', 'GET', '/me', COMPANY_KEY)).status).toBe(200);
  });

  test('When a merchant-level credential with fewer roles generates a key for one with more roles, then the answer is 403 and no key is made', async () => {
    const few = await insertCredential(bs.server.store, { id: 'S2-TIECOMFEWROLE1', merchantId: DEMO.merchantEcom, roles: [ROLES.apiCredentialsReadWrite] });
    const many = await insertCredential(bs.server.store, { id: 'S2-TIECOMMANYROL1', merchantId: DEMO.merchantEcom, roles: ALL_ROLES });
    const before = await bs.snapshot();
    const response = await call('management', 'POST', `/merchants/${DEMO.merchantEcom}/apiCredentials/S2-TIECOMMANYROL1/generateApiKey`, few);
    expect(response.status).toBe(403);
    expect(((await response.json()) as Json).apiKey).toBeUndefined();
    expectUnchanged(before, await bs.snapshot());
    expect((await call('management', 'GET', '/me', many)).status).toBe(200);
  });
});

describe('A body sent to an operation that takes none', () => {
  const expectCheckout400 = (body: Json) =>
    expect(body).toEqual({ status: 400, errorCode: expect.any(String), message: expect.any(String), errorType: 'validation' });
  const expectManagement400 = (body: Json) =>
    expect(body).toMatchObject({
      type: expect.any(String),
      title: expect.any(String),
      status: 400,
      detail: expect.any(String),
      errorCode: expect.any(String),
      requestId: expect.any(String),
    });

  test('When a checkout DELETE carries a JSON body, then the answer is 400 in the checkout error shape and the token still exists', async () => {
    const card = {
      type: 'scheme',
      encryptedCardNumber: 'test_4111111111111111',
      encryptedExpiryMonth: 'test_03',
      encryptedExpiryYear: 'test_2030',
      encryptedSecurityCode: 'test_737',
    };
    const stored = (await (
      await call('checkout', 'POST', '/storedPaymentMethods', COMPANY_KEY, {
        merchantAccount: DEMO.merchantEcom,
        shopperReference: 'ti-shopper',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: card,
      })
    ).json()) as Json;
    expect(stored.id).toEqual(expect.any(String));
    const before = await bs.snapshot();
    const response = await call(
      'checkout',
      'DELETE',
      `/storedPaymentMethods/${stored.id}?shopperReference=ti-shopper&merchantAccount=${DEMO.merchantEcom}`,
      COMPANY_KEY,
      { merchantAccount: DEMO.merchantEcom },
    );
    expect(response.status).toBe(400);
    expectCheckout400((await response.json()) as Json);
    expectUnchanged(before, await bs.snapshot());
    expect(await bs.server.store.read((tx) => tx.storedMethods.get(stored.id as string))).toBeDefined();
  });

  test('When a checkout GET carries a JSON body, then the answer is 400 in the checkout error shape', async () => {
    const before = await bs.snapshot();
    const response = await rawRequest(`${bs.server.checkoutUrl}/sandbox/clock`, {
      method: 'GET',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body: '{"seconds":1}',
    });
    expect(response.status).toBe(400);
    expectCheckout400(response.body as Json);
    expectUnchanged(before, await bs.snapshot());
  });

  test('When a management GET carries a JSON body, then the answer is 400 in the RFC 7807 shape', async () => {
    const before = await bs.snapshot();
    const response = await rawRequest(`${bs.server.managementUrl}/me`, {
      method: 'GET',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(400);
    expectManagement400(response.body as Json);
    expectUnchanged(before, await bs.snapshot());
  });

  test('When a management DELETE carries a JSON body, then the answer is 400 in the RFC 7807 shape and the payout setting still exists', async () => {
    const created = (await (
      await call('management', 'POST', `/merchants/${DEMO.merchantEcom}/payoutSettings`, COMPANY_KEY, { transferInstrumentId: 'SE322JV223222F5GJVKHH6BDT' })
    ).json()) as Json;
    expect(created.id).toEqual(expect.any(String));
    const before = await bs.snapshot();
    const response = await call('management', 'DELETE', `/merchants/${DEMO.merchantEcom}/payoutSettings/${created.id}`, COMPANY_KEY, { id: created.id });
    expect(response.status).toBe(400);
    expectManagement400((await response.json()) as Json);
    expectUnchanged(before, await bs.snapshot());
    expect(await bs.server.store.read((tx) => tx.payouts.get(created.id as string))).toBeDefined();
  });
});

describe('A client that waits for 100 Continue before its body', () => {
  const expect100 = { Expect: '100-continue' };

  test('When a request that waits for 100 Continue is refused, then the refusal comes without it, the body is never asked for, and nothing changes', async () => {
    const before = await bs.snapshot();
    const url = new URL(`${bs.server.managementUrl}/companies/OtherCompany/androidApps`);
    const client = rawConnection(url);
    const head = { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': 5 * 1024 * 1024, ...expect100 };
    client.socket.write(requestHead(url, head));
    await client.answered(1);
    client.socket.destroy();
    expect(client.answers()).toHaveLength(1);
    expect(client.answers()[0]).toMatch(/^404 /);
    expectUnchanged(before, await bs.snapshot());
  });

  test('When a request without a key waits for 100 Continue, then the answer is 401 without it', async () => {
    const url = new URL(`${bs.server.checkoutUrl}/paymentMethods`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'Content-Type': 'application/json', 'Content-Length': 2, ...expect100 }));
    await client.answered(1);
    client.socket.destroy();
    expect(client.answers()).toHaveLength(1);
    expect(client.answers()[0]).toMatch(/^401 /);
  });

  test('When an authorized request waits for 100 Continue, then it comes, and the body sent after it is answered', async () => {
    const url = new URL(`${bs.server.checkoutUrl}/paymentMethods`);
    const body = JSON.stringify({ merchantAccount: DEMO.merchantEcom });
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', 'Content-Length': body.length, ...expect100 }));
    await client.received(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    // Before anything of the body is sent.
    expect(client.answers()).toEqual(['100 Continue\r\n\r\n']);
    client.socket.write(body);
    await client.answered(2);
    client.socket.destroy();
    expect(client.answers()[1]).toMatch(/^200 /);
    expect(client.answers()[1]).toMatch(/"paymentMethods"/);
  });

  test('When an operation without a body is called with an empty chunked body that waits for 100 Continue, then it comes and the operation answers', async () => {
    const url = new URL(`${bs.server.managementUrl}/me`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'X-API-Key': COMPANY_KEY, 'Transfer-Encoding': 'chunked', ...expect100 }, 'GET'));
    await client.received(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    // Before anything of the body is sent.
    expect(client.answers()).toEqual(['100 Continue\r\n\r\n']);
    client.socket.write('0\r\n\r\n');
    await client.answered(2);
    client.socket.destroy();
    expect(client.answers()[0]).toBe('100 Continue\r\n\r\n');
    expect(client.answers()[1]).toMatch(/^200 /);
  });

  test('When a hosted page is posted to by a client that waits for 100 Continue, then it comes and the form is read', async () => {
    const url = new URL(`${bs.server.baseUrl}/hosted/3ds2/notification`);
    const form = 'cres=eyJ0cmFuc1N0YXR1cyI6IlkifQ';
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': form.length, ...expect100 }));
    await client.received(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    expect(client.answers()).toEqual(['100 Continue\r\n\r\n']);
    client.socket.write(form);
    const received = await client.received(/data-cres="eyJ0cmFuc1N0YXR1cyI6IlkifQ"/);
    client.socket.destroy();
    expect(client.answers()[0]).toBe('100 Continue\r\n\r\n');
    expect(received).toMatch(/HTTP\/1\.1 200 /);
    expect(received).toMatch(/data-cres="eyJ0cmFuc1N0YXR1cyI6IlkifQ"/);
  });
});
