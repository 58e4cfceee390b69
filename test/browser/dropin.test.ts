/**
 * Adyen's own browser library (@adyen/adyen-web, Drop-in with Card) against this server, in
 * headless Chromium: a shop page on another loopback origin creates the checkout from a session,
 * the card is typed into our secured-fields iframes, and the payment goes through the client-side
 * area to the sandbox's authorisation. Nothing may leave loopback, and our iframe page may log no
 * error.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { DEMO } from '../../server/seed.js';
import {
  bundleShop,
  type PageWatch,
  saveScreenshots,
  securedField,
  type Shop,
  type ShopBundle,
  shopOutcome,
  startShop,
  typeCard as typeCardInto,
  watchPage,
} from '../helpers/adyen-web-shop.js';
import { launchBrowser } from '../helpers/browser.js';
import { createSession, demoClientKey, SHOP, shopClientKey } from '../helpers/clientside.js';
import { rawCard } from '../helpers/factories.js';
import { advanceClock } from '../helpers/methods.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

/** The shop's script: Drop-in from a session, each callback's outcome kept on `window` for the test to read. */
const SHOP_SCRIPT = `
import { AdyenCheckout, Dropin, Card, Giftcard } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';

const outcome = (callback) => (result) => {
  window.shopOutcome = { callback, resultCode: result && result.resultCode, name: result && result.name };
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
    locale: config.locale,
    _environmentUrls: { api, analytics: api, cdn: { images: api, translations: api } },
    // The device fingerprint page is Adyen's, not the sandbox's.
    risk: { enabled: false },
    onPaymentCompleted: outcome('completed'),
    onPaymentFailed: outcome('failed'),
    onError: (error) => { (window.shopErrors ??= []).push(String(error && error.message)); },
  });
  new Dropin(checkout, {
    paymentMethodComponents: [Card, Giftcard],
    paymentMethodsConfiguration: { card: { hasHolderName: true, holderNameRequired: true } },
  }).mount('#dropin');
})();
`;

let server: TestServer;
let browser: Browser;
let clientKey: string;
let session: unknown;
let locale = 'en-US';
let shop: Shop;
let context: BrowserContext;
let page: Page;
let watch: PageWatch;

/** The demo merchant credential's client key; the demo shop sells gift cards online too (the seed offers them at the till only). */
async function shopSetUp(on: TestServer): Promise<string> {
  const key = await demoClientKey(on);
  await on.management.POST('/merchants/{merchantId}/paymentMethodSettings', {
    params: { path: { merchantId: DEMO.merchantEcom } },
    body: { type: 'givex', shopperInteraction: 'eCommerce' },
  });
  return key;
}

beforeAll(async () => {
  let bundle: ShopBundle;
  [browser, server, bundle] = await Promise.all([launchBrowser(), startServer(), bundleShop(SHOP_SCRIPT)]);
  clientKey = await shopSetUp(server);
  shop = await startShop({ bundle, config: () => ({ api: `${server.clientsideUrl}/`, clientKey, session, locale }) });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await shop?.close();
});

beforeEach(async () => {
  session = await createSession(server, { countryCode: 'NL', allowedPaymentMethods: ['scheme'] });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  watch = watchPage(page);
});

afterEach(async () => {
  await context?.close();
  expect(watch.ourPageErrors).toEqual([]);
  expect(watch.leftLoopback()).toEqual([]);
});

/** One of our iframes, in the payment method that `scope` selects (the open one by default). */
const field = (fieldType: string, scope = ''): FrameLocator => securedField(page, fieldType, scope);

/** Types the card as a shopper does, into our iframes and the holder name field. */
const typeCard = (card: { number: string; expiry: string; cvc?: string; holderName?: string }) => typeCardInto(page, shop.url, card);

/** Types the card and presses Pay. */
async function payWithCard(card: { number: string; expiry: string; cvc: string; holderName: string }): Promise<void> {
  await typeCard(card);
  await page.locator('.adyen-checkout__button--pay').click();
}

/** The error Drop-in shows under a field (the iframe reports it, the shop's page shows it). */
const fieldError = (text: string) => page.locator('.adyen-checkout-contextual-text--error', { hasText: text });

const outcome = () => shopOutcome(page);

describe('Drop-in of @adyen/adyen-web against the sandbox', () => {
  test('When a shopper types a test Visa card into the secured fields and pays, then onPaymentCompleted gets Authorised', async () => {
    await payWithCard({ number: '4111 1111 1111 1111', expiry: '03/30', cvc: '737', holderName: 'John Smith' });

    expect(await outcome()).toEqual({ callback: 'completed', resultCode: 'Authorised' });
    await saveScreenshots(page, 'dropin-card');
    expect(await page.locator('.adyen-checkout__status--success').count()).toBe(1);
    expect(await page.evaluate('window.shopErrors ?? []')).toEqual([]);
  }, 60_000);

  test('When the secured fields are shown, then each input inside is labelled in the shopper language', async () => {
    await page.goto(shop.url);

    const labels = [];
    for (const fieldType of ['encryptedCardNumber', 'encryptedExpiryDate', 'encryptedSecurityCode']) {
      const label = (await field(fieldType).locator('label').textContent()) ?? '';
      expect(await field(fieldType).getByLabel(label, { exact: true }).count()).toBe(1);
      labels.push(label);
    }
    expect(labels).toEqual(['Card number', 'Expiry date', 'Security code']);
  }, 60_000);

  test('When an Amex card is typed, then the security code takes four digits and the payment is Authorised', async () => {
    await typeCard({ number: '3700 0000 0000 002', expiry: '03/30', cvc: '7373', holderName: 'John Smith' });
    expect(await field('encryptedSecurityCode').locator('input').inputValue()).toBe('7373');
    await page.locator('.adyen-checkout__button--pay').click();

    expect(await outcome()).toEqual({ callback: 'completed', resultCode: 'Authorised' });
  }, 60_000);

  test('When the card number fails the Luhn check, then Drop-in shows the error and Pay sends nothing', async () => {
    await typeCard({ number: '4111 1111 1111 1112', expiry: '03/30', cvc: '737', holderName: 'John Smith' });
    await page.locator('.adyen-checkout__button--pay').click();

    await fieldError('Enter a valid card number').waitFor();
    const number = field('encryptedCardNumber').locator('input');
    expect(await number.getAttribute('aria-invalid')).toBe('true');
    expect(await field('encryptedCardNumber').locator('#error').textContent()).toBe('Enter a valid card number');
    expect(watch.requested.filter((url) => url.includes('/payments'))).toEqual([]);
  }, 60_000);

  test("When the expiry month has passed on the company's sandbox clock but not in the browser, then the date is refused", async () => {
    const before = server.clock.now();
    // Two months on: the month the browser is in has passed for the sandbox.
    await advanceClock(server, 62 * 24 * 3600);
    session = await createSession(server, { countryCode: 'NL', allowedPaymentMethods: ['scheme'] });
    const thisMonth = `${String(before.getUTCMonth() + 1).padStart(2, '0')}/${String(before.getUTCFullYear() % 100).padStart(2, '0')}`;

    await typeCard({ number: '4111 1111 1111 1111', expiry: thisMonth, cvc: '737' });

    await fieldError('Enter a valid expiry date').waitFor();
  }, 60_000);

  test('When a shopper pays with a sandbox gift card typed into the gift card fields, then onPaymentCompleted gets Authorised', async () => {
    session = await createSession(server, { countryCode: 'NL', allowedPaymentMethods: ['scheme', 'giftcard'] });
    await page.goto(shop.url);
    const givex = '.adyen-checkout__payment-method--giftcard';
    await page.locator(givex).click();

    await field('encryptedCardNumber', givex).locator('input').pressSequentially('4126 4910 7302 7401');
    await field('encryptedSecurityCode', givex).locator('input').pressSequentially('737');
    // The first press checks the balance (the sandbox card holds EUR 50.00), the second pays.
    await page.locator(`${givex} .adyen-checkout__button--pay`).click();
    await page.getByText('Remaining balance will be €40.00').waitFor();
    await page.locator(`${givex} .adyen-checkout__button--pay`).click();

    expect(await outcome()).toEqual({ callback: 'completed', resultCode: 'Authorised' });
  }, 60_000);

  test('When a gift card covers part of the amount, then Drop-in pays it towards an order and the shopper pays the rest by card: onPaymentCompleted gets Authorised', async () => {
    // A sandbox of its own: the Givex card's EUR 50.00 whole, whatever the other gift card test drew from it.
    const shared = { server, clientKey };
    server = await startServer();
    try {
      clientKey = await shopSetUp(server);
      session = await createSession(server, { countryCode: 'NL', allowedPaymentMethods: ['scheme', 'giftcard'], amount: { currency: 'EUR', value: 6000 } });
      await page.goto(shop.url);
      const givex = '.adyen-checkout__payment-method--giftcard';
      await page.locator(givex).click();
      await field('encryptedCardNumber', givex).locator('input').pressSequentially('4126 4910 7302 7401');
      await field('encryptedSecurityCode', givex).locator('input').pressSequentially('737');
      // The balance does not cover EUR 60.00: one press creates the order and pays the balance towards it.
      const resetUp = page.waitForResponse((r) => r.url().includes('/setup?') && (r.request().postData() ?? '').includes('"order"'));
      await page.locator(`${givex} .adyen-checkout__button--pay`).click();

      // Drop-in sets the session up again with the order: the rest, EUR 10.00, by card.
      await resetUp;
      const card = '.adyen-checkout__payment-method--scheme';
      await page.locator(`${card} .adyen-checkout__payment-method__header`).click();
      await page.locator(`${card} .adyen-checkout__button--pay`, { hasText: '10.00' }).waitFor();
      await field('encryptedCardNumber', card).locator('input').pressSequentially('4111 1111 1111 1111');
      await field('encryptedExpiryDate', card).locator('input').pressSequentially('03/30');
      await field('encryptedSecurityCode', card).locator('input').pressSequentially('737');
      await page.locator(`${card} input[name="holderName"]`).fill('John Smith');
      await page.locator(`${card} .adyen-checkout__button--pay`).click();

      expect(await outcome()).toEqual({ callback: 'completed', resultCode: 'Authorised' });
      await saveScreenshots(page, 'dropin-giftcard-then-card');
      const { data } = await server.checkout.GET('/sessions/{sessionId}', {
        params: { path: { sessionId: (session as { id: string }).id }, query: { sessionResult: await page.evaluate<string>('window.shopSessionResult') } },
      });
      expect(data).toMatchObject({
        status: 'completed',
        payments: [
          { resultCode: 'Authorised', amount: { currency: 'EUR', value: 5000 } },
          { resultCode: 'Authorised', amount: { currency: 'EUR', value: 1000 } },
        ],
      });
    } finally {
      await server.stop();
      ({ server, clientKey } = shared);
    }
  }, 90_000);

  test('When the shopper has a stored card, then Drop-in shows it with our security code field and pays it with the code typed: onPaymentCompleted gets Authorised', async () => {
    const shopperReference = `dropin-stored-${Date.now()}`;
    const stored = await server.checkout.POST('/storedPaymentMethods', {
      body: { merchantAccount: DEMO.merchantEcom, shopperReference, recurringProcessingModel: 'CardOnFile', paymentMethod: rawCard('5555341244441115') },
    });
    expect(stored.response.status).toBe(201);
    session = await createSession(server, { countryCode: 'NL', allowedPaymentMethods: ['scheme'], shopperReference, recurringProcessingModel: 'CardOnFile' });
    await page.goto(shop.url);
    // Drop-in lists the stored card first, open.
    const storedCard = '.adyen-checkout__payment-method--selected';
    await page.locator(storedCard).waitFor();
    expect(await page.locator(storedCard).innerText()).toContain('•••• 1115');

    // Only the security code is asked for, in one of our iframes.
    expect(await page.locator(`${storedCard} [data-cse="encryptedCardNumber"]`).count()).toBe(0);
    await field('encryptedSecurityCode', storedCard).locator('input').pressSequentially('737');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(`/v1/sessions/${(session as { id: string }).id}/payments`)),
      page.locator(`${storedCard} .adyen-checkout__button--pay`).click(),
    ]);

    expect(await outcome()).toEqual({ callback: 'completed', resultCode: 'Authorised' });
    await saveScreenshots(page, 'dropin-stored-card');
    expect((request.postDataJSON() as { paymentMethod: Record<string, unknown> }).paymentMethod).toMatchObject({
      storedPaymentMethodId: stored.data!.id,
      encryptedSecurityCode: 'test_737',
    });
  }, 60_000);

  test('When the holder name is REFUSED, then onPaymentFailed gets Refused', async () => {
    await payWithCard({ number: '4111 1111 1111 1111', expiry: '03/30', cvc: '737', holderName: 'REFUSED' });

    expect(await outcome()).toEqual({ callback: 'failed', resultCode: 'Refused' });
    await saveScreenshots(page, 'dropin-card-refused');
  }, 60_000);

  test('When Drop-in is shown, then every logo and icon it asks for is an image the sandbox serves, and each is drawn', async () => {
    session = await createSession(server, { countryCode: 'NL', allowedPaymentMethods: ['scheme', 'giftcard'] });
    await page.goto(shop.url);
    await page.locator('.adyen-checkout__payment-method--giftcard').waitFor();
    // Drop-in swaps some images as it renders (a state icon): wait until each is drawn, then judge what is not.
    await page
      .waitForFunction(`[...document.querySelectorAll('#dropin img')].every((img) => img.complete && img.naturalWidth > 0)`, undefined, { timeout: 15_000 })
      .catch(() => undefined);

    const read = () =>
      page.evaluate<Array<{ src: string; drawn: boolean }>>(
        `[...document.querySelectorAll('#dropin img')].map((img) => ({ src: img.src, drawn: img.naturalWidth > 0 }))`,
      );
    const wrong = (images: Array<{ src: string; drawn: boolean }>) =>
      images.filter((image) => !image.src.startsWith(`${server.clientsideUrl}/images/`) || !image.drawn);
    // An icon swapped in after the wait above (the lock of a focused field) is given its own moment to load.
    let images = await read();
    for (let tries = 0; tries < 25 && wrong(images).length > 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      images = await read();
    }
    expect(images.length).toBeGreaterThan(2);
    expect(wrong(images)).toEqual([]);
    expect((await fetch(`${server.clientsideUrl}/images/logos/visa.svg`)).headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect((await fetch(`${server.clientsideUrl}/images/logos/..%2F..%2Fsecret.svg`)).status).toBe(404);
  }, 60_000);

  test('When the shop asks for a locale the sandbox has no translations for, then Drop-in shows en-US and warns of nothing', async () => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    locale = 'nl-NL';
    try {
      await page.goto(shop.url);
      await field('encryptedCardNumber').locator('label').waitFor();
      expect(await field('encryptedCardNumber').locator('label').textContent()).toBe('Card number');
    } finally {
      locale = 'en-US';
    }
    expect(watch.requested.filter((url) => url.includes('/translations/'))).toEqual([`${server.clientsideUrl}/sdk/6.45.2/translations/nl-NL.json`]);
    expect(warnings).toEqual([]);
  }, 60_000);

  test('When the secured-fields page is asked for with an unknown client key, then it answers 404', async () => {
    const response = await fetch(`${server.clientsideUrl}/securedfields/test_UNKNOWN/6.3.0/securedFields.html?type=card&d=eA==`);

    expect(response.status).toBe(404);
  });

  test('When the secured-fields page is served, then its policy allows nothing from elsewhere and it has no inline script', async () => {
    const response = await fetch(`${server.clientsideUrl}/securedfields/${clientKey}/6.3.0/securedFields.html?type=card&d=eA==`);
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  test('When the credential has allowed origins, then only those may frame the secured-fields page', async () => {
    const shopKey = await shopClientKey(server, [SHOP]);

    const response = await fetch(`${server.clientsideUrl}/securedfields/${shopKey}/6.3.0/securedFields.html?type=card&d=eA==`);

    expect(response.headers.get('content-security-policy')).toContain(`frame-ancestors ${SHOP}`);
  });
});
