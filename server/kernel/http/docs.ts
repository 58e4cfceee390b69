import express, { Router, type Request } from 'express';
import { AREA_BASE, docsSpec, type DocsArea, type DocsCredential, landingPage, referencePage, scalarAssetDir } from './docs-pages.js';

/** Where "Try it" sends requests: the public base address, else the address the page was asked at. */
function baseOf(req: Request, publicBaseUrl: string): string {
  return (publicBaseUrl || `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(/\/+$/, '');
}

/** GET /docs (a landing page), /docs/checkout and /docs/management (Scalar) and their specs, all served by this process. */
export function apiDocs(options: { publicBaseUrl: string; credentials: DocsCredential[] }): Router {
  const router = Router();
  const specs = new Map<string, string>();
  const area = (name: string): DocsArea | undefined => (name === 'checkout' || name === 'management' ? name : undefined);
  router.use('/docs/assets', express.static(scalarAssetDir(), { index: false, maxAge: '1h', fallthrough: false }));
  router.get(['/docs', '/docs/'], (req, res) => {
    const base = baseOf(req, options.publicBaseUrl);
    const baseUrl = { checkout: `${base}${AREA_BASE.checkout}`, management: `${base}${AREA_BASE.management}` };
    res.type('html').send(landingPage({ kind: 'server', baseUrl, credentials: options.credentials }));
  });
  router.get('/docs/:area', (req, res, next) => {
    const which = area(req.params.area);
    if (!which) return next();
    res.type('html').send(referencePage(which));
  });
  router.get('/docs/:area/openapi.json', (req, res, next) => {
    const which = area(req.params.area);
    if (!which) return next();
    const url = `${baseOf(req, options.publicBaseUrl)}${AREA_BASE[which]}`;
    const key = `${which} ${url}`;
    // Keyed by the Host header: kept small, whatever hosts callers name.
    if (specs.size > 16) specs.clear();
    if (!specs.has(key)) specs.set(key, docsSpec(which, url));
    res.type('json').send(specs.get(key));
  });
  return router;
}
