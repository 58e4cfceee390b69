import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, Router, type Response } from 'express';
import { projectRoot } from '../../project-root.js';
import type { Money } from '../money.js';

/**
 * What every hosted page (payment link, 3D Secure test issuer, results) shares: the frame, our
 * one stylesheet and one script, served from this process, and headers that let the page load
 * nothing from anywhere else.
 */
export const ASSETS_PATH = '/hosted/assets';

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An amount as shoppers read it: `EUR 42.00` (two decimals, as the sandbox treats every currency). */
export const formatMoney = (amount: Money): string => `${escapeHtml(amount.currency)} ${(amount.value / 100).toFixed(2)}`;

/** Nothing but our own origin: no external styles, scripts, fonts, frames or form targets. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The 3D Secure 2 pages: the merchant's checkout frames them (any shop's, as it frames an
 * issuer's pages), and they still load nothing but our own origin's files.
 */
const FRAMED_CONTENT_SECURITY_POLICY = ["default-src 'self'", "img-src 'self' data:", "form-action 'self'", "base-uri 'none'", 'frame-ancestors *'].join('; ');

/** Our scripts: the payment form's checks, and the steps of 3D Secure 2's pages. */
const SCRIPTS = ['pay.js', 'three-ds2.js'] as const;

export interface HostedPage {
  title: string;
  /** The page's content (trusted HTML: escape every value with escapeHtml). */
  body: string;
  /** Loads one of our scripts. */
  script?: (typeof SCRIPTS)[number];
  /** Shown in another site's frame (3D Secure 2's pages). */
  framed?: boolean;
}

/** Sends a hosted page with its status. */
export function sendHostedPage(res: Response, status: number, page: HostedPage): void {
  const script = page.script ? `<script src="${ASSETS_PATH}/${page.script}" defer></script>` : '';
  res
    .status(status)
    .set({
      'Content-Security-Policy': page.framed ? FRAMED_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY,
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    })
    .type('html')
    .send(
      `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/pay.css">
${script}
</head>
<body>
<main>
${page.body}
</main>
</body>
</html>`,
    );
}

/** A page that only says something (not found, no longer payable), with an optional id on the message. */
export function messagePage(res: Response, status: number, title: string, message: string, attributes = ''): void {
  sendHostedPage(res, status, { title, body: `<h1>${escapeHtml(title)}</h1>\n<p class="note"${attributes}>${escapeHtml(message)}</p>` });
}

/** Reads the urlencoded form a hosted page posts (small: a few fields). */
export const hostedForm = express.urlencoded({ extended: false, limit: '16kb' });

/** A field of the posted form, or of the query (a page followed by a link); undefined when absent or not text. */
export function formField(req: Request, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body?.[name] ?? req.query[name];
  return typeof value === 'string' ? value : undefined;
}

/** A URL the shopper may be sent to from a button: http(s) only (never `javascript:` and the like). */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** GET /hosted/assets/pay.css and our scripts (/hosted/assets/pay.js, three-ds2.js): the files beside this module, read once. */
export function hostedAssets(): Router {
  const folder = join(projectRoot(), 'server', 'checkout', 'hosted-assets');
  const files = new Map([
    ['pay.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(folder, 'pay.css')) }],
    ...SCRIPTS.map((name) => [name, { type: 'text/javascript; charset=utf-8', body: readFileSync(join(folder, name)) }] as const),
  ]);
  const router = Router();
  router.get(`${ASSETS_PATH}/:file`, (req, res, next) => {
    const file = files.get(req.params.file);
    if (!file) return next();
    res.set({ 'Content-Type': file.type, 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).send(file.body);
  });
  return router;
}
