import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import BASE_PATHS from '../base-paths.json' with { type: 'json' };
import { projectRoot } from '../project-root.js';
import { FIRST_VIEW_STYLE, firstView, type ReferenceSpec } from './first-view.js';

export { loadMarkdown } from './first-view.js';

/**
 * The API reference pages (Scalar), rendered without Express so that `npm run mock` serves the
 * same pages next to the mock. Everything the pages load comes from the process serving them:
 * Scalar's browser build from node_modules, the spec from generated/; no fonts, telemetry,
 * proxy, AI agent or MCP, so no request leaves the machine.
 *
 * What makes the pages fast (bench/docs.mjs measures it): the first view (first-view.ts) is
 * server-rendered and painted at once; Scalar's standalone build, one script, starts after that
 * first paint, preloaded beside the spec so that both download while the first view shows; the
 * assets are compressed once per process (brotli or gzip) and served under the package version with
 * a year-long immutable cache. The package is held at the last release whose packages declare
 * Node 20 (`engines`), which ships the classic standalone build only.
 */
export type DocsArea = 'checkout' | 'management' | 'clientside' | 'console';
export const DOCS_AREAS: readonly DocsArea[] = ['checkout', 'management', 'clientside', 'console'];
export const AREA_BASE: Record<DocsArea, string> = BASE_PATHS;
const TITLE: Record<DocsArea, string> = {
  checkout: 'Checkout API v71',
  management: 'Management API v3',
  clientside: 'Client-side API (Adyen Web)',
  console: 'Console API (the sandbox console)',
};
/** The security scheme "Try it" opens with: an API key in a header (the console takes one too), or (client-side) a client key in the query. */
const SECURITY_SCHEME: Record<DocsArea, string> = { checkout: 'ApiKeyAuth', management: 'ApiKeyAuth', clientside: 'ClientKeyAuth', console: 'ApiKeyAuth' };

/** Scalar's browser build, one classic script in dist/browser/ that defines `window.Scalar`. */
const SCALAR_ENTRY = 'standalone.js';
/** Below this address, then the package version, then the file in dist/browser/. */
const ASSET_PREFIX = '/docs/assets/';

interface ScalarBuild {
  /** dist/browser/ of @scalar/api-reference. */
  dir: string;
  version: string;
  /** `/docs/assets/<version>/`: the address of `dir`, new with every version of the package. */
  base: string;
}

let build: ScalarBuild | undefined;
/**
 * Scalar's browser build: from the installed @scalar/api-reference, or, in the sandbox package
 * (which carries that one folder instead of the package and its some 350 dependencies), from
 * vendor/scalar/ beside the server (scripts/sandbox-package.mjs writes it, with Scalar's version).
 */
function scalarBuild(): ScalarBuild {
  if (build) return build;
  const vendored = join(projectRoot(), 'vendor', 'scalar');
  let dir: string;
  let version: string;
  if (existsSync(join(vendored, 'package.json'))) {
    dir = join(vendored, 'browser');
    ({ version } = JSON.parse(readFileSync(join(vendored, 'package.json'), 'utf8')) as { version: string });
  } else {
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve('@scalar/api-reference'));
    ({ version } = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as { version: string });
    dir = join(dist, 'browser');
  }
  build = { dir, version, base: `${ASSET_PREFIX}${encodeURIComponent(version)}/` };
  return build;
}

export interface DocsCredential {
  username: string;
  what: string;
  /** The environment variable that sets its key. */
  env: string;
}

export interface DocsSite {
  /** What the pages are next to: the server (sandbox) or the Prism mock. */
  kind: 'server' | 'mock';
  /** Base address of each area that "Try it" sends requests to (absolute). */
  baseUrl: Record<DocsArea, string>;
  credentials: DocsCredential[];
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What "Try it" on the client-side area needs: a client key, not an API key. */
const CLIENT_KEY_NOTE =
  '**Try it** sends requests to this sandbox with a client key in the `clientKey` query parameter (`token` for the BIN lookup), ' +
  "as Adyen's web library does: the demo merchant credential's is in `GET /management/v3/merchants/DemoMerchantECOM/apiCredentials/S2-DEMOMERCHANT1`.";

/** What "Try it" against the sandbox needs, kept short: Scalar renders this Markdown before the first operation shows. */
function tryItNote(credentials: DocsCredential[]): string {
  const keys = credentials.map((c) => `\`${c.env}\` (\`${c.username}\`)`).join(', ');
  return (
    `**Try it** sends requests to this sandbox; authenticate with \`X-API-Key\` under Authentication. Demo keys: ${keys}, ` +
    `or without those variables the keys printed once in the server's start banner ([details](/docs)).`
  );
}

/**
 * The bundled spec of an area, with its server set to where "Try it" should send requests and,
 * given the sandbox's demo credentials, a note at the top of its description on authenticating.
 */
function areaSpec(area: DocsArea, baseUrl: string, credentials?: DocsCredential[]): ReferenceSpec & { servers?: unknown } {
  const spec = JSON.parse(readFileSync(join(projectRoot(), 'generated', `${area}.json`), 'utf8')) as ReferenceSpec & { servers?: unknown };
  spec.servers = [{ url: baseUrl, description: 'This sandbox' }];
  if (credentials && spec.info) spec.info.description = `${area === 'clientside' ? CLIENT_KEY_NOTE : tryItNote(credentials)}\n\n${spec.info.description ?? ''}`;
  return spec;
}

export function docsSpec(area: DocsArea, baseUrl: string, credentials?: DocsCredential[]): string {
  return JSON.stringify(areaSpec(area, baseUrl, credentials));
}

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
code{background:#f2f2f2;padding:.1rem .3rem;border-radius:3px}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .6rem;text-align:left}
a{color:#0a58ca}`;

export function landingPage(site: DocsSite): string {
  const rows = site.credentials
    .map((c) => `<tr><td><code>${escape(c.username)}</code></td><td>${escape(c.what)}</td><td><code>${escape(c.env)}</code></td></tr>`)
    .join('');
  const keys =
    site.kind === 'mock'
      ? `<p>The mock accepts any <code>X-API-Key</code> value; it checks that one is sent, not which. Ask for a scenario with
<code>Prefer: example=&lt;name&gt;</code> or <code>Prefer: code=&lt;status&gt;</code> (see <code>docs/mock-scenarios.md</code>).</p>`
      : `<p>"Try it" sends requests to this sandbox. Authenticate with <code>X-API-Key: &lt;key&gt;</code> (the reference pages
ask for it under Authentication). The demo credentials are seeded on first start:</p>
<table><tr><th>Credential</th><th>Reaches</th><th>API key from</th></tr>${rows}</table>
<p>Without the variables the keys are generated and printed once in the start banner. Only their hashes are stored: a lost key
cannot be shown again (start with an empty database, or set the variable).</p>`;
  const links = DOCS_AREAS.map((area) => `<li><a href="/docs/${area}">${TITLE[area]}</a> — <code>${escape(site.baseUrl[area])}</code></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>API reference</title><link rel="icon" href="data:,"><style>${STYLE}</style></head><body>
<h1>API reference${site.kind === 'mock' ? ' (Prism mock)' : ''}</h1>
<ul>${links}</ul>
<h2>Authentication</h2>${keys}
<p>The client-side API is what Adyen's web library (Drop-in, Components) calls from the shopper's browser: a client key in
the query authenticates it, not an API key.</p>
<p>Each reference page renders the bundled OpenAPI document of its area (<a href="/docs/checkout/openapi.json">checkout</a>,
<a href="/docs/management/openapi.json">management</a>, <a href="/docs/clientside/openapi.json">client-side</a>,
<a href="/docs/console/openapi.json">console</a>).</p>
<p>The console API is what the sandbox console at <code>/console</code> calls: it signs in with an API key (a session cookie) and
shows the request log, payments and their timelines, and webhook deliveries of that credential's reach.</p>
</body></html>`;
}

/**
 * An area's reference page: the first view (first-view.ts) at once, then Scalar, started
 * after the first view has been painted and drawn out of sight. When Scalar shows its first
 * operation it takes the first view's place, unless the reader has scrolled, clicked or typed
 * meanwhile: then a button offers the switch, so that nothing moves under the reader. Without
 * scripts, or if Scalar fails, the first view stays.
 */
export function referencePage(area: DocsArea, site: DocsSite): string {
  const { base } = scalarBuild();
  const specUrl = `/docs/${area}/openapi.json`;
  const spec = areaSpec(area, site.baseUrl[area], site.kind === 'server' ? site.credentials : undefined);
  const intro =
    site.kind === 'mock'
      ? `Requests go to the Prism mock at \`${site.baseUrl[area]}\`; it accepts any ${area === 'clientside' ? '`clientKey`' : '`X-API-Key`'} value.`
      : `Requests go to this sandbox at \`${site.baseUrl[area]}\`.`;
  const view = firstView(spec, intro);
  const firstOperation = Object.values(spec.paths)
    .flatMap((item) => Object.values(item) as Array<{ operationId?: string; summary?: string }>)
    .find((op) => op && typeof op === 'object' && op.operationId);
  const configuration = {
    url: specUrl,
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    agent: { disabled: true },
    mcp: { disabled: true },
    authentication: { preferredSecurityScheme: SECURITY_SCHEME[area] },
    persistAuth: false,
    // Lists every operation in the sidebar (the sections render as they scroll into view). It
    // costs some 15 % of the page's main-thread time; closed, the sidebar names only the tags.
    defaultOpenAllTags: true,
  };
  // The script first (it runs before the spec is asked for), then the spec, which Scalar fetches
  // as a plain same-origin fetch(): `as="fetch" crossorigin` matches it.
  const preloads = [`<link rel="preload" href="${base}${SCALAR_ENTRY}" as="script">`, `<link rel="preload" href="${specUrl}" as="fetch" crossorigin>`].join(
    '\n',
  );
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${TITLE[area]} reference</title><link rel="icon" href="data:,">
<style>${FIRST_VIEW_STYLE}</style>
${preloads}
</head><body>
<header class="bar" id="docs-bar"><strong>${TITLE[area]}</strong><a href="/docs">All references</a>
<span id="docs-interactive-status" role="status">Interactive reference with “Try it”: loading…</span>
<button id="docs-interactive-show" type="button" hidden>Show the interactive reference</button></header>
<div class="fv" id="docs-first-view"><nav class="ops" aria-label="Operations">${view.nav}</nav><main class="ref">${view.main}</main></div>
<div id="app" aria-hidden="true" style="position:fixed;inset:0;overflow:hidden;visibility:hidden;pointer-events:none"></div>
<script type="module">
const firstSummary = ${json(firstOperation?.summary ?? '')};
const status = document.getElementById('docs-interactive-status');
const button = document.getElementById('docs-interactive-show');
const app = document.getElementById('app');
// A reader who has moved keeps the first view until they ask for the switch.
let moved = location.hash !== '';
for (const event of ['wheel', 'touchstart', 'pointerdown', 'keydown', 'hashchange'])
  addEventListener(event, () => (moved = true), { once: true, passive: true, capture: true });
const show = () => {
  document.getElementById('docs-first-view').remove();
  document.getElementById('docs-bar').remove();
  app.removeAttribute('style');
  app.removeAttribute('aria-hidden');
  scrollTo(0, 0);
  window.__docsInteractiveShownAt = performance.now();
};
button.addEventListener('click', show);
const failed = () => (status.textContent = 'The interactive reference could not be loaded; this page shows every operation.');
const drawn = () =>
  new Promise((resolve, reject) => {
    const until = performance.now() + 30000;
    const look = () => (app.textContent.includes(firstSummary) ? resolve() : performance.now() > until ? reject(new Error('not drawn')) : setTimeout(look, 100));
    look();
  });
// After the first view's first frame has been painted (the second frame's callback runs after
// it), so that Scalar's work does not hold it back.
requestAnimationFrame(() => requestAnimationFrame(() =>
  setTimeout(async () => {
    try {
      const { createApiReference } = await new Promise((resolve, reject) => {
        const script = Object.assign(document.createElement('script'), { src: '${base}${SCALAR_ENTRY}' });
        script.onload = () => (window.Scalar ? resolve(window.Scalar) : reject(new Error('no window.Scalar')));
        script.onerror = () => reject(new Error('script not loaded'));
        document.head.append(script);
      });
      let loaded;
      const ready = new Promise((resolve) => (loaded = resolve));
      createApiReference('#app', { ...${json(configuration)}, onLoaded: () => loaded() });
      await ready;
      await drawn();
      window.__docsInteractiveReadyAt = performance.now();
      // The page scrolls on the compositor while Scalar holds the main thread, and the reader's
      // wheel or touch events reach the page only afterwards: the scroll position tells at once.
      if (!moved && scrollY === 0) return show();
      status.textContent = 'The interactive reference with “Try it” is ready.';
      button.hidden = false;
    } catch (error) {
      console.warn('API reference:', error);
      failed();
    }
  }, 0),
));
</script>
</body></html>`;
}

/** An answer to send as it is: from Express or from a bare node:http server. */
export interface DocsAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** A body in each content coding a browser may ask for. */
export interface Encoded {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Brotli and gzip, off the event loop. Brotli at quality 6: on Scalar's script 13 % larger than at
 * quality 11 (895 KB against 793 KB, from 3.6 MB) but some 20 times faster to make (0.3 s against 7 s).
 */
export async function encode(raw: Buffer | string): Promise<Encoded> {
  const identity = typeof raw === 'string' ? Buffer.from(raw) : raw;
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipped(identity),
  ]);
  return { identity, br, gzip: gz };
}

/** The coding to answer an Accept-Encoding header with: brotli, else gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined): keyof Encoded {
  const quality = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    quality.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (coding: string) => (quality.get(coding) ?? quality.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/** `encoded` in the coding the client accepts best, with `headers` and the ones that coding needs. */
export function encodedAnswer(encoded: Encoded, acceptEncoding: string | undefined, headers: Record<string, string>): DocsAnswer {
  const coding = chooseEncoding(acceptEncoding);
  const body = encoded[coding];
  return {
    status: 200,
    headers: { ...headers, ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }), Vary: 'Accept-Encoding', 'Content-Length': String(body.length) },
    body,
  };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
};
/** Each asset compressed once per process, when first asked for (the files never change while it runs). */
const assets = new Map<string, Promise<Encoded>>();

/**
 * GET /docs/assets/<path>: Scalar's browser build. Under the package version
 * (`/docs/assets/1.46.4/standalone.js`) a file is compressed and may be kept for a year; an
 * address without the version is redirected there; anything else is 404.
 */
export async function docsAsset(path: string, acceptEncoding: string | undefined): Promise<DocsAnswer> {
  const { dir, version, base } = scalarBuild();
  const notFound: DocsAnswer = { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'not found' };
  const inside = (relative: string) => {
    const file = resolve(dir, relative);
    if (!file.startsWith(dir + sep)) return undefined;
    try {
      return statSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  };
  const [first, ...rest] = path.split('/');
  if (first !== version) return inside(path) ? { status: 308, headers: { Location: `${base}${path}` }, body: '' } : notFound;
  const file = inside(rest.join('/'));
  if (!file) return notFound;
  const headers = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'public, max-age=31536000, immutable' };
  // Source maps (up to 17 MB, read by developer tools only) are sent as they are, not kept.
  if (extname(file) === '.map') {
    const body = await readFile(file);
    return { status: 200, headers: { ...headers, 'Content-Length': String(body.length) }, body };
  }
  let encoded = assets.get(file);
  if (!encoded) {
    encoded = readFile(file).then(encode);
    encoded.catch(() => assets.delete(file));
    assets.set(file, encoded);
  }
  return encodedAnswer(await encoded, acceptEncoding, headers);
}
