/**
 * The API reference at /docs, opened in headless Chromium (playwright-core and the npm package
 * @sparticuz/chromium, see test/helpers/browser.ts): every operation of both specs is shown, no request leaves the machine,
 * "Try it" reaches the sandbox, and Scalar's files are sent compressed and cacheable. How fast the
 * pages load is measured by `npm run bench:docs`, not here. The pages read no table (Try it reads the
 * sandbox clock, which the contract tests cover on both engines), so the file runs in the SQLite run only.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { TEST_ENGINE } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

type Spec = { paths: Record<string, Record<string, { operationId?: string; summary?: string }>> };
/** dist/browser/ of @scalar/api-reference and the package version, which the asset addresses carry. */
const scalarBuild = () => {
  const dist = dirname(createRequire(import.meta.url).resolve('@scalar/api-reference'));
  const { version } = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as { version: string };
  return { dir: join(dist, 'browser'), version };
};

const operationsOf = (area: string) => {
  const spec = JSON.parse(readFileSync(join(process.cwd(), 'generated', `${area}.json`), 'utf8')) as Spec;
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op.operationId)
      .map(([method, op]) => ({ operationId: op.operationId!, summary: op.summary, method, path })),
  );
};

(TEST_ENGINE === 'sqlite' ? describe : describe.skip)('API reference in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startServer();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Scalar's "Try it" on the checkout reference, in place on the page: GET /sandbox/clock with the demo key. */
  const tryReadingTheClock = async (page: Page) => {
    // The operation's section, found by its id (a text search walks Scalar's whole page: seconds per
    // try) and scrolled to: Scalar draws an operation when it comes into view.
    const section = page.locator('#app section[id$="/tag/sandbox/GET/sandbox/clock"]');
    const testRequest = section.getByRole('button', { name: /test request/i });
    // Right after taking the first view's place Scalar may still be settling: a scroll it missed is repeated.
    for (let attempt = 0; !(await testRequest.isVisible()); attempt++) {
      if (attempt === 6) throw new Error('Scalar did not show GET /sandbox/clock');
      await section.scrollIntoViewIfNeeded();
      await testRequest.waitFor({ timeout: 5_000 }).catch(() => undefined);
    }
    await testRequest.click();
    const client = page.getByRole('dialog');
    await client.getByRole('textbox', { name: 'Value' }).fill(COMPANY_KEY);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${server.checkoutUrl}/sandbox/clock`),
      client.getByRole('button', { name: /^Send/ }).first().click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().headers()['x-api-key']).toBe(COMPANY_KEY);
    expect(await response.json()).toMatchObject({ companyId: 'DemoCompany', offsetSeconds: 0 });
  };

  test('When /docs is opened, then it links the four reference pages and explains the demo keys', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      const host = new URL(request.url()).hostname;
      if (!['127.0.0.1', 'localhost'].includes(host) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto(`${server.baseUrl}/docs`);
    expect(await page.locator('a[href="/docs/checkout"]').count()).toBe(1);
    expect(await page.locator('a[href="/docs/management"]').count()).toBe(1);
    expect(await page.locator('a[href="/docs/clientside"]').count()).toBe(1);
    expect(await page.locator('a[href="/docs/console"]').count()).toBe(1);
    const text = await page.locator('body').innerText();
    expect(text).toContain('DEMO_COMPANY_API_KEY');
    expect(text).toContain('X-API-Key');
    expect(foreign).toEqual([]);
    await page.close();
  });

  // Scalar takes seconds of CPU to draw a reference (tens on a busy machine): "Try it" is tried on
  // the checkout page (the smaller one) the first test drew, instead of drawing one again.
  test.each([
    ['checkout', ', and "Try it" sends an operation with the demo key and the sandbox answers it'],
    ['management', ''],
  ])(
    'When /docs/%s is opened, then every operation of the spec is shown at once, then in Scalar, and no request goes to another host%s',
    async (area) => {
      const page = await browser.newPage();
      const foreign: string[] = [];
      const errors: string[] = [];
      const specRequests: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (url.startsWith('data:') || url.startsWith('blob:')) return;
        const host = new URL(url).hostname;
        if (host !== '127.0.0.1' && host !== 'localhost') foreign.push(url);
        if (url.endsWith('/openapi.json')) specRequests.push(url);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      // Scalar's script is held back until the first view has been read: on a busy machine
      // Scalar could otherwise take its place before the test looks.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/standalone.js', async (route) => (await held, route.continue()));
      const started = Date.now();
      await page.goto(`${server.baseUrl}/docs/${area}`, { waitUntil: 'domcontentloaded' });
      const operations = operationsOf(area);
      const missingFrom = (text: string) =>
        operations.filter((op) => !text.includes(op.summary ?? op.path)).map((op) => `${op.operationId} (${op.summary ?? op.path})`);
      // The first view comes with the HTML: every operation, its method and path, and the demo keys
      // (read in one go: Scalar takes its place a few seconds later).
      const firstView = await page.evaluate<{ text: string; routes: Record<string, string | undefined> }>(`(() => ({
        text: document.getElementById('docs-first-view').innerText,
        routes: Object.fromEntries([...document.querySelectorAll('#docs-first-view article.op')].map((a) => [a.id, a.querySelector('.route code')?.textContent])),
      }))()`);
      expect(missingFrom(firstView.text)).toEqual([]);
      expect(operations.filter((op) => firstView.routes[`op-${op.operationId}`] !== op.path).map((op) => op.operationId)).toEqual([]);
      expect(firstView.text).toContain('DEMO_COMPANY_API_KEY');
      release();
      // Then Scalar takes its place (nothing was scrolled or clicked) and lists them too.
      await page.waitForFunction(() => (globalThis as { __docsInteractiveShownAt?: number }).__docsInteractiveShownAt !== undefined, null, { timeout: 30_000 });
      expect(await page.locator('#docs-first-view').count()).toBe(0);
      // Scalar draws the sidebar before the introduction (tens of seconds apart on a busy machine).
      await page.waitForFunction("document.body.innerText.includes('DEMO_COMPANY_API_KEY')", null, { timeout: 40_000 });
      const text = await page.locator('body').innerText();
      expect(missingFrom(text)).toEqual([]);
      expect(text).toContain('DEMO_COMPANY_API_KEY');
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      // Preloaded by the page and used by Scalar: asked for once.
      expect(specRequests).toEqual([`${server.baseUrl}/docs/${area}/openapi.json`]);
      console.log(`/docs/${area}: ${operations.length} operations, Scalar in place after ${Date.now() - started} ms`);
      if (area === 'checkout') await tryReadingTheClock(page);
      await page.close();
    },
    120_000,
  );

  test('When the reader scrolls before Scalar is ready, then the first view stays until they ask for the switch', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/standalone.js', async (route) => (await held, route.continue()));
    await page.goto(`${server.baseUrl}/docs/checkout`, { waitUntil: 'domcontentloaded' });
    await page.mouse.wheel(0, 600);
    release();
    const show = page.getByRole('button', { name: 'Show the interactive reference' });
    await show.waitFor({ timeout: 30_000 });
    expect(await page.locator('#docs-first-view').isVisible()).toBe(true);
    expect(await page.getByRole('status').innerText()).toContain('ready');
    await show.click();
    expect(await page.locator('#docs-first-view').count()).toBe(0);
    // Scalar's page.
    expect(await page.locator('#app').isVisible()).toBe(true);
    // Scalar draws its sidebar first, the introduction after (seconds on a busy machine).
    await page.locator('#app').getByText('Download OpenAPI Document').waitFor({ timeout: 20_000 });
    await page.close();
  }, 60_000);

  test("When /docs/clientside is asked for, then its first view lists every operation Adyen's web library calls, and Try it takes a client key", async () => {
    const html = await (await fetch(`${server.baseUrl}/docs/clientside`)).text();
    const operations = operationsOf('clientside');
    expect(operations.length).toBeGreaterThan(8);
    expect(operations.filter((op) => !html.includes(`id="op-${op.operationId}"`)).map((op) => op.operationId)).toEqual([]);
    expect(html).toContain(server.clientsideUrl);
    expect(html).toContain('"preferredSecurityScheme":"ClientKeyAuth"');
    const spec = (await (await fetch(`${server.baseUrl}/docs/clientside/openapi.json`)).json()) as {
      servers: Array<{ url: string }>;
      info: { description: string };
    };
    expect(spec.servers[0]!.url).toBe(server.clientsideUrl);
    expect(spec.info.description).toContain('client key in the `clientKey` query parameter');
  });

  test('When /docs/console is asked for, then its first view lists every console operation and Try it sends to the console base', async () => {
    const html = await (await fetch(`${server.baseUrl}/docs/console`)).text();
    const operations = operationsOf('console');
    expect(operations.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['createConsoleSession', 'listConsoleRequests', 'streamConsoleEvents', 'advanceConsoleClock']),
    );
    expect(operations.filter((op) => !html.includes(`id="op-${op.operationId}"`)).map((op) => op.operationId)).toEqual([]);
    const spec = (await (await fetch(`${server.baseUrl}/docs/console/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    expect(spec.servers[0]!.url).toBe(server.consoleUrl);
  });

  test("When Scalar's files are asked for, then they come compressed, under the package version, cacheable for a year", async () => {
    const { dir, version } = scalarBuild();
    const html = await (await fetch(`${server.baseUrl}/docs/checkout`)).text();
    const modules = [...html.matchAll(/<link rel="preload" href="([^"]+)" as="script">/g)].map((m) => m[1]!);
    expect(modules).toEqual([`/docs/assets/${version}/standalone.js`]);
    expect(html).toContain(`src: '/docs/assets/${version}/standalone.js'`);
    for (const path of modules) {
      const file = readFileSync(join(dir, path.slice(`/docs/assets/${version}/`.length)));
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['identity', null],
      ] as const) {
        const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'accept-encoding': accept } });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-encoding')).toBe(coding);
        expect(response.headers.get('vary')).toBe('Accept-Encoding');
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
        // fetch() decodes the body: it is the file.
        expect(Buffer.from(await response.arrayBuffer()).equals(file)).toBe(true);
      }
    }
    const spec = await fetch(`${server.baseUrl}/docs/checkout/openapi.json`, { headers: { 'accept-encoding': 'br' } });
    expect(spec.headers.get('content-encoding')).toBe('br');
    expect(((await spec.json()) as { servers: Array<{ url: string }> }).servers[0]!.url).toBe(server.checkoutUrl);
    // Without the version: redirected to it; outside the build: not found.
    const unversioned = await fetch(`${server.baseUrl}/docs/assets/standalone.js`, { redirect: 'manual' });
    expect(unversioned.status).toBe(308);
    expect(unversioned.headers.get('location')).toBe(`/docs/assets/${version}/standalone.js`);
    expect((await fetch(`${server.baseUrl}/docs/assets/${version}/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/docs/assets/${version}/missing.js`)).status).toBe(404);
  });
});
