import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ALL_ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { asPage, signIn, type ConsoleSignIn } from '../../helpers/console.js';
import { buildPaymentRequest, rawCard } from '../../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment, capture } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let company: ConsoleSignIn;
let merchant: ConsoleSignIn;
let other: ConsoleSignIn;
let ecomPayment: string;
let posPayment: string;
beforeAll(async () => {
  server = await startServer();
  await insertCompany(server.store, 'OtherCompany', 'OtherMerchant');
  const otherKey = await insertCredential(server.store, { id: 'S2-OTHERCOMPANY1', companyId: 'OtherCompany', merchantId: null, roles: ALL_ROLES });
  company = await signIn(server, COMPANY_KEY);
  merchant = await signIn(server, MERCHANT_KEY);
  other = await signIn(server, otherKey);
  ecomPayment = await authorisedPayment(server);
  await capture(server, ecomPayment, 1000);
  posPayment = await authorisedPayment(server, { merchantAccount: DEMO.merchantPos });
  await server.flushRequestLog();
});
afterAll(() => server.stop());

const list = (who: ConsoleSignIn, query = '') => asPage(`${server.consoleUrl}/requests${query}`, { cookie: who.cookie });

describe('GET /requests', () => {
  test('When the company lists its requests, then the payment and its capture are there, newest first, with method, path, status, request id and credential', async () => {
    const { status, body } = await list(company, `?pspReference=${ecomPayment}`);
    expect(status).toBe(200);
    expect(body.data.map((e: { operationId: string }) => e.operationId)).toEqual(['captureAuthorisedPayment', 'payments']);
    expect(body.data[1]).toMatchObject({
      area: 'checkout',
      method: 'POST',
      path: '/payments',
      status: 200,
      credentialUsername: DEMO.companyUsername,
      requestId: expect.any(String),
      merchantAccount: DEMO.merchantEcom,
      pspReference: ecomPayment,
    });
    expect(body.data[0]).toMatchObject({ path: `/payments/${ecomPayment}/captures`, status: 201 });
  });

  test("When the request id of an answer is looked up, then the entry is the request that answer's X-Request-Id names", async () => {
    const response = await fetch(`${server.checkoutUrl}/payments`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', 'Idempotency-Key': 'console-log-idem-1' },
      body: JSON.stringify(buildPaymentRequest()),
    });
    const requestId = response.headers.get('x-request-id')!;
    await server.flushRequestLog();
    const { body } = await list(company, `?requestId=${requestId}`);
    expect(body.data).toEqual([expect.objectContaining({ requestId, idempotencyKey: 'console-log-idem-1', status: 200 })]);
  });

  test('When the console itself is called, then its own requests are not in the log', async () => {
    await list(company);
    await server.flushRequestLog();
    const { body } = await list(company, '?limit=100');
    expect(body.data.filter((e: { path: string }) => e.path.startsWith('/requests') || e.path.startsWith('/session'))).toEqual([]);
    expect(body.data.every((e: { area: string }) => e.area !== 'console')).toBe(true);
  });

  test('When the log is paged by its cursor, then the pages follow each other without gaps or repeats', async () => {
    const all = (await list(company, '?limit=100')).body.data.map((e: { id: string }) => e.id);
    const first = await list(company, '?limit=2');
    const second = await list(company, `?limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.data, ...second.body.data].map((e: { id: string }) => e.id)).toEqual(all.slice(0, 4));
  });

  test('When path and status filter the log, then only matching entries are listed', async () => {
    await server.checkout.POST('/payments/{paymentPspReference}/refunds', {
      params: { path: { paymentPspReference: 'UNKNOWN0PSP00001' } },
      body: { merchantAccount: DEMO.merchantEcom, amount: { currency: 'EUR', value: 100 } },
    });
    await server.flushRequestLog();
    const { body } = await list(company, `?${new URLSearchParams({ path: '/payments/UNKNOWN0PSP00001', status: '422' }).toString()}`);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ status: 422, pspReference: 'UNKNOWN0PSP00001' });
  });

  test("When the merchant session lists the log, then it sees its merchant account's entries and its own, never DemoMerchantPOS's", async () => {
    const { body } = await list(merchant, '?limit=100');
    const accounts = new Set(body.data.map((e: { merchantAccount?: string }) => e.merchantAccount));
    expect(accounts.has(DEMO.merchantEcom)).toBe(true);
    expect(accounts.has(DEMO.merchantPos)).toBe(false);
    expect((await list(merchant, `?pspReference=${posPayment}`)).body.data).toEqual([]);
  });

  test('When a second company lists the log, then it sees nothing of the first', async () => {
    const { status, body } = await list(other, '?limit=100');
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
  });

  test('When a payment with raw card data is logged, then the stored bodies hold no card number, expiry or security code', async () => {
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ reference: 'raw card 4111 1111 1111 1111', paymentMethod: rawCard('5555341244441115') }),
    });
    await server.flushRequestLog();
    const [entry] = (await list(company, `?pspReference=${data!.pspReference!}`)).body.data;
    const detail = await asPage(`${server.consoleUrl}/requests/${entry.id}`, { cookie: company.cookie });
    expect(detail.status).toBe(200);
    const text = JSON.stringify(detail.body);
    expect(text).not.toContain('5555341244441115');
    expect(text).not.toMatch(/4111 1111 1111 1111/);
    expect(detail.body.requestBody.paymentMethod).toMatchObject({ number: '[REDACTED]', cvc: '[REDACTED]' });
    expect(detail.body.requestBody.reference).toBe('raw card ************1111');
    const rows = await server.store.read((tx) => tx.requestLog.get({ companyId: DEMO.companyId, merchantAccounts: null, credentialId: '' }, Number(entry.id)));
    expect(JSON.stringify(rows)).not.toContain('5555341244441115');
  });

  test('When no session cookie is sent, then the answer is 401', async () => {
    expect((await asPage(`${server.consoleUrl}/requests`)).status).toBe(401);
  });
});
