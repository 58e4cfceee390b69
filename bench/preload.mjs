#!/usr/bin/env node
// Fills a migrated benchmark database directly: `node bench/preload.mjs <db> <payments> <apps> [poolFile]`,
// where <db> is an SQLite file or a postgres:// URL.
// Payments are authorised, uncaptured card payments of DemoMerchantECOM; with a pool file their
// pspReferences are written to it (the capture scenario captures each once).
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { newPspReference } from '../dist/server/checkout/references.js';

const [path, paymentCount, appCount, poolFile] = process.argv.slice(2);
/**
 * The i-th stored payment's pspReference, made by the server's own function (built by `npm run
 * bench`), dated one every 2 s up to now: the index holds what the server itself would have written.
 */
const psp = (i) => newPspReference(Date.now() - (Number(paymentCount) - i) * 2000);
if (path.startsWith('postgres')) {
  await preloadPostgres();
  process.exit(0);
}
const db = new Database(path);
db.pragma('journal_mode = WAL');
const now = new Date().toISOString();
const insertPayment = db.prepare(`INSERT INTO payments (psp_reference, company_id, merchant_account, reference, currency, authorised_value, original_value,
  captured_value, refunded_value, result_code, auth_code, cancelled, capture_closed, auto_captured, capture_delay_hours, auto_capture_at,
  multiple_partial_captures, card_brand, card_bin, card_last_four, expiry_month, expiry_year, holder_name, return_url, details_submitted,
  payment_method_type, created_at, updated_at) VALUES (?, 'DemoCompany', 'DemoMerchantECOM', ?, 'EUR', 1000, 1000, 0, 0, 'Authorised', '123456', 0, 0, 0,
  NULL, NULL, 0, 'visa', '411111', '1111', '3', '2030', 'Bench', 'https://shop.example.com/return', 0, 'scheme', ?, ?)`);
const insertApp = db.prepare(`INSERT INTO android_apps (id, company_id, status, package_name, version_code, version_name, label, description, error_code,
  file_path, file_size, created_at, updated_at) VALUES (?, 'DemoCompany', 'ready', 'com.example.bench', ?, '1.0.0', 'Bench', NULL, NULL, '/dev/null', 0, ?, ?)`);
const refs = [];
db.transaction(() => {
  for (let i = 0; i < Number(paymentCount); i++) {
    const ref = psp(i);
    if (poolFile) refs.push(ref);
    insertPayment.run(ref, `preload-${i}`, now, now);
  }
  for (let i = 0; i < Number(appCount); i++) insertApp.run(`ANDABENCH${String(i).padStart(20, '0')}`, i + 1, now, now);
})();
db.close();
if (poolFile) writeFileSync(poolFile, refs.join('\n'));

/** The same rows on PostgreSQL, in multi-row inserts of 1 000. */
async function preloadPostgres() {
  const client = new pg.Client({ connectionString: path });
  await client.connect();
  const now = new Date().toISOString();
  const refs = [];
  const columns = `psp_reference, company_id, merchant_account, reference, currency, authorised_value, original_value, captured_value, refunded_value,
    result_code, auth_code, cancelled, capture_closed, auto_captured, multiple_partial_captures, card_brand, card_bin, card_last_four, expiry_month,
    expiry_year, holder_name, return_url, details_submitted, payment_method_type, created_at, updated_at`;
  for (let start = 0; start < Number(paymentCount); start += 1000) {
    const values = [];
    const params = [];
    for (let i = start; i < Math.min(start + 1000, Number(paymentCount)); i++) {
      const ref = psp(i);
      if (poolFile) refs.push(ref);
      params.push(ref, `preload-${i}`);
      const n = params.length;
      values.push(`($${n - 1}, 'DemoCompany', 'DemoMerchantECOM', $${n}, 'EUR', 1000, 1000, 0, 0, 'Authorised', '123456', false, false, false, false,
        'visa', '411111', '1111', '3', '2030', 'Bench', 'https://shop.example.com/return', false, 'scheme', '${now}', '${now}')`);
    }
    await client.query(`INSERT INTO payments (${columns}) VALUES ${values.join(', ')}`, params);
  }
  for (let i = 0; i < Number(appCount); i++)
    await client.query(
      `INSERT INTO android_apps (id, company_id, status, package_name, version_code, version_name, label, file_path, file_size, created_at, updated_at)
       VALUES ($1, 'DemoCompany', 'ready', 'com.example.bench', $2, '1.0.0', 'Bench', '/dev/null', 0, $3, $3)`,
      [`ANDABENCH${String(i).padStart(20, '0')}`, i + 1, now],
    );
  // What an operator does after a bulk load, and what a database that grew over weeks has had
  // done: vacuumed, analysed, checkpointed. Otherwise autovacuum and the checkpointer do it during
  // the next scenarios, on the cores they measure. CHECKPOINT needs a privileged user: skipped
  // where BENCH_DATABASE_URL's user lacks it.
  await client.query('VACUUM (ANALYZE) payments');
  await client.query('CHECKPOINT').catch(() => undefined);
  await client.end();
  if (poolFile) writeFileSync(poolFile, refs.join('\n'));
}
