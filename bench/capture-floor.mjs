#!/usr/bin/env node
// The least CPU a capture's storage can cost on SQLite, whatever code runs it: `node bench/capture-floor.mjs`
// (after `npm run build`). The ablation (bench/ablation.mjs) says what the 0.8 × target leaves a
// capture's own work; this says what the rows a capture must store cost in SQLite alone, with no
// JavaScript of ours around them. Where the floor is above the budget, no capture that keeps the
// promises (idempotency, events, durability) reaches the target on this design.
//
// It starts the built server once on a fresh file (migrations and seed), preloads the benchmark's
// payments (bench/preload.mjs), captures one payment over HTTP with an Idempotency-Key so the
// server itself writes a modification, an event and an idempotency record, and stops it. Then,
// on better-sqlite3 directly, it repeats for other payments only the statements that capture
// needs: look up the key (a miss), read the payment, update its three changed columns, insert the
// modification, the event and the idempotency record (copies of the server's own rows, with new
// keys). Batches of FLOOR_BATCH (10: the most that 10 connections can make, the cheapest case)
// run as the server's group commit does: one BEGIN IMMEDIATE, a savepoint per capture, one COMMIT
// and one fdatasync of the WAL per batch. Left out, so the floor is lower than any real capture:
// the merchant-account check, the webhook lookup (both remembered in memory by the server), any
// delivery (the benchmark has no webhooks), the idempotency fingerprint and all request handling.
//   FLOOR_POOL (150 000 payments, as `npm run bench`), FLOOR_CAPTURES (30 000), FLOOR_BATCH (10);
//   FLOOR_WHOLE_ROW=1 writes every column of the payment, as the server did before it wrote only
//   the changed ones (the difference is what that change saves per capture).
import Database from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, KEY, serverEnv } from './helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const POOL = Number(process.env.FLOOR_POOL ?? 150_000);
const CAPTURES = Math.min(Number(process.env.FLOOR_CAPTURES ?? 30_000), POOL - 1);
const BATCH = Number(process.env.FLOOR_BATCH ?? 10);

/** Runs the built server on `db` until `use(base)` is done, then stops it (SIGTERM: a graceful stop). */
async function withServer(db, use) {
  const port = await freePort();
  const env = { ...process.env, NODE_OPTIONS: '', ...serverEnv(port, db) };
  const child = spawn(process.execPath, [join(root, 'dist', 'server.mjs')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 20))) {
      if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error('the server did not start');
      const up = await fetch(`${base}/management/v3/me`, { headers: { 'X-API-Key': KEY } }).catch(() => undefined);
      if (up?.ok) break;
    }
    return await use(base);
  } finally {
    await new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM'))));
  }
}

const work = mkdtempSync(join(tmpdir(), 'capture-floor-'));
try {
  const db = join(work, 'floor.sqlite');
  const poolFile = join(work, 'pool.txt');
  await withServer(db, async () => undefined);
  execFileSync(process.execPath, [join(root, 'bench', 'preload.mjs'), db, String(POOL), '0', poolFile], { stdio: 'inherit' });
  const pool = readFileSync(poolFile, 'utf8').split('\n');
  const first = pool.pop();
  await withServer(db, async (base) => {
    const answer = await fetch(`${base}/checkout/v71/payments/${first}/captures`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY, 'Idempotency-Key': 'capture-floor-template' },
      body: JSON.stringify({ merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } }),
    });
    if (answer.status !== 201) throw new Error(`the template capture answered ${answer.status}: ${await answer.text()}`);
  });

  const sqlite = new Database(db);
  // As the server opens it with SQLITE_SYNCHRONOUS=FULL: WAL, synchronous NORMAL, and its own fdatasync of the WAL per commit.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const wal = openSync(`${db}-wal`, 'r');
  const template = (sql, ...args) => {
    const row = sqlite.prepare(sql).get(...args);
    if (!row) throw new Error(`the server did not write: ${sql}`);
    return row;
  };
  const modification = template('SELECT * FROM modifications WHERE payment_psp_reference = ?', first);
  const { id: _id, ...event } = template("SELECT * FROM events WHERE original_reference = ? AND event_code = 'CAPTURE'", first);
  const record = template("SELECT * FROM idempotency_keys WHERE key = 'capture-floor-template'");
  const insert = (table, row) =>
    sqlite.prepare(
      `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
        .map((c) => `@${c}`)
        .join(', ')})`,
    );
  const captureColumns = process.env.FLOOR_WHOLE_ROW
    ? sqlite
        .pragma('table_info(payments)')
        .map((c) => c.name)
        .filter((c) => c !== 'psp_reference')
    : ['captured_value', 'capture_closed', 'updated_at'];
  const s = {
    findKey: sqlite.prepare('SELECT * FROM idempotency_keys WHERE credential_id = ? AND key = ?'),
    payment: sqlite.prepare('SELECT * FROM payments WHERE psp_reference = ?'),
    capture: sqlite.prepare(`UPDATE payments SET ${captureColumns.map((c) => `${c} = @${c}`).join(', ')} WHERE psp_reference = @psp_reference`),
    modification: insert('modifications', modification),
    event: insert('events', event),
    record: insert('idempotency_keys', record),
    begin: sqlite.prepare('BEGIN IMMEDIATE'),
    commit: sqlite.prepare('COMMIT'),
    savepoint: sqlite.prepare('SAVEPOINT job'),
    release: sqlite.prepare('RELEASE job'),
  };

  const captureOne = (i) => {
    const psp = pool[i];
    const key = `capture-floor-${i}`;
    const now = new Date().toISOString();
    if (s.findKey.get(record.credential_id, key)) throw new Error('a fresh key was found');
    const payment = { ...s.payment.get(psp), updated_at: now };
    payment.captured_value = payment.authorised_value;
    payment.capture_closed = 1;
    s.capture.run(Object.fromEntries(['psp_reference', ...captureColumns].map((c) => [c, payment[c]])));
    const reference = `FLOOR${String(i).padStart(11, '0')}`;
    s.modification.run({ ...modification, psp_reference: reference, payment_psp_reference: psp, created_at: now });
    s.event.run({ ...event, psp_reference: reference, original_reference: psp, event_date: now, created_at: now });
    s.record.run({ ...record, key, created_at: now });
  };

  const before = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < CAPTURES; i += BATCH) {
    s.begin.run();
    for (let j = i; j < Math.min(i + BATCH, CAPTURES); j++) {
      s.savepoint.run();
      captureOne(j);
      s.release.run();
    }
    s.commit.run();
    fdatasyncSync(wal);
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(before);
  closeSync(wal);
  sqlite.close();
  const perCapture = (cpu.user + cpu.system) / CAPTURES;
  process.stdout.write(
    `capture floor on SQLite${process.env.FLOOR_WHOLE_ROW ? ' (whole payment row written)' : ''}: ${CAPTURES} captures of ${POOL} stored payments in batches of ${BATCH}: ` +
      `${perCapture.toFixed(0)} µs CPU per capture (user ${(cpu.user / CAPTURES).toFixed(0)}, system ${(cpu.system / CAPTURES).toFixed(0)}), ` +
      `${((elapsed * 1000) / CAPTURES).toFixed(0)} µs wall\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
