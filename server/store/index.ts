import { closeSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config.js';
import { ensurePrivateDir, restrictToOwner } from '../private-files.js';
import { projectRoot } from '../project-root.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/**
 * Opens the configured store: SQLite is the embedded default. API keys are hashed with
 * `hashApiKey` (keyed with the server secret: see kernel/auth/credentials.ts). The database file and its -wal and -shm files are readable by their
 * owner only (0600), and a data folder made here is 0700.
 */
export function openStore(config: Pick<Config, 'databasePath' | 'sqliteSynchronous'>, hashApiKey: (apiKey: string) => string): Store {
  const path = config.databasePath;
  if (path !== ':memory:') {
    ensurePrivateDir(dirname(path));
    // Made 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database file's mode.
    closeSync(openSync(path, 'a', 0o600));
  }
  const store = new SqliteStore({
    path,
    synchronous: config.sqliteSynchronous,
    migrationsDir: join(projectRoot(), 'server', 'store', 'sqlite', 'migrations'),
    hashApiKey,
  });
  // Files made by earlier versions (or with a wider umask) are narrowed too.
  if (path !== ':memory:') for (const file of [path, `${path}-wal`, `${path}-shm`]) restrictToOwner(file);
  return store;
}
