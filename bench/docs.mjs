#!/usr/bin/env node
// `npm run bench:docs`: how long the API reference pages (/docs/checkout, /docs/management) take
// to show their first operation in headless Chromium. Target: under 1000 ms, median, cold and warm.
//   cold  a fresh browser context (empty cache), the page loaded once
//   warm  the same context, the page loaded again (its assets from the browser's cache)
// The time is from navigation start to the first animation frame in which the first operation's
// summary is in the viewport and visible (an in-page probe; Playwright then checks that it sees
// the text too): the page's first view, server-rendered HTML. Beside it, with no target, when
// Scalar's interactive page took the first view's place ("interactive"). It builds first when dist/ is missing or older than the sources, starts the
// server on a free port with a temporary data folder, loads each page once uncounted (the server
// compresses each asset when first asked for it), prints median and p95 per page with "met" or
// "NOT met", writes every figure to bench/results/, and exits 1 when a median misses the target.
// Machine load counts (the page is CPU-bound): the load average is printed with the figures.
//   BENCH_DOCS_RUNS (5) runs per page (the browser: headless Chromium from npm, scripts/chromium.mjs),
//   BENCH_DOCS_BASE_URL: measure a server already running there instead (nothing built or started)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { freePort } from './helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_DOCS_RUNS ?? 5);
const TARGET_MS = 1000;
const AREAS = ['checkout', 'management'];

/** Newest modification time of the TypeScript sources the server is built from. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const main = join(root, 'dist', 'server.mjs');
  const sources = Math.max(...['server', 'lib'].map((dir) => newestSource(join(root, dir))));
  if (existsSync(main) && statSync(main).mtimeMs >= sources) return;
  console.log('building (npm run build)…');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
}

async function startServer() {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'bench-docs-'));
  const child = spawn(process.execPath, [join(root, 'dist', 'server.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_PATH: join(data, 'payments.sqlite'),
      UPLOAD_DIR: join(data, 'uploads'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - started > 60_000) throw new Error(`the server did not get ready in 60 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stop = () =>
    new Promise((resolve) => {
      const done = () => (rmSync(data, { recursive: true, force: true }), resolve());
      if (child.exitCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
    });
  return { base, stop };
}

/** The summary of the first operation of an area's spec: what Scalar lists first. */
function firstSummary(area) {
  const spec = JSON.parse(readFileSync(join(root, 'generated', `${area}.json`), 'utf8'));
  for (const [path, item] of Object.entries(spec.paths))
    for (const operation of Object.values(item)) if (operation && typeof operation === 'object' && operation.operationId) return operation.summary ?? path;
  throw new Error(`${area}: no operation`);
}

/**
 * Runs in the page before its scripts: on every animation frame until it succeeds, looks for a
 * visible element in the viewport showing `text`, and keeps the time of that frame.
 */
function probe(text) {
  const shown = () => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.data.includes(text) || !element?.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight) return true;
    }
    return false;
  };
  const frame = () => {
    if (document.body && shown()) window.__firstOperationShownAt = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function load(context, url, summary) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(probe, summary);
  await page.goto(url, { waitUntil: 'commit' });
  // Polled every 100 ms with a cheap check: Playwright's own text search, run in the page at
  // every poll, would take main-thread time from the page being measured.
  await page.waitForFunction(() => window.__firstOperationShownAt !== undefined, null, { timeout: 30_000, polling: 100 });
  if (!(await page.getByText(summary).first().isVisible())) throw new Error(`${url}: "${summary}" is not visible to Playwright`);
  // Then Scalar, drawn out of sight, takes the first view's place (server/docs/pages.ts): reported, no target.
  await page.waitForFunction(() => window.__docsInteractiveShownAt !== undefined, null, { timeout: 60_000, polling: 100 });
  const result = await page.evaluate(() => ({
    shownMs: window.__firstOperationShownAt,
    interactiveMs: window.__docsInteractiveShownAt,
    transferBytes: performance
      .getEntriesByType('resource')
      .reduce((sum, e) => sum + e.transferSize, performance.getEntriesByType('navigation')[0]?.transferSize ?? 0),
  }));
  await page.close();
  if (errors.length > 0) throw new Error(`${url}: page errors: ${errors.join('; ')}`);
  return { shownMs: Math.round(result.shownMs), interactiveMs: Math.round(result.interactiveMs), transferBytes: result.transferBytes };
}

const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => {
  const s = sorted(values);
  return s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
};
const p95 = (values) => sorted(values)[Math.ceil(0.95 * values.length) - 1];

async function main() {
  const external = process.env.BENCH_DOCS_BASE_URL?.replace(/\/+$/, '');
  if (!external) buildIfNeeded();
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const server = external ? { base: external, stop: async () => {} } : await startServer();
  const browser = await launchChromium();
  const pages = {};
  try {
    for (const area of AREAS) {
      const url = `${server.base}/docs/${area}`;
      const summary = firstSummary(area);
      // One load first, not counted: the server compresses each asset when first asked for it.
      const warmup = await browser.newContext();
      await load(warmup, url, summary);
      await warmup.close();
      const runs = { cold: [], warm: [] };
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        runs.cold.push(await load(context, url, summary));
        runs.warm.push(await load(context, url, summary));
        await context.close();
      }
      pages[area] = { url: `/docs/${area}`, firstOperation: summary, runs };
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const rows = [];
  for (const [area, { runs }] of Object.entries(pages))
    for (const kind of ['cold', 'warm']) {
      const shown = runs[kind].map((r) => r.shownMs);
      const row = {
        page: `/docs/${area}`,
        kind,
        medianMs: median(shown),
        p95Ms: p95(shown),
        interactiveMedianMs: median(runs[kind].map((r) => r.interactiveMs)),
        transferKb: Math.round(median(runs[kind].map((r) => r.transferBytes)) / 1024),
      };
      row.met = row.medianMs < TARGET_MS;
      rows.push(row);
    }
  const loadAfter = loadavg();
  const fmt = (n) => n.toFixed(1);
  console.log(
    `API reference load — ${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores, load average ${fmt(loadBefore[0])} before, ${fmt(loadAfter[0])} after; ` +
      `${RUNS} runs per page; first operation shown (ms from navigation start), target < ${TARGET_MS} ms median; ` +
      `interactive: Scalar's page in its place (no target)`,
  );
  console.log(
    `${'page'.padEnd(18)} ${'load'.padEnd(5)} ${'median'.padStart(7)} ${'p95'.padStart(6)} ${'interactive'.padStart(11)} ${'transferred'.padStart(11)}   target`,
  );
  for (const r of rows)
    console.log(
      `${r.page.padEnd(18)} ${r.kind.padEnd(5)} ${String(r.medianMs).padStart(7)} ${String(r.p95Ms).padStart(6)} ${String(r.interactiveMedianMs).padStart(11)} ${`${r.transferKb} KB`.padStart(11)}   ${r.met ? 'met' : 'NOT met'}`,
    );
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `docs-${startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt, targetMs: TARGET_MS, machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, loadBefore, loadAfter }, rows, pages }, null, 2)}\n`,
  );
  console.log(`figures: ${file}`);
  if (rows.some((r) => !r.met)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
