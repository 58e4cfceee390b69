// Helpers the benchmark scripts share (bench/run.mjs, ab.mjs, ablation.mjs, capture-floor.mjs, cold-start.mjs, docs.mjs): statements on
// a database of their own connection, database URLs, a free port, the server's environment, waiting
// for a server to answer, a process's resident memory, the median.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Runs statements, in order, on a connection of their own to the database `url` names. */
export async function onDatabase(url, ...statements) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server `url` points at. */
export function databaseUrl(url, name) {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/** A process's resident memory in MB (undefined when it is gone). */
export function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** A port on the loopback that nothing listens on now. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/**
 * Polls `url` every 5 ms until `ok` accepts an answer; resolves with the milliseconds that took
 * (bench/run.mjs's cold start is this figure). Refused connections count as not up yet.
 */
export async function waitUntil(url, headers, timeoutMs = 60_000, ok = (r) => r.ok) {
  const started = performance.now();
  for (;;) {
    try {
      if (ok(await fetch(url, { headers }))) return performance.now() - started;
    } catch {
      /* not up yet */
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${url} did not answer in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The seeded company's API key every benchmark server is started with. */
export const KEY = 'bench-company-key-0000000000000001';

/**
 * The environment the benchmarks start the real server with on `port` and database `db` (an
 * SQLite file or a postgres:// URL): fixed secrets, the key above, quiet logs and a rate limit no
 * load reaches; otherwise sandbox mode as `npm start` (request and response validation on,
 * SQLITE_SYNCHRONOUS=FULL). On PostgreSQL the server's own small files go to a temporary folder.
 */
export const serverEnv = (port, db) => ({
  PORT: String(port),
  ...(db.startsWith('postgres') ? { DATABASE_URL: db, DATABASE_PATH: join(tmpdir(), `bench-keys-${port}`, 'unused.sqlite') } : { DATABASE_PATH: db }),
  SERVER_SECRET: '5e'.repeat(32),
  CARD_ENCRYPTION_KEY: '6b'.repeat(32),
  DEMO_COMPANY_API_KEY: KEY,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000000',
});
