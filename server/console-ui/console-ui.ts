import { Router, type Response } from 'express';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../project-root.js';

/** Where the UI lives; its API (spec/console) is below it, at /console/api, and is not served here. */
export const CONSOLE_UI_BASE = '/console';

/**
 * The console pages load only this server's script and stylesheet: no inline script or style, no
 * eval, no other origin. A framing page could trick a signed-in user into clicking, so none may frame it.
 */
export const CONSOLE_CSP = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";

const ASSETS: Record<string, string> = { 'main.js': 'text/javascript; charset=utf-8', 'console.css': 'text/css; charset=utf-8' };

const pageHeaders = {
  'Content-Security-Policy': CONSOLE_CSP,
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

/** The build's hash of each asset, from dist/console/manifest.json; undefined when the UI is not built. */
async function manifest(dir: string): Promise<Record<string, string> | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
  } catch {
    return undefined;
  }
}

const shell = (hashes: Record<string, string>) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox console</title>
<link rel="stylesheet" href="${CONSOLE_UI_BASE}/assets/console.css?v=${hashes['console.css'] ?? ''}">
<script type="module" src="${CONSOLE_UI_BASE}/assets/main.js?v=${hashes['main.js'] ?? ''}"></script>
</head>
<body>
<div id="app"><noscript><p>The sandbox console needs JavaScript.</p></noscript></div>
</body>
</html>
`;

const notBuilt = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox console not built</title></head>
<body>
<main>
<h1>The sandbox console is not built</h1>
<p>Its files are missing from <code>dist/console/</code>. Run <code>npm run build</code> (or <code>node scripts/build-console.mjs</code>), then reload this page.</p>
</main>
</body>
</html>
`;

const unavailable = (res: Response) => res.status(503).set(pageHeaders).type('html').send(notBuilt);

/**
 * The sandbox console's browser UI: the same HTML shell for every page under /console (the UI
 * routes in the browser) and its two assets under /console/assets/, read from dist/console/ as
 * `npm run build` writes them. Files are read per request, so a rebuild shows without a restart;
 * nothing is read when the router is made.
 */
export function consoleUi(options: { dir?: string } = {}): Router {
  // Found on the first request: making the router looks at no file.
  let found: string | undefined;
  const folder = () => (found ??= options.dir ?? join(projectRoot(), 'dist', 'console'));
  const router = Router();
  router.get(`${CONSOLE_UI_BASE}/assets/:file`, async (req, res, next) => {
    const type = ASSETS[req.params.file];
    if (!type) return next();
    let body: Buffer;
    try {
      body = await readFile(join(folder(), req.params.file));
    } catch {
      return unavailable(res);
    }
    // The shell names each asset with its hash; no-cache still lets the browser revalidate a stale one.
    res.status(200).set({ 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).send(body);
  });
  router.get([CONSOLE_UI_BASE, `${CONSOLE_UI_BASE}/`, `${CONSOLE_UI_BASE}/*page`], async (req, res, next) => {
    if (req.path.startsWith(`${CONSOLE_UI_BASE}/assets/`)) return next();
    const hashes = await manifest(folder());
    if (!hashes) return unavailable(res);
    res.status(200).set(pageHeaders).type('html').send(shell(hashes));
  });
  return router;
}
