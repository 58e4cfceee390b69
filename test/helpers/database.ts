/**
 * The database a test server uses, on the engine of this test run: `npm test` runs the suite
 * once on SQLite and once on PostgreSQL (TEST_ENGINE=postgres; the global setup provides a
 * PostgreSQL server, see test/global-setup.mjs). Each test database is fresh and private.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../../server/config.js';

export type TestEngine = 'sqlite' | 'postgres';
export const TEST_ENGINE: TestEngine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  engine: TestEngine;
  /** Configuration for an in-process server (startServer). */
  config: Partial<Config>;
  /** Environment for a server process (spawnServer). */
  env: Record<string, string>;
  /** Every table's rows, in a stable order (for before/after comparisons). */
  dump(): Promise<Record<string, Array<Record<string, unknown>>>>;
  /** Rows of one query; SQL with `?` placeholders, valid on both engines. */
  rows(query: string, parameters?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** Removes the database (PostgreSQL: drops it; SQLite: leaves the file to its folder). */
  drop(): Promise<void>;
}

const stable = (rows: Array<Record<string, unknown>>) =>
  rows
    .map((row) => ({ row, key: JSON.stringify(row) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ row }) => row);

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_ADMIN_URL;
  if (!url) throw new Error('TEST_ENGINE=postgres needs the PostgreSQL server of the global setup (TEST_DATABASE_ADMIN_URL is unset)');
  return url;
}

// Rows read as the server reads them: bigint as a number.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 /* int8 */ ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, types });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The database of `dir` on this run's engine (fresh for a new folder, the same one again for the
 * same folder, so a restarted server finds its data): for SQLite the file `dir`/payments.sqlite,
 * for PostgreSQL a database named after the folder.
 */
export async function freshDatabase(dir: string = mkdtempSync(join(tmpdir(), 'db-'))): Promise<TestDatabase> {
  if (TEST_ENGINE === 'sqlite') {
    const databasePath = join(dir, 'payments.sqlite');
    const rows = async (query: string, parameters: unknown[] = []) => {
      const db = new Database(databasePath, { readonly: true, fileMustExist: true });
      try {
        return db.prepare(query).all(...parameters) as Array<Record<string, unknown>>;
      } finally {
        db.close();
      }
    };
    return {
      engine: 'sqlite',
      config: { databasePath, sqliteSynchronous: 'NORMAL' },
      env: { DATABASE_PATH: databasePath },
      rows,
      async dump() {
        const tables = await rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
        const out: Record<string, Array<Record<string, unknown>>> = {};
        for (const { name } of tables) out[String(name)] = stable(await rows(`SELECT * FROM "${String(name)}"`));
        return out;
      },
      drop: async () => undefined,
    };
  }
  const admin = adminUrl();
  const name = `t_${createHash('sha256').update(dir).digest('hex').slice(0, 20)}`;
  await withClient(admin, async (client) => {
    if ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const rows = (query: string, parameters: unknown[] = []) => {
    let n = 0;
    return withClient(
      databaseUrl,
      async (client) =>
        (
          await client.query(
            query.replace(/\?/g, () => `$${++n}`),
            parameters,
          )
        ).rows as Array<Record<string, unknown>>,
    );
  };
  return {
    engine: 'postgres',
    config: { databaseUrl, databasePoolSize: 4 },
    env: { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '4' },
    rows,
    dump: () =>
      withClient(databaseUrl, async (client) => {
        const tables = await client.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
        );
        const out: Record<string, Array<Record<string, unknown>>> = {};
        for (const { name: table } of tables.rows) out[table] = stable((await client.query(`SELECT * FROM "${table}"`)).rows as Array<Record<string, unknown>>);
        return out;
      }),
    async drop() {
      await withClient(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
