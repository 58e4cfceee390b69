/**
 * What each operation needs to exist before its spec example can be replayed against a real
 * server: a payment to capture, an order to cancel, a redirect to finish, a token to forward.
 * Keyed by operationId; operations whose examples stand alone need no entry.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildTestApk } from '../../scripts/build-test-apk.mjs';
import type { Arranged, ExampleCase, Target } from './suite.js';

const apk = () => ({
  name: 'tipping.apk',
  content: (buildTestApk as (o: object) => Buffer)({ packageName: 'com.example.tipping', versionCode: 7, versionName: '1.7.0', label: 'Tipping' }),
});
const certificate = () => ({ name: 'wifi-ca.pem', content: readFileSync(join(process.cwd(), 'test', 'fixtures', 'tls', 'localhost.crt')) });

async function uploadApp(target: Target): Promise<string> {
  const form = new FormData();
  const file = apk();
  form.append('file', new Blob([file.content]), file.name);
  const response = await fetch(`${target.baseUrl.management}/companies/DemoCompany/androidApps`, { method: 'POST', headers: target.headers, body: form });
  if (!response.ok) throw new Error(`arranging the upload failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

type Arrange = (target: Target, c: ExampleCase) => Promise<Arranged>;

/** A call to an area of the target that must succeed: arranging is not what is under test. */
async function call(target: Target, method: string, path: string, body?: unknown, area: 'checkout' | 'management' = 'checkout'): Promise<any> {
  const response = await fetch(`${target.baseUrl[area]}${path}`, {
    method,
    headers: { ...target.headers, 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`arranging ${method} ${path} failed: ${response.status} ${JSON.stringify(json)}`);
  return json;
}
const post = (target: Target, path: string, body: unknown) => call(target, 'POST', path, body);

const management = (target: Target, method: string, path: string, body?: unknown) => call(target, method, path, body, 'management');

/** A webhook of the demo merchant account that points at the receiver (vaultUrl). */
async function webhook(target: Target): Promise<string> {
  const created = await management(target, 'POST', '/merchants/DemoMerchantECOM/webhooks', {
    type: 'standard',
    url: await vaultUrl(),
    active: true,
    communicationFormat: 'json',
  });
  return created.id as string;
}
const m = 'DemoMerchantECOM';
async function payout(target: Target): Promise<Arranged> {
  const created = await management(target, 'POST', `/merchants/${m}/payoutSettings`, { transferInstrumentId: 'SE322JV223222F5GJVKHH6BDT' });
  return { path: { merchantId: m, payoutSettingsId: created.id } };
}
async function method(target: Target, type: string): Promise<Arranged> {
  const list = await management(target, 'GET', `/merchants/${m}/paymentMethodSettings?pageSize=100`);
  return { path: { merchantId: m, paymentMethodId: list.data.find((x: { type: string }) => x.type === type).id } };
}
const rule = (paymentMethod: string) => ({
  currency: 'EUR',
  fundingSource: 'ANY',
  paymentMethod,
  shopperInteraction: 'Ecommerce',
  splitLogic: { commission: { fixedAmount: 100 } },
});
async function profile(target: Target): Promise<Arranged> {
  const created = await management(target, 'POST', `/merchants/${m}/splitConfigurations`, { description: 'contract', rules: [rule('visa'), rule('mc')] });
  const [first] = created.rules;
  return { path: { merchantId: m, splitConfigurationId: created.splitConfigurationId, ruleId: first.ruleId, splitLogicId: first.splitLogic.splitLogicId } };
}

let references = 0;
/** A store reference no other arrangement has used (references are unique per merchant account). */
const uniqueReference = () => `C${Date.now()}-${++references}`;

const onWebhook: Arrange = async (target) => ({ path: { merchantId: 'DemoMerchantECOM', webhookId: await webhook(target) } });

/** A company webhook of the demo company for both demo merchant accounts, pointing at the receiver (vaultUrl). */
async function companyWebhook(target: Target): Promise<string> {
  const created = await management(target, 'POST', '/companies/DemoCompany/webhooks', {
    type: 'standard',
    url: await vaultUrl(),
    active: true,
    communicationFormat: 'json',
    filterMerchantAccountType: 'includeAccounts',
    filterMerchantAccounts: ['DemoMerchantECOM', 'DemoMerchantPOS'],
  });
  return created.id as string;
}
const onCompanyWebhook: Arrange = async (target) => ({ path: { companyId: 'DemoCompany', webhookId: await companyWebhook(target) } });

const card = {
  type: 'scheme',
  encryptedCardNumber: 'test_4111111111111111',
  encryptedExpiryMonth: 'test_03',
  encryptedExpiryYear: 'test_2030',
  encryptedSecurityCode: 'test_737',
};
const base = { merchantAccount: 'DemoMerchantECOM', returnUrl: 'https://shop.example.com/return' };

async function payment(target: Target, value = 1000, overrides: Record<string, unknown> = {}): Promise<any> {
  return post(target, '/payments', { ...base, amount: { currency: 'EUR', value }, reference: `contract-${Date.now()}`, paymentMethod: card, ...overrides });
}

async function token(target: Target, shopperReference = 'shopper-4711'): Promise<string> {
  const stored = await post(target, '/storedPaymentMethods', {
    merchantAccount: 'DemoMerchantECOM',
    shopperReference,
    recurringProcessingModel: 'CardOnFile',
    paymentMethod: card,
  });
  return stored.id as string;
}

const onPayment =
  (prepare?: (target: Target, psp: string) => Promise<void>): Arrange =>
  async (target) => {
    const psp = (await payment(target, 2000)).pspReference as string;
    if (prepare) await prepare(target, psp);
    return { path: { paymentPspReference: psp } };
  };

/** A new session, named in the path, its data in the example's body. */
async function inSession(target: Target, c: ExampleCase): Promise<Arranged> {
  const created = await session(target);
  return { path: { sessionId: created.id }, body: { ...(c.body as object), sessionData: created.sessionData } };
}

async function session(target: Target): Promise<any> {
  return post(target, '/sessions', { ...base, reference: 'contract-session', amount: { currency: 'EUR', value: 1000 } });
}

/**
 * The receiver the target's webhooks and forward requests go to. `npm run contract` runs one for
 * both of its jest runs and names the address the deployment reaches it at in
 * CONTRACT_RECEIVER_URL (its loopback address, or the --webhook-url that forwards to it);
 * otherwise a loopback third party of this process, answering 201 with a small JSON body.
 */
let vault: Server | undefined;
async function vaultUrl(): Promise<string> {
  if (process.env.CONTRACT_RECEIVER_URL) return process.env.CONTRACT_RECEIVER_URL;
  if (!vault) {
    vault = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"vault-card-1"}'));
    });
    await new Promise<void>((resolve) => vault!.listen(0, '127.0.0.1', resolve));
    // Never the reason a process stays alive; closeArranged() closes it.
    vault.unref();
  }
  return `http://127.0.0.1:${(vault.address() as AddressInfo).port}`;
}
export async function closeArranged(): Promise<void> {
  const open = vault;
  vault = undefined;
  if (!open) return;
  // A deployment's webhook deliveries may hold keep-alive connections to it.
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
}

/** A new company or merchant (DemoMerchantECOM) credential with the checkout role, and its allowed origins. */
async function credential(target: Target, level: 'companies/DemoCompany' | `merchants/${typeof m}`, allowedOrigins: string[] = []): Promise<any> {
  return management(target, 'POST', `/${level}/apiCredentials`, { roles: ['Checkout webservice role'], allowedOrigins, description: 'contract' });
}
const onCredential =
  (level: 'companies/DemoCompany' | `merchants/${typeof m}`, withOrigin = false): Arrange =>
  async (target) => {
    const created = await credential(target, level, withOrigin ? ['https://www.mystore.com'] : []);
    const [scope, id] = level.split('/') as [string, string];
    const path: Record<string, string> = { [scope === 'companies' ? 'companyId' : 'merchantId']: id, apiCredentialId: created.id };
    return { path: withOrigin ? { ...path, originId: created.allowedOrigins[0].id } : path };
  };
/** A user name no earlier run has taken (user names are unique within a company). */
const uniqueEmail = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const withUniqueUser: Arrange = async (_target, c) => {
  const email = uniqueEmail('contract');
  return { body: { ...(c.body as object), email, username: email } };
};
async function user(target: Target, level: 'companies/DemoCompany' | `merchants/${typeof m}`): Promise<Arranged> {
  const email = uniqueEmail('contract-user');
  const created = await management(target, 'POST', `/${level}/users`, { email, username: email, name: { firstName: 'Con', lastName: 'Tract' } });
  const [scope, id] = level.split('/') as [string, string];
  return { path: { [scope === 'companies' ? 'companyId' : 'merchantId']: id, userId: created.id } };
}
/** A pending PayPal Express payment, for the order update at either of its paths. */
const pendingPayPal: Arrange = async (target, c) => {
  const pending = await payment(target, 1500, { paymentMethod: { type: 'paypal', subtype: 'express' } });
  return { body: { ...(c.body as object), pspReference: pending.pspReference, paymentData: pending.action.paymentData } };
};

/** The console's log entry of a new payment, once written (the log is written about a second after the answer). */
async function loggedPayment(target: Target): Promise<Arranged> {
  const psp = (await payment(target)).pspReference as string;
  for (let tries = 0; tries < 100; tries++) {
    const response = await fetch(`${target.baseUrl.console}/requests?pspReference=${psp}`, { headers: target.headers });
    const page = (await response.json()) as { data?: Array<{ id: string }> };
    if (page.data?.[0]) return { path: { requestLogId: page.data[0].id } };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`arranging: the request log never showed the payment ${psp}`);
}

export const ARRANGE: Record<string, Arrange> = {
  getConsoleRequest: loggedPayment,
  getConsolePaymentTimeline: async (target) => ({ path: { pspReference: (await payment(target)).pspReference as string } }),
  listConsoleWebhookDeliveries: async (target) => ({ path: { webhookId: await webhook(target) } }),
  captureAuthorisedPayment: onPayment(),
  cancelAuthorisedPaymentByPspReference: onPayment(),
  refundOrCancelPayment: onPayment(),
  updateAuthorisedAmount: onPayment(),
  refundCapturedPayment: onPayment(async (target, psp) => {
    await post(target, `/payments/${psp}/captures`, { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 2000 } });
  }),
  cancelAuthorisedPayment: async (target, c) => {
    await payment(target, 1000, { reference: (c.body as { paymentReference: string }).paymentReference });
    return {};
  },
  cancelOrder: async (target, c) => {
    const order = await post(target, '/orders', { merchantAccount: 'DemoMerchantECOM', reference: 'contract-order', amount: { currency: 'EUR', value: 2500 } });
    return { body: { ...(c.body as object), order: { pspReference: order.pspReference, orderData: order.orderData } } };
  },
  paymentsDetails: async (target, c) => {
    if (c.scenario === 'threeds2-challenge-result') {
      const native = { authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } } };
      const challenged = await payment(target, 4200, { paymentMethod: { ...card, encryptedCardNumber: 'test_4212345678910006' }, ...native });
      const result = { transStatus: 'Y', authorisationToken: challenged.action.authorisationToken };
      return { body: { details: { threeDSResult: Buffer.from(JSON.stringify(result)).toString('base64') } } };
    }
    const started = await payment(target, 4200, { paymentMethod: { ...card, encryptedCardNumber: 'test_4212345678910006' } });
    const complete = await fetch(`${started.action.url}/complete?outcome=authorised`, { redirect: 'manual' });
    const redirectResult = new URL(complete.headers.get('location')!).searchParams.get('redirectResult');
    return { body: { details: { redirectResult } } };
  },
  sessionPayments: async (target, c) => {
    const created = await session(target);
    return { path: { sessionId: created.id }, body: { ...(c.body as object), sessionData: created.sessionData } };
  },
  sessionPaymentDetails: async (target, c) => {
    const created = await session(target);
    const paid = await post(target, `/sessions/${created.id}/payments`, {
      sessionData: created.sessionData,
      paymentMethod: { ...card, encryptedCardNumber: 'test_4212345678910006' },
    });
    const complete = await fetch(`${paid.action.url}/complete?outcome=authorised`, { redirect: 'manual' });
    const redirectResult = new URL(complete.headers.get('location')!).searchParams.get('redirectResult');
    return { path: { sessionId: created.id }, body: { ...(c.body as object), sessionData: created.sessionData, details: { redirectResult } } };
  },
  // Client-side: the session (and its order or pending payment) made with the API key, as the merchant's server does.
  setupSession: (target, c) => inSession(target, c),
  makeSessionPayment: (target, c) => inSession(target, c),
  checkSessionPaymentMethodBalance: (target, c) => inSession(target, c),
  createSessionOrder: (target, c) => inSession(target, c),
  // The same redirect completed as for checkout's session details, sent from the page.
  submitSessionPaymentDetails: (target, c) => ARRANGE.sessionPaymentDetails!(target, c),
  // The Bancontact mobile payment whose QR code the library shows, made by the merchant's server.
  checkPaymentStatus: async (target, c) => {
    const paid = await post(target, '/payments', {
      merchantAccount: 'DemoMerchantECOM',
      reference: 'contract-qr-code',
      amount: { currency: 'EUR', value: 1000 },
      paymentMethod: { type: 'bcmc_mobile' },
      returnUrl: 'https://shop.example.com/return',
    });
    return { body: { ...(c.body as object), paymentData: paid.action.paymentData } };
  },
  // A native 3D Secure 2 payment waiting for its fingerprint: the full-flow card is challenged next, the frictionless one is not.
  submitThreeDS2Fingerprint: async (target, c) => {
    const number = c.scenario === 'frictionless' ? '5201281505129736' : '5000550000000029';
    const native = { authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } } };
    const identified = await payment(target, 4200, { paymentMethod: { ...card, encryptedCardNumber: `test_${number}` }, ...native });
    return { body: { ...(c.body as object), paymentData: identified.action.paymentData } };
  },
  cancelSessionOrder: async (target, c) => {
    const created = await session(target);
    const order = await post(target, '/orders', {
      merchantAccount: 'DemoMerchantECOM',
      reference: 'contract-session',
      amount: { currency: 'EUR', value: 1000 },
    });
    return {
      path: { sessionId: created.id },
      body: { ...(c.body as object), sessionData: created.sessionData, order: { pspReference: order.pspReference, orderData: order.orderData } },
    };
  },
  getResultOfPaymentSession: async (target) => {
    const created = await session(target);
    const paid = await post(target, `/sessions/${created.id}/payments`, { sessionData: created.sessionData, paymentMethod: card });
    return { path: { sessionId: created.id }, query: { sessionResult: paid.sessionResult } };
  },
  getTokensForStoredPaymentDetails: async (target) => {
    await token(target);
    return {};
  },
  deleteTokenForStoredPaymentDetails: async (target) => ({ path: { storedPaymentMethodId: await token(target) } }),
  forward: async (target, c) => ({ body: { ...(c.body as object), storedPaymentMethodId: await token(target), baseUrl: await vaultUrl() } }),
  getPaymentLink: async (target) => ({
    path: {
      linkId: (
        await post(target, '/paymentLinks', { merchantAccount: 'DemoMerchantECOM', reference: 'contract-link', amount: { currency: 'EUR', value: 4200 } })
      ).id,
    },
  }),
  updatePaymentLink: async (target) => ({
    path: {
      linkId: (
        await post(target, '/paymentLinks', { merchantAccount: 'DemoMerchantECOM', reference: 'contract-link', amount: { currency: 'EUR', value: 4200 } })
      ).id,
    },
  }),
  // A minute, not the example's day: the examples run in any order, and a day would expire the
  // key that the company-key rotation example has just rotated out (24 hours of grace).
  advanceSandboxClock: async () => ({ body: { seconds: 60 } }),
  getSandboxWebhookFaults: async (target) => ({ path: { webhookId: await webhook(target) } }),
  setSandboxWebhookFaults: async (target) => ({ path: { webhookId: await webhook(target) } }),
  // The payment each scenario needs: captured (to fail the capture), refunded (to fail the
  // refund), waiting at the bank page (to close the offer), authorised (to expire it), captured
  // (to dispute it), captured and disputed already (a second dispute is refused).
  triggerSandboxEvent: async (target, c) => {
    if (c.scenario === 'offer-closed') {
      return { path: { paymentPspReference: (await payment(target, 1000, { paymentMethod: { type: 'ideal' } })).pspReference } };
    }
    const psp = (await payment(target, 2000)).pspReference as string;
    if (['capture-failed', 'refund-failed', 'chargeback-won', 'already-disputed'].includes(c.scenario)) {
      await post(target, `/payments/${psp}/captures`, { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 2000 } });
    }
    if (c.scenario === 'refund-failed') {
      await post(target, `/payments/${psp}/refunds`, { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } });
    }
    if (c.scenario === 'already-disputed') await post(target, `/sandbox/payments/${psp}/events`, { eventCode: 'CHARGEBACK' });
    return { path: { paymentPspReference: psp } };
  },
  getMerchantApiCredential: async () => ({ path: { merchantId: 'DemoMerchantECOM', apiCredentialId: 'S2-DEMOMERCHANT1' } }),
  generateNewMerchantApiKey: async () => ({ path: { merchantId: 'DemoMerchantECOM', apiCredentialId: 'S2-DEMOMERCHANT1' } }),
  getAllowedOriginDetails: async (target) => ({
    path: { originId: (await management(target, 'POST', '/me/allowedOrigins', { domain: `https://shop-${Date.now()}.example.com` })).id },
  }),
  removeAllowedOrigin: async (target) => ({
    path: { originId: (await management(target, 'POST', '/me/allowedOrigins', { domain: `https://gone-${Date.now()}.example.com` })).id },
  }),
  addAllowedOrigin: async () => ({ body: { domain: `https://www.shop-${Date.now()}.example.com` } }),
  uploadAndroidApp: async (_target, c) => ({ body: c.body, files: { file: apk() } }),
  uploadAndroidCertificate: async (_target, c) => ({ body: c.body, files: { file: certificate() } }),
  getAndroidApp: async (target) => ({ path: { companyId: 'DemoCompany', id: await uploadApp(target) } }),
  reprocessAndroidApp: async (target) => ({ path: { companyId: 'DemoCompany', id: await uploadApp(target) } }),
  getStoreTerminalSettingsByReference: async () => ({ path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' } }),
  updateStoreTerminalSettingsByReference: async () => ({ path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' } }),
  getPayoutSetting: payout,
  updatePayoutSetting: payout,
  deletePayoutSetting: payout,
  getPaymentMethodDetails: (target) => method(target, 'ideal'),
  updatePaymentMethod: (target) => method(target, 'ideal'),
  addApplePayDomain: (target) => method(target, 'applepay'),
  getApplePayDomains: (target) => method(target, 'applepay'),
  getSplitConfiguration: profile,
  createRule: profile,
  updateSplitConfigurationDescription: profile,
  deleteSplitConfiguration: profile,
  updateSplitConditions: profile,
  deleteSplitConfigurationRule: profile,
  updateSplitLogic: profile,
  setUpWebhook: async (target, c) => ({ body: { ...(c.body as object), url: await vaultUrl() } }),
  getWebhook: onWebhook,
  updateWebhook: onWebhook,
  removeWebhook: onWebhook,
  generateHmacKey: onWebhook,
  testWebhook: onWebhook,
  listWebhookEvents: onWebhook,
  resendWebhookEvent: async (target) => {
    const webhookId = await webhook(target);
    await payment(target, 1000);
    const events = await management(target, 'GET', `/merchants/DemoMerchantECOM/webhooks/${webhookId}/events`);
    return { path: { merchantId: 'DemoMerchantECOM', webhookId, eventId: String(events.data[0].eventId) } };
  },
  setUpCompanyWebhook: async (target, c) => ({ body: { ...(c.body as object), url: await vaultUrl() } }),
  getCompanyWebhook: onCompanyWebhook,
  updateCompanyWebhook: onCompanyWebhook,
  removeCompanyWebhook: onCompanyWebhook,
  generateCompanyHmacKey: onCompanyWebhook,
  testCompanyWebhook: onCompanyWebhook,
  listCompanyWebhookEvents: onCompanyWebhook,
  resendCompanyWebhookEvent: async (target) => {
    const webhookId = await companyWebhook(target);
    await payment(target, 1000);
    const events = await management(target, 'GET', `/companies/DemoCompany/webhooks/${webhookId}/events`);
    return { path: { companyId: 'DemoCompany', webhookId, eventId: String(events.data[0].eventId) } };
  },
  createStore: async (_target, c) => ({ body: { ...(c.body as object), reference: uniqueReference() } }),
  createStoreByMerchantId: async (_target, c) => ({ body: { ...(c.body as object), reference: uniqueReference() } }),
  getStore: async () => ({ path: { merchantId: 'DemoMerchantPOS', storeId: 'ST322LJ223223K5F4SQNR9XL5' } }),
  updateStore: async () => ({ path: { merchantId: 'DemoMerchantPOS', storeId: 'ST322LJ223223K5F4SQNR9XL5' } }),
  getStoreTerminalLogoByReference: async () => ({ path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' } }),
  updateStoreTerminalLogoByReference: async () => ({ path: { merchantId: 'DemoMerchantPOS', reference: 'AMS01' } }),
  // A store of DemoMerchantECOM (the seed's stores are DemoMerchantPOS's), so the ECOM credential may board to it.
  boardSandboxTerminal: async (target, c) => {
    const store = await management(target, 'POST', '/stores', {
      merchantId: 'DemoMerchantECOM',
      reference: uniqueReference(),
      description: 'Contract store',
      shopperStatement: 'Contract store',
      phoneNumber: '+31301234567',
      address: { country: 'NL' },
    });
    return { body: { ...(c.body as object), storeId: store.id } };
  },
  updatesOrderForPaypalExpressCheckout: pendingPayPal,
  updateWalletOrder: pendingPayPal,
  donations: async (target, c) => {
    const body = c.body as { donationToken?: string; paymentMethod?: { storedPaymentMethodId?: string }; shopperReference?: string };
    if (body.donationToken !== undefined) {
      // A fresh authorised payment: its donation token pays for one donation.
      const paid = await payment(target, 2500);
      return { body: { ...body, donationOriginalPspReference: paid.pspReference, donationToken: paid.donationToken } };
    }
    const storedPaymentMethodId = await token(target, body.shopperReference);
    return { body: { ...body, paymentMethod: { ...body.paymentMethod, storedPaymentMethodId } } };
  },
  updateCompanyApiCredential: onCredential('companies/DemoCompany'),
  generateNewCompanyClientKey: onCredential('companies/DemoCompany'),
  createCompanyAllowedOrigin: onCredential('companies/DemoCompany'),
  getCompanyAllowedOrigin: onCredential('companies/DemoCompany', true),
  deleteCompanyAllowedOrigin: onCredential('companies/DemoCompany', true),
  updateMerchantApiCredential: onCredential(`merchants/${m}`),
  generateNewMerchantClientKey: onCredential(`merchants/${m}`),
  listMerchantAllowedOrigins: onCredential(`merchants/${m}`, true),
  createMerchantAllowedOrigin: onCredential(`merchants/${m}`),
  getMerchantAllowedOrigin: onCredential(`merchants/${m}`, true),
  deleteMerchantAllowedOrigin: onCredential(`merchants/${m}`, true),
  createNewCompanyUser: withUniqueUser,
  createNewMerchantUser: withUniqueUser,
  getCompanyUserDetails: (target) => user(target, 'companies/DemoCompany'),
  updateCompanyUserDetails: (target) => user(target, 'companies/DemoCompany'),
  getMerchantUserDetails: (target) => user(target, `merchants/${m}`),
  updateMerchantUser: (target) => user(target, `merchants/${m}`),
};
