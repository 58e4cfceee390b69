import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ALL_ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { asPage, signIn, type ConsoleSignIn } from '../../helpers/console.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let company: ConsoleSignIn;
let merchant: ConsoleSignIn;
let other: ConsoleSignIn;
beforeAll(async () => {
  server = await startServer();
  await insertCompany(server.store, 'OtherCompany', 'OtherMerchant');
  other = await signIn(server, await insertCredential(server.store, { id: 'S2-OTHERCOMPANY1', companyId: 'OtherCompany', merchantId: null, roles: ALL_ROLES }));
  company = await signIn(server, COMPANY_KEY);
  merchant = await signIn(server, MERCHANT_KEY);
});
afterAll(() => server.stop());

/** The log entry of a new payment of `merchantAccount`. */
async function loggedPayment(merchantAccount: string): Promise<string> {
  const psp = await authorisedPayment(server, { merchantAccount });
  await server.flushRequestLog();
  return (await asPage(`${server.consoleUrl}/requests?pspReference=${psp}`, { cookie: company.cookie })).body.data[0].id as string;
}

describe('GET /requests/{requestLogId}', () => {
  test('When an entry is read, then it carries the request and the answer as JSON, encrypted card fields replaced', async () => {
    const id = await loggedPayment(DEMO.merchantEcom);
    const { status, body } = await asPage(`${server.consoleUrl}/requests/${id}`, { cookie: company.cookie });
    expect(status).toBe(200);
    expect(body.entry).toMatchObject({ id, operationId: 'payments', status: 200 });
    expect(body.requestBody).toMatchObject({ merchantAccount: DEMO.merchantEcom, amount: { currency: 'EUR', value: 1000 } });
    expect(body.responseBody).toMatchObject({ resultCode: 'Authorised', pspReference: body.entry.pspReference });
  });

  test('When the merchant session reads an entry of DemoMerchantPOS, or a second company one of the first, then it is not found', async () => {
    const id = await loggedPayment(DEMO.merchantPos);
    expect((await asPage(`${server.consoleUrl}/requests/${id}`, { cookie: merchant.cookie })).status).toBe(404);
    expect((await asPage(`${server.consoleUrl}/requests/${id}`, { cookie: other.cookie })).status).toBe(404);
    expect((await asPage(`${server.consoleUrl}/requests/${id}`, { cookie: company.cookie })).status).toBe(200);
  });

  test('When the id is not a number, then the answer is 422, not a server error', async () => {
    expect((await asPage(`${server.consoleUrl}/requests/abc`, { cookie: company.cookie })).status).toBe(422);
  });
});
