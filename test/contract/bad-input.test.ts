import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { MAX_JSON_DEPTH } from '../../server/kernel/http/json-body.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ bodyLimitBytes: 256 * 1024 });
});
afterAll(() => server.stop());

const raw = (path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY, ...init.headers },
    ...(init.body !== undefined && { body: init.body }),
  });

const countPayments = () => server.store.transaction(async (tx) => ((await tx.payments.latestByReference('DemoMerchantECOM', 'bad-input')) ? 1 : 0));

const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const valid = JSON.stringify(buildPaymentRequest({ reference: 'bad-input' }));

/** Checkout answers ServiceError; management answers RFC 7807. Both have status = HTTP status. */
function expectCheckoutError(body: Record<string, unknown>, status: number, errorCode?: string) {
  expect(body).toEqual(
    expect.objectContaining({ status, errorCode: errorCode ?? expect.any(String), message: expect.any(String), errorType: expect.any(String) }),
  );
  expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['errorCode', 'errorType', 'message', 'status']));
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
}
function expectProblem(body: Record<string, unknown>, status: number) {
  expect(body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status,
      detail: expect.any(String),
      errorCode: expect.any(String),
      requestId: expect.any(String),
    }),
  );
}

describe('Bad input on the checkout area', () => {
  test.each([
    ['malformed JSON', 400, '702', () => raw('/checkout/v71/payments', { body: '{"amount": {' })],
    ['a JSON array instead of an object', 422, '192', () => raw('/checkout/v71/payments', { body: '[1,2]' })],
    ['a wrong type', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('"value":1000', '"value":"1000"') })],
    ['a decimal amount', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('"value":1000', '"value":10.5') })],
    ['a negative amount', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('"value":1000', '"value":-5') })],
    ['an unknown field', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('{', '{"unknownField":true,') })],
    ['an unknown nested field', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('"currency":"EUR"', '"currency":"EUR","cents":1') })],
    ['a missing required field', 422, '158', () => raw('/checkout/v71/payments', { body: valid.replace('"reference":"bad-input",', '') })],
    ['an unsafe integer', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('"value":1000', '"value":12345678901234567890') })],
    ['a huge exponent', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('"value":1000', '"value":1e400') })],
    ['a body nested too deeply', 400, '702', () => raw('/checkout/v71/payments', { body: deep(MAX_JSON_DEPTH + 5) })],
    ['a body nested 10000 levels deep', 400, '702', () => raw('/checkout/v71/payments', { body: deep(10_000) })],
    ['a body over the size limit', 413, '29_100', () => raw('/checkout/v71/payments', { body: valid.replace('"bad-input"', `"${'x'.repeat(300 * 1024)}"`) })],
    ['a text/plain body', 415, undefined, () => raw('/checkout/v71/payments', { body: valid, headers: { 'Content-Type': 'text/plain' } })],
    ['an unknown path', 404, '000', () => raw('/checkout/v71/nowhere', { body: '{}' })],
    ['a method the path does not have', 405, '000', () => raw('/checkout/v71/payments', { method: 'DELETE' })],
    ['an over-long reference', 422, '192', () => raw('/checkout/v71/payments', { body: valid.replace('"bad-input"', `"${'r'.repeat(81)}"`) })],
  ])('When the request has %s, then the answer is %i in the checkout error shape and nothing changes', async (_name, status, code, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expectCheckoutError((await response.json()) as Record<string, any>, status, code);
    expect(await countPayments()).toBe(0);
  });

  test.each([
    [
      'a capture reference of 81 characters',
      '/checkout/v71/payments/993617894906488A/captures',
      { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1 }, reference: 'r'.repeat(81) },
      'reference',
    ],
    [
      'an amount update reference of 81 characters',
      '/checkout/v71/payments/993617894906488A/amountUpdates',
      { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1 }, reference: 'r'.repeat(81) },
      'reference',
    ],
    [
      'paymentData of 200001 characters',
      '/checkout/v71/payments/details',
      { details: { redirectResult: 'x' }, paymentData: 'p'.repeat(200_001) },
      'paymentData',
    ],
    [
      'an encryptedCardNumber of 15001 characters',
      '/checkout/v71/cardDetails',
      { merchantAccount: 'DemoMerchantECOM', encryptedCardNumber: 'e'.repeat(15_001) },
      'encryptedCardNumber',
    ],
    [
      'a shopper reference of 2 characters',
      '/checkout/v71/storedPaymentMethods',
      { merchantAccount: 'DemoMerchantECOM', shopperReference: 'ab', recurringProcessingModel: 'CardOnFile', paymentMethod: { type: 'scheme' } },
      'shopperReference',
    ],
  ])('When a request has %s (a documented limit), then the answer is 422 naming the field', async (_name, path, body, field) => {
    const response = await raw(path, { body: JSON.stringify(body) });
    expect(response.status).toBe(422);
    expect(((await response.json()) as Record<string, any>).message).toContain(`'${field}'`);
  });

  test('When a validation error names a field, then the message names it', async () => {
    const response = await raw('/checkout/v71/payments', { body: valid.replace('"value":1000', '"value":"1000"') });
    expect(((await response.json()) as Record<string, any>).message).toContain("'amount.value'");
  });
});

describe('Bad input on the management area', () => {
  test.each([
    ['a page size over 100', 422, () => raw('/management/v3/companies/DemoCompany/merchants?pageSize=101', { method: 'GET' })],
    ['a page number of 0', 422, () => raw('/management/v3/companies/DemoCompany/merchants?pageNumber=0', { method: 'GET' })],
    ['a non-numeric page size', 422, () => raw('/management/v3/companies/DemoCompany/merchants?pageSize=ten', { method: 'GET' })],
    ['an unknown query parameter', 422, () => raw('/management/v3/companies/DemoCompany/merchants?color=red', { method: 'GET' })],
    ['an unknown path', 404, () => raw('/management/v3/nowhere', { method: 'GET' })],
    ['a method the path does not have', 405, () => raw('/management/v3/me', { method: 'DELETE' })],
    ['malformed JSON', 400, () => raw('/management/v3/me', { method: 'POST', body: '{' })],
  ])('When the request has %s, then the answer is %i in the RFC 7807 shape', async (_name, status, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expectProblem((await response.json()) as Record<string, any>, status);
  });

  test('When a body number is not a safe integer, then the 422 names the field in invalidFields', async () => {
    const response = await raw('/management/v3/merchants', {
      body: '{"companyId":"DemoCompany","description":"d","x":{"y":[12345678901234567890]}}',
    });
    const body = (await response.json()) as Record<string, any>;
    expect(response.status).toBe(422);
    expectProblem(body, 422);
    expect(body.invalidFields).toEqual([{ name: 'x.y.0', value: expect.any(String), message: expect.stringContaining('not a safe integer') }]);
  });

  test('When a query value is invalid, then invalidFields names it with its value', async () => {
    const response = await raw('/management/v3/companies/DemoCompany/merchants?pageSize=101', { method: 'GET' });
    expect(((await response.json()) as Record<string, any>).invalidFields).toEqual([
      { name: 'pageSize', value: '101', message: expect.stringContaining('100') },
    ]);
  });
});

describe('Bad authentication headers', () => {
  test.each([
    ['no credentials', {}],
    ['a wrong API key', { 'X-API-Key': 'not-a-key-of-anyone-000000000000' }],
    ['an empty API key', { 'X-API-Key': '' }],
    ['an API key with control characters', { 'X-API-Key': 'abc\tdef' }],
    ['a Bearer token', { Authorization: 'Bearer abc' }],
    ['Basic with garbage', { Authorization: 'Basic !!!' }],
    ['Basic without a colon', { Authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }],
    ['Basic with the key under another user name', { Authorization: `Basic ${Buffer.from(`ws@Company.Other:${COMPANY_KEY}`).toString('base64')}` }],
    ['a header of 10000 characters', { 'X-API-Key': 'a'.repeat(10_000) }],
  ])('When the request carries %s, then checkout answers 401 code 000 and management answers 401 code 00_401', async (_name, headers) => {
    const h = { 'Content-Type': 'application/json', ...headers } as Record<string, string>;
    const checkout = await fetch(`${server.checkoutUrl}/payments`, { method: 'POST', headers: h, body: valid });
    expect(checkout.status).toBe(401);
    expect((await checkout.json()) as Record<string, any>).toEqual({
      status: 401,
      errorCode: '000',
      message: 'HTTP Status Response - Unauthorized',
      errorType: 'security',
    });
    const management = await fetch(`${server.managementUrl}/me`, { headers: h });
    expect(management.status).toBe(401);
    expect((await management.json()) as Record<string, any>).toMatchObject({ status: 401, errorCode: '00_401', title: 'Unauthorized' });
    expect(await countPayments()).toBe(0);
  });

  test('When Basic carries the credential user name and its API key, then the request is authenticated', async () => {
    const token = Buffer.from(`ws@Company.DemoCompany:${COMPANY_KEY}`).toString('base64');
    const response = await fetch(`${server.managementUrl}/me`, { headers: { Authorization: `Basic ${token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Record<string, any>).username).toBe('ws@Company.DemoCompany');
  });
});
