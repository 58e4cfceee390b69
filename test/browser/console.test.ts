/**
 * The sandbox console at /console in headless Chromium, against the server in this process: an
 * integrator signs in with an API key and follows payments, their timelines and webhook
 * deliveries, captures, resends and moves the sandbox clock, all through the same APIs and
 * authorization as any API client. Nothing may leave loopback, and the console may log no error
 * (a CSP violation included).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO } from '../../server/seed.js';
import { launchBrowser } from '../helpers/browser.js';
import { insertCompany, insertCredential } from '../helpers/boundary.js';
import { buildPaymentRequest, rawCard } from '../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { authorisedPayment } from '../helpers/payments.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

/** Where the screenshots of each page go for a person to look at (ignored by git, as test/artifacts/dropin). */
const SCREENSHOTS = join(process.cwd(), 'test', 'artifacts', 'console');
const AXE = join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js');

let server: TestServer;
let browser: Browser;
let receiver: Receiver;
let webhookId: string;

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught exceptions and CSP violations of the console's pages. */
  errors: string[];
  requested: string[];
  /** The API calls the server refused (status 400 and up), as `METHOD /path`. */
  refused: string[];
  /** The refusals the test expects; by default only reading the session before signing in. */
  mayBeRefused: RegExp[];
}
const opened: Opened[] = [];

beforeAll(async () => {
  // The pages under test are the current sources, bundled as `npm run build` does.
  execFileSync(process.execPath, [join('scripts', 'build-console.mjs')], { stdio: 'inherit' });
  [browser, server, receiver] = await Promise.all([launchBrowser(), startServer(), new Receiver().start()]);
  const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId: DEMO.merchantEcom } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
  });
  webhookId = data!.id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.stop();
});

afterEach(async () => {
  for (const { context, errors, requested, refused, mayBeRefused } of opened.splice(0)) {
    await context.close();
    expect(errors).toEqual([]);
    expect(refused.filter((call) => !mayBeRefused.some((expected) => expected.test(call)))).toEqual([]);
    expect(requested.filter((url) => !/^(data:|about:|blob:)/.test(url) && !['127.0.0.1', 'localhost'].includes(new URL(url).hostname))).toEqual([]);
  }
});

/** A fresh browser context (no cookie) with a page watched for errors and for requests beyond loopback. */
async function open(options: { width?: number; bypassCSP?: boolean } = {}): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, bypassCSP: options.bypassCSP ?? false });
  const page = await context.newPage();
  const watched: Opened = { context, page, errors: [], requested: [], refused: [], mayBeRefused: [/^GET \/console\/api\/session$/] };
  page.on('console', (message) => {
    // The browser logs each refused call as a failed resource; those are checked as `refused`.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) watched.errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) watched.refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('pageerror', (error) => watched.errors.push(error.message));
  page.on('request', (request) => watched.requested.push(request.url()));
  opened.push(watched);
  return watched;
}

const consoleUrl = (path = '') => `${server.baseUrl}/console${path}`;
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** Signs in on the sign-in page with `key` and waits for the payments page. */
async function signIn(page: Page, key: string): Promise<void> {
  await page.goto(consoleUrl());
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, 'Payments').waitFor();
}

async function signedIn(key: string, options: { width?: number; bypassCSP?: boolean } = {}): Promise<Opened> {
  const watched = await open(options);
  await signIn(watched.page, key);
  return watched;
}

/** Lets the webhook dispatcher deliver everything due (the test server does not run it by itself). */
const deliver = () => server.dispatcher.drain();

/** The receiver fails the next delivery it gets with 500, then accepts. */
function failNextDeliveryOnce(): void {
  const failing = receiver.received.length;
  receiver.answer = (_req, res, index) => (index === failing ? res.writeHead(500).end('not ready yet') : res.writeHead(200).end('[accepted]'));
}

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const [width, suffix] of [
    [1280, 'desktop'],
    [360, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${suffix}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** axe-core's serious and critical violations on the page as it stands, as `rule: target` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate<{ passes: unknown[]; violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>(
    'window.axe.run(document, { resultTypes: ["violations"] })',
  );
  // An empty page, or axe not running at all, would find nothing wrong either.
  expect(result.passes.length).toBeGreaterThan(10);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')}`));
}

describe('The sandbox console', () => {
  test('When the console is asked for, then every page is the same shell under a Content-Security-Policy that allows only this origin', async () => {
    for (const path of ['', '/payments', '/payments/ABC/x']) {
      const response = await fetch(consoleUrl(path));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self'(;|$)/);
      expect(response.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval/);
      const html = await response.text();
      expect(html).toMatch(/<script type="module" src="\/console\/assets\/main\.js\?v=[0-9a-f]+"><\/script>/);
      expect(html).not.toMatch(/<script>|<style|style="/);
    }
    const script = await fetch(`${server.baseUrl}/console/assets/main.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toBe('no-cache');
  });

  test('When a wrong key is typed, then the sign-in page says it was not accepted and no session opens', async () => {
    const { page, context, mayBeRefused } = await open();
    mayBeRefused.push(/^POST \/console\/api\/session$/);
    await page.goto(consoleUrl());
    await page.getByLabel('API key').fill('not-a-key-of-this-sandbox');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByRole('alert').textContent()).resolves.toContain('not accepted');
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect((await context.cookies()).map((c) => c.name)).not.toContain('console_session');
  });

  test('When the merchant key signs in, then the payments of its merchant account are listed and no other', async () => {
    const ecom = await authorisedPayment(server);
    const pos = (await server.checkout.POST('/payments', { body: buildPaymentRequest({ merchantAccount: DEMO.merchantPos }) })).data!.pspReference!;

    const { page } = await signedIn(MERCHANT_KEY);

    await page.locator(`tr[data-psp="${ecom}"]`).waitFor();
    expect(await page.locator(`tr[data-psp="${pos}"]`).count()).toBe(0);
    expect(new Set(await page.locator('td[data-column="merchantAccount"]').allTextContents())).toEqual(new Set([DEMO.merchantEcom]));
    // The browser kept no key: only the HttpOnly session cookie.
    expect(await page.evaluate('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie')).toBe('{}{}');
  });

  test('When a payment is made through the API while the payments page is open, then it appears without a reload and is announced', async () => {
    const { page } = await signedIn(COMPANY_KEY);
    await page.evaluate('window.notReloaded = true');

    const psp = await authorisedPayment(server, { reference: 'live-order-1' });

    await page.locator(`tr[data-psp="${psp}"]`).waitFor();
    expect(await page.locator(`tr[data-psp="${psp}"]`).textContent()).toContain('live-order-1');
    expect(await page.evaluate('window.notReloaded')).toBe(true);
    await page.getByTestId('announcer').filter({ hasText: psp }).waitFor();
    expect(await page.locator('tbody tr').first().getAttribute('data-psp')).toBe(psp);
  });

  test('When payments are searched by shopper reference, then only theirs are listed, 25 at a time, and a new one that does not match stays out', async () => {
    const shopperReference = `paging-shopper-${Date.now()}`;
    const ours: string[] = [];
    for (let i = 0; i < 27; i++) ours.push(await authorisedPayment(server, { shopperReference }));
    const { page } = await signedIn(COMPANY_KEY);

    await page.getByLabel('pspReference, merchant reference or shopper reference').fill(shopperReference);
    await page.getByLabel('Status').selectOption('authorised');
    await page.getByRole('button', { name: 'Search' }).click();

    await page.getByRole('table', { name: 'Payments (25 shown)' }).waitFor();
    // The form shows the search it made (it is the page's address).
    expect(await page.getByLabel('Status').inputValue()).toBe('authorised');
    expect(await page.getByLabel('pspReference, merchant reference or shopper reference').inputValue()).toBe(shopperReference);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByRole('table', { name: 'Payments (27 shown)' }).waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // Newest first: the order they were made, reversed.
    expect(await page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-psp')))).toEqual([...ours].reverse());

    const other = await authorisedPayment(server);
    const mine = await authorisedPayment(server, { shopperReference });
    await page.locator(`tr[data-psp="${mine}"]`).waitFor();
    expect(await page.locator(`tr[data-psp="${other}"]`).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('q')).toBe(shopperReference);
  });

  test('When a payment is opened, then its timeline shows the AUTHORISATION event and the delivery attempts: refused once, then accepted', async () => {
    await deliver();
    failNextDeliveryOnce();
    const psp = await authorisedPayment(server);
    await deliver();
    const { page } = await signedIn(COMPANY_KEY);

    await page.getByRole('link', { name: psp }).click();

    await heading(page, `Payment ${psp}`).waitFor();
    const event = page.locator('.entry-event', { hasText: 'AUTHORISATION' });
    await event.waitFor();
    expect(await event.textContent()).toContain('success');
    const delivery = page.locator('.entry-delivery', { hasText: webhookId });
    expect(await delivery.locator('.badge').first().textContent()).toBe('delivered');
    const attempts = await delivery.locator('tbody tr').allTextContents();
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toContain('500');
    expect(attempts[0]).toContain('rejected');
    expect(attempts[1]).toContain('200');
    expect(attempts[1]).toContain('[accepted]');
    await screenshots(page, 'payment');
  });

  test('When half of a payment is captured from the console, then the CAPTURE of that half reaches the webhook', async () => {
    await deliver();
    const psp = await authorisedPayment(server, { amount: { currency: 'EUR', value: 1000 } });
    const { page } = await signedIn(COMPANY_KEY);
    await page.goto(consoleUrl(`/payments/${psp}`));

    const amount = page.getByLabel(/Amount to capture \(EUR, at most 10\.00\)/);
    expect(await amount.inputValue()).toBe('10.00');
    await amount.fill('5.00');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();

    await page.getByRole('status').filter({ hasText: 'Capture of EUR 5.00 received' }).waitFor();
    await deliver();
    expect(receiver.items().filter((item) => item.eventCode === 'CAPTURE' && item.originalReference === psp)).toEqual([
      expect.objectContaining({ success: 'true', amount: { currency: 'EUR', value: 500 } }),
    ]);
    // The capture went through the checkout API as the signed-in credential, with the session's CSRF token.
    await server.flushRequestLog();
    await page.getByRole('button', { name: 'Refresh the timeline' }).click();
    await page.locator('.entry-request', { hasText: `POST /payments/${psp}/captures` }).waitFor();
  });

  test('When a delivery is resent from the console, then the receiver gets the event again', async () => {
    await deliver();
    const psp = await authorisedPayment(server);
    await deliver();
    const before = receiver.items().filter((item) => item.eventCode === 'AUTHORISATION' && item.pspReference === psp).length;
    const { page } = await signedIn(COMPANY_KEY);
    await page.goto(consoleUrl(`/payments/${psp}`));

    await page.getByRole('button', { name: new RegExp(`^Resend AUTHORISATION \\(event \\d+\\) to ${webhookId}$`) }).click();

    await page.getByRole('status').filter({ hasText: 'queued' }).waitFor();
    await deliver();
    expect(receiver.items().filter((item) => item.eventCode === 'AUTHORISATION' && item.pspReference === psp)).toHaveLength(before + 1);
  });

  test('When the webhooks page is open, then each webhook shows its error state and failed deliveries, and its test call reports the answer', async () => {
    await deliver();
    const down = await new Receiver().start();
    down.answer = (_req, res) => res.writeHead(503).end('down for maintenance');
    const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
      params: { path: { merchantId: DEMO.merchantEcom } },
      body: { type: 'standard', url: down.url, active: true, communicationFormat: 'json' },
    });
    const downId = data!.id;
    try {
      const psp = await authorisedPayment(server);
      await deliver();
      const { page } = await signedIn(COMPANY_KEY);
      await page.getByRole('link', { name: 'Webhooks' }).click();

      const healthy = page.locator('section.card', { hasText: webhookId });
      const failing = page.locator('section.card', { hasText: downId });
      await healthy.getByText('no error').waitFor();
      await failing.getByText('has errors').waitFor();
      await failing.getByLabel('Show only deliveries with a failed attempt').check();
      const shown = failing.locator('.deliveries > li');
      expect(await shown.count()).toBeGreaterThan(0);
      expect(await shown.first().textContent()).toContain(psp);
      expect(await shown.first().locator('tbody tr').first().textContent()).toContain('503');

      await healthy.getByRole('button', { name: `Send a test call to ${webhookId}` }).click();
      const results = healthy.getByRole('table', { name: 'Test call results' });
      await results.waitFor();
      expect(await results.locator('tbody').textContent()).toContain('[accepted]');
      await screenshots(page, 'webhooks');
    } finally {
      await server.management.DELETE('/merchants/{merchantId}/webhooks/{webhookId}', {
        params: { path: { merchantId: DEMO.merchantEcom, webhookId: downId } },
      });
      await down.stop();
    }
  });

  test('When the company key advances the sandbox clock by a day, then the clock reads a day later and lists the delayed capture that fell due; a merchant key is told why it cannot, as it is on the webhooks page', async () => {
    const delayed = await authorisedPayment(server, { captureDelayHours: 2 });
    const before = server.clock.now().getTime();
    const { page } = await signedIn(COMPANY_KEY);
    await page.getByRole('link', { name: 'Sandbox clock' }).click();
    await heading(page, 'Sandbox clock').waitFor();

    await page.getByLabel('Move forward by').fill('1');
    expect(await page.getByLabel('Unit').inputValue()).toBe('days');
    await page.getByRole('button', { name: 'Advance the clock' }).click();

    await page.getByRole('status').filter({ hasText: 'The clock moved 1 day forward' }).waitFor();
    expect(server.clock.now().getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    const due = page.getByRole('table', { name: /What fell due/ });
    await due.locator('tr', { hasText: delayed }).waitFor();
    expect(await due.locator('tr', { hasText: delayed }).textContent()).toContain('Delayed capture');
    await screenshots(page, 'clock-advanced');

    const merchant = await signedIn(MERCHANT_KEY);
    // The merchant key has no webhook role: management refuses the list, and the page says why.
    merchant.mayBeRefused.push(/^GET \/management\/v3\/merchants\/[^/]+\/webhooks$/);
    await merchant.page.goto(consoleUrl('/clock'));
    await merchant.page.getByText('needs a company-level credential').waitFor();
    expect(await merchant.page.getByRole('button', { name: 'Advance the clock' }).count()).toBe(0);
    await merchant.page.getByRole('link', { name: 'Webhooks' }).click();
    await merchant.page.getByText('This credential has no webhook role').waitFor();
  });

  test('When the request log entry of a card payment is opened, then its bodies are shown without the card number', async () => {
    const card = '4111111111111111';
    const { data } = await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ paymentMethod: rawCard(card) as never, reference: 'logged-order' }),
    });
    const psp = data!.pspReference!;
    await server.flushRequestLog();
    const { page } = await signedIn(COMPANY_KEY);

    await page.goto(consoleUrl(`/payments/${psp}`));
    await page.getByRole('link', { name: 'POST /payments' }).click();

    await heading(page, 'POST /payments').waitFor();
    const requestBody = page.getByRole('region', { name: 'Request body' });
    expect(await requestBody.textContent()).toContain('logged-order');
    expect(await page.content()).not.toContain(card);
    expect(await page.content()).not.toContain('4111 1111 1111 1111');
    await page.getByRole('link', { name: psp }).click();
    await heading(page, `Payment ${psp}`).waitFor();

    await page.goto(consoleUrl(`/requests?pspReference=${psp}`));
    await page.getByRole('table', { name: /Requests/ }).waitFor();
    await screenshots(page, 'requests');
  });

  test('When the request log is filtered by a request id and by status, then only the matching requests are listed', async () => {
    const { response } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ reference: 'filtered-order' }) });
    const requestId = response.headers.get('x-request-id')!;
    await server.checkout.POST('/payments', { body: buildPaymentRequest({ merchantAccount: 'NoSuchMerchant' }) });
    await server.flushRequestLog();
    const { page } = await signedIn(COMPANY_KEY);
    await page.getByRole('link', { name: 'Request log' }).click();

    await page.getByLabel('Request id').fill(requestId);
    await page.getByRole('button', { name: 'Filter' }).click();

    const rows = page.getByRole('table', { name: /Requests/ }).locator('tbody tr');
    await page.getByRole('table', { name: 'Requests (1 shown)' }).waitFor();
    expect(await rows.first().textContent()).toContain(requestId);
    await page.getByLabel('Request id').fill('');
    await page.getByLabel('HTTP status').fill('403');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=403/);
    await rows.filter({ hasText: requestId }).waitFor({ state: 'detached' });
    await rows.first().waitFor();
    expect(new Set(await rows.locator('.badge').allTextContents())).toEqual(new Set(['403']));
  });

  test('When signed out, then the sign-in page shows and the old session cookie is refused', async () => {
    const { page, context } = await signedIn(COMPANY_KEY);
    const session = (await context.cookies()).find((c) => c.name === 'console_session')!;

    await page.getByRole('button', { name: 'Sign out' }).click();

    await heading(page, 'Sign in').waitFor();
    await page.getByText('You are signed out.').waitFor();
    const refused = await fetch(`${server.consoleUrl}/payments`, { headers: { cookie: `console_session=${session.value}` } });
    expect(refused.status).toBe(401);
    await page.goto(consoleUrl('/payments'));
    await heading(page, 'Sign in').waitFor();
  });

  test('When the session is signed out in another tab, then the open console goes back to the sign-in page by itself', async () => {
    const { page, context, mayBeRefused } = await signedIn(COMPANY_KEY);
    mayBeRefused.push(/^GET \/console\/api\/events\/stream$/);
    const other = await context.newPage();
    await other.goto(consoleUrl('/clock'));

    await other.getByRole('button', { name: 'Sign out' }).click();
    await heading(other, 'Sign in').waitFor();

    // The first tab only holds its live feed open: the server ends it, and the console notices.
    await heading(page, 'Sign in').waitFor();
    await page.getByText('Your session has ended. Sign in again.').waitFor();
  });

  test("When a second company's key signs in, then it sees nothing of the first company", async () => {
    const psp = await authorisedPayment(server);
    await insertCompany(server.store, 'SecondCompany', 'SecondMerchant');
    const key = await insertCredential(server.store, {
      id: 'S2-SECONDCOMPANY',
      companyId: 'SecondCompany',
      merchantId: null,
      roles: ['Checkout webservice role', 'Management API - Webhooks read and write', 'Management API - Accounts read'],
    });
    await server.flushRequestLog();

    const { page, mayBeRefused } = await signedIn(key);
    mayBeRefused.push(/^GET \/console\/api\/payments\/[^/]+\/timeline$/);

    await page.getByText('No payment matches.').waitFor();
    await page.goto(consoleUrl(`/payments/${psp}`));
    await page
      .getByRole('alert')
      .filter({ hasText: `No payment ${psp}` })
      .waitFor();
    await page.goto(consoleUrl('/requests'));
    await page.getByText('No request matches.').waitFor();
    await page.goto(consoleUrl('/webhooks'));
    await page.getByText('No webhook within reach of this credential.').waitFor();
    expect(await page.content()).not.toContain(webhookId);
  });

  test('When a keyboard alone is used, then it signs in, skips to the content and moves between pages with visible focus', async () => {
    const { page } = await open();
    await page.goto(consoleUrl());
    await heading(page, 'Sign in').waitFor();

    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('api-key');
    await page.keyboard.type(COMPANY_KEY);
    await page.keyboard.press('Enter');
    await heading(page, 'Payments').waitFor();

    // Signed in, focus is on the page's heading; behind it, in reverse reading order, the header.
    const focused = () => page.evaluate<string>('document.activeElement.textContent');
    expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      names.push(await focused());
      expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
    }
    expect(names).toEqual(['Sign out', 'Sandbox clock', 'Webhooks', 'Request log', 'Payments', 'Skip to content']);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Request log');
    await page.keyboard.press('Enter');
    await heading(page, 'Request log').waitFor();
    expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('r-path');
  });

  test('When each page is checked by axe-core at 1280 and 360 px, then none has a serious or critical violation', async () => {
    const psp = await authorisedPayment(server);
    await deliver();
    await server.flushRequestLog();
    // Only this context bypasses the CSP: axe is injected as an inline script, which the pages forbid.
    const { page } = await open({ bypassCSP: true });
    await page.goto(consoleUrl());
    await heading(page, 'Sign in').waitFor();
    const found: Record<string, string[]> = {};
    const check = async (name: string) => {
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 800 });
        found[`${name} at ${width}`] = await seriousViolations(page);
      }
      await screenshots(page, name);
    };
    await check('sign-in');
    await page.getByLabel('API key').fill(COMPANY_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator(`tr[data-psp="${psp}"]`).waitFor();
    await check('payments');
    await page.goto(consoleUrl(`/payments/${psp}`));
    await page.locator('.entry-delivery').first().waitFor();
    await check('payment');
    await page.goto(consoleUrl('/requests'));
    await page.getByRole('table', { name: /Requests/ }).waitFor();
    await check('requests');
    await page
      .getByRole('link', { name: /POST checkout \/payments$/ })
      .first()
      .click();
    await page.getByRole('region', { name: 'Request body' }).waitFor();
    await check('request');
    await page.goto(consoleUrl('/webhooks'));
    await page.locator('section.card').first().waitFor();
    await check('webhooks');
    await page.goto(consoleUrl('/clock'));
    await page.getByLabel('Unit').selectOption('minutes');
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await page.getByRole('status').filter({ hasText: 'The clock moved 1 minute forward' }).waitFor();
    await check('clock');

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, []])));
    // Seven pages at two widths, each checked by axe and photographed: beside a busy run, more than 30 s.
  }, 120_000);
});
