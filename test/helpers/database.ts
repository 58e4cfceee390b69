/**
 * The database a test server uses, on the engine of this test run: `npm test` runs the suite
 * once on SQLite and once on PostgreSQL (TEST_ENGINE=postgres; the global setup provides a
 * PostgreSQL server, see test/global-setup.mjs). Each test database is fresh and private.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../../server/config.js';
import { openStore } from '../../server/store/index.js';
import ENGINE_INDEPENDENT from '../engine-independent.json' with { type: 'json' };

export type TestEngine = 'sqlite' | 'postgres';
export const TEST_ENGINE: TestEngine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * Called wherever a test gets a server or a database: a file listed as engine-independent (run on
 * SQLite only) must not, or the PostgreSQL run would silently not cover it.
 */
export function assertUsesAnEngine(): void {
  const testPath = (globalThis as { expect?: { getState(): { testPath?: string } } }).expect?.getState().testPath ?? '';
  const listed = ENGINE_INDEPENDENT.files.find((file) => testPath.endsWith(`/${file}`));
  if (listed) throw new Error(`${listed} starts a server or opens a database: remove it from test/engine-independent.json`);
}

export interface TestDatabase {
  engine: TestEngine;
  /** Configuration for an in-process server (startServer). */
  config: Partial<Config>;
  /** Environment for a server process (spawnServer). */
  env: Record<string, string>;
  /** Every table's rows, in a stable order (for before/after comparisons), but those of the tables named in `except`. */
  dump(options?: { except?: readonly string[] }): Promise<Record<string, Array<Record<string, unknown>>>>;
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

/**
 * A pool of one connection: each new connection costs PostgreSQL a process and its catalog caches,
 * and the boundary tests read every table twice per test. Idle connections neither keep the test
 * process alive nor stay open long; a database dropped under one only ends that connection.
 */
function onePool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, types, max: 1, idleTimeoutMillis: 1000, allowExitOnIdle: true });
  pool.on('error', () => undefined);
  return pool;
}

let adminPool: pg.Pool | undefined;
function admin(): pg.Pool {
  adminPool ??= onePool(adminUrl());
  return adminPool;
}

async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failed: unknown;
  try {
    return await work(client);
  } catch (error) {
    failed = error;
    throw error;
  } finally {
    // A connection that failed (e.g. ended by a DROP DATABASE) is not handed out again.
    client.release(failed instanceof Error ? failed : undefined);
  }
}

/** SQLSTATE 55006: CREATE DATABASE's template is in use (a connection is still ending). */
const OBJECT_IN_USE = '55006';

let migratedTemplate: Promise<string | undefined> | undefined;

/**
 * The name of this run's template database: an empty database migrated once, as the server
 * migrates one, which each in-process server's database copies instead of migrating its own
 * (CREATE DATABASE ... TEMPLATE). Made by the first worker that needs it, under an advisory lock;
 * the global setup names it per run and the global teardown drops it. Unset: no template.
 */
function template(): Promise<string | undefined> {
  const name = process.env.TEST_DATABASE_TEMPLATE;
  if (!name) return Promise.resolve(undefined);
  migratedTemplate ??= withClient(admin(), async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const found = await client.query<{ ready: boolean }>('SELECT datistemplate AS ready FROM pg_database WHERE datname = $1', [name]);
      if (found.rows[0]?.ready) return name;
      // Left half-made by a worker that failed: made again.
      if (found.rowCount) await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
      const url = new URL(adminUrl());
      url.pathname = `/${name}`;
      const store = await openStore(
        { databaseUrl: url.toString(), databasePoolSize: 1, databaseStatementTimeoutMs: 0, databasePath: ':memory:', sqliteSynchronous: 'NORMAL' },
        () => {
          throw new Error('the template has no API keys');
        },
      );
      // A query through the store's query builder first: it ends the store's pool on close only
      // once it has used it (the migrations take their connection from the pool directly).
      await store.ping();
      await store.close();
      // Copied only once no connection to it is left; none may connect to it afterwards.
      await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      for (let i = 0; (await client.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1', [name])).rowCount && i < 300; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await client.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return migratedTemplate;
}

async function createDatabase(name: string, from: string | undefined): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withClient(admin(), async (client) => {
        if ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 0)
          await client.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from}` : ''}`);
      });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export interface FreshDatabaseOptions {
  /**
   * PostgreSQL: a new database starts as a copy of the run's migrated template (see `template`)
   * instead of empty, for servers whose start is not what the test is about. SQLite: no effect.
   */
  migrated?: boolean;
}

/**
 * The database of `dir` on this run's engine (fresh for a new folder, the same one again for the
 * same folder, so a restarted server finds its data): for SQLite the file `dir`/payments.sqlite,
 * for PostgreSQL a database named after the folder.
 */
export async function freshDatabase(dir: string = mkdtempSync(join(tmpdir(), 'db-')), options: FreshDatabaseOptions = {}): Promise<TestDatabase> {
  assertUsesAnEngine();
  if (TEST_ENGINE === 'sqlite') {
    const databasePath = join(dir, 'payments.sqlite');
    // One read-only connection, kept while in use: SQLite parses the whole schema again on a new
    // connection's first statement, and the boundary tests read every table twice per test. It is
    // opened again when the file was replaced (a test may remove the folder and start over), and
    // closed once idle for a second.
    let reader: { db: Database.Database; inode: number; idle?: NodeJS.Timeout } | undefined;
    const close = () => {
      reader?.db.close();
      reader = undefined;
    };
    const rows = async (query: string, parameters: unknown[] = []) => {
      const inode = statSync(databasePath, { throwIfNoEntry: false })?.ino;
      if (reader && reader.inode !== inode) close();
      reader ??= { db: new Database(databasePath, { readonly: true, fileMustExist: true }), inode: inode ?? -1 };
      clearTimeout(reader.idle);
      reader.idle = setTimeout(close, 1000).unref();
      return reader.db.prepare(query).all(...parameters) as Array<Record<string, unknown>>;
    };
    return {
      engine: 'sqlite',
      config: { databasePath, sqliteSynchronous: 'NORMAL' },
      env: { DATABASE_PATH: databasePath },
      rows,
      async dump({ except = [] } = {}) {
        const tables = await rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
        const out: Record<string, Array<Record<string, unknown>>> = {};
        for (const { name } of tables) if (!except.includes(String(name))) out[String(name)] = stable(await rows(`SELECT * FROM "${String(name)}"`));
        return out;
      },
      drop: async () => undefined,
    };
  }
  const name = `t_${createHash('sha256').update(dir).digest('hex').slice(0, 20)}`;
  await createDatabase(name, options.migrated ? await template() : undefined);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let pool: pg.Pool | undefined;
  const connection = () => (pool ??= onePool(databaseUrl));
  const rows = (query: string, parameters: unknown[] = []) => {
    let n = 0;
    return withClient(
      connection(),
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
    // Every table in one query, each as a JSON array in a stable order: the boundary tests dump the
    // database twice per test, and a query per table made that most of their time on PostgreSQL.
    dump: ({ except = [] } = {}) =>
      withClient(connection(), async (client) => {
        const tables = await client.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
        );
        const columns = tables.rows
          .filter(({ name }) => !except.includes(name))
          .map(({ name }) => `(SELECT coalesce(json_agg(t ORDER BY t::text), '[]') FROM "${name}" t) AS "${name}"`);
        const text = `SELECT ${columns.join(', ')}`;
        // A named statement: PostgreSQL plans the statement of 35 subqueries once per connection, not per dump (7 to 3 ms).
        const name = `dump_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
        return (await client.query({ name, text })).rows[0] as Record<string, Array<Record<string, unknown>>>;
      }),
    async drop() {
      const open = pool;
      pool = undefined;
      await open?.end();
      await withClient(admin(), (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
