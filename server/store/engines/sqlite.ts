import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { closeSync, fdatasync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { columnNamesPlugin, type Database as Schema } from '../schema.js';
import { type LastWrite, openTx, txContext, type Store, type Tx, type TxContext } from '../tx.js';
import { StoreUnavailableError } from '../unavailable.js';
import { ALL, cachedStatements, directOn, latest, migrate, REMEMBERED_TABLES, tableNames } from './sqlite-statements.js';

export interface SqliteOptions {
  /** A file path, or ':memory:' for tests that need no durability. */
  path: string;
  /** FULL: a write is acknowledged once it is on disk (survives power loss); NORMAL: once the operating system has it (survives a killed process). */
  synchronous: 'FULL' | 'NORMAL';
  migrationsDir: string;
  /** The keyed API-key hash; without it the store refuses to hash API keys. */
  hashApiKey?: (apiKey: string) => string;
  /** Makes what was written to the WAL file durable: `fdatasync` on libuv's thread pool, unless a test gives a slow or failing one. */
  syncWal?: (fd: number, done: (error: Error | null) => void) => void;
  /**
   * Told once when the WAL could not be made durable, after every transaction not yet answered was
   * rejected and the store closed to new work. By default it throws: the process ends.
   */
  onDurabilityFailure?: (error: Error) => void;
}

const noApiKeyHasher = (): string => {
  throw new Error('this store was opened without an API-key hasher (the server secret)');
};

interface Job {
  work: (tx: Tx) => Promise<unknown>;
  context: TxContext;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Work whose answer waits until the batches it may have seen are durable. */
interface Waiter {
  /** The batch number that must be durable first. */
  batch: number;
  settle: () => void;
  fail: (error: Error) => void;
}

/** The WAL could not be made durable: nothing later is acknowledged (see `SqliteStore`). */
export class StoreDurabilityError extends Error {
  constructor(cause: Error) {
    super(`The SQLite WAL could not be made durable (${cause.message}); nothing more is acknowledged and the process must be restarted.`, { cause });
    this.name = 'StoreDurabilityError';
  }
}

/** The most transactions executed in one SQLite transaction. */
const MAX_BATCH = 256;

/**
 * An empty database migrated once per process (per migrations folder), as SQLite's serialized
 * image: each new in-memory database starts as a copy of it instead of running every migration
 * again (a process that opens many, like the tests, spent tens of milliseconds on each).
 */
const migratedImages = new Map<string, Buffer>();
function migratedInMemory(migrationsDir: string): Database.Database {
  let image = migratedImages.get(migrationsDir);
  if (!image) {
    const scratch = new Database(':memory:');
    scratch.pragma('foreign_keys = ON');
    migrate(scratch, migrationsDir);
    image = scratch.serialize();
    scratch.close();
    migratedImages.set(migrationsDir, image);
  }
  return new Database(image);
}

const throwIt = (error: Error): never => {
  throw error;
};

/**
 * The embedded store. One connection writes; transactions never interleave, which makes every
 * read-check-write in the domain atomic without row locks (SQLite has one writer).
 *
 * Group commit: transactions that queue up while others run are executed one after another,
 * each inside its own SAVEPOINT of one SQLite transaction (a batch), which is committed once for
 * all of them. A transaction that throws is rolled back to its savepoint alone.
 *
 * Durability off the event loop (`synchronous: 'FULL'`). SQLite runs in WAL mode with its own
 * `synchronous=NORMAL`: a COMMIT appends the batch's pages to the -wal file without syncing it,
 * and SQLite still syncs where order matters, "the WAL file is synchronized before each
 * checkpoint and the database file is synchronized after each completed checkpoint and the WAL
 * file header is synchronized when a WAL file begins to be reused after a checkpoint"
 * (https://sqlite.org/pragma.html#pragma_synchronous). What NORMAL leaves out, the sync of the WAL
 * after each commit that FULL does inside COMMIT ("a transaction committed in WAL mode with
 * synchronous=NORMAL might roll back following a power loss", same page), is done here:
 * after a batch's COMMIT, `fdatasync` of the -wal file runs on libuv's thread pool, through a
 * descriptor of our own, and the batch's results (answers and errors alike) are handed back only
 * when it completes. Meanwhile the event loop goes on: requests are parsed, answers sent, and the
 * next batch executes and commits; the sync that follows covers it (and every batch committed
 * while the previous sync ran), so batches of durability grow with load instead of each request
 * paying for one fsync.
 * - Why this covers a batch: fdatasync makes durable every write to the file completed before it
 *   began, and COMMIT has returned (its frames written) before the sync is started.
 * - Why the descriptor stays right: the WAL file "exists for as long as any database connection
 *   has the database open" (https://sqlite.org/wal.html); it is reused by overwriting it from the
 *   start after a checkpoint, never replaced, while our writer connection is open (a test checks
 *   the inode across checkpoints and restarts).
 * - Why checkpoints cannot overtake a pending sync: a checkpoint syncs the WAL before copying it
 *   into the database file, and the WAL is only overwritten after a complete checkpoint synced
 *   the database file; a batch whose sync is still pending is by then on disk in the database file.
 * - A crash restores a prefix of the commit order (the WAL is replayed up to its first invalid
 *   frame), and results are released in commit order, each after a sync begun after its COMMIT;
 *   so any answer, including one that a later batch gave after reading an earlier batch's rows,
 *   describes only durable state.
 * - Reads (`read`, on the second connection) see what is committed, which may not be durable yet,
 *   and a list may show another client's row before that client has its answer. So a read's result
 *   (a refusal or a not-found too) is handed back once the last batch that wrote any table it read
 *   is durable: no answer shows a row that a power loss could take back. The tables are known per
 *   statement from its text (`tableNames`); authentication and scope checks read tables that
 *   payments do not write, and do not wait (making every read wait for every pending batch instead
 *   gave back more than half of the gain in authorise and capture throughput, in an A/B).
 * - A failed sync is not retried (after a failed fsync Linux may have dropped the dirty pages and
 *   a second fsync would report success; PostgreSQL stops for the same reason): the store rejects
 *   every transaction and read not yet answered and every later one, and tells
 *   `onDurabilityFailure`, which by default throws so that the process ends loudly.
 * A writer thread was the alternative; it would have to run the transactions' own code (the
 * domain's reads and checks between statements) or ship every statement across threads, while
 * the sync is the only part that blocks: one async fdatasync does the same with nothing to move.
 *
 * With `synchronous: 'NORMAL'` (and for ':memory:') there is no sync: results are handed back
 * after COMMIT, which survives a killed process but not a power loss.
 */
export class SqliteStore implements Store {
  /** One process owns the file (see openSqlite): its memory sees every change. */
  readonly sharedBetweenProcesses = false;
  /** One writer: transactions run one after another (BEGIN IMMEDIATE, one connection). */
  readonly serializesTransactions = true;
  private readonly db: Database.Database;
  private readonly tx: Tx;
  /** What the running job's work left for last (tx.beforeCommit): the one writer's Tx serves every job in turn. */
  private readonly lastWrites: LastWrite[] = [];
  /** A second, read-only connection: in WAL mode it sees committed data and never waits for writers. */
  private readonly readDb: Database.Database | undefined;
  private readonly readTx: Tx | undefined;
  private readonly q: Kysely<Schema>;
  private readonly control: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', Database.Statement>;
  private pending: Job[] = [];
  private flushing: Promise<void> | undefined;
  /** Our descriptor of the -wal file, when results wait for it to be synced (FULL, a file in WAL mode). */
  private readonly walFd: number | undefined;
  private readonly syncWal: (fd: number, done: (error: Error | null) => void) => void;
  private readonly onDurabilityFailure: (error: Error) => void;
  /** Batches that wrote something, numbered in commit order: the last committed, and the last known durable. */
  private committed = 0;
  private durable = 0;
  private syncing = false;
  /** In batch order (they are added as batches commit). */
  private waiting: Waiter[] = [];
  private failed: Error | undefined;
  /** Set by close(): later work is refused as unavailable instead of reaching a closed handle. */
  private closed: Error | undefined;
  /** Per table, the last batch that wrote it (ALL: a write that may have touched any); the tables the running batch writes. */
  private readonly lastWrite = new Map<string, number>();
  private readonly batchWrites = new Set<string>();
  /** The writer's write statements and rollbacks, counted; per table, the count at its last write (ALL: a rollback). See ResultCache. */
  private writeVersion = 0;
  private readonly writerTableVersion = new Map<string, number>();
  /**
   * Reads in progress, and the batches that the statements run meanwhile read from while not yet
   * durable; emptied whenever no read is in progress (reads do not wait on I/O, so every turn).
   */
  private readers = 0;
  private readonly readNeeds: number[] = [];

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.db = options.path === ':memory:' ? migratedInMemory(options.migrationsDir) : new Database(options.path);
    const journal = this.db.pragma('journal_mode = WAL', { simple: true });
    // A file that cannot be in WAL mode (a file system without shared memory) keeps SQLite's own FULL.
    const syncHere = options.synchronous === 'FULL' && journal === 'wal';
    this.db.pragma(`synchronous = ${syncHere ? 'NORMAL' : options.synchronous}`);
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
    this.syncWal = options.syncWal ?? fdatasync;
    this.onDurabilityFailure = options.onDurabilityFailure ?? throwIt;
    if (syncHere) {
      // The WAL beside the file SQLite opened (symbolic links resolved); it exists once the migrations have run.
      const file = (this.db.pragma('database_list') as Array<{ name: string; file: string }>).find((d) => d.name === 'main')?.file;
      if (!file) throw new Error('SQLite did not report the database file');
      this.walFd = openSync(`${file}-wal`, 'r');
    }
    const hashApiKey = options.hashApiKey ?? noApiKeyHasher;
    const tablesOf = tableNames(this.db);
    const statements = cachedStatements(
      this.db,
      tablesOf,
      (tables, writes) => {
        if (!writes) return;
        this.writeVersion += 1;
        for (const table of tables) {
          this.batchWrites.add(table);
          this.writerTableVersion.set(table, this.writeVersion);
        }
      },
      { tables: REMEMBERED_TABLES, version: () => this.writeVersion, lastWriteOf: (tables) => latest(this.writerTableVersion, tables) },
    );
    this.q = new Kysely<Schema>({ dialect: new SqliteDialect({ database: statements }), plugins: [columnNamesPlugin()] });
    this.tx = openTx({ q: this.q, engine: 'sqlite', hashApiKey, direct: directOn(statements) }, this.lastWrites);
    if (options.path !== ':memory:') {
      this.readDb = new Database(options.path, { readonly: true });
      this.readDb.pragma('busy_timeout = 5000');
      const readStatements = cachedStatements(
        this.readDb,
        tablesOf,
        (tables) => {
          const need = latest(this.lastWrite, tables);
          if (need > this.durable) this.readNeeds.push(need);
        },
        { tables: REMEMBERED_TABLES, version: () => this.committed, lastWriteOf: (tables) => latest(this.lastWrite, tables) },
      );
      const readQ = new Kysely<Schema>({ dialect: new SqliteDialect({ database: readStatements }), plugins: [columnNamesPlugin()] });
      this.readTx = openTx({ q: readQ, engine: 'sqlite', hashApiKey, direct: directOn(readStatements) });
    }
  }

  async read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    if (this.failed) throw this.failed;
    if (this.closed) throw this.closed;
    // An in-memory database has no second connection: reads then queue like writes.
    if (!this.readTx) return this.transaction(work);
    const from = this.readNeeds.length;
    this.readers += 1;
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await work(this.readTx) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    this.readers -= 1;
    // Reads interleave (at their awaits): the statements run since this one began include its own.
    let need = 0;
    for (let i = from; i < this.readNeeds.length; i++) need = Math.max(need, this.readNeeds[i]!);
    if (this.readers === 0) this.readNeeds.length = 0;
    // A not-found or a refusal tells as much as a row: both wait for what they may have seen.
    if (need > this.durable) await new Promise<void>((resolve, reject) => this.afterDurable(need, resolve, reject));
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  statement<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, context?: Partial<TxContext>): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(this.closed);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        work,
        context: txContext(context),
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.flushing ??= this.flush();
    });
  }

  async ping(): Promise<void> {
    if (this.failed) throw this.failed;
    if (this.closed) throw this.closed;
    await sql`SELECT 1`.execute(this.q);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = new StoreUnavailableError(new Error('the store is closed'));
    // Work queued before close still runs: it may already be promised to a caller.
    while (this.flushing) await this.flushing;
    // Answers still waiting for a sync get it before the files close.
    if (this.durable < this.committed) await new Promise<void>((resolve) => this.afterDurable(this.committed, resolve, () => resolve()));
    if (this.walFd !== undefined) closeSync(this.walFd);
    this.readDb?.close();
    this.db.close();
  }

  private async flush(): Promise<void> {
    // Let the requests that arrive in the same turn join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const { begin, commit, rollback, savepoint, release, rollbackTo } = this.control;
    while (this.pending.length > 0 && !this.failed) {
      const batch = this.pending.splice(0, MAX_BATCH);
      // A batch of one needs no savepoint: if its transaction fails, the whole batch is rolled back.
      const alone = batch.length === 1;
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      let fatal: unknown;
      let wrote = false;
      this.batchWrites.clear();
      try {
        begin.run();
        for (const job of batch) {
          if (!alone) savepoint.run();
          try {
            // The jobs of a batch run one after another on the one connection: each its own context.
            this.tx.context = job.context;
            const value = await job.work(this.tx);
            for (const write of this.lastWrites.splice(0)) await write();
            if (!alone) release.run();
            outcomes.push({ ok: true, value });
          } catch (error) {
            this.lastWrites.length = 0;
            // Some failures (disk full, I/O) abort the whole SQLite transaction: then nothing of the batch stands.
            if (!this.db.inTransaction) throw error;
            if (alone) {
              rollback.run();
            } else {
              rollbackTo.run();
              release.run();
            }
            this.forgetWriterReads();
            outcomes.push({ ok: false, error });
          }
        }
        if (this.db.inTransaction) {
          commit.run();
          // Every write statement was seen (see the writer's observer); one that changed no row only costs a sync.
          wrote = this.batchWrites.size > 0;
        }
      } catch (error) {
        fatal = error;
        if (this.db.inTransaction) rollback.run();
        this.forgetWriterReads();
      }
      // A batch that only read needs no sync of its own, but its results wait like the others: it may have read a batch whose sync is pending.
      if (fatal === undefined && wrote) {
        this.committed += 1;
        for (const table of this.batchWrites) this.lastWrite.set(table, this.committed);
      }
      if (this.walFd === undefined) this.durable = this.committed;
      this.afterDurable(
        this.committed,
        () =>
          batch.forEach((job, i) => {
            const outcome = outcomes[i];
            if (fatal !== undefined || !outcome) job.reject(fatal ?? new Error('transaction not run'));
            else if (outcome.ok) job.resolve(outcome.value);
            else job.reject(outcome.error);
          }),
        (error) => batch.forEach((job) => job.reject(error)),
      );
    }
    // Cleared in the same turn as the emptiness check: a transaction queued after it starts a new flush.
    this.flushing = undefined;
  }

  /** A rollback may undo writes that results remembered on the writer saw: they are all forgotten. */
  private forgetWriterReads(): void {
    this.writeVersion += 1;
    this.writerTableVersion.set(ALL, this.writeVersion);
  }

  /** Runs `settle` once batch `batch` (and so every batch before it) is durable, or `fail` if that cannot be. */
  private afterDurable(batch: number, settle: () => void, fail: (error: Error) => void): void {
    if (this.failed) return fail(this.failed);
    if (batch <= this.durable) return settle();
    this.waiting.push({ batch, settle, fail });
    this.startSync();
  }

  /** One sync at a time, covering every batch committed when it starts; the next starts as it ends if more committed meanwhile. */
  private startSync(): void {
    if (this.syncing || this.walFd === undefined || this.failed || this.durable >= this.committed) return;
    const target = this.committed;
    this.syncing = true;
    this.syncWal(this.walFd, (error) => {
      this.syncing = false;
      if (error) return this.fail(error);
      this.durable = target;
      let ready = 0;
      while (ready < this.waiting.length && this.waiting[ready]!.batch <= target) ready++;
      const released = this.waiting.splice(0, ready);
      this.startSync();
      for (const waiter of released) waiter.settle();
    });
  }

  private fail(cause: Error): void {
    const failure = new StoreDurabilityError(cause);
    this.failed = failure;
    for (const waiter of this.waiting.splice(0)) waiter.fail(failure);
    for (const job of this.pending.splice(0)) job.reject(failure);
    this.onDurabilityFailure(failure);
  }
}
