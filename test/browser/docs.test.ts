/**
 * The API reference at /docs, opened in headless Chromium (playwright-core and the Debian
 * `chromium` package): every operation of both specs is shown, and no request leaves the machine.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/start-server.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type Spec = { paths: Record<string, Record<string, { operationId?: string; summary?: string }>> };
const operationsOf = (area: string) => {
  const spec = JSON.parse(readFileSync(join(process.cwd(), 'generated', `${area}.json`), 'utf8')) as Spec;
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op.operationId)
      .map(([method, op]) => ({ operationId: op.operationId!, summary: op.summary, method, path })),
  );
};

describe('API reference in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH). The browser tests do not skip.`,
      );
    server = await startServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('When /docs is opened, then it links both reference pages and explains the demo keys', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      const host = new URL(request.url()).hostname;
      if (!['127.0.0.1', 'localhost'].includes(host) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto(`${server.baseUrl}/docs`);
    expect(await page.locator('a[href="/docs/checkout"]').count()).toBe(1);
    expect(await page.locator('a[href="/docs/management"]').count()).toBe(1);
    const text = await page.locator('body').innerText();
    expect(text).toContain('DEMO_COMPANY_API_KEY');
    expect(text).toContain('X-API-Key');
    expect(foreign).toEqual([]);
    await page.close();
  });

  test.each(['checkout', 'management'])(
    'When /docs/%s is opened, then every operation of the spec is shown and no request goes to another host',
    async (area) => {
      const page = await browser.newPage();
      const foreign: string[] = [];
      const errors: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (url.startsWith('data:') || url.startsWith('blob:')) return;
        const host = new URL(url).hostname;
        if (host !== '127.0.0.1' && host !== 'localhost') foreign.push(url);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      const started = Date.now();
      await page.goto(`${server.baseUrl}/docs/${area}`, { waitUntil: 'networkidle' });
      const operations = operationsOf(area);
      // Scalar renders the operations' summaries (the sidebar and the sections).
      await page
        .getByText(operations[0]!.summary ?? operations[0]!.path)
        .first()
        .waitFor({ timeout: 15_000 });
      const text = await page.locator('body').innerText();
      const missing = operations.filter((op) => !text.includes(op.summary ?? op.path)).map((op) => `${op.operationId} (${op.summary ?? op.path})`);
      expect(missing).toEqual([]);
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      console.log(`/docs/${area}: ${operations.length} operations shown in ${Date.now() - started} ms`);
      await page.close();
    },
    60_000,
  );
});
