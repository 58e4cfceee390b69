#!/usr/bin/env node
// `npm run mock`: Prism serves the three bundled specs as contract mocks, behind a small proxy that
// gives them the server's address shape:
//   checkout   http://127.0.0.1:4010/checkout/v71    (MOCK_CHECKOUT_PORT)
//   client-side http://127.0.0.1:4010/checkoutshopper/test (Adyen Web's `_environmentUrls.api`;
//              answers the spec's examples: no secured fields, no session state)
//   management http://127.0.0.1:4020/management/v3   (MOCK_MANAGEMENT_PORT)
//   API reference http://127.0.0.1:4010/docs (both ports serve it; "Try it" goes to the mock)
// A port given as 0 takes any free one; the banner names it.
// Checkout and management paths without the prefix keep working. Send `Prefer: example=<scenario>` (or `code=<status>`)
// to pick a spec example: docs/mock-scenarios.md lists them. An invalid request is answered with
// an error naming the actual violations (Prism's `sl-violations`), not the spec's example error.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prismArgs } from './prism.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const verbose = Boolean(process.env.MOCK_VERBOSE);
const host = process.env.MOCK_HOST ?? '127.0.0.1';
// The server's base paths, written once for both.
const BASE_PATHS = JSON.parse(readFileSync(join(root, 'server', 'base-paths.json'), 'utf8'));
const AREAS = [
  { area: 'checkout', base: BASE_PATHS.checkout, port: Number(process.env.MOCK_CHECKOUT_PORT ?? 4010) },
  { area: 'management', base: BASE_PATHS.management, port: Number(process.env.MOCK_MANAGEMENT_PORT ?? 4020) },
];
// The client-side area shares the checkout port, as it shares the server's origin.
const CLIENTSIDE = { area: 'clientside', base: BASE_PATHS.clientside };
const started = Date.now();
const progress = (message) => console.log(`[mock ${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);

/** The API reference pages are the server's (server/docs/pages.ts), compiled: built first when missing or older. */
async function loadDocsPages() {
  const sources = ['docs/pages.ts', 'docs/first-view.ts', 'base-paths.json'].map((name) => join(root, 'server', name));
  const compiled = join(root, 'dist', 'server', 'docs', 'pages.js');
  if (!existsSync(compiled) || sources.some((source) => statSync(compiled).mtimeMs < statSync(source).mtimeMs)) {
    progress('building the API reference pages (npm run build, a few seconds)…');
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  }
  return import(pathToFileURL(compiled).href);
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/** The field a violation is about: its place below request/body (or query, header), with a missing or unknown property appended. */
function fieldOf(violation) {
  const [, , ...rest] = violation.location ?? [];
  const property = /(?:required property|additional properties; found) '([^']+)'/.exec(violation.message ?? '')?.[1];
  return [...rest, ...(property ? [property] : [])].join('.') || (violation.location ?? []).slice(1).join('.') || 'request';
}

/** Prism answers an invalid request with the spec's example error: replace its text with the actual violations. */
function explain(body, violations) {
  const errors = violations.filter((v) => v.severity === 'Error');
  if (errors.length === 0 || body === null || typeof body !== 'object') return body;
  const text = errors.map((v) => `${fieldOf(v)}: ${v.message}`).join('; ');
  const out = { ...body };
  if ('message' in out || !('detail' in out)) out.message = text;
  if ('detail' in out) {
    out.detail = text;
    out.invalidFields = errors.map((v) => ({ name: fieldOf(v), value: '', message: v.message }));
  }
  return out;
}

const pages = {};
function serveDocs(req, res, docs, baseUrl) {
  const path = new URL(req.url, 'http://mock').pathname.replace(/\/+$/, '') || '/';
  const send = (status, type, body) => res.writeHead(status, { 'content-type': type }).end(body);
  if (path === '/docs') return (send(200, 'text/html; charset=utf-8', docs.landingPage({ kind: 'mock', baseUrl, credentials: [] })), true);
  const page = /^\/docs\/(checkout|management|clientside)$/.exec(path);
  if (page) {
    // Rendered once per area: the first view lists every operation.
    pages[page[1]] ??= docs.loadMarkdown().then(() => docs.referencePage(page[1], { kind: 'mock', baseUrl, credentials: [] }));
    pages[page[1]].then(
      (html) => send(200, 'text/html; charset=utf-8', html),
      () => send(500, 'text/plain', 'cannot render the page'),
    );
    return true;
  }
  const spec = /^\/docs\/(checkout|management|clientside)\/openapi\.json$/.exec(path);
  if (spec) return (send(200, 'application/json', docs.docsSpec(spec[1], baseUrl[spec[1]])), true);
  if (path.startsWith('/docs/assets/')) {
    // Scalar's build, compressed and cached as the server sends it (docsAsset in server/docs/pages.ts).
    docs.docsAsset(decodeURIComponent(path.slice('/docs/assets/'.length)), req.headers['accept-encoding']).then(
      (answer) => res.writeHead(answer.status, answer.headers).end(answer.body),
      () => send(500, 'text/plain', 'cannot read the asset'),
    );
    return true;
  }
  return false;
}

/**
 * The public port of an area: docs, then the request to Prism (its base path stripped), with
 * invalid-request errors explained. `areas` are the Prisms behind the port: the first whose base
 * path starts the request's takes it; a path without any goes to the port's own area.
 */
function proxy({ area, port }, areas, docs, baseUrl) {
  const server = http.createServer((req, res) => {
    // Prism logs no request (scripts/prism.mjs says why): with MOCK_VERBOSE the proxy says each one.
    if (verbose) res.on('finish', () => console.log(`[${area}] ${req.method} ${req.url} → ${res.statusCode}`));
    if (req.url.startsWith('/docs') && serveDocs(req, res, docs, baseUrl)) return;
    const within = ({ base }) => req.url === base || req.url.startsWith(`${base}/`) || req.url.startsWith(`${base}?`);
    const target = areas.find(within);
    const path = target ? req.url.slice(target.base.length) || '/' : req.url;
    const prismPort = (target ?? areas.find((a) => a.area === area))?.prismPort;
    if (prismPort === undefined) {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ status: 503, message: 'the mock is starting: Prism is not ready yet' }));
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: prismPort, method: req.method, path, headers: { ...req.headers, host: `127.0.0.1:${prismPort}` } },
      (answer) => {
        const raw = answer.headers['sl-violations'];
        if (!raw || answer.statusCode < 400 || answer.statusCode >= 500) {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks = [];
        answer.on('data', (chunk) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks).toString();
          try {
            body = JSON.stringify(explain(JSON.parse(body), JSON.parse(raw)));
          } catch {
            // not JSON: passed on as it is
          }
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
          res.writeHead(answer.statusCode, headers).end(body);
        });
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 502, message: `the Prism mock did not answer: ${error.message}` }));
    });
    req.pipe(upstream);
  });
  return new Promise((resolveServer, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveServer(server));
  });
}

/** Starts Prism for an area on a private port and waits until it answers. */
async function startPrism({ area }, children) {
  const port = await freePort();
  const child = spawn(process.execPath, prismArgs({ root, area, port, level: verbose ? 'warn' : 'fatal' }), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const prefix = `[${area}] `;
  let printed = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => {
      printed = (printed + chunk.toString()).slice(-4000);
      if (verbose) process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix));
    });
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    // Why Prism stopped (a spec it cannot read, a port in use) is in what it printed last.
    if (!verbose && printed) process.stderr.write(printed.replace(/^(?=.)/gm, prefix));
    console.error(`${prefix}Prism exited with ${code ?? signal}`);
    void stop(code || 1);
  });
  for (let waited = 0; ; waited += 200) {
    const up = await new Promise((ok) => {
      const probe = http.get({ host: '127.0.0.1', port, path: '/' }, (r) => (r.resume(), ok(true)));
      probe.on('error', () => ok(false));
    });
    if (up) return port;
    if (waited > 0 && waited % 5000 === 0) progress(`still waiting for Prism (${area})…`);
    if (waited > 90_000) throw new Error(`Prism (${area}) did not start within 90 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const children = [];
const proxies = [];
let stopping;

/** Resolves when the child has exited: asked with SIGTERM, then SIGKILL after 5 s. */
function ended(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveEnded) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => (clearTimeout(hard), resolveEnded()));
    child.kill('SIGTERM');
  });
}

/** Stops the proxies and the Prism children, waits until the children have exited, then exits. */
function stop(code) {
  stopping ??= (async () => {
    for (const server of proxies) {
      server.close();
      server.closeAllConnections();
    }
    await Promise.all(children.map(ended));
    process.exit(code);
  })();
  return stopping;
}

// SIGINT (Ctrl-C), SIGTERM, SIGHUP (terminal closed): the children stop with the mock. A second
// signal while stopping does not wait.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) {
      for (const child of children) child.kill('SIGKILL');
      process.exit(1);
    }
    void stop(0);
  });
}

// Under `npm run mock`, a signal sent to npm ends npm and its shell but does not reach this
// process: when the shell that started it is gone, the mock stops as on SIGTERM.
if (process.env.npm_lifecycle_event === 'mock') {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void stop(0), 500).unref();
}

try {
  const docs = await loadDocsPages();
  const [checkout, management] = AREAS;
  // The public ports are taken first: one in use fails at once, and a port given as 0 (any free
  // one) is known before the banner names it. Until Prism answers they say 503.
  const checkoutPrisms = [];
  const managementPrisms = [];
  const baseUrl = {};
  proxies.push(await proxy(checkout, checkoutPrisms, docs, baseUrl), await proxy(management, managementPrisms, docs, baseUrl));
  [checkout.port, management.port] = proxies.map((server) => server.address().port);
  baseUrl.checkout = `http://${host}:${checkout.port}${checkout.base}`;
  baseUrl.management = `http://${host}:${management.port}${management.base}`;
  const clientsideUrl = `http://${host}:${checkout.port}${CLIENTSIDE.base}`;
  baseUrl.clientside = clientsideUrl;
  // The console's API is the sandbox's own (sessions, its request log): not mocked; its reference page names the sandbox's path.
  baseUrl.console = BASE_PATHS.console;
  progress('starting Prism for checkout, client-side and management…');
  const [checkoutPrism, managementPrism, clientsidePrism] = await Promise.all(
    [...AREAS, CLIENTSIDE].map(async (area) => {
      const prismPort = await startPrism(area, children);
      progress(`Prism (${area.area}) ready`);
      return { ...area, prismPort };
    }),
  );
  checkoutPrisms.push(checkoutPrism, clientsidePrism);
  managementPrisms.push(managementPrism);
  console.log(
    [
      `Mock ready in ${((Date.now() - started) / 1000).toFixed(1)} s (Prism, any X-API-Key is accepted):`,
      `  checkout:      ${baseUrl.checkout}`,
      `  management:    ${baseUrl.management}`,
      `  client-side:   ${clientsideUrl}/ (Adyen Web's _environmentUrls.api; examples only, no secured fields)`,
      `  API reference: http://${host}:${checkout.port}/docs`,
      `  scenarios:     Prefer: example=<name> or Prefer: code=<status> (docs/mock-scenarios.md)`,
      `  Each request and Prism's validation messages: MOCK_VERBOSE=1. Ctrl-C stops the mock.`,
    ].join('\n'),
  );
} catch (error) {
  console.error(`mock: ${error.message}`);
  await stop(1);
}
