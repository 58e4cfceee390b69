/**
 * Adyen's own browser library (@adyen/adyen-web, Drop-in from a session) paying with the methods
 * that leave the shop's page or wait outside it: iDEAL and Klarna (the sandbox's bank pages, then
 * back to the shop's return page), SEPA Direct Debit (Drop-in's own fields) and Bancontact mobile
 * (a QR code the page polls for while the shopper pays in the sandbox's app page). Nothing may
 * leave loopback; each payment's final state is read with the merchant's API key.
 *
 * What the library (6.45.2, its source maps) does, and these tests rely on:
 * - A method Drop-in has no component for (iDEAL in v6 has none, nor an issuer list) is drawn by
 *   its Redirect component, whose Pay button sends `paymentMethod: { type }` (with the library's
 *   own `checkoutAttemptId` and `sdkData`, no issuer). A `redirect`
 *   action is followed with `window.location.assign(url)` for GET, or a hidden form it submits
 *   for POST (its `data` as fields).
 * - Klarna (without `useKlarnaWidget`) sends `paymentMethod: { type: 'klarna' }`, then follows the
 *   redirect action as above.
 * - SEPA Direct Debit draws two inputs, `ownerName` and `ibanNumber`, and sends
 *   `paymentMethod: { type: 'sepadirectdebit', iban, ownerName }`, the IBAN grouped by four with
 *   spaces as the input shows it.
 * - On the return page, `checkout.submitDetails({ details: { redirectResult } })` with a session
 *   posts `{ sessionData, details }` to `v1/sessions/{id}/paymentDetails?clientKey=`; the session
 *   data comes from localStorage when the page gave `session: { id }` only. Its answer goes to
 *   onPaymentCompleted (onPaymentFailed for Refused, Cancelled, Error) with `sessionResult` kept.
 * - A `qrCode` action with `paymentData` makes the BcmcMobile component poll
 *   `services/PaymentInitiation/v1/status?clientKey=` with `{ paymentData }` every 2 s. An answer
 *   `type: 'pending'` polls on; `type: 'complete'` with a `payload` ends the polling and submits
 *   `{ details: { payload }, paymentData }` to the session's paymentDetails (for a refused
 *   resultCode too). It shows the picture `utility/v1/barcode.png?type=qrCode&data=…&clientKey=` (the
 *   data not URL-encoded), which the sandbox draws.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO } from '../../server/seed.js';
import {
  bundleShop,
  type PageWatch,
  saveScreenshots,
  SHOP_PAGE,
  sendShopFile,
  type Shop,
  type ShopBundle,
  startShop,
  watchPage,
} from '../helpers/adyen-web-shop.js';
import { launchBrowser } from '../helpers/browser.js';
import { createSession, demoClientKey } from '../helpers/clientside.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

/**
 * The shop's script: Drop-in from a session on `/`; on `/return` the checkout from the session's
 * id alone finishes the payment with the redirectResult of the address. Each callback's outcome
 * is kept on `window` for the test to read.
 */
const SHOP_SCRIPT = `
import { AdyenCheckout, Dropin, Card, Bancontact, Redirect, Klarna, SepaDirectDebit, BcmcMobile, Multibanco } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';

const outcome = (callback) => (result) => {
  window.shopOutcome = { callback, resultCode: result && result.resultCode, sessionResult: result && result.sessionResult };
};

(async () => {
  const config = await (await fetch('/config.json')).json();
  const api = config.api;
  const returning = location.pathname === '/return';
  const checkout = await AdyenCheckout({
    environment: 'test',
    clientKey: config.clientKey,
    session: returning ? { id: config.session.id } : config.session,
    countryCode: config.countryCode,
    locale: 'en-US',
    _environmentUrls: { api, analytics: api, cdn: { images: api, translations: api } },
    risk: { enabled: false },
    onPaymentCompleted: outcome('completed'),
    onPaymentFailed: outcome('failed'),
    onError: (error) => { (window.shopErrors ??= []).push(String(error && error.message)); },
  });
  if (returning) {
    checkout.submitDetails({ details: { redirectResult: new URLSearchParams(location.search).get('redirectResult') } });
    return;
  }
  new Dropin(checkout, { paymentMethodComponents: [Card, Bancontact, Redirect, Klarna, SepaDirectDebit, BcmcMobile, Multibanco] }).mount('#dropin');
})();
`;

let server: TestServer;
let browser: Browser;
let clientKey: string;
let session: { id: string; sessionData: string };
let countryCode: string;
let shop: Shop;
let context: BrowserContext;
let page: Page;
let watch: PageWatch;

/** The shop's return page: the same page as its checkout; the script sees the path. */
const returnPage = (req: IncomingMessage, res: ServerResponse) => {
  if ((req.url ?? '').split('?')[0] !== '/return') return false;
  sendShopFile(res, 'text/html', SHOP_PAGE);
  return true;
};

beforeAll(async () => {
  let bundle: ShopBundle;
  [browser, server, bundle] = await Promise.all([launchBrowser(), startServer(), bundleShop(SHOP_SCRIPT)]);
  clientKey = await demoClientKey(server);
  // The demo shop's Bancontact setting offers the Bancontact app's QR code too.
  const { data: settings } = await server.management.GET('/merchants/{merchantId}/paymentMethodSettings', {
    params: { path: { merchantId: DEMO.merchantEcom }, query: { pageSize: 100 } },
  });
  const bcmc = settings!.data!.find((setting) => setting.type === 'bcmc')!;
  await server.management.PATCH('/merchants/{merchantId}/paymentMethodSettings/{paymentMethodId}', {
    params: { path: { merchantId: DEMO.merchantEcom, paymentMethodId: bcmc.id } },
    body: { bcmc: { enableBcmcMobile: true } },
  });
  // And Multibanco for Portugal (the seed does not offer it).
  const multibanco = await server.management.POST('/merchants/{merchantId}/paymentMethodSettings', {
    params: { path: { merchantId: DEMO.merchantEcom } },
    body: { type: 'multibanco', countries: ['PT'], currencies: ['EUR'] },
  });
  expect(multibanco.response.status).toBe(200);
  shop = await startShop({
    bundle,
    config: () => ({ api: `${server.clientsideUrl}/`, clientKey, session, countryCode }),
    routes: returnPage,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await shop?.close();
});

beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  watch = watchPage(page);
});

afterEach(async () => {
  await context?.close();
  expect(watch.ourPageErrors).toEqual([]);
  expect(watch.leftLoopback()).toEqual([]);
});

/** A session of the demo shop for EUR 10.00 (one item, for Klarna) that returns to the shop's return page. */
async function openSession(country: string, methods: string[]): Promise<void> {
  countryCode = country;
  session = await createSession(server, {
    countryCode: country,
    allowedPaymentMethods: methods,
    returnUrl: `${shop.url}/return`,
    shopperEmail: 'shopper@example.com',
    lineItems: [{ id: 'tee', description: 'T-shirt', quantity: 1, amountIncludingTax: 1000, amountExcludingTax: 826, taxAmount: 174, taxPercentage: 2100 }],
  });
}

/** Opens the shop and the payment method's item in Drop-in (Drop-in opens a session's only method by itself); returns the item. */
async function choose(type: string) {
  await page.goto(shop.url);
  const method = page.locator(`.adyen-checkout__payment-method--${type}`);
  await method.waitFor();
  if (!(await method.getAttribute('class'))?.includes('adyen-checkout__payment-method--selected')) {
    await method.locator('.adyen-checkout__payment-method__header').click();
  }
  await method.locator('.adyen-checkout__button--pay').waitFor();
  return method;
}

/** What the shop's callbacks got, once one was called. */
async function outcome(): Promise<{ callback: string; resultCode?: string; sessionResult?: string }> {
  await page.waitForFunction('window.shopOutcome !== undefined', undefined, { timeout: 30_000 });
  return page.evaluate('window.shopOutcome');
}

/** The paymentMethod of the state data Drop-in sends to pay in the session, once it is sent. */
const sentMethod = () =>
  page
    .waitForRequest((request) => request.url().includes(`/v1/sessions/${session.id}/payments?`))
    .then((request) => (request.postDataJSON() as { paymentMethod: Record<string, unknown> }).paymentMethod);

/** The session's payments as the merchant's server reads them with its API key. */
async function sessionState(sessionResult: string | undefined) {
  const { data } = await server.checkout.GET('/sessions/{sessionId}', {
    params: { path: { sessionId: session.id }, query: { sessionResult: sessionResult ?? '' } },
  });
  return { status: data?.status, payments: data?.payments?.map((p) => ({ resultCode: p.resultCode, type: p.paymentMethod?.type })) };
}

describe('Drop-in of @adyen/adyen-web with redirect, direct debit and QR code methods against the sandbox', () => {
  test('When a shopper pays with iDEAL and approves at the bank, then the shop return page gets Authorised', async () => {
    await openSession('NL', ['ideal']);
    const ideal = await choose('ideal');
    const sent = sentMethod();

    await ideal.locator('.adyen-checkout__button--pay').click();
    // No issuer: iDEAL 2.0 has the shopper pick the bank after the redirect.
    expect(await sent).toEqual({ type: 'ideal', checkoutAttemptId: expect.any(String), sdkData: expect.any(String) });
    await page.waitForURL(/\/hosted\/ideal\//);
    await page.locator('#authorise').click();
    await page.waitForURL(`${shop.url}/return?**`);

    expect(await outcome()).toMatchObject({ callback: 'completed', resultCode: 'Authorised' });
    await saveScreenshots(page, 'dropin-ideal');
    expect(await sessionState((await outcome()).sessionResult)).toEqual({ status: 'completed', payments: [{ resultCode: 'Authorised', type: 'ideal' }] });
    expect(await page.evaluate('window.shopErrors ?? []')).toEqual([]);
  }, 60_000);

  test('When a shopper pays with Klarna and buys on its page, then the shop return page gets Authorised', async () => {
    await openSession('NL', ['klarna']);
    const klarna = await choose('klarna');

    await klarna.locator('.adyen-checkout__button--pay').click();
    await page.waitForURL(/\/hosted\/klarna\//);
    expect(await page.locator('dt', { hasText: 'T-shirt' }).count()).toBe(1);
    await page.locator('#authorise').click();
    await page.waitForURL(`${shop.url}/return?**`);

    expect(await outcome()).toMatchObject({ callback: 'completed', resultCode: 'Authorised' });
    await saveScreenshots(page, 'dropin-klarna');
    expect(await sessionState((await outcome()).sessionResult)).toEqual({ status: 'completed', payments: [{ resultCode: 'Authorised', type: 'klarna' }] });
  }, 60_000);

  test('When a shopper declines at Klarna, then the shop return page gets Refused through onPaymentFailed', async () => {
    await openSession('NL', ['klarna']);
    const klarna = await choose('klarna');

    await klarna.locator('.adyen-checkout__button--pay').click();
    await page.waitForURL(/\/hosted\/klarna\//);
    await page.locator('#refuse').click();
    await page.waitForURL(`${shop.url}/return?**`);

    expect(await outcome()).toMatchObject({ callback: 'failed', resultCode: 'Refused' });
  }, 60_000);

  test("When a shopper types an IBAN into Drop-in's SEPA Direct Debit fields, then onPaymentCompleted gets Received", async () => {
    await openSession('NL', ['sepadirectdebit']);
    const sepa = await choose('sepadirectdebit');

    await sepa.locator('input[name="ownerName"]').fill('A. Klaassen');
    await sepa.locator('input[name="ibanNumber"]').pressSequentially('NL13TEST0123456789');
    const sent = sentMethod();
    await sepa.locator('.adyen-checkout__button--pay').click();

    expect(await sent).toMatchObject({ type: 'sepadirectdebit', iban: 'NL13 TEST 0123 4567 89', ownerName: 'A. Klaassen' });

    expect(await outcome()).toMatchObject({ callback: 'completed', resultCode: 'Received' });
    await saveScreenshots(page, 'dropin-sepa');
    expect(await sessionState((await outcome()).sessionResult)).toEqual({
      status: 'paymentPending',
      payments: [{ resultCode: 'Received', type: 'sepadirectdebit' }],
    });
  }, 60_000);

  test('When a shopper pays with Bancontact mobile, then the page polls while the QR code shows, and completes once the app has paid', async () => {
    await openSession('BE', ['bcmc_mobile']);
    const bcmcMobile = await choose('bcmc_mobile');
    const paid = page.waitForResponse((response) => response.url().includes(`/v1/sessions/${session.id}/payments`));

    await bcmcMobile.locator('.adyen-checkout__button--pay').click();
    const action = ((await (await paid).json()) as { action: { qrCodeData: string } }).action;
    await page.locator('.adyen-checkout__qr-loader').waitFor();
    // The QR code's picture, drawn by the sandbox, is shown.
    await page.waitForFunction(`document.querySelector('[data-testid="bcmc_mobile-qr-image"]')?.naturalWidth > 0`);
    await saveScreenshots(page, 'dropin-bancontact-qr');
    await page.waitForResponse((response) => response.url().includes('/services/PaymentInitiation/v1/status') && response.status() === 200);
    expect(await page.evaluate('window.shopOutcome')).toBeUndefined();
    // The shopper scans the code and pays in the app: the sandbox's app page, outside the shop's browser.
    const app = await fetch(action.qrCodeData);
    expect(app.status).toBe(200);
    expect((await fetch(`${action.qrCodeData}/answer`, { method: 'POST', body: new URLSearchParams({ outcome: 'authorised' }) })).status).toBe(200);

    expect(await outcome()).toMatchObject({ callback: 'completed', resultCode: 'Authorised' });
    expect(await sessionState((await outcome()).sessionResult)).toEqual({ status: 'completed', payments: [{ resultCode: 'Authorised', type: 'bcmc_mobile' }] });
  }, 60_000);

  test('When the shopper declines in the Bancontact app, then the polling page gets Refused through onPaymentFailed', async () => {
    await openSession('BE', ['bcmc_mobile']);
    const bcmcMobile = await choose('bcmc_mobile');
    const paid = page.waitForResponse((response) => response.url().includes(`/v1/sessions/${session.id}/payments`));

    await bcmcMobile.locator('.adyen-checkout__button--pay').click();
    const action = ((await (await paid).json()) as { action: { qrCodeData: string } }).action;
    await page.locator('.adyen-checkout__qr-loader').waitFor();
    await fetch(`${action.qrCodeData}/answer`, { method: 'POST', body: new URLSearchParams({ outcome: 'refused' }) });

    expect(await outcome()).toMatchObject({ callback: 'failed', resultCode: 'Refused' });
    expect(await sessionState((await outcome()).sessionResult)).toEqual({ status: 'refused', payments: [{ resultCode: 'Refused', type: 'bcmc_mobile' }] });
  }, 60_000);

  test("When a shopper pays with a Bancontact card, then it is typed into our fields without a security code, authenticated on the sandbox's 3D Secure page and the return page gets Authorised", async () => {
    await openSession('BE', ['bcmc']);
    const bcmc = await choose('bcmc');
    const cardField = (type: string) => bcmc.frameLocator(`[data-cse="${type}"] iframe`).locator('input');
    await cardField('encryptedCardNumber').pressSequentially('6703 4444 4444 4449');
    await cardField('encryptedExpiryDate').pressSequentially('03/30');
    // A Bancontact card has no security code: Drop-in hides its field once our page names the brand.
    expect(await bcmc.locator('[data-cse="encryptedSecurityCode"]:visible').count()).toBe(0);
    const sent = sentMethod();

    await bcmc.locator('.adyen-checkout__button--pay').click();
    expect(await sent).toMatchObject({
      type: 'bcmc',
      encryptedCardNumber: 'test_6703444444444449',
      encryptedExpiryMonth: 'test_03',
      encryptedExpiryYear: 'test_2030',
    });
    // Bancontact cards are enrolled: the bank's 3D Secure page (the sandbox's), then back to the shop.
    await page.waitForURL(/\/hosted\/3ds\//);
    await page.locator('#authorise').click();

    expect(await outcome()).toMatchObject({ callback: 'completed', resultCode: 'Authorised' });
    await saveScreenshots(page, 'dropin-bancontact-card');
    expect(await sessionState((await outcome()).sessionResult)).toEqual({ status: 'completed', payments: [{ resultCode: 'Authorised', type: 'bcmc' }] });
  }, 60_000);

  test('When a shopper chooses Multibanco, then Drop-in shows the voucher to pay, and the payment is authorised once the voucher is paid', async () => {
    await openSession('PT', ['multibanco']);
    const multibanco = await choose('multibanco');
    const paid = page.waitForResponse((response) => response.url().includes(`/v1/sessions/${session.id}/payments`));

    await multibanco.locator('.adyen-checkout__button--pay').click();
    const { action, resultCode } = (await (await paid).json()) as { resultCode: string; action: { entity: string; reference: string; downloadUrl: string } };
    expect(resultCode).toBe('PresentToShopper');
    // The voucher as Drop-in shows it: the entity, the reference (grouped for reading) and the amount.
    const voucher = page.locator('.adyen-checkout__voucher-result');
    await voucher.waitFor();
    const shown = await voucher.innerText();
    expect(shown).toContain(action.entity);
    expect(shown.replace(/\s/g, '')).toContain(action.reference);
    expect(shown).toContain('€10.00');
    await saveScreenshots(page, 'dropin-multibanco-voucher');

    // The shopper pays at an ATM: the sandbox's voucher page stands for it; the dispatcher then settles the payment.
    const pspReference = new URL(action.downloadUrl).pathname.split('/').pop()!;
    expect((await fetch(`${action.downloadUrl}/pay`, { method: 'POST' })).status).toBe(200);
    await server.dispatcher.drain();
    expect(await server.store.read((tx) => tx.payments.get(pspReference))).toMatchObject({ resultCode: 'Authorised', paymentMethodType: 'multibanco' });
  }, 60_000);

  test('When the QR code picture is asked for with an unknown client key or another barcode type, then it answers 404', async () => {
    const barcode = (query: string) => fetch(`${server.clientsideUrl}/utility/v1/barcode.png?${query}`);

    expect((await barcode(`type=qrCode&data=hello&clientKey=${clientKey}`)).headers.get('content-type')).toBe('image/png');
    expect((await barcode('type=qrCode&data=hello&clientKey=test_UNKNOWN')).status).toBe(404);
    expect((await barcode(`type=code128&data=hello&clientKey=${clientKey}`)).status).toBe(404);
  });
});
