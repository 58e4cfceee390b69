/**
 * Native 3D Secure 2 in Adyen's own Drop-in (@adyen/adyen-web 6.45.2, sessions flow) against the
 * sandbox, in headless Chromium: the library runs its own fingerprint and challenge iframes on
 * the sandbox's issuer pages (server/checkout/payments/three-ds2-pages.ts), submits the
 * fingerprint itself and finishes the payment through the session. Nothing may leave loopback,
 * and our framed pages may log no error.
 *
 * What the library does, read from its sources (the source maps in
 * node_modules/@adyen/adyen-web/dist/es/**), and what this test relies on:
 * - A `threeDS2` action is handled by Drop-in (core/ProcessResponse/PaymentAction/actionTypes.ts):
 *   subtype `fingerprint` mounts ThreeDS2DeviceFingerprint with `paymentData` = the action's
 *   `paymentData`; subtype `challenge` mounts ThreeDS2Challenge with `paymentData` = the action's
 *   `authorisationToken`. The token is base64 JSON (components/ThreeDS2/components/utils.ts).
 * - Fingerprint (PrepareFingerprint3DS2, DoFingerprint3DS2): the token's `threeDSMethodUrl`,
 *   `threeDSMethodNotificationURL` and `threeDSServerTransID`. Without a valid method URL it
 *   sends `threeDSCompInd` `U` at once; otherwise it POSTs a hidden form, input
 *   `threeDSMethodData` = base64url (no padding) of `{threeDSServerTransID,
 *   threeDSMethodNotificationURL}`, into the hidden iframe `threeDSMethodIframe`, and waits 10 s
 *   for a message: `Y` when it comes, `N` on the timeout (or a token missing the other fields).
 * - Challenge (PrepareChallenge3DS2, DoChallenge3DS2): the token's `acsURL`, `acsTransID`,
 *   `messageVersion`, `threeDSServerTransID`, `threeDSNotificationURL`; it POSTs a form, input
 *   `creq` = base64url of `{acsTransID, messageVersion, threeDSServerTransID, messageType: 'CReq',
 *   challengeWindowSize: '02'}`, into the iframe `threeDSIframe` (390 × 400 px), and waits up to
 *   10 minutes for a message; the timeout reports `transStatus` `U`.
 * - Both URLs and the notification URL's origin must be https (utils/isValidURL.ts): http only
 *   when `_environmentUrls.api` contains `http://localhost:8080`. Hence the sandbox here serves
 *   HTTPS on localhost with the test certificate, which the browser context accepts.
 * - The message (utils/get-process-message-handler.ts) counts only from the origin of the
 *   notification URL (getOrigin of `threeDSMethodNotificationURL` / `threeDSNotificationURL`),
 *   only as a string of JSON whose `type` is `fingerPrintResult` (fingerprint) or
 *   `challengeResult` (challenge); its `result` is taken as is: `{threeDSCompInd}` /
 *   `{transStatus}`.
 * - After the fingerprint (callSubmit3DS2Fingerprint.ts) it POSTs
 *   `{fingerprintResult: base64({threeDSCompInd}), paymentData}` to
 *   `{api}v1/submitThreeDS2Fingerprint?token=<clientKey>`: `{type: 'action', action}` runs the
 *   (challenge) action, `{type: 'completed', details}` goes on as the details below.
 * - After the challenge it sends `details: {threeDSResult: base64({transStatus,
 *   authorisationToken})}`; in the sessions flow (UIElement.submitAdditionalDetailsUsingSessionsFlow,
 *   core/Services/sessions/submit-details.ts) as `{sessionData, details}` to
 *   `{api}v1/sessions/{id}/paymentDetails?clientKey=<clientKey>`. `Refused`, `Cancelled` and
 *   `Error` call onPaymentFailed, others onPaymentCompleted.
 * - Each iframe's load calls onActionHandled with `componentType` `3DS2Fingerprint` or
 *   `3DS2Challenge` (once or more: the iframe loads again as its form posts).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { DEMO } from '../../server/seed.js';
import {
  bundleShop,
  type PageWatch,
  saveScreenshots,
  type Shop,
  type ShopBundle,
  shopOutcome,
  startShop,
  typeCard,
  watchPage,
} from '../helpers/adyen-web-shop.js';
import { launchBrowser } from '../helpers/browser.js';
import { createSession, demoClientKey } from '../helpers/clientside.js';
import { recordedEvents, storedPayment } from '../helpers/methods.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

/** The shop's script: Drop-in with Card from a session; the outcome and the actions Drop-in ran kept on `window`. */
const SHOP_SCRIPT = `
import { AdyenCheckout, Dropin, Card } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';

const outcome = (callback) => (result) => {
  window.shopOutcome = { callback, resultCode: result && result.resultCode };
  window.shopSessionResult = result && result.sessionResult;
};

(async () => {
  const config = await (await fetch('/config.json')).json();
  const api = config.api;
  const checkout = await AdyenCheckout({
    environment: 'test',
    clientKey: config.clientKey,
    session: config.session,
    countryCode: 'NL',
    locale: 'en-US',
    _environmentUrls: { api, analytics: api, cdn: { images: api, translations: api } },
    // The device fingerprint page is Adyen's, not the sandbox's.
    risk: { enabled: false },
    onActionHandled: (handled) => { (window.shopActions ??= []).push(handled.componentType); },
    onPaymentCompleted: outcome('completed'),
    onPaymentFailed: outcome('failed'),
    onError: (error) => { (window.shopErrors ??= []).push(String(error && error.message)); },
  });
  new Dropin(checkout, {
    paymentMethodComponents: [Card],
    paymentMethodsConfiguration: { card: { hasHolderName: true, holderNameRequired: true } },
  }).mount('#dropin');
})();
`;

const CHALLENGE_CARD = { number: '4212 3456 7891 0006', expiry: '03/30', cvc: '737', holderName: 'John Smith' };
const FULL_FLOW_CARD = { number: '5000 5500 0000 0029', expiry: '03/30', cvc: '737', holderName: 'John Smith' };

let server: TestServer;
let browser: Browser;
let clientKey: string;
let session: { id: string; sessionData: string };
let shop: Shop;
let context: BrowserContext;
let page: Page;
let watch: PageWatch;
/** The JSON requests the page sent (the library's calls). */
let sent: Array<{ url: string; body: string }>;
let targetOrigins: string[];

beforeAll(async () => {
  let bundle: ShopBundle;
  // HTTPS: the library refuses http 3DS method, ACS and notification addresses.
  [browser, server, bundle] = await Promise.all([launchBrowser({ trustTestCertificate: true }), startServer({}, { https: true }), bundleShop(SHOP_SCRIPT)]);
  clientKey = await demoClientKey(server);
  shop = await startShop({ bundle, config: () => ({ api: `${server.clientsideUrl}/`, clientKey, session }) });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await shop?.close();
});

beforeEach(async () => {
  session = await createSession(server, {
    countryCode: 'NL',
    allowedPaymentMethods: ['scheme'],
    authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  watch = watchPage(page);
  sent = [];
  targetOrigins = [];
  page.on('request', (request) => {
    const body = request.postData();
    if (body !== null && request.headers()['content-type'] === 'application/json') sent.push({ url: request.url(), body });
  });
  // Where each notification page posts its message (the shop's origin, which started the step).
  page.on('response', async (response) => {
    if (!response.url().includes('/hosted/3ds2/notification')) return;
    targetOrigins.push(/data-target-origin="([^"]*)"/.exec(await response.text())?.[1] ?? '');
  });
});

afterEach(async () => {
  await context?.close();
  expect(watch.ourPageErrors).toEqual([]);
  expect(watch.leftLoopback()).toEqual([]);
});

async function payWithCard(card: typeof CHALLENGE_CARD): Promise<void> {
  await typeCard(page, shop.url, card);
  await page.locator('.adyen-checkout__button--pay').click();
}

/** The issuer's challenge, in the iframe Drop-in made for it. */
const challenge = (): FrameLocator => page.frameLocator('iframe[name="threeDSIframe"]');

/** Answers the challenge as the shopper: the password into the labelled field, then Confirm. */
async function answerChallenge(password: string): Promise<void> {
  await challenge().getByLabel('Password').fill(password);
  await challenge().getByRole('button', { name: 'Confirm' }).click();
}

/** The JSON bodies the page sent to addresses that contain `part`. */
const sentTo = (part: string) => sent.filter((request) => request.url.includes(part)).map((request) => JSON.parse(request.body) as Record<string, any>);
const decode = (text: string) => JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Record<string, string>;

/** The addresses of the page's requests that contain `part`, without their query. */
const requestedPaths = (part: string) => watch.requested.filter((url) => url.includes(part)).map((url) => new URL(url).pathname);

/**
 * The session's one payment as the checkout API reads it (GET /sessions/{id} with the session result
 * Drop-in was given), its AUTHORISATION event, and its 3D Secure 2 result as the payment keeps it.
 */
async function expectPaymentOfSession(resultCode: 'Authorised' | 'Refused', transStatus: 'Y' | 'N') {
  const sessionResult = await page.evaluate<string>('window.shopSessionResult');
  const { data } = await server.checkout.GET('/sessions/{sessionId}', { params: { path: { sessionId: session.id }, query: { sessionResult } } });
  expect(data).toMatchObject({
    status: resultCode === 'Authorised' ? 'completed' : 'refused',
    payments: [{ resultCode, amount: { currency: 'EUR', value: 1000 } }],
  });
  const psp = data!.payments![0]!.pspReference!;
  expect(await recordedEvents(server, psp)).toEqual([`AUTHORISATION:${resultCode === 'Authorised'}`]);
  const payment = await storedPayment(server, psp);
  expect(payment).toMatchObject({ resultCode, refusalReason: resultCode === 'Refused' ? '3D Not Authenticated' : null });
  expect(payment?.methodState.threeDS).toMatchObject({ mode: 'native', acsAnswer: transStatus, result: { transStatus } });
  return psp;
}

describe('Native 3D Secure 2 in Drop-in of @adyen/adyen-web against the sandbox', () => {
  test("When the challenge card is paid and the shopper types 'password' into the issuer's challenge, then onPaymentCompleted gets Authorised", async () => {
    await payWithCard(CHALLENGE_CARD);
    await challenge().getByLabel('Password').waitFor();
    await saveScreenshots(page, 'dropin-3ds2-challenge');
    await page.setViewportSize({ width: 1280, height: 900 });
    await answerChallenge('password');

    expect(await shopOutcome(page)).toEqual({ callback: 'completed', resultCode: 'Authorised' });
    await saveScreenshots(page, 'dropin-3ds2-authorised');
    expect(await page.locator('.adyen-checkout__status--success').count()).toBe(1);
    expect(await page.evaluate('window.shopErrors ?? []')).toEqual([]);
    expect(new Set(await page.evaluate<string[]>('window.shopActions ?? []'))).toEqual(new Set(['3DS2Challenge']));
    const psp = await expectPaymentOfSession('Authorised', 'Y');
    expect(requestedPaths('/hosted/3ds2/')).toEqual([`/hosted/3ds2/acs/${psp}`, `/hosted/3ds2/acs/${psp}/answer`, '/hosted/3ds2/notification']);
    expect(targetOrigins).toEqual([shop.url]);
    expect(requestedPaths('/v1/submitThreeDS2Fingerprint')).toEqual([]);
    // What the notification page posted, as the library passed it on.
    const [details] = sentTo(`/v1/sessions/${session.id}/paymentDetails`);
    expect(decode(details!.details.threeDSResult)).toEqual({ transStatus: 'Y', authorisationToken: expect.any(String) });
  }, 60_000);

  test('When the shopper types another password into the challenge, then onPaymentFailed gets Refused', async () => {
    await payWithCard(CHALLENGE_CARD);
    await answerChallenge('not-the-password');

    expect(await shopOutcome(page)).toEqual({ callback: 'failed', resultCode: 'Refused' });
    expect(await page.evaluate('window.shopErrors ?? []')).toEqual([]);
    await expectPaymentOfSession('Refused', 'N');
    const [details] = sentTo(`/v1/sessions/${session.id}/paymentDetails`);
    expect(decode(details!.details.threeDSResult)).toMatchObject({ transStatus: 'N' });
  }, 60_000);

  test("When the full-flow card is paid, then Drop-in's fingerprint iframe and its own fingerprint call come first, then the challenge, and 'password' authorises it", async () => {
    await payWithCard(FULL_FLOW_CARD);
    await answerChallenge('password');

    expect(await shopOutcome(page)).toEqual({ callback: 'completed', resultCode: 'Authorised' });
    expect(await page.evaluate('window.shopErrors ?? []')).toEqual([]);
    expect(new Set(await page.evaluate<string[]>('window.shopActions ?? []'))).toEqual(new Set(['3DS2Fingerprint', '3DS2Challenge']));
    const psp = await expectPaymentOfSession('Authorised', 'Y');
    expect(requestedPaths('/hosted/3ds2/')).toEqual([
      '/hosted/3ds2/method',
      '/hosted/3ds2/notification',
      `/hosted/3ds2/acs/${psp}`,
      `/hosted/3ds2/acs/${psp}/answer`,
      '/hosted/3ds2/notification',
    ]);
    expect(targetOrigins).toEqual([shop.url, shop.url]);
    // The method page reported back (Y, not the timeout's N); the fingerprint went to the library's own call, with the action's paymentData.
    const [fingerprint] = sentTo('/v1/submitThreeDS2Fingerprint');
    expect(decode(fingerprint!.fingerprintResult)).toEqual({ threeDSCompInd: 'Y' });
    expect(fingerprint!.paymentData).toEqual(expect.any(String));
    const [paid] = sentTo(`/v1/sessions/${session.id}/payments`);
    expect(paid).toBeDefined();
    const details = sentTo(`/v1/sessions/${session.id}/paymentDetails`);
    expect(details).toHaveLength(1);
    expect(decode(details[0]!.details.threeDSResult)).toEqual({ transStatus: 'Y', authorisationToken: expect.any(String) });
  }, 60_000);

  test("When the issuer's pages are served, then any page may frame them, their policy allows nothing from elsewhere and they have no inline script", async () => {
    const { data } = await server.checkout.POST('/payments', {
      body: {
        merchantAccount: DEMO.merchantEcom,
        reference: 'issuer-pages',
        returnUrl: 'https://shop.example.com/return',
        amount: { currency: 'EUR', value: 1000 },
        paymentMethod: { type: 'scheme', number: '4212345678910006', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith' },
        authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
      },
    });
    const acsURL = decode((data!.action as { token: string }).token).acsURL!;
    const post = (url: string, fields: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { Origin: shop.url }, body: new URLSearchParams(fields) });

    for (const response of [
      await post(`${server.baseUrl}/hosted/3ds2/method`, { threeDSMethodData: Buffer.from('{"threeDSServerTransID":"t"}').toString('base64url') }),
      await post(acsURL, { creq: 'e30' }),
      await post(`${acsURL}/answer`, { password: 'password', parentOrigin: shop.url }),
      await post(`${server.baseUrl}/hosted/3ds2/notification`, { cres: 'e30', parentOrigin: shop.url }),
    ]) {
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self';.*frame-ancestors \*$/);
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(html).toContain('<script src="/hosted/assets/three-ds2.js" defer></script>');
    }
  });
});
