import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database as Schema } from '../schema.js';
import { openTx, type Store, type Tx } from '../tx.js';

export interface SqliteOptions {
  /** A file path, or ':memory:' for tests that need no durability. */
  path: string;
  /** FULL survives power loss; NORMAL survives a killed process. */
  synchronous: 'FULL' | 'NORMAL';
  migrationsDir: string;
  /** The keyed API-key hash; without it the store refuses to hash API keys. */
  hashApiKey?: (apiKey: string) => string;
}

const noApiKeyHasher = (): string => {
  throw new Error('this store was opened without an API-key hasher (the server secret)');
};

/**
 * better-sqlite3 as Kysely's driver sees it, with two differences: a statement is prepared once
 * per SQL text and reused (Kysely prepares on every query), and booleans are bound as 1/0
 * (SQLite has no boolean type; better-sqlite3 refuses JS booleans).
 */
function cachedStatements(db: Database.Database) {
  const statements = new Map<string, Database.Statement>();
  const bind = (parameters: ReadonlyArray<unknown>) => parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = db.prepare(text);
        // Statements differ only in the values, not the text: the cache stays as small as the query set.
        if (statements.size < 2000) statements.set(text, statement);
      }
      const s = statement;
      return {
        reader: s.reader,
        all: (parameters: ReadonlyArray<unknown>) => s.all(...bind(parameters)),
        run: (parameters: ReadonlyArray<unknown>) => s.run(...bind(parameters)),
        iterate: (parameters: ReadonlyArray<unknown>) => s.iterate(...bind(parameters)),
      };
    },
  };
}

/** Runs compiled SQL synchronously on a connection (better-sqlite3 is synchronous): rows for a reader, none for a write. */
function directOn(statements: ReturnType<typeof cachedStatements>) {
  return (text: string, parameters: readonly unknown[]): unknown[] => {
    const statement = statements.prepare(text);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  };
}

/** Applies the numbered `.sql` files not yet applied, each in its own transaction (the file is locked meanwhile). */
function migrate(db: Database.Database, dir: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const files = readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();
  for (const file of files) {
    const version = Number.parseInt(file, 10);
    db.transaction(() => {
      // Checked inside the (immediate) transaction: two processes opening one file apply each file once.
      if (db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version)) return;
      db.exec(readFileSync(join(dir, file), 'utf8'));
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    }).immediate();
  }
}

interface Job {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The most transactions committed with one fsync. */
const MAX_BATCH = 256;

/**
 * The embedded store. One connection; transactions never interleave, which makes every
 * read-check-write in the domain atomic without row locks (SQLite has one writer).
 *
 * Group commit: transactions that queue up while others run are executed one after another,
 * each inside its own SAVEPOINT of one SQLite transaction, and that transaction is committed
 * (and fsynced) once for all of them. A transaction that throws is rolled back to its savepoint
 * alone. No result is handed back before the COMMIT that made it durable, so a crash loses
 * nothing that was acknowledged, while a busy server pays one fsync per batch, not per request.
 */
export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly tx: Tx;
  /** A second, read-only connection: in WAL mode it sees committed data and never waits for writers. */
  private readonly readDb: Database.Database | undefined;
  private readonly readTx: Tx | undefined;
  private readonly q: Kysely<Schema>;
  private readonly control: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', Database.Statement>;
  private pending: Job[] = [];
  private flushing: Promise<void> | undefined;

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous}`);
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db, options.migrationsDir);
    const control = (text: string) => this.db.prepare(text);
    this.control = {
      begin: control('BEGIN IMMEDIATE'),
      commit: control('COMMIT'),
      rollback: control('ROLLBACK'),
      savepoint: control('SAVEPOINT job'),
      release: control('RELEASE job'),
      rollbackTo: control('ROLLBACK TO job'),
    };
    const hashApiKey = options.hashApiKey ?? noApiKeyHasher;
    const statements = cachedStatements(this.db);
    this.q = new Kysely<Schema>({ dialect: new SqliteDialect({ database: statements }) });
    this.tx = openTx({ q: this.q, engine: 'sqlite', hashApiKey, direct: directOn(statements) });
    if (options.path !== ':memory:') {
      this.readDb = new Database(options.path, { readonly: true });
      this.readDb.pragma('busy_timeout = 5000');
      const readStatements = cachedStatements(this.readDb);
      const readQ = new Kysely<Schema>({ dialect: new SqliteDialect({ database: readStatements }) });
      this.readTx = openTx({ q: readQ, engine: 'sqlite', hashApiKey, direct: directOn(readStatements) });
    }
  }

  read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    // An in-memory database has no second connection: reads then queue like writes.
    if (!this.readTx) return this.transaction(work);
    return work(this.readTx);
  }

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.flushing ??= this.flush();
    });
  }

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.q);
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.readDb?.close();
    this.db.close();
  }

  private async flush(): Promise<void> {
    // Let the requests that arrive in the same turn join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const { begin, commit, rollback, savepoint, release, rollbackTo } = this.control;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      let fatal: unknown;
      try {
        begin.run();
        for (const job of batch) {
          savepoint.run();
          try {
            const value = await job.work(this.tx);
            release.run();
            outcomes.push({ ok: true, value });
          } catch (error) {
            // Some failures (disk full, I/O) abort the whole SQLite transaction: then nothing of the batch stands.
            if (!this.db.inTransaction) throw error;
            rollbackTo.run();
            release.run();
            outcomes.push({ ok: false, error });
          }
        }
        commit.run();
      } catch (error) {
        fatal = error;
        if (this.db.inTransaction) rollback.run();
      }
      batch.forEach((job, i) => {
        const outcome = outcomes[i];
        if (fatal !== undefined || !outcome) job.reject(fatal ?? new Error('transaction not run'));
        else if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    }
    // Cleared in the same turn as the emptiness check: a transaction queued after it starts a new flush.
    this.flushing = undefined;
  }
}
