import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Response } from 'express';
import { authenticateClientKey } from '../../kernel/auth/credentials.js';
import type { Clock } from '../../kernel/clock.js';
import { ApiError } from '../../kernel/errors.js';
import { CLIENTSIDE_BASE } from '../../kernel/http/area.js';
import { freshClock } from '../../kernel/http/fresh-clock.js';
import { projectRoot } from '../../project-root.js';
import type { Store } from '../../store/tx.js';
import type { AllowedOrigin, Credential } from '../../store/types.js';
import { escapeHtml } from '../hosted-assets/hosted-page.js';
import { brandRules } from '../payments/cards.js';

/**
 * The secured-fields page: what Adyen's web library loads into one iframe per card field from
 * `{api}securedfields/{clientKey}/{version}/securedFields.html`. The shopper types the card there,
 * and the page hands the parent the sandbox's `test_` values, which /payments reads; the values
 * never reach this server otherwise (the page sends nothing here).
 */
export const SECURED_FIELDS_BASE = `${CLIENTSIDE_BASE}/securedfields`;
const ASSETS = `${SECURED_FIELDS_BASE}/assets`;

/**
 * Our origin only, for scripts, styles and everything else. The page is framed by the shop, so
 * frame-ancestors names the credential's allowed origins (any, when its list is empty, as for its API calls).
 */
function contentSecurityPolicy(allowedOrigins: AllowedOrigin[]): string {
  // Each was checked to be a bare scheme://host[:port] when it was added (parseOrigin).
  const ancestors = allowedOrigins.length === 0 ? '*' : allowedOrigins.map((origin) => origin.domain).join(' ');
  return ["default-src 'self'", "base-uri 'none'", "form-action 'none'", `frame-ancestors ${ancestors}`].join('; ');
}

const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

function notFound(res: Response): void {
  res
    .status(404)
    .set({ ...SECURITY_HEADERS, 'Content-Security-Policy': "default-src 'none'", 'Cache-Control': 'no-store' })
    .type('html')
    .send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><p>Not found</p></body></html>');
}

/** The active credential of a client key; undefined for an unknown, retired or inactive one (a failing store still fails). */
export async function credentialOf(store: Store, clock: Clock, clientKey: string): Promise<Credential | undefined> {
  try {
    return await authenticateClientKey(store, clientKey, (companyId) => clock.now(companyId));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return undefined;
    throw error;
  }
}

/** `YYYY-MM-DD` of a date, in UTC. */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * GET {CLIENTSIDE_BASE}/securedfields/{clientKey}/{version}/securedFields.html and the page's
 * script and stylesheet. An unknown or inactive client key gets 404: the page is the key's only.
 * The card rules and the company's sandbox date travel as data attributes, so the page has no
 * inline script.
 */
export function securedFieldsPage(store: Store, clock: Clock): Router {
  const folder = join(projectRoot(), 'server', 'checkout', 'secured-fields');
  const assets = new Map([
    ['secured-fields.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(folder, 'secured-fields.css')) }],
    ['secured-fields.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(join(folder, 'secured-fields.js')) }],
  ]);
  const brands = escapeHtml(JSON.stringify(brandRules()));
  const router = Router();
  router.get(`${ASSETS}/:file`, (req, res, next) => {
    const file = assets.get(req.params.file);
    if (!file) return next();
    res.set({ ...SECURITY_HEADERS, 'Content-Type': file.type, 'Cache-Control': 'public, max-age=300' }).send(file.body);
  });
  // The date check uses the company's sandbox clock, which another instance may have moved.
  router.use(SECURED_FIELDS_BASE, freshClock(store, clock));
  router.get(`${SECURED_FIELDS_BASE}/:clientKey/:version/securedFields.html`, async (req, res) => {
    const credential = await credentialOf(store, clock, req.params.clientKey);
    if (!credential) return notFound(res);
    const origins = await store.read((tx) => tx.credentials.origins(credential.id));
    const kind = req.query.type === 'giftcard' || req.query.type === 'giftcardCompat' ? 'giftcard' : 'card';
    res
      .status(200)
      .set({ ...SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy(origins), 'Cache-Control': 'no-store' })
      .type('html')
      .send(
        `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Secured field</title>
<link rel="stylesheet" href="${ASSETS}/secured-fields.css">
<script src="${ASSETS}/secured-fields.js" defer></script>
</head>
<body data-kind="${kind}" data-today="${dayOf(clock.now(credential.companyId))}" data-brands="${brands}">
<main id="field"></main>
</body>
</html>`,
      );
  });
  return router;
}
