import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Response } from 'express';
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

export interface HostedPage {
  title: string;
  /** The page's content (trusted HTML: escape every value with escapeHtml). */
  body: string;
  /** Loads the payment form's checks. */
  withScript?: boolean;
}

/** Sends a hosted page with its status. */
export function sendHostedPage(res: Response, status: number, page: HostedPage): void {
  const script = page.withScript ? `<script src="${ASSETS_PATH}/pay.js" defer></script>` : '';
  res
    .status(status)
    .set({
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
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

/** GET /hosted/assets/pay.css and /hosted/assets/pay.js: the files beside this module, read once. */
export function hostedAssets(): Router {
  const folder = join(projectRoot(), 'server', 'checkout', 'hosted-assets');
  const files = new Map([
    ['pay.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(folder, 'pay.css')) }],
    ['pay.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(join(folder, 'pay.js')) }],
  ]);
  const router = Router();
  router.get(`${ASSETS_PATH}/:file`, (req, res, next) => {
    const file = files.get(req.params.file);
    if (!file) return next();
    res.set({ 'Content-Type': file.type, 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).send(file.body);
  });
  return router;
}
