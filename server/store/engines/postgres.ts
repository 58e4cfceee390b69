import { Kysely, sql } from 'kysely';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { columnNamesPlugin, type Database as Schema } from '../schema.js';
import { type LastWrite, openTx, txContext, type Store, type Tx, type TxContext } from '../tx.js';
import { StoreUnavailableError } from '../unavailable.js';
import { type PgConnection, pipelinedPostgres, StatementNames } from './postgres-driver.js';

export interface PostgresOptions {
  url: string;
  poolSize: number;
  /** Longest a statement may run before PostgreSQL cancels it. */
  statementTimeoutMs: number;
  migrationsDir: string;
  hashApiKey?: (apiKey: string) => string;
}

const noApiKeyHasher = (): string => {
  throw new Error('this store was opened without an API-key hasher (the server secret)');
};

// Values come back as the SQLite engine gives them, so records are the same on both engines:
// bigint (COUNT, bigint columns) as a number (money is kept to safe integers), timestamptz as ISO-8601.
const INT8 = 20;
const TIMESTAMPTZ = 1184;
function typeParsers(driver: typeof pg) {
  const parseTimestamp = driver.types.getTypeParser(TIMESTAMPTZ) as (value: string) => Date;
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return (value: string) => Number(value);
      if (oid === TIMESTAMPTZ) return (value: string) => parseTimestamp(value).toISOString();
      return driver.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
    }) as typeof pg.types.getTypeParser,
  };
}

/**
 * SQLSTATE classes and codes that mean "the database is not there" (not "the request was wrong"):
 * connection failures (08), shutdown (57P01–57P03), too many connections (53300), and a statement
 * cancelled (57014: it ran past DATABASE_STATEMENT_TIMEOUT_MS, e.g. waiting for a lock, or was
 * cancelled by an operator). A cancelled statement aborts its transaction, which is rolled back
 * whole: the request changed nothing and may be sent again.
 */
const UNAVAILABLE = /^(08|57P0[123]|57014|53300)/;
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE.test(code) || NETWORK.has(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(error.message);
}

/** Serialization failures and deadlocks: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const retryable = (error: unknown) => error instanceof Error && RETRYABLE.has(String((error as { code?: unknown }).code));

/**
 * A named statement's result columns changed under it (a newer instance's migration added a column
 * to a table it selects whole): PostgreSQL refuses to run the cached plan. Nothing ran.
 */
const planChanged = (error: unknown) =>
  error instanceof Error && (error as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test(error.message);

/**
 * Sends the writes a transaction's work left for last (Tx.beforeCommit) without waiting for their
 * answers: COMMIT follows in the same round trip (authorise: six round trips to five). PostgreSQL
 * answers in order, and a failed write makes COMMIT answer ROLLBACK, so the transaction still
 * fails with it (postgres-driver.ts's commitTransaction; test/store/postgres-store.test.ts). A write
 * that did not send its statement before it returned (it awaited something first) is waited for
 * instead: sent after COMMIT, it would be refused.
 */
async function sendLast(connection: PgConnection, writes: LastWrite[]): Promise<void> {
  for (const write of writes) {
    const before = connection.sent;
    const written = write();
    if (connection.sent > before) written.catch(() => undefined);
    else await written;
  }
}

/**
 * PostgreSQL, for several server instances sharing one database. Each transaction runs on its
 * own pooled connection at READ COMMITTED; invariants hold through row locks taken by the store
 * modules (`getForUpdate` → SELECT … FOR UPDATE), unique keys, and conditional updates. COMMIT
 * returns once the write-ahead log is flushed (synchronous_commit on), so an acknowledged write
 * survives a crash of the server or of PostgreSQL.
 */
export class PostgresStore implements Store {
  /** Several instances may share the database. */
  readonly sharedBetweenProcesses = true;
  /** Transactions run at once, each on its own connection, here and on other instances. */
  readonly serializesTransactions = false;
  private readonly pool: pg.Pool;
  private readonly q: Kysely<Schema>;
  /** Statements on the pool, each on its own outside any transaction (reads, and Store.statement's single writes). */
  private readonly poolTx: Tx;
  private readonly hashApiKey: (apiKey: string) => string;
  private readonly statementNames = new StatementNames();

  private constructor(options: PostgresOptions, driver: typeof pg) {
    this.pool = new driver.Pool({
      connectionString: options.url,
      max: options.poolSize,
      statement_timeout: options.statementTimeoutMs,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      types: typeParsers(driver),
      // Statements go out as they are asked for (see PgConnection).
      pipeline: true,
    });
    // A connection the database drops must not crash the process: an idle one is replaced by the
    // pool; one in use fails its current or next query, which the request answers with 503.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => client.on('error', () => undefined));
    const { dialect, rows } = pipelinedPostgres(this.pool, this.statementNames);
    this.q = new Kysely<Schema>({ dialect, plugins: [columnNamesPlugin()] });
    this.hashApiKey = options.hashApiKey ?? noApiKeyHasher;
    this.poolTx = openTx({ q: this.q, engine: 'postgres', hashApiKey: this.hashApiKey, send: rows });
  }

  static async open(options: PostgresOptions): Promise<PostgresStore> {
    // The driver is imported here, not at the top: a bundle of the server (dist/server.mjs) would
    // hoist a top-level import and load pg on every start, SQLite ones included.
    const { default: driver } = await import('pg');
    const store = new PostgresStore(options, driver);
    try {
      await store.migrate(options.migrationsDir);
    } catch (error) {
      await store.pool.end();
      throw error;
    }
    return store;
  }

  async transaction<T>(work: (tx: Tx) => Promise<T>, context?: Partial<TxContext>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.q.transaction().execute(async (trx) => {
          // The transaction's connection, for the statements prepared.ts sends without the builder.
          const connection = (await trx.getExecutor().provideConnection((c) => Promise.resolve(c))) as PgConnection;
          const lastWrites: LastWrite[] = [];
          const tx = openTx({ q: trx, engine: 'postgres', hashApiKey: this.hashApiKey, send: connection.rows }, lastWrites);
          tx.context = txContext(context);
          const value = await work(tx);
          await sendLast(connection, lastWrites);
          return value;
        });
      } catch (error) {
        if (attempt < 3 && this.mayRunAgain(error)) continue;
        throw this.classify(error);
      }
    }
  }

  /** Whether work that failed with `error` did nothing and may run again (renewing the statement names if their plans went stale). */
  private mayRunAgain(error: unknown): boolean {
    return this.renewedAfter(error) || retryable(error);
  }

  /** Whether `error` was a stale plan, after which the statement names were renewed (the work may run again). */
  private renewedAfter(error: unknown): boolean {
    if (!planChanged(error)) return false;
    this.statementNames.renew();
    return true;
  }

  /** One statement is atomic by itself: it runs on the pool like a read. */
  statement<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.read(work);
  }

  async read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work(this.poolTx);
      } catch (error) {
        // Only a stale plan: a read or single write that failed otherwise is answered as it failed.
        if (attempt < 3 && this.renewedAfter(error)) continue;
        throw this.classify(error);
      }
    }
  }

  async ping(): Promise<void> {
    try {
      await sql`SELECT 1`.execute(this.q);
    } catch (error) {
      throw this.classify(error);
    }
  }

  async close(): Promise<void> {
    await this.q.destroy();
  }

  private classify(error: unknown): unknown {
    return isUnavailable(error) ? new StoreUnavailableError(error) : error;
  }

  /**
   * Applies the numbered `.sql` files not yet applied, each in its own transaction, under an
   * advisory lock: instances starting together wait for each other instead of racing.
   */
  private async migrate(dir: string): Promise<void> {
    const client = await this.pool.connect();
    try {
      // No statement timeout here: an instance waits as long as another one's migrations take, and
      // a migration (an index on a large table) may run longer than any request should.
      await client.query('SET statement_timeout = 0');
      await client.query('SELECT pg_advisory_lock(727201)');
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)');
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      const files = readdirSync(dir)
        .filter((f) => /^\d+_.*\.sql$/.test(f))
        .sort();
      for (const file of files) {
        const version = Number.parseInt(file, 10);
        if (applied.has(version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(readFileSync(join(dir, file), 'utf8'));
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, now())', [version]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(727201)').catch(() => undefined);
      // Back to the pool with the configured timeout (the value the connection started with), or closed.
      const reset = await client.query('RESET statement_timeout').then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
      client.release(reset);
    }
  }
}
