/**
 * The hosted pages as a shopper meets them, in headless Chromium (test/helpers/browser.ts): a payment link paid
 * with a test card or a redirect method (iDEAL, Klarna and their hosted pages), a 3D Secure
 * challenge, the result pages and their Continue button, the events the merchant receives. Every page is checked for labels, keyboard use, console errors, requests
 * to other hosts and a 360 px layout; a screenshot of each at desktop and phone width goes to
 * test/artifacts/hosted-pages/ for a person to look at.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { verifyHmacSignature } from '../../client/webhooks.js';
import { launchBrowser } from '../helpers/browser.js';
import { advanceClock } from '../helpers/methods.js';
import { eur } from '../helpers/payments.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

const ARTIFACTS = join(process.cwd(), 'test', 'artifacts', 'hosted-pages');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };
const merchantAccount = 'DemoMerchantECOM';

let server: TestServer;
let browser: Browser;
let receiver: Receiver;
let hmacKey: string;
let webhookId: string;
let shop: { server: Server; url: string; visits: URL[] };

let context: BrowserContext;
let page: Page;
let problems: string[];
let requested: string[];

/** The merchant's shop on loopback: the pages the shopper returns to. */
async function startShop(): Promise<typeof shop> {
  const visits: URL[] = [];
  const http = createServer((req, res) => {
    visits.push(new URL(req.url ?? '/', 'http://shop'));
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Shop</title><link rel="icon" href="data:,"><h1>Back at the shop</h1>');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { server: http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, visits };
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
  server = await startServer();
  receiver = await new Receiver().start();
  shop = await startShop();
  const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId: merchantAccount } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
  });
  webhookId = data!.id;
  const key = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/generateHmac', {
    params: { path: { merchantId: merchantAccount, webhookId } },
  });
  hmacKey = key.data!.hmacKey;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.stop();
  if (shop) await new Promise((resolve) => shop.server.close(resolve));
});

beforeEach(async () => {
  problems = [];
  requested = [];
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => requested.push(request.url()));
});

afterEach(async () => {
  await context?.close();
  expect(problems).toEqual([]);
  const elsewhere = requested.filter((url) => !/^(data:|about:)/.test(url) && !['127.0.0.1', 'localhost'].includes(new URL(url).hostname));
  expect(elsewhere).toEqual([]);
});

/**
 * Checks the page as it stands: every input labelled, no horizontal scroll at 360 px; and writes
 * its screenshots at desktop and phone width.
 */
async function inspect(name: string): Promise<void> {
  // Browser-side expressions are strings: the tests' TypeScript has no DOM library.
  const unlabelled = await page.evaluate(
    "[...document.querySelectorAll('input, select, textarea')].filter((i) => i.labels.length === 0 && !i.getAttribute('aria-label')).map((i) => i.outerHTML)",
  );
  expect(unlabelled).toEqual([]);
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(ARTIFACTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: join(ARTIFACTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

const createLink = async (overrides: Record<string, unknown> = {}) => {
  const { data, error } = await server.checkout.POST('/paymentLinks', {
    body: {
      merchantAccount,
      reference: `browser-${Date.now()}`,
      amount: eur(4200),
      description: 'Two concert tickets',
      returnUrl: `${shop.url}/order/done?order=42`,
      ...overrides,
    } as never,
  });
  if (!data) throw new Error(JSON.stringify(error));
  return data;
};

/** Tabs until the element matching `selector` has focus (at most 20 presses); fails if it never does. */
async function tabTo(selector: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
  }
  throw new Error(`${selector} is not reachable with Tab`);
}

/** Fills the card form with the keyboard only: Tab from the top, type each field, Enter to pay. */
async function payWithKeyboard(card: { number: string; month: string; year: string; cvc: string; name: string }): Promise<void> {
  await tabTo('#number');
  await page.keyboard.type(card.number);
  for (const value of [card.month, card.year, card.cvc, card.name]) {
    await page.keyboard.press('Tab');
    await page.keyboard.type(value);
  }
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}

/** The items the merchant has received for a payment, after the dispatcher delivered what is due. */
async function eventsFor(psp: string) {
  await server.dispatcher.drain();
  return receiver.items().filter((item) => item.pspReference === psp);
}

const text = (selector: string) => page.locator(selector).innerText();

/** Chooses a payment method with the keyboard: Tab to the method group, arrow keys to the method. */
async function chooseMethodWithKeyboard(type: string): Promise<void> {
  await tabTo('input[name="method"]:checked');
  for (let i = 0; i < 10 && !(await page.locator(`#method-${type}`).isChecked()); i++) await page.keyboard.press('ArrowDown');
  expect(await page.locator(`#method-${type}`).isChecked()).toBe(true);
}

/** The ids of the page's links and buttons that Tab reaches, in order, going once round the page. */
async function tabStops(): Promise<string[]> {
  const stops: string[] = [];
  await page.evaluate('document.activeElement?.blur()');
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate<string>("document.activeElement?.matches('a, button, input') ? document.activeElement.id : ''");
    if (id && stops.includes(id)) break;
    if (id) stops.push(id);
  }
  return stops;
}

/** The ids of the page's visible links and buttons. */
const controls = async () => page.evaluate<string[]>("[...document.querySelectorAll('a, button')].filter((e) => e.offsetParent !== null).map((e) => e.id)");

const linkStatus = async (linkId: string) => (await server.checkout.GET('/paymentLinks/{linkId}', { params: { path: { linkId } } })).data?.status;

/** Klarna bills line items: two tickets of EUR 21.00 make the link's EUR 42.00. */
const TICKETS = [
  { id: 'ticket', description: 'Concert ticket', quantity: 2, amountIncludingTax: 2100, amountExcludingTax: 1765, taxAmount: 335, taxPercentage: 1900 },
];

describe('Payment link page in a browser', () => {
  test('When a shopper pays a link with a test card using the keyboard only, then the result shows Authorised, Continue leads to the returnUrl and the merchant receives a signed AUTHORISATION', async () => {
    const link = await createLink();
    await page.goto(link.url);
    expect(await text('#merchant')).toBe('Demo Merchant ECOM');
    expect(await text('#amount')).toBe('EUR 42.00');
    expect(await page.locator('h1').innerText()).toContain('EUR 42.00');
    expect(await page.locator('.methods').innerText()).toContain('Card');
    const labels = { number: 'Card number', expiryMonth: 'Expiry month', expiryYear: 'Expiry year', cvc: 'Security code (CVC)', holderName: 'Name on card' };
    for (const [id, label] of Object.entries(labels)) expect(await page.getByLabel(label, { exact: true }).getAttribute('id')).toBe(id);
    await inspect('payment-link');

    await payWithKeyboard({ number: '4111 1111 1111 1111', month: '03', year: '2030', cvc: '737', name: 'John Smith' });
    expect(await text('#state')).toBe('Payment successful');
    expect(await text('#result')).toBe('Authorised');
    const psp = await text('#psp');
    await inspect('result-authorised');

    await tabTo('#continue');
    await Promise.all([page.waitForURL(`${shop.url}/order/done?order=42`), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').innerText()).toBe('Back at the shop');

    const [authorisation] = (await eventsFor(psp)).filter((item) => item.eventCode === 'AUTHORISATION');
    expect(authorisation).toMatchObject({ success: 'true', merchantAccountCode: merchantAccount, amount: eur(4200) });
    expect(verifyHmacSignature(hmacKey, authorisation!)).toBe(true);
  });

  test('When the shopper types a wrong card number, a past expiry and a short CVC, then each field says so and nothing is sent', async () => {
    const link = await createLink();
    await page.goto(link.url);
    await page.fill('#number', '4111 1111 1111 1112');
    await page.fill('#expiryMonth', '13');
    await page.fill('#expiryYear', '2020');
    await page.fill('#cvc', '12');
    await page.click('#pay');
    expect(await text('#number-error')).toContain('not valid');
    expect(await text('#expiryMonth-error')).toContain('01 to 12');
    expect(await text('#cvc-error')).toContain('3 digits');
    expect(await text('#holderName-error')).toContain('name');
    expect(await page.locator('#number').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate('document.activeElement?.id')).toBe('number');
    await page.fill('#expiryMonth', '01');
    await page.click('#pay');
    expect(await text('#expiryYear-error')).toContain('expired');
    await inspect('payment-link-invalid');
    expect(page.url()).toBe(link.url);
    expect(requested.filter((url) => url.startsWith(link.url))).toHaveLength(1);

    await page.fill('#number', '3714 496353 98431');
    await page.fill('#expiryYear', '2030');
    await page.click('#pay');
    expect(await text('#number-error')).toBe('');
    expect(await text('#cvc-error')).toContain('4 digits');
  });

  test('When a 3D Secure card pays a link, then the shopper passes the challenge with the keyboard, comes back to the result and Continue leads to the returnUrl', async () => {
    const link = await createLink();
    await page.goto(link.url);
    await payWithKeyboard({ number: '4212 3456 7891 0006', month: '03', year: '2030', cvc: '737', name: 'John Smith' });
    expect(page.url()).toMatch(/\/hosted\/3ds\/[A-Z0-9]+$/);
    expect(await text('h1')).toBe('Verify your payment');
    expect(await text('#merchant')).toBe('Demo Merchant ECOM');
    expect(await text('#amount')).toBe('EUR 42.00');
    await inspect('3ds-challenge');

    await tabTo('#authorise');
    await Promise.all([page.waitForURL(/\/payByLink\/[A-Z0-9]+\/return\?redirectResult=/), page.keyboard.press('Enter')]);
    expect(await text('#result')).toBe('Authorised');
    const psp = await text('#psp');
    await page.click('#continue');
    await page.waitForURL(`${shop.url}/order/done?order=42`);
    expect((await server.checkout.GET('/paymentLinks/{linkId}', { params: { path: { linkId: link.id } } })).data?.status).toBe('completed');
    const [authorisation] = (await eventsFor(psp)).filter((item) => item.eventCode === 'AUTHORISATION');
    expect(authorisation?.success).toBe('true');
    expect(verifyHmacSignature(hmacKey, authorisation!)).toBe(true);
  });

  test('When a payment is refused, then the page says so with the reason and Try again leads back to the form', async () => {
    const link = await createLink();
    await page.goto(link.url);
    await payWithKeyboard({ number: '4111111111111111', month: '03', year: '2030', cvc: '737', name: 'DECLINED' });
    expect(await text('#state')).toBe('Payment refused');
    expect(await text('#result')).toBe('Refused');
    expect(await text('#reason')).toContain('No money was taken');
    await inspect('result-refused');
    await page.click('#retry');
    await page.waitForURL(link.url);
    expect(await page.locator('#pay').isVisible()).toBe(true);
  });

  test('When a link is expired or already paid, then its page says so, and a paid one offers Continue', async () => {
    const expired = await createLink();
    await server.checkout.PATCH('/paymentLinks/{linkId}', { params: { path: { linkId: expired.id } }, body: { status: 'expired' } });
    const response = await page.goto(expired.url);
    expect(response?.status()).toBe(410);
    problems = problems.filter((p) => !p.includes('410')); // the browser logs the page's own status
    expect(await text('#status')).toBe('This payment link has expired.');
    expect(await page.locator('#pay').count()).toBe(0);
    await inspect('link-expired');

    const paid = await createLink();
    await page.goto(paid.url);
    await payWithKeyboard({ number: '4111111111111111', month: '03', year: '2030', cvc: '737', name: 'John Smith' });
    await page.goto(paid.url);
    problems = problems.filter((p) => !p.includes('410'));
    expect(await text('#status')).toBe('This payment link has been paid.');
    expect(await page.locator('#continue').getAttribute('href')).toBe(`${shop.url}/order/done?order=42`);
    await inspect('link-paid');
  });
});

describe('Payment link paid by a redirect method in a browser', () => {
  test("When a shopper pays a Dutch link with iDEAL using the keyboard only, then the bank's page, the result and Continue lead to the returnUrl, the link completes and the merchant receives a signed AUTHORISATION", async () => {
    const link = await createLink({ countryCode: 'NL', lineItems: TICKETS });
    await page.goto(link.url);
    const methods = await page.locator('input[name="method"]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value));
    expect(methods).toEqual(['scheme', 'ideal', 'klarna']);
    expect(await page.getByLabel('iDEAL', { exact: true }).getAttribute('id')).toBe('method-ideal');
    await inspect('payment-link-methods');

    await chooseMethodWithKeyboard('ideal');
    expect(await page.locator('#number').isVisible()).toBe(false);
    expect(await text('#panel-ideal')).toContain('iDEAL');
    expect(await text('#pay')).toBe('Continue to iDEAL');
    await inspect('payment-link-ideal-chosen');
    await tabTo('#pay');
    await Promise.all([page.waitForURL(/\/hosted\/ideal\/[A-Z0-9]+$/), page.keyboard.press('Enter')]);
    expect(await linkStatus(link.id)).toBe('paymentPending');

    expect(await text('h1')).toBe('Pay with iDEAL');
    expect(await text('#merchant')).toBe('Demo Merchant ECOM');
    expect(await text('#amount')).toBe('EUR 42.00');
    await inspect('ideal-issuer');
    const choices = await controls();
    expect(choices).toEqual(['authorise', 'pending', 'refuse', 'cancel']);
    expect(await tabStops()).toEqual(choices);

    await tabTo('#authorise');
    await Promise.all([page.waitForURL(/\/payByLink\/[A-Z0-9]+\/return\?redirectResult=/), page.keyboard.press('Enter')]);
    expect(await text('#state')).toBe('Payment successful');
    expect(await text('#payment-method')).toBe('iDEAL');
    expect(await text('#result')).toBe('Authorised');
    const psp = await text('#psp');
    await inspect('result-ideal-authorised');

    await tabTo('#continue');
    await Promise.all([page.waitForURL(`${shop.url}/order/done?order=42`), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').innerText()).toBe('Back at the shop');
    expect(await linkStatus(link.id)).toBe('completed');
    const [authorisation] = (await eventsFor(psp)).filter((item) => item.eventCode === 'AUTHORISATION');
    expect(authorisation).toMatchObject({ success: 'true', paymentMethod: 'ideal', merchantAccountCode: merchantAccount, amount: eur(4200) });
    expect(authorisation?.additionalData?.paymentLinkId).toBe(link.id);
    expect(verifyHmacSignature(hmacKey, authorisation!)).toBe(true);
  });

  test("When a shopper chooses Klarna and cancels on Klarna's page, then the result says cancelled, Try again offers the link's methods again and the merchant receives a failed AUTHORISATION", async () => {
    const link = await createLink({ countryCode: 'NL', lineItems: TICKETS, shopperEmail: 'shopper@example.com' });
    await page.goto(link.url);
    await page.check('#method-klarna');
    expect(await text('#pay')).toBe('Continue to Pay later with Klarna');
    await Promise.all([page.waitForURL(/\/hosted\/klarna\/[A-Z0-9]+$/), page.click('#pay')]);
    expect(await text('h1')).toBe('Confirm with Klarna');
    expect(await text('dl')).toContain('2 × Concert ticket');
    expect(await text('#amount')).toBe('EUR 42.00');
    await inspect('klarna-issuer');
    const choices = await controls();
    expect(choices).toEqual(['authorise', 'pending', 'refuse', 'cancel']);
    expect(await tabStops()).toEqual(choices);

    await tabTo('#cancel');
    await Promise.all([page.waitForURL(/\/payByLink\/[A-Z0-9]+\/return\?redirectResult=/), page.keyboard.press('Enter')]);
    expect(await text('#state')).toBe('Payment cancelled');
    expect(await text('#payment-method')).toBe('Klarna');
    expect(await text('#reason')).toContain('No money was taken');
    const psp = await text('#psp');
    await inspect('result-klarna-cancelled');
    expect(await linkStatus(link.id)).toBe('active');
    const [authorisation] = (await eventsFor(psp)).filter((item) => item.eventCode === 'AUTHORISATION');
    expect(authorisation).toMatchObject({ success: 'false', paymentMethod: 'klarna' });

    await page.click('#retry');
    await page.waitForURL(link.url);
    expect(await page.locator('input[name="method"]').count()).toBe(3);
  });

  test("When iDEAL's page leaves the payment pending, then the result says so, Continue still leads to the returnUrl, and the link completes when the bank confirms", async () => {
    const link = await createLink({ countryCode: 'NL' });
    await page.goto(link.url);
    await page.check('#method-ideal');
    await Promise.all([page.waitForURL(/\/hosted\/ideal\//), page.click('#pay')]);
    await Promise.all([page.waitForURL(/\/return\?redirectResult=/), page.click('#pending')]);
    expect(await text('#state')).toBe('Payment pending');
    expect(await text('#reason')).toContain('not confirmed');
    expect(await page.locator('#retry').count()).toBe(0);
    await inspect('result-ideal-pending');
    await page.click('#continue');
    await page.waitForURL(`${shop.url}/order/done?order=42`);
    expect(await linkStatus(link.id)).toBe('paymentPending');
    // The sandbox bank confirms a pending iDEAL payment ten minutes later (on the sandbox clock).
    await advanceClock(server, 10 * 60);
    expect(await linkStatus(link.id)).toBe('completed');
  });

  test("When a link allows only iDEAL, or blocks it, then the page offers exactly the link's methods and a method the link does not offer is refused", async () => {
    const onlyIdeal = await createLink({ countryCode: 'NL', allowedPaymentMethods: ['ideal'] });
    await page.goto(onlyIdeal.url);
    expect(await page.locator('input[name="method"]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).toEqual(['ideal']);
    expect(await page.locator('#number').count()).toBe(0);
    expect(await text('#pay')).toBe('Continue to iDEAL');
    await inspect('payment-link-ideal-only');
    const card = await fetch(onlyIdeal.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ method: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith' }),
    });
    expect(card.status).toBe(422);
    expect(await linkStatus(onlyIdeal.id)).toBe('active');

    const blocked = await createLink({ countryCode: 'NL', blockedPaymentMethods: ['ideal'] });
    await page.goto(blocked.url);
    // No line items: Klarna, which bills them, is not offered either.
    expect(await page.locator('input[name="method"]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).toEqual([
      'scheme',
    ]);
    const ideal = await fetch(blocked.url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'method=ideal' });
    expect(ideal.status).toBe(422);

    const german = await createLink({ countryCode: 'DE', allowedPaymentMethods: ['ideal'] });
    await page.goto(german.url);
    expect(await text('#no-methods')).toContain('Ask the merchant for another link');
    expect(await page.locator('#pay').count()).toBe(0);
  });
});

describe('3D Secure redirect of an API payment in a browser', () => {
  test.each([
    ['#authorise', 'Authorised'],
    ['#refuse', 'Refused'],
  ])(
    'When the shopper answers the challenge with %s, then the return URL gets a redirectResult that POST /payments/details turns into %s',
    async (button, resultCode) => {
      const { data } = await server.checkout.POST('/payments', {
        body: {
          merchantAccount,
          reference: `browser-3ds-${resultCode}`,
          amount: eur(1999),
          returnUrl: `${shop.url}/checkout/return?cart=7`,
          paymentMethod: { type: 'scheme', number: '4212345678910006', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith' },
        },
      });
      expect(data?.resultCode).toBe('RedirectShopper');
      const action = data!.action as { url: string; method: string };
      expect(action.method).toBe('GET');
      await page.goto(action.url);
      expect(await text('#amount')).toBe('EUR 19.99');
      if (resultCode === 'Authorised') await inspect('3ds-api-payment');

      await tabTo(button);
      await Promise.all([page.waitForURL(/\/checkout\/return\?/), page.keyboard.press('Enter')]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('cart')).toBe('7');
      const redirectResult = landed.searchParams.get('redirectResult')!;
      expect(shop.visits.at(-1)?.searchParams.get('redirectResult')).toBe(redirectResult);

      const details = await server.checkout.POST('/payments/details', { body: { details: { redirectResult } } });
      expect(details.data).toMatchObject({ resultCode: resultCode, pspReference: data!.pspReference });
      const codes = (await eventsFor(data!.pspReference!)).map((item) => [item.eventCode, item.success]);
      expect(codes).toContainEqual(['AUTHORISATION', resultCode === 'Authorised' ? 'true' : 'false']);
    },
  );

  test('When the challenge was already answered, then its page says there is nothing to verify', async () => {
    const response = await page.goto(`${server.baseUrl}/hosted/3ds/0000000000000000`);
    expect(response?.status()).toBe(404);
    problems = problems.filter((p) => !p.includes('404'));
    expect(await text('h1')).toBe('Nothing to verify');
    await inspect('3ds-not-found');
  });
});

test('The hosted stylesheet and script are served by this server', async () => {
  for (const asset of ['pay.css', 'pay.js']) {
    const response = await fetch(`${server.baseUrl}/hosted/assets/${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
  }
  expect((await fetch(`${server.baseUrl}/hosted/assets/other.js`)).status).toBe(404);
});
