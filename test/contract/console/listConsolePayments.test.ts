import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ALL_ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { asPage, signIn, type ConsoleSignIn } from '../../helpers/console.js';
import { rawCard } from '../../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment, capture } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let company: ConsoleSignIn;
let merchant: ConsoleSignIn;
let other: ConsoleSignIn;
let captured: string;
let authorised: string;
let pos: string;
beforeAll(async () => {
  server = await startServer();
  await insertCompany(server.store, 'OtherCompany', 'OtherMerchant');
  other = await signIn(server, await insertCredential(server.store, { id: 'S2-OTHERCOMPANY1', companyId: 'OtherCompany', merchantId: null, roles: ALL_ROLES }));
  company = await signIn(server, COMPANY_KEY);
  merchant = await signIn(server, MERCHANT_KEY);
  captured = await authorisedPayment(server, { reference: 'console-list-captured', shopperReference: 'shopper-console-1' });
  await capture(server, captured, 1000);
  authorised = await authorisedPayment(server, { reference: 'console-list-authorised' });
  pos = await authorisedPayment(server, { merchantAccount: DEMO.merchantPos, reference: 'console-list-pos' });
  await server.checkout.POST('/payments', {
    body: {
      merchantAccount: DEMO.merchantEcom,
      reference: 'console-list-refused',
      amount: { currency: 'EUR', value: 1000 },
      paymentMethod: rawCard('4111111111111111', { holderName: 'REFUSED' }),
      returnUrl: 'https://shop.example.com/return',
    },
  });
});
afterAll(() => server.stop());

const search = (who: ConsoleSignIn, query: Record<string, string> = {}) =>
  asPage(`${server.consoleUrl}/payments?${new URLSearchParams(query).toString()}`, { cookie: who.cookie });
const psps = (body: { data: Array<{ pspReference: string }> }) => body.data.map((p) => p.pspReference);

describe('GET /payments', () => {
  test('When the company lists its payments, then every one is there, newest first, with status and amounts', async () => {
    const { status, body } = await search(company);
    expect(status).toBe(200);
    expect(psps(body).slice(0, 3)).toEqual([expect.any(String), pos, authorised]);
    expect(body.data.find((p: { pspReference: string }) => p.pspReference === captured)).toMatchObject({
      status: 'captured',
      capturedValue: 1000,
      merchantAccount: DEMO.merchantEcom,
      reference: 'console-list-captured',
      shopperReference: 'shopper-console-1',
      paymentMethod: 'scheme',
    });
  });

  test('When q is a pspReference, a merchant reference or a shopper reference, then the payment it names is found', async () => {
    expect(psps((await search(company, { q: captured })).body)).toEqual([captured]);
    expect(psps((await search(company, { q: 'console-list-authorised' })).body)).toEqual([authorised]);
    expect(psps((await search(company, { q: 'shopper-console-1' })).body)).toEqual([captured]);
  });

  test('When the status is filtered, then only payments in that state are listed', async () => {
    expect(psps((await search(company, { status: 'captured' })).body)).toEqual([captured]);
    const refused = (await search(company, { status: 'refused' })).body.data;
    expect(refused.map((p: { reference: string }) => p.reference)).toEqual(['console-list-refused']);
    expect(psps((await search(company, { status: 'authorised', merchantAccount: DEMO.merchantEcom })).body)).toEqual([authorised]);
  });

  test('When the creation time is bounded, then payments outside it are left out', async () => {
    expect((await search(company, { from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z' })).body.data).toEqual([]);
    expect((await search(company, { from: '2000-01-01T00:00:00Z' })).body.data.length).toBe(4);
  });

  test('When the list is paged by its cursor, then the pages follow each other without gaps or repeats', async () => {
    const all = psps((await search(company)).body);
    const first = await search(company, { limit: '3' });
    const second = await search(company, { limit: '3', cursor: first.body.nextCursor });
    expect([...psps(first.body), ...psps(second.body)]).toEqual(all);
    expect(second.body.nextCursor).toBeUndefined();
  });

  test('When the merchant session lists payments, then it sees only its merchant account; asking for DemoMerchantPOS is refused', async () => {
    const { body } = await search(merchant);
    expect(new Set(body.data.map((p: { merchantAccount: string }) => p.merchantAccount))).toEqual(new Set([DEMO.merchantEcom]));
    expect(psps(body)).not.toContain(pos);
    expect((await search(merchant, { merchantAccount: DEMO.merchantPos })).status).toBe(403);
  });

  test('When a second company lists payments, then it sees none of the first', async () => {
    expect((await search(other)).body.data).toEqual([]);
    expect((await search(other, { q: captured })).body.data).toEqual([]);
  });

  test('When the cursor is not one the API gave, then the answer is 422', async () => {
    expect((await search(company, { cursor: 'not-a-cursor' })).status).toBe(422);
  });
});
