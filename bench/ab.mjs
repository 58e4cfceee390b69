#!/usr/bin/env node
// An interleaved A/B of builds on SQLite: `node bench/ab.mjs <checkout> <checkout> …`, each a
// checkout with `dist/` built (`npm run build`), or `reference` (Express 5 +
// validator answering fixed JSON, as `npm run bench` measures it). Every round starts each build in
// turn (the order rotates from round to round) on a fresh database with the same preloaded data,
// and measures authorise, capture, list and replay once; the report gives per build and scenario
// the median and spread (min–max) of throughput, p99 and the server's CPU time per request (robust
// to other processes taking the core: it counts only what the server spent) over the rounds, and the
// machine's load before and after. Machine noise that drifts over minutes then hits every build
// alike instead of whichever ran last. Server on core 0, load generator on core 1 (as `npm run bench`).
//   AB_ROUNDS (5), AB_SECONDS (5), AB_WARMUP (2), AB_SCENARIOS (authorise,capture,list,replay),
//   AB_CONNECTIONS (10: as `npm run bench`; 1 shows a round trip saved, with no queueing to hide it),
//   AB_ENV (JSON: extra environment for the servers), AB_CPU_PROF (a folder: the last round's
//   servers write a --cpu-prof profile there), AB_NODE_ARGS (flags for the servers' node).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseUrl, freePort, KEY, median, onDatabase, rssMb, serverEnv } from './helpers.mjs';
import { REFERENCE_PSP } from './reference-answers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// `reference`: Express 5 + express-openapi-validator answering fixed JSON (bench/reference-servers.mjs), measured alike.
const REFERENCE = 'reference';
const builds = process.argv.slice(2).map((b) => (b === REFERENCE ? b : resolve(b)));
if (builds.length === 0) throw new Error('usage: node bench/ab.mjs <checkout with dist/> …');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 5);
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const WARMUP = Number(process.env.AB_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.AB_CONNECTIONS ?? 10);
const SCENARIOS = (process.env.AB_SCENARIOS ?? 'authorise,capture,list,replay').split(',');
const EXTRA_ENV = JSON.parse(process.env.AB_ENV ?? '{}');
const PROFILE_DIR = process.env.AB_CPU_PROF;
const ADMIN_URL = process.env.AB_DATABASE_URL;
// Node or V8 flags for every server (NODE_OPTIONS takes only some V8 flags), e.g. --no-turbo-inlining to see inlined frames in a profile.
const NODE_ARGS = (process.env.AB_NODE_ARGS ?? '').split(' ').filter(Boolean);
const POOL = 60_000;

async function startServer(build, db, profile) {
  const port = await freePort();
  const entry = build === REFERENCE ? [join(here, 'reference-servers.mjs'), 'validator', String(port)] : [join(build, 'dist', 'server', 'main.js')];
  const args = [...NODE_ARGS, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), ...entry];
  const child = spawn('taskset', ['-c', '0', process.execPath, ...args], {
    cwd: build === REFERENCE ? here : build,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      ...serverEnv(port, db),
      ...EXTRA_ENV,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ;) {
    try {
      const answer = await fetch(`${base}/management/v3/me`, { headers: { 'X-API-Key': KEY } });
      // The reference answers every path with its fixed JSON (for /me, an invalid answer): any answer means it is up.
      if (answer.ok || build === REFERENCE) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`${build} did not start\n${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, base };
}
// SIGINT: the server stops gracefully, and a --cpu-prof profile is written on the way out.
const stop = (child) => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGINT'))));

const paymentBody = {
  amount: { currency: 'EUR', value: 1000 },
  reference: 'bench',
  merchantAccount: 'DemoMerchantECOM',
  returnUrl: 'https://shop.example.com/return',
  paymentMethod: {
    type: 'scheme',
    encryptedCardNumber: 'test_4111111111111111',
    encryptedExpiryMonth: 'test_03',
    encryptedExpiryYear: 'test_2030',
    encryptedSecurityCode: 'test_737',
    holderName: 'Bench',
  },
};
const json = { 'Content-Type': 'application/json', 'X-API-Key': KEY };
const scenarios = (base, pool) => ({
  authorise: { url: base, method: 'POST', path: '/checkout/v71/payments', headers: json, body: paymentBody, freshIdempotencyKey: true },
  capture: {
    url: base,
    method: 'POST',
    path: '/checkout/v71/payments/{ref}/captures',
    headers: json,
    body: { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } },
    freshIdempotencyKey: true,
    pathPoolFile: pool,
  },
  list: { url: base, method: 'GET', path: '/management/v3/companies/DemoCompany/androidApps?pageSize=20', headers: { 'X-API-Key': KEY } },
  replay: { url: base, method: 'POST', path: '/checkout/v71/payments', headers: { ...json, 'Idempotency-Key': 'bench-replay-key' }, body: paymentBody },
});

/** The CPU time (user + system, ms) a process has used so far. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** CPU time (ms) used so far by every process named postgres (the database's share, with AB_DATABASE_URL on this machine). */
function postgresCpuMs() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      total += cpuMs(pid);
    } catch {
      /* gone */
    }
  }
  return total;
}

/** One measurement, with the server's (and with AB_DATABASE_URL PostgreSQL's) CPU time per request over the warm-up and the measurement. */
function load(spec, serverPid) {
  const cpuBefore = cpuMs(serverPid);
  const pgBefore = ADMIN_URL ? postgresCpuMs() : 0;
  const loadSpec = JSON.stringify({ connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP, repeats: 1, ...spec });
  const out = execFileSync('taskset', ['-c', '1', process.execPath, join(here, 'load.mjs'), loadSpec], {
    maxBuffer: 10 * 1024 * 1024,
    env: { ...process.env, NODE_OPTIONS: '' },
  }).toString();
  const { measurements, warmupRequests } = JSON.parse(out.trim().split('\n').at(-1));
  const requests = warmupRequests + measurements[0].requests;
  return {
    ...measurements[0],
    cpuMsPerRequest: (cpuMs(serverPid) - cpuBefore) / requests,
    ...(ADMIN_URL ? { postgresCpuMsPerRequest: (postgresCpuMs() - pgBefore) / requests } : {}),
  };
}

async function freshPostgres(name) {
  await onDatabase(ADMIN_URL, `DROP DATABASE IF EXISTS ${name}`, `CREATE DATABASE ${name}`);
  return databaseUrl(ADMIN_URL, name);
}

const uptime = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const results = {}; // build → scenario → measurements
const log = (m) => process.stderr.write(`${m}\n`);
const loadBefore = uptime();
const work = mkdtempSync(join(tmpdir(), 'ab-'));
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = builds.map((_, i) => builds[(i + round) % builds.length]);
    for (const build of order) {
      const dir = join(work, `${round}-${basename(build)}`);
      mkdirSync(dir);
      const db = ADMIN_URL ? await freshPostgres(`ab_${process.pid}_${round}_${builds.indexOf(build)}`) : join(dir, 'bench.sqlite');
      const pool = join(dir, 'pool.txt');
      if (build === REFERENCE) writeFileSync(pool, `${REFERENCE_PSP}\n`);
      else {
        await stop((await startServer(build, db)).child); // migrations and demo data
        // Payments to capture only when the capture scenario runs (a load that, on PostgreSQL, autovacuum
        // and the checkpointer would otherwise still be working off during the measurement).
        const payments = SCENARIOS.includes('capture') ? POOL : 0;
        execFileSync(process.execPath, [join(build, 'bench', 'preload.mjs'), db, String(payments), '40', pool], { stdio: 'inherit' });
        if (ADMIN_URL) await onDatabase(db, 'VACUUM (ANALYZE)', 'CHECKPOINT');
      }
      const profile = PROFILE_DIR && round === ROUNDS - 1 ? join(PROFILE_DIR, basename(build)) : undefined;
      const server = await startServer(build, db, profile);
      const specs = scenarios(server.base, pool);
      // The replay scenario's first request records the answer it then replays.
      await fetch(`${server.base}/checkout/v71/payments`, { method: 'POST', headers: specs.replay.headers, body: JSON.stringify(paymentBody) });
      for (const name of SCENARIOS) {
        const m = load(specs[name], server.child.pid);
        ((results[build] ??= {})[name] ??= []).push(m);
        log(
          `round ${round + 1}/${ROUNDS} ${basename(build)} ${name}: ${m.rps.toFixed(0)} req/s, p99 ${m.p99} ms, ${(m.cpuMsPerRequest * 1000).toFixed(0)} µs CPU/request${m.postgresCpuMsPerRequest === undefined ? '' : ` (PostgreSQL ${(m.postgresCpuMsPerRequest * 1000).toFixed(0)} µs)`}, non-2xx ${m.non2xx} (load ${uptime()})`,
        );
      }
      const rss = rssMb(server.child.pid) ?? 0;
      ((results[build] ??= {}).rssMb ??= []).push(rss);
      log(`round ${round + 1}/${ROUNDS} ${basename(build)}: resident memory after the scenarios ${rss.toFixed(0)} MB`);
      await stop(server.child);
      rmSync(dir, { recursive: true, force: true });
      if (ADMIN_URL) await onDatabase(ADMIN_URL, `DROP DATABASE ${new URL(db).pathname.slice(1)}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const lines = [
  `A/B ${new Date().toISOString()}, ${ROUNDS} rounds × ${SECONDS} s (+${WARMUP} s warm-up), ${CONNECTIONS} connections; load average before ${loadBefore}, after ${uptime()} (${loadavg().length} figures: 1, 5, 15 min)`,
  '| build | scenario | req/s median | min–max | p99 ms median | p99 min–max | server CPU µs/request median | min–max |',
  '|---|---|---|---|---|---|---|---|',
];
for (const build of builds)
  for (const name of SCENARIOS) {
    const ms = results[build][name];
    const rps = ms.map((m) => m.rps);
    const p99 = ms.map((m) => m.p99);
    const cpu = ms.map((m) => m.cpuMsPerRequest * 1000);
    lines.push(
      `| ${basename(build)} | ${name} | ${median(rps).toFixed(0)} | ${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)} | ${median(p99)} | ${Math.min(...p99)}–${Math.max(...p99)} | ${median(cpu).toFixed(0)} | ${Math.min(...cpu).toFixed(0)}–${Math.max(...cpu).toFixed(0)} |`,
    );
  }
for (const build of builds)
  lines.push(
    `${basename(build)}: resident memory after the scenarios, median ${median(results[build].rssMb).toFixed(0)} MB (${results[build].rssMb.map((m) => m.toFixed(0)).join(', ')})`,
  );
process.stdout.write(`${lines.join('\n')}\n`);
const file = join(here, 'results', `ab-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify({ builds, rounds: ROUNDS, seconds: SECONDS, loadBefore, loadAfter: uptime(), results }, null, 2)}\n`);
process.stdout.write(`All figures: ${file}\n`);
