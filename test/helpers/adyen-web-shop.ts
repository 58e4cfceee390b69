/**
 * A web shop that runs Adyen's own browser library (@adyen/adyen-web) against the sandbox, for the
 * browser tests: the shop's script bundled with esbuild from node_modules, served with its page and
 * a `/config.json` on a loopback origin of its own (not the sandbox's), and a watch over a page's
 * requests and our iframes' errors.
 */
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';

export interface ShopBundle {
  js: string;
  css: string;
}

/** The shop's script (ES module source importing '@adyen/adyen-web'), bundled for Chromium with the library's stylesheet. */
export async function bundleShop(script: string): Promise<ShopBundle> {
  const result = await build({
    stdin: { contents: script, resolveDir: process.cwd(), sourcefile: 'shop.js', loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome120',
    outdir: 'shop-bundle',
    logLevel: 'silent',
  });
  const text = (extension: string) => result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}

export interface ShopOptions {
  bundle: ShopBundle;
  /** What `/config.json` answers, read at each request (the test changes the session between tests). */
  config: () => unknown;
  /** The shop's own routes (a merchant backend, a return page); answers true when it took the request. */
  routes?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
}

export interface Shop {
  url: string;
  close(): Promise<void>;
}

/** Sends a page or file the shop serves, never cached. */
export const sendShopFile = (res: ServerResponse, type: string, body: string) =>
  res.writeHead(200, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' }).end(body);

/** The shop's page: its stylesheet and script, and the element Drop-in or a Component mounts in. */
export const SHOP_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">' +
  '<link rel="stylesheet" href="/shop.css"><script src="/shop.js" defer></script></head><body><div id="dropin"></div></body></html>';

/** Starts the shop on a free loopback port. */
export async function startShop(options: ShopOptions): Promise<Shop> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/shop.js') return sendShopFile(res, 'text/javascript', options.bundle.js);
    if (path === '/shop.css') return sendShopFile(res, 'text/css', options.bundle.css);
    if (path === '/config.json') return sendShopFile(res, 'application/json', JSON.stringify(options.config()));
    if (options.routes && (await options.routes(req, res))) return;
    if (path === '/') return sendShopFile(res, 'text/html', SHOP_PAGE);
    res.writeHead(404).end();
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The pages of ours that the library frames: the secured fields, and the issuer's 3D Secure 2 pages. */
const OUR_FRAMES = /\/securedfields\/|\/hosted\/3ds2\//;

export interface PageWatch {
  /** Errors logged or thrown by our iframes (secured fields, 3D Secure 2). */
  ourPageErrors: string[];
  /** Every address the page and its frames asked for. */
  requested: string[];
  /** The addresses asked for outside loopback (data:, about: and blob: aside). */
  leftLoopback(): string[];
}

/** Watches a page (and its frames): what it requests, and what our iframe pages log as errors. */
export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = {
    ourPageErrors: [],
    requested: [],
    leftLoopback: () => watch.requested.filter((url) => !/^(data:|about:|blob:)/.test(url) && !['127.0.0.1', 'localhost'].includes(new URL(url).hostname)),
  };
  page.on('console', (message) => {
    if (message.type() === 'error' && OUR_FRAMES.test(message.location().url)) watch.ourPageErrors.push(message.text());
  });
  page.on('pageerror', (error) => {
    if (OUR_FRAMES.test(error.stack ?? '')) watch.ourPageErrors.push(error.message);
  });
  page.on('request', (request) => watch.requested.push(request.url()));
  return watch;
}

/** What the shop script kept on `window` from Drop-in's onPaymentCompleted / onPaymentFailed. */
export async function shopOutcome(page: Page): Promise<{ callback: string; resultCode?: string }> {
  await page.waitForFunction('window.shopOutcome !== undefined', undefined, { timeout: 30_000 });
  return page.evaluate<{ callback: string; resultCode?: string }>('window.shopOutcome');
}

/** Where the browser tests leave a screenshot of each flow for a person to look at (not committed). */
export const SCREENSHOTS = join(process.cwd(), 'test', 'artifacts', 'dropin');

/** The page as it stands, at desktop width then at 360 px (the width it is left at), as `<name>-desktop.png` and `<name>-phone.png`. */
export async function saveScreenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-phone.png`), fullPage: true });
}

/** One of our secured-fields iframes, in the payment method that `scope` selects (the open one by default). */
export const securedField = (page: Page, fieldType: string, scope = ''): FrameLocator => page.frameLocator(`${scope} [data-cse="${fieldType}"] iframe`);

/** Opens the shop and types the card as a shopper does, into our iframes and the holder name field. */
export async function typeCard(page: Page, shopUrl: string, card: { number: string; expiry: string; cvc?: string; holderName?: string }): Promise<void> {
  await page.goto(shopUrl);
  await securedField(page, 'encryptedCardNumber').locator('input').pressSequentially(card.number);
  await securedField(page, 'encryptedExpiryDate').locator('input').pressSequentially(card.expiry);
  if (card.cvc !== undefined) await securedField(page, 'encryptedSecurityCode').locator('input').pressSequentially(card.cvc);
  if (card.holderName !== undefined) await page.locator('input[name="holderName"]').fill(card.holderName);
}
