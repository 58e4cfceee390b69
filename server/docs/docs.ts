import { Router, type Request, type Response } from 'express';
import {
  AREA_BASE,
  type DocsAnswer,
  docsAsset,
  docsSpec,
  type DocsArea,
  DOCS_AREAS,
  type DocsCredential,
  type DocsSite,
  type Encoded,
  encode,
  encodedAnswer,
  landingPage,
  loadMarkdown,
  referencePage,
} from './pages.js';

/** Where "Try it" sends requests: the public base address, else the address the page was asked at. */
function baseOf(req: Request, publicBaseUrl: string): string {
  return (publicBaseUrl || `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(/\/+$/, '');
}

const send = (res: Response, answer: DocsAnswer) => res.status(answer.status).set(answer.headers).end(answer.body);

/**
 * GET /docs (a landing page), /docs/checkout, /docs/management, /docs/clientside and /docs/console (Scalar), their specs and
 * Scalar's browser build (/docs/assets/<version>/…, compressed, cached for a year), all served
 * by this process.
 */
export function apiDocs(options: { publicBaseUrl: string; credentials: DocsCredential[] }): Router {
  const router = Router();
  const specs = new Map<string, Promise<Encoded>>();
  const area = (name: string): DocsArea | undefined => ((DOCS_AREAS as readonly string[]).includes(name) ? (name as DocsArea) : undefined);
  router.get('/docs/assets/*file', async (req, res) => {
    const file = req.params.file.join('/');
    send(res, await docsAsset(file, req.get('accept-encoding')));
  });
  const site = (req: Request): DocsSite => {
    const base = baseOf(req, options.publicBaseUrl);
    return {
      kind: 'server',
      baseUrl: {
        checkout: `${base}${AREA_BASE.checkout}`,
        management: `${base}${AREA_BASE.management}`,
        clientside: `${base}${AREA_BASE.clientside}`,
        console: `${base}${AREA_BASE.console}`,
      },
      credentials: options.credentials,
    };
  };
  router.get(['/docs', '/docs/'], (req, res) => {
    res.type('html').send(landingPage(site(req)));
  });
  // Each page (some 300 KB of HTML: the first view lists every operation) is rendered and
  // compressed once per area and address, like the specs below.
  const pages = new Map<string, Promise<Encoded>>();
  router.get('/docs/:area', async (req, res, next) => {
    const which = area(req.params.area);
    if (!which) return next();
    const where = site(req);
    const key = `${which} ${where.baseUrl[which]}`;
    if (pages.size > 16) pages.clear();
    let page = pages.get(key);
    if (!page) {
      page = loadMarkdown().then(() => encode(referencePage(which, where)));
      pages.set(key, page);
    }
    send(res, encodedAnswer(await page, req.get('accept-encoding'), { 'Content-Type': 'text/html; charset=utf-8' }));
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
