import { closeSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config.js';
import { ensurePrivateDir, restrictToOwner } from '../private-files.js';
import { projectRoot } from '../project-root.js';
import { SqliteStore } from './engines/sqlite.js';
import type { Store } from './tx.js';

export type { Store, Tx } from './tx.js';
export { StoreUnavailableError } from './unavailable.js';

const migrations = (engine: 'sqlite' | 'postgres') => join(projectRoot(), 'server', 'store', 'migrations', engine);

type StoreConfig = Pick<Config, 'databasePath' | 'sqliteSynchronous' | 'databaseUrl' | 'databasePoolSize' | 'databaseStatementTimeoutMs'>;

/**
 * Opens the configured store and brings its schema up to date: PostgreSQL when a database URL is
 * configured, else the embedded SQLite file. API keys are hashed with `hashApiKey` (keyed with
 * the server secret: see kernel/auth/credentials.ts).
 */
export async function openStore(config: StoreConfig, hashApiKey: (apiKey: string) => string): Promise<Store> {
  if (config.databaseUrl) {
    // Loaded only for PostgreSQL: the driver is not needed, nor its start-up paid, on SQLite.
    const { PostgresStore } = await import('./engines/postgres.js');
    return PostgresStore.open({
      url: config.databaseUrl,
      poolSize: config.databasePoolSize,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      migrationsDir: migrations('postgres'),
      hashApiKey,
    });
  }
  return openSqlite(config, hashApiKey);
}

/**
 * The SQLite file and its -wal and -shm files are readable by their owner only (0600), and a
 * data folder made here is 0700.
 */
export function openSqlite(config: Pick<Config, 'databasePath' | 'sqliteSynchronous'>, hashApiKey?: (apiKey: string) => string): SqliteStore {
  const path = config.databasePath;
  if (path !== ':memory:') {
    ensurePrivateDir(dirname(path));
    // Made 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database file's mode.
    closeSync(openSync(path, 'a', 0o600));
  }
  const store = new SqliteStore({ path, synchronous: config.sqliteSynchronous, migrationsDir: migrations('sqlite'), ...(hashApiKey && { hashApiKey }) });
  // Files made by earlier versions (or with a wider umask) are narrowed too.
  if (path !== ':memory:') for (const file of [path, `${path}-wal`, `${path}-shm`]) restrictToOwner(file);
  return store;
}
