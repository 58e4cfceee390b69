import { type CompiledQuery, type DatabaseConnection, type Driver, PostgresDialect, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';

/** More distinct statement texts than the code has: a bound on what each connection keeps prepared. */
const MAX_NAMED = 1000;

/**
 * Statements with parameters run as named (server-side prepared) statements, so PostgreSQL parses
 * and plans a text once per connection instead of on every execution: about 40 % of its CPU per
 * authorise (`AB_DATABASE_URL=… node bench/ab.mjs`: ~950 → ~550 µs). Texts are the query set the
 * code writes (values travel apart), so they are few, as in SQLite's statement cache; past
 * MAX_NAMED a text runs unnamed. `renew` gives every text a new name, which each connection then
 * prepares afresh (after a migration changed what a prepared plan returns).
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private generation = 0;

  of(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_NAMED) this.names.set(text, (name = `q${this.generation}_${this.names.size}`));
    return name;
  }

  renew(): void {
    this.names.clear();
    this.generation++;
  }

  /** `text` with `values` as the driver takes it: by name where it has one (the driver only reads the values). */
  query(text: string, values: readonly unknown[]): pg.QueryConfig {
    const name = values.length > 0 ? this.of(text) : undefined;
    return { ...(name !== undefined && { name }), text, values: values as unknown[] };
  }
}

const ignore = () => undefined;
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * One pooled connection. Statements go out as soon as they are asked for (the pool's connections
 * pipeline): statements a transaction asks for together (`together` in tx.ts) share a round trip,
 * and BEGIN travels with the transaction's first statement. PostgreSQL answers in order; a statement
 * sent while an earlier one is still unanswered also reports the earlier one's failure, so one
 * nobody waited for (BEGIN) cannot fail unseen. Inside a transaction a failed statement fails every
 * later one and its COMMIT anyway.
 */
export class PgConnection implements DatabaseConnection {
  /** The last statement sent, until it is answered. */
  private ahead: Promise<unknown> | undefined;
  /** Set when the connection must not go back to the pool (a failed ROLLBACK). */
  broken: Error | undefined;
  /**
   * Set once COMMIT or ROLLBACK is sent (or the connection went back to the pool): a late
   * statement (one a transaction's work asked for after it ended) is refused, not run outside it.
   */
  ended = false;
  /** Whether the socket is corked for this turn of the event loop (see gather). */
  private gathering = false;
  /** Statements sent so far: tells whether a call sent its statement before it returned (see PostgresStore's last writes). */
  sent = 0;

  constructor(
    readonly client: pg.PoolClient,
    private readonly names: StatementNames,
  ) {}

  /** Sends a statement now; resolves with its answer once it and every statement before it succeeded. */
  send(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    if (this.ended) return Promise.reject(new Error('a statement was sent after its transaction ended'));
    this.gather();
    this.sent += 1;
    const sent = this.client.query(this.names.query(text, values));
    const before = this.ahead;
    this.ahead = sent;
    const answered = () => {
      if (this.ahead === sent) this.ahead = undefined;
    };
    sent.then(answered, answered);
    if (before === undefined) return sent;
    sent.catch(ignore); // reported through the chain below, with the earlier failure first
    return before.then(() => sent);
  }

  /**
   * Statements sent in the same turn of the event loop leave in one write (one system call, one
   * packet) instead of one each: the socket is corked until the turn's callbacks and promises
   * have run. The driver's socket is not part of its typed interface, hence the guarded lookup.
   */
  private gather(): void {
    if (this.gathering) return;
    const stream = (this.client as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    this.gathering = true;
    stream.cork();
    process.nextTick(() => {
      this.gathering = false;
      stream.uncork?.();
    });
  }

  /** The rows of a statement (store/prepared.ts's path around the query builder's executor, which runs one query at a time). */
  rows = async (text: string, values: readonly unknown[]): Promise<unknown[]> => (await this.send(text, values)).rows as unknown[];

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { command, rowCount, rows } = await this.send(compiled.sql, compiled.parameters);
    return { rows: (rows ?? []) as R[], ...(WRITES.has(command) && { numAffectedRows: BigInt(rowCount ?? 0) }) };
  }

  /** The store never streams; the interface wants the method. */
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported by this store');
  }

  /** Sends BEGIN without waiting for it: its answer comes with the next statement's. */
  begin(settings: TransactionSettings): void {
    const modes = [settings.isolationLevel && `isolation level ${settings.isolationLevel}`, settings.accessMode].filter(Boolean);
    const begun = this.send(modes.length ? `start transaction ${modes.join(', ')}` : 'begin', []);
    begun.catch(ignore); // reported with the next statement (see send)
  }
}

class PgDriver implements Driver {
  constructor(
    private readonly pool: pg.Pool,
    private readonly names: StatementNames,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<PgConnection> {
    return new PgConnection(await this.pool.connect(), this.names);
  }

  beginTransaction(connection: PgConnection, settings: TransactionSettings): Promise<void> {
    connection.begin(settings);
    return Promise.resolve();
  }

  async commitTransaction(connection: PgConnection): Promise<void> {
    const committing = connection.send('commit', []);
    connection.ended = true;
    const { command } = await committing;
    // PostgreSQL answers COMMIT with ROLLBACK when an earlier statement failed the transaction.
    if (command === 'ROLLBACK') throw new Error('the transaction was rolled back: a statement in it failed');
  }

  async rollbackTransaction(connection: PgConnection): Promise<void> {
    connection.ended = true;
    try {
      // Not behind the failure it follows (send would report that again): only its own.
      await connection.client.query('rollback');
    } catch (error) {
      connection.broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  releaseConnection(connection: PgConnection): Promise<void> {
    connection.ended = true;
    connection.client.release(connection.broken);
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }

  /** The rows of one statement on a connection of its own, outside any transaction. */
  async rows(text: string, values: readonly unknown[]): Promise<unknown[]> {
    const connection = await this.acquireConnection();
    try {
      return await connection.rows(text, values);
    } finally {
      await this.releaseConnection(connection);
    }
  }
}

/**
 * Kysely's PostgreSQL dialect (its SQL, adapter and introspection) on PgDriver: connections that
 * pipeline and run statements by name. The pool must be created with `pipeline: true`.
 */
export function pipelinedPostgres(pool: pg.Pool, names: StatementNames) {
  const driver = new PgDriver(pool, names);
  const dialect = new (class extends PostgresDialect {
    override createDriver(): Driver {
      return driver;
    }
  })({ pool });
  return { dialect, rows: (text: string, values: readonly unknown[]) => driver.rows(text, values) };
}
