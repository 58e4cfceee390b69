import type { Request, Response } from 'express';
import { CLIENTSIDE_BASE } from '../../kernel/http/area.js';

/**
 * What Adyen's web library fetches besides the API, from the addresses its `cdn` options name
 * (both pointed at the client-side base).
 *
 * The images it shows (its `cdn.images`, pointed at the client-side base):
 * `images/logos/[small/|medium/|large/]{name}.svg` for payment method and brand logos, and
 * `images/components/{name}.{svg|gif}` for its icons (success, error, a field's state). Adyen serves
 * artwork from its CDN; the sandbox draws its own plain ones, so that a page works offline and
 * without a blocked image: a logo is a card with the method's name, an icon a plain mark.
 */
export const LIBRARY_IMAGES_BASE = `${CLIENTSIDE_BASE}/images`;

// The library asks for .svg mostly, and for .gif (its success and error animations) or .png: the
// browser draws what the Content-Type says, so each gets an SVG.
const IMAGE = /^\/(logos|components)\/(?:[a-z]+\/)?([a-z0-9][a-z0-9_-]{0,63})\.(?:svg|gif|png)$/i;

const HEADERS = {
  'Content-Type': 'image/svg+xml; charset=utf-8',
  'Cache-Control': 'public, max-age=86400',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
};

/** A logo: the method's name on a light card, in the 40 × 26 box the library gives logos. */
function logo(name: string): string {
  // The name's first word, short enough for the box: `bcmc_mobile` shows BCMC.
  const label = (name.split(/[_-]/)[0] ?? name).toUpperCase().slice(0, 6);
  const size = label.length > 4 ? 7 : 9;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="26" viewBox="0 0 40 26" role="img" aria-label="${label}">` +
    `<rect x="0.5" y="0.5" width="39" height="25" rx="3" fill="#fff" stroke="#b9c4c9"/>` +
    `<text x="20" y="16" font-family="Arial, sans-serif" font-size="${size}" font-weight="700" text-anchor="middle" fill="#00112c">${label}</text></svg>`
  );
}

/** An icon: a check for success, a cross for an error, a dot for anything else. */
function icon(name: string): string {
  const [colour, mark] = /success|complete|check/i.test(name)
    ? ['#0abf53', '<path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" stroke-width="2.2"/>']
    : /error|fail|cross|alert/i.test(name)
      ? ['#d10244', '<path d="M8.5 8.5l7 7M15.5 8.5l-7 7" stroke="#fff" stroke-width="2.2"/>']
      : ['#687282', '<circle cx="12" cy="12" r="3" fill="#fff"/>'];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="12" fill="${colour}"/>${mark}</svg>`;
}

/**
 * Its translations, `sdk/{version}/translations/{locale}.json`, for a locale other than en-US: the
 * library lays what it gets over its own en-US texts, so an empty set shows the shopper en-US
 * (the sandbox has no translations of its own). Fetched from the shop's page: readable from any origin.
 */
export const LIBRARY_TRANSLATIONS_BASE = `${CLIENTSIDE_BASE}/sdk`;

const TRANSLATIONS = /^\/[0-9][0-9a-z.-]{0,31}\/translations\/[a-z]{2}(?:-[a-z]{2})?\.json$/i;

/** GET/HEAD `{api}sdk/{version}/translations/{locale}.json`: no translation, so en-US. */
export function libraryTranslations(req: Request, res: Response): void {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !TRANSLATIONS.test(req.path.slice(LIBRARY_TRANSLATIONS_BASE.length))) {
    res.status(404).set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).type('text/plain').send('Not found');
    return;
  }
  res.status(200).set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).json({});
}

/** GET/HEAD `{api}images/…`: the logo or icon asked for; anything else is not found. */
export function libraryImages(req: Request, res: Response): void {
  const match = IMAGE.exec(req.path.slice(LIBRARY_IMAGES_BASE.length));
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !match) {
    res.status(404).set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).type('text/plain').send('Not found');
    return;
  }
  const [, folder, name] = match as unknown as [string, string, string];
  res
    .status(200)
    .set(HEADERS)
    .send(folder.toLowerCase() === 'logos' ? logo(name) : icon(name));
}
