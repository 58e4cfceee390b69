import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../project-root.js';

/**
 * The API reference pages (Scalar), rendered without Express so that `npm run mock` serves the
 * same pages next to the mock. Everything the pages load comes from the process serving them:
 * Scalar's standalone bundle from node_modules, the spec from generated/; no fonts, telemetry,
 * proxy, AI agent or MCP, so no request leaves the machine.
 */
export type DocsArea = 'checkout' | 'management';
export const DOCS_AREAS: readonly DocsArea[] = ['checkout', 'management'];
export const AREA_BASE: Record<DocsArea, string> = { checkout: '/checkout/v71', management: '/management/v3' };
const TITLE: Record<DocsArea, string> = { checkout: 'Checkout API v71', management: 'Management API v3' };

/** The folder of Scalar's browser build (standalone.js and the chunks it loads), served under /docs/assets/. */
export function scalarAssetDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@scalar/api-reference')), 'browser');
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

/** The bundled spec of an area, with its server set to where "Try it" should send requests. */
export function docsSpec(area: DocsArea, baseUrl: string): string {
  const spec = JSON.parse(readFileSync(join(projectRoot(), 'generated', `${area}.json`), 'utf8')) as Record<string, unknown>;
  spec.servers = [{ url: baseUrl, description: 'This sandbox' }];
  return JSON.stringify(spec);
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
<p>Each reference page renders the bundled OpenAPI document of its area (<a href="/docs/checkout/openapi.json">checkout</a>,
<a href="/docs/management/openapi.json">management</a>).</p>
</body></html>`;
}

export function referencePage(area: DocsArea): string {
  const configuration = {
    url: `/docs/${area}/openapi.json`,
    withDefaultFonts: false,
    telemetry: false,
    hideClientButton: true,
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    agent: { disabled: true },
    mcp: { disabled: true },
    authentication: { preferredSecurityScheme: 'ApiKeyAuth' },
    persistAuth: false,
    defaultOpenAllTags: true,
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${TITLE[area]} reference</title><link rel="icon" href="data:,"></head><body>
<div id="app"></div>
<script src="/docs/assets/standalone.js"></script>
<script>Scalar.createApiReference('#app', ${JSON.stringify(configuration).replace(/</g, '\\u003c')});</script>
</body></html>`;
}
