import { execFileSync, spawn } from 'node:child_process';
import pg from 'pg';
const root = '/work/main';
const ADMIN = 'postgres://postgres@127.0.0.1:5432/test';
const url = (n) => `postgres://postgres@127.0.0.1:5432/${n}`;
const KEY = 'bench-company-key-0000000000000001';
async function q(u, text) { const c = new pg.Client({ connectionString: u }); await c.connect(); try { return (await c.query(text)).rows; } finally { await c.end(); } }
let port = 41000;
async function server(db) {
  port += 1;
  const child = spawn(process.execPath, [`${root}/dist/server.mjs`], { cwd: root, env: { ...process.env, PORT: String(port), DATABASE_URL: db, DATABASE_PATH: `/tmp/pgx/unused-${port}/x.sqlite`, SERVER_SECRET: '5e'.repeat(32), CARD_ENCRYPTION_KEY: '6b'.repeat(32), DEMO_COMPANY_API_KEY: KEY, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (;;) { try { if ((await fetch(`${base}/management/v3/me`, { headers: { 'X-API-Key': KEY } })).ok) break; } catch {} await new Promise((r) => setTimeout(r, 50)); }
  return { child, base };
}
const stop = (c) => new Promise((r) => (c.once('exit', r), c.kill('SIGTERM')));
const dbs = [['s1k', 1000], ['s1m', 1000000]];
if (!process.env.SKIP_LOAD_DB) for (const [n, count] of dbs) {
  await q(ADMIN, `DROP DATABASE IF EXISTS ${n}`); await q(ADMIN, `CREATE DATABASE ${n}`);
  const s = await server(url(n)); await stop(s.child);
  execFileSync(process.execPath, [`${root}/bench/preload.mjs`, url(n), String(count), '0'], { stdio: 'inherit' });
}
const paymentBody = { amount: { currency: 'EUR', value: 1000 }, reference: 'bench', merchantAccount: 'DemoMerchantECOM', returnUrl: 'https://shop.example.com/return', paymentMethod: { type: 'scheme', encryptedCardNumber: 'test_4111111111111111', encryptedExpiryMonth: 'test_03', encryptedExpiryYear: 'test_2030', encryptedSecurityCode: 'test_737', holderName: 'Bench' } };
const stat = async (n) => (await q(url(n), `select relname, heap_blks_read r, heap_blks_hit h, idx_blks_read ir, idx_blks_hit ih from pg_statio_user_tables where relname in ('payments','events','idempotency_keys')`));
for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
  for (const [n, count] of round % 2 ? [...dbs].reverse() : dbs) {
    const s = await server(url(n));
    const before = await stat(n);
    const out = execFileSync(process.execPath, [`${root}/bench/load.mjs`, JSON.stringify({ url: s.base, connections: 10, seconds: 5, warmupSeconds: 2, repeats: 1, method: 'POST', path: '/checkout/v71/payments', headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY }, body: paymentBody, freshIdempotencyKey: true })]).toString();
    const after = await stat(n);
    const m = JSON.parse(out.trim().split('\n').at(-1)).measurements[0];
    const d = after.map((a) => { const b = before.find((x) => x.relname === a.relname); return `${a.relname}: heapR ${a.r - b.r} idxR ${a.ir - b.ir} heapH ${a.h - b.h} idxH ${a.ih - b.ih}`; });
    console.log(`round ${round + 1} ${n}: ${Math.round(m.rps)} req/s p99 ${m.p99} | ${d.join(' | ')}`);
    await stop(s.child);
  }
}
