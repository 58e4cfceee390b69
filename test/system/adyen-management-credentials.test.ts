/**
 * An operator runs credentials and users of a company through the official Adyen Node library
 * 31 (ManagementAPI), and a web shop uses the new credential's client key from a browser.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { adyenClient, CheckoutAPI, ManagementAPI, pointAdyenLibraryAt } from '../helpers/adyen-library.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
let management: InstanceType<typeof ManagementAPI>;
beforeAll(async () => {
  server = await startServer({}, { https: true });
  pointAdyenLibraryAt(server.baseUrl);
  management = new ManagementAPI(adyenClient(COMPANY_KEY));
});
afterAll(() => server.stop());

const companyId = 'DemoCompany';
const merchantId = 'DemoMerchantECOM';
const SHOP = 'https://www.sdk-shop.example.com';
const card = {
  type: 'scheme',
  encryptedCardNumber: 'test_4111111111111111',
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
};

/** What the shop's page sends to pay in a session: the client key as Adyen's Drop-in sends it (`?clientKey=`), from `origin`. */
async function payFromBrowser(clientKey: string, origin: string) {
  const session = await new CheckoutAPI(adyenClient(COMPANY_KEY)).PaymentsApi.sessions({
    merchantAccount: merchantId,
    amount: { currency: 'EUR', value: 1000 },
    reference: 'sdk-client-key',
    returnUrl: 'https://shop.example.com/return',
  });
  return fetch(`${server.checkoutUrl}/sessions/${session.id}/payments?clientKey=${clientKey}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ sessionData: session.sessionData, paymentMethod: card }),
  });
}

/** Whether an API key authenticates (the sandbox clock answers any valid credential). */
const keyWorks = async (apiKey: string) => (await fetch(`${server.checkoutUrl}/sandbox/clock`, { headers: { 'X-API-Key': apiKey } })).status === 200;

const advanceClock = (seconds: number) =>
  fetch(`${server.checkoutUrl}/sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });

describe('The Adyen Node library 31.0.0 managing credentials and users', () => {
  test('When an operator creates a merchant credential with a client key and an allowed origin, then the shop pays from that origin only; rotation, role changes and deactivation take effect', async () => {
    const created = await management.APICredentialsMerchantLevelApi.createApiCredential(merchantId, {
      description: 'Web shop Drop-in',
      roles: ['Checkout webservice role'],
      allowedOrigins: [SHOP],
    });
    expect(created.apiKey).toMatch(/^AQE/);
    expect(created.password).toEqual(expect.any(String));
    expect(created.clientKey).toMatch(/^test_/);
    expect(created.allowedOrigins?.map((o) => o.domain)).toEqual([SHOP]);
    const read = await management.APICredentialsMerchantLevelApi.getApiCredential(merchantId, created.id);
    expect(JSON.stringify(read)).not.toContain(created.apiKey);

    // The browser on the shop's origin is answered, with CORS headers for it; another origin is refused (readably there: it may show why).
    const fromShop = await payFromBrowser(created.clientKey, SHOP);
    expect(fromShop.status).toBe(200);
    expect(fromShop.headers.get('access-control-allow-origin')).toBe(SHOP);
    const elsewhere = await payFromBrowser(created.clientKey, 'https://elsewhere.example.com');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example.com');

    // A second origin through the allowed origins API, and a new client key (the old one keeps working for now).
    const origin = await management.AllowedOriginsMerchantLevelApi.createAllowedOrigin(merchantId, created.id, { domain: 'https://m.sdk-shop.example.com' });
    expect((await management.AllowedOriginsMerchantLevelApi.listAllowedOrigins(merchantId, created.id)).data?.map((o) => o.domain)).toEqual([
      SHOP,
      'https://m.sdk-shop.example.com',
    ]);
    expect((await management.AllowedOriginsMerchantLevelApi.getAllowedOrigin(merchantId, created.id, origin.id!)).domain).toBe(
      'https://m.sdk-shop.example.com',
    );
    const { clientKey } = await management.ClientKeyMerchantLevelApi.generateNewClientKey(merchantId, created.id);
    expect((await payFromBrowser(clientKey, 'https://m.sdk-shop.example.com')).status).toBe(200);
    await management.AllowedOriginsMerchantLevelApi.deleteAllowedOrigin(merchantId, created.id, origin.id!);
    expect((await payFromBrowser(clientKey, 'https://m.sdk-shop.example.com')).status).toBe(403);

    // Rotation: the old API key works until the sandbox clock passes 24 hours.
    const { apiKey } = await management.APIKeyMerchantLevelApi.generateNewApiKey(merchantId, created.id);
    expect(await keyWorks(apiKey)).toBe(true);
    expect(await keyWorks(created.apiKey)).toBe(true);
    await advanceClock(24 * 3600 - 60);
    expect(await keyWorks(created.apiKey)).toBe(true);
    await advanceClock(61);
    expect(await keyWorks(created.apiKey)).toBe(false);
    expect(await keyWorks(apiKey)).toBe(true);

    // New roles, then deactivation: its key is refused at once.
    const updated = await management.APICredentialsMerchantLevelApi.updateApiCredential(merchantId, created.id, {
      roles: ['Checkout webservice role', 'Merchant PAL Webservice role'],
    });
    expect(updated.roles).toEqual(['Checkout webservice role', 'Merchant PAL Webservice role']);
    const deactivated = await management.APICredentialsMerchantLevelApi.updateApiCredential(merchantId, created.id, { active: false });
    expect(deactivated.active).toBe(false);
    expect(await keyWorks(apiKey)).toBe(false);
    await expect(new CheckoutAPI(adyenClient(apiKey)).PaymentsApi.paymentMethods({ merchantAccount: merchantId })).rejects.toMatchObject({ statusCode: 401 });
    expect((await payFromBrowser(clientKey, SHOP)).status).toBe(401);
  });

  test('When an operator creates a company credential and gives it a new client key, then the library reads both', async () => {
    const created = await management.APICredentialsCompanyLevelApi.createApiCredential(companyId, {
      roles: ['Checkout webservice role'],
      associatedMerchantAccounts: [merchantId],
      allowedOrigins: [SHOP],
    });
    expect(created.associatedMerchantAccounts).toEqual([merchantId]);
    const { clientKey } = await management.ClientKeyCompanyLevelApi.generateNewClientKey(companyId, created.id);
    const updated = await management.APICredentialsCompanyLevelApi.updateApiCredential(companyId, created.id, {
      description: 'Company shop',
      allowedOrigins: [],
    });
    expect(updated).toMatchObject({ clientKey, description: 'Company shop', allowedOrigins: [] });
    const origin = await management.AllowedOriginsCompanyLevelApi.createAllowedOrigin(companyId, created.id, { domain: SHOP });
    expect((await management.AllowedOriginsCompanyLevelApi.getAllowedOrigin(companyId, created.id, origin.id!)).domain).toBe(SHOP);
    await management.AllowedOriginsCompanyLevelApi.deleteAllowedOrigin(companyId, created.id, origin.id!);
    expect((await management.MyAPICredentialApi.generateClientKey()).clientKey).toMatch(/^test_/);
  });

  test("When an operator copies the roles of Adyen's examples, then the credential is created with them and the library lists them", async () => {
    const roles = ['Checkout webservice role', 'Merchant Recurring role', 'Checkout encrypted cardholder data', 'Merchant PAL Webservice role'];
    const created = await management.APICredentialsMerchantLevelApi.createApiCredential(merchantId, { roles, allowedOrigins: [SHOP] });
    expect(created.roles).toEqual(roles);
    const listed = await management.APICredentialsMerchantLevelApi.listApiCredentials(merchantId, 1, 100);
    expect(listed.data?.find((c) => c.id === created.id)?.roles).toEqual(roles);
    const updated = await management.APICredentialsMerchantLevelApi.updateApiCredential(merchantId, created.id, { roles: ['Checkout webservice role'] });
    expect(updated.roles).toEqual(['Checkout webservice role']);
  });

  test('When an operator creates and updates a company user and a merchant user, then each reads back as changed', async () => {
    const companyUser = await management.UsersCompanyLevelApi.createNewUser(companyId, {
      email: 'finance.lead@example.com',
      username: 'finance.lead@example.com',
      name: { firstName: 'Fay', lastName: 'Nance' },
      roles: ['Merchant admin'],
      associatedMerchantAccounts: [merchantId],
      timeZoneCode: 'Europe/Amsterdam',
    });
    expect(companyUser).toMatchObject({ username: 'finance.lead@example.com', active: true, associatedMerchantAccounts: [merchantId] });
    const changed = await management.UsersCompanyLevelApi.updateUserDetails(companyId, companyUser.id, { roles: ['Merchant report role'], active: false });
    expect(changed).toMatchObject({ roles: ['Merchant report role'], active: false });
    expect((await management.UsersCompanyLevelApi.getUserDetails(companyId, companyUser.id)).active).toBe(false);
    expect((await management.UsersCompanyLevelApi.listUsers(companyId, 1, 10, 'finance.lead')).data?.map((u) => u.id)).toEqual([companyUser.id]);

    const merchantUser = await management.UsersMerchantLevelApi.createNewUser(merchantId, {
      email: 'shop.clerk@example.com',
      username: 'shop.clerk@example.com',
      name: { firstName: 'Cle', lastName: 'Rk' },
    });
    const renamed = await management.UsersMerchantLevelApi.updateUser(merchantId, merchantUser.id, {
      name: { lastName: 'Clerk' },
      timeZoneCode: 'Europe/Berlin',
    });
    expect(renamed).toMatchObject({ name: { firstName: 'Cle', lastName: 'Clerk' }, timeZoneCode: 'Europe/Berlin' });
    expect((await management.UsersMerchantLevelApi.getUserDetails(merchantId, merchantUser.id)).timeZoneCode).toBe('Europe/Berlin');
    expect((await management.UsersMerchantLevelApi.listUsers(merchantId, 1, 10)).data?.map((u) => u.id)).toContain(merchantUser.id);
  });
});
