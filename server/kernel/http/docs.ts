import { Router, type Request, type Response } from 'express';
import {
  AREA_BASE,
  type DocsAnswer,
  docsAsset,
  docsSpec,
  type DocsArea,
  type DocsCredential,
  type Encoded,
  encode,
  encodedAnswer,
  landingPage,
  referencePage,
} from './docs-pages.js';

/** Where "Try it" sends requests: the public base address, else the address the page was asked at. */
function baseOf(req: Request, publicBaseUrl: string): string {
  return (publicBaseUrl || `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(/\/+$/, '');
}

const send = (res: Response, answer: DocsAnswer) => res.status(answer.status).set(answer.headers).end(answer.body);

/**
 * GET /docs (a landing page), /docs/checkout and /docs/management (Scalar), their specs and
 * Scalar's browser build (/docs/assets/<version>/…, compressed, cached for a year), all served
 * by this process.
 */
export function apiDocs(options: { publicBaseUrl: string; credentials: DocsCredential[] }): Router {
  const router = Router();
  const specs = new Map<string, Promise<Encoded>>();
  const area = (name: string): DocsArea | undefined => (name === 'checkout' || name === 'management' ? name : undefined);
  router.get('/docs/assets/*file', async (req, res) => {
    const file = req.params.file.join('/');
    send(res, await docsAsset(file, req.get('accept-encoding')));
  });
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
  router.get('/docs/:area/openapi.json', async (req, res, next) => {
    const which = area(req.params.area);
    if (!which) return next();
    const url = `${baseOf(req, options.publicBaseUrl)}${AREA_BASE[which]}`;
    const key = `${which} ${url}`;
    // Keyed by the Host header: kept small, whatever hosts callers name.
    if (specs.size > 16) specs.clear();
    let spec = specs.get(key);
    if (!spec) {
      spec = encode(docsSpec(which, url, options.credentials));
      specs.set(key, spec);
    }
    send(res, encodedAnswer(await spec, req.get('accept-encoding'), { 'Content-Type': 'application/json; charset=utf-8' }));
  });
  return router;
}
