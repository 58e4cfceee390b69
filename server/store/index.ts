import { join } from 'node:path';
import type { Config } from '../config.js';
import { projectRoot } from '../project-root.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/** Opens the configured store: SQLite is the embedded default. */
export function openStore(config: Pick<Config, 'databasePath' | 'sqliteSynchronous'>): Store {
  return new SqliteStore({
    path: config.databasePath,
    synchronous: config.sqliteSynchronous,
    migrationsDir: join(projectRoot(), 'server', 'store', 'sqlite', 'migrations'),
  });
}
