import { afterEach, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { fdatasync, fstatSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore, type SqliteOptions } from '../../server/store/engines/sqlite.js';

const migrationsDir = join(process.cwd(), 'server', 'store', 'migrations', 'sqlite');
let store: SqliteStore | undefined;
const others: Database.Database[] = [];
afterEach(async () => {
  // A test that stopped halfway leaves its held syncs unreleased; the store is closed without waiting for them.
  if (store) await Promise.race([store.close(), turns(20)]);
  store = undefined;
  for (const db of others.splice(0)) db.close();
});

interface HeldSync {
  fd: number;
  /** Lets the sync happen (a real fdatasync), or fail with `error`. */
  release: (error?: Error) => void;
}

/** A WAL sync that waits until the test releases it: what a slow disk does. */
function heldSyncs() {
  const calls: HeldSync[] = [];
  const syncWal: NonNullable<SqliteOptions['syncWal']> = (fd, done) => {
    calls.push({ fd, release: (error) => (error ? done(error) : fdatasync(fd, done)) });
  };
  /** The n-th sync asked for (1-based), once it is asked for. */
  const nth = async (n: number): Promise<HeldSync> => {
    await until(() => calls.length >= n, `sync ${n} to be asked for`);
    return calls[n - 1]!;
  };
  return { calls, syncWal, nth };
}

/** Event-loop turns: enough for anything already due to happen (no clock is involved). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Turns the event loop until `done` holds; gives up (fails) after many turns rather than spin for ever. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100_000; i++) {
    if (done()) return;
    await turns(1);
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Whether a promise has settled, observed without awaiting it. */
function watch<T>(promise: Promise<T>) {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

function open(options: Partial<SqliteOptions> = {}) {
  const path = join(mkdtempSync(join(tmpdir(), 'durable-store-')), 'db.sqlite');
  store = new SqliteStore({ path, synchronous: 'FULL', migrationsDir, ...options });
  return { store, path };
}

/** Another connection to the file, as a process opening it after a crash would read it (without the server's cache). */
function outsider(path: string) {
  const db = new Database(path, { readonly: true });
  others.push(db);
  return (key: string) => (db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

describe('SqliteStore durability (synchronous FULL)', () => {
  test('When a batch has committed but its WAL sync has not finished, then its transaction is not answered until the sync completes', async () => {
    const syncs = heldSyncs();
    const { store, path } = open({ syncWal: syncs.syncWal });
    const write = watch(store.transaction((tx) => tx.settings.put('a', '1')));
    const sync = await syncs.nth(1);
    // The sync was asked for after COMMIT (another connection sees the row), and of the WAL file itself.
    expect(outsider(path)('a')).toBe('1');
    expect(fstatSync(sync.fd).ino).toBe(statSync(`${path}-wal`).ino);
    await turns(10);
    expect(write.settled).toBe(false);
    sync.release();
    await write.promise;
  });

  test('When a batch waits for its sync, then the next batch executes and commits meanwhile and is answered after the first, by a sync of its own', async () => {
    const syncs = heldSyncs();
    const { store, path } = open({ syncWal: syncs.syncWal });
    const answered: string[] = [];
    const first = watch(store.transaction((tx) => tx.settings.put('a', '1')).then(() => answered.push('first')));
    const firstSync = await syncs.nth(1);
    const second = watch(store.transaction((tx) => tx.settings.put('b', '2')).then(() => answered.push('second')));
    const seen = outsider(path);
    await until(() => seen('b') !== undefined, 'the second batch to commit');
    // Both committed, neither answered: one sync runs at a time, and the second batch came after it began.
    expect([first.settled, second.settled, syncs.calls.length]).toEqual([false, false, 1]);
    firstSync.release();
    await first.promise;
    expect(second.settled).toBe(false);
    (await syncs.nth(2)).release();
    await second.promise;
    expect(answered).toEqual(['first', 'second']);
  });

  test('When a read sees a table written by a batch whose sync is pending, then it waits for that sync; a read of other tables does not', async () => {
    const syncs = heldSyncs();
    const { store } = open({ syncWal: syncs.syncWal });
    const write = watch(store.transaction((tx) => tx.settings.put('k', 'v')));
    const sync = await syncs.nth(1);
    const readOfWritten = watch(store.read((tx) => tx.settings.get('k')));
    const missing = watch(store.read((tx) => tx.settings.get('no such key')));
    expect(await store.read((tx) => tx.companies.get('NoSuchCompany'))).toBeUndefined();
    await turns(10);
    expect([write.settled, readOfWritten.settled, missing.settled]).toEqual([false, false, false]);
    sync.release();
    expect(await readOfWritten.promise).toBe('v');
    expect(await missing.promise).toBeUndefined();
  });

  test('When a WAL sync fails, then the transactions waiting for it are rejected, later work is refused, and the failure is reported once', async () => {
    const syncs = heldSyncs();
    const failures: Error[] = [];
    const { store, path } = open({ syncWal: syncs.syncWal, onDurabilityFailure: (error) => failures.push(error) });
    const first = store.transaction((tx) => tx.settings.put('a', '1'));
    const sync = await syncs.nth(1);
    const second = store.transaction((tx) => tx.settings.put('b', '2'));
    const seen = outsider(path);
    await until(() => seen('b') !== undefined, 'the second batch to commit');
    sync.release(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(outcomes.map((o) => (o as PromiseRejectedResult).reason)).toEqual([failures[0], failures[0]]);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toMatch(/could not be made durable \(EIO/);
    // Nothing is acknowledged after a failed sync, reads and health included.
    const later = await Promise.allSettled([store.transaction((tx) => tx.settings.get('a')), store.read((tx) => tx.settings.get('a')), store.ping()]);
    expect(later.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(syncs.calls).toHaveLength(1);
  });

  test('When a WAL sync fails in a process that did not say otherwise, then the process ends with the error instead of going on', () => {
    // The built store (the test run builds dist/) in a process of its own, whose disk fails the first sync.
    const script = `
      import { SqliteStore } from ${JSON.stringify(join(process.cwd(), 'dist', 'server', 'store', 'engines', 'sqlite.js'))};
      const store = new SqliteStore({
        path: ${JSON.stringify(join(mkdtempSync(join(tmpdir(), 'failing-sync-')), 'db.sqlite'))},
        synchronous: 'FULL',
        migrationsDir: ${JSON.stringify(migrationsDir)},
        syncWal: (fd, done) => setImmediate(() => done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))),
      });
      store.transaction((tx) => tx.settings.put('a', '1')).catch(() => undefined);
      setTimeout(() => console.log('still running'), 60_000).unref();
      setInterval(() => undefined, 1_000);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(run.status).not.toBe(0);
    expect(run.signal).toBeNull();
    expect(run.stderr).toMatch(/StoreDurabilityError: The SQLite WAL could not be made durable \(EIO/);
  });

  test('When the WAL is checkpointed, truncated and reused, then the file the store syncs is still the WAL and holds the new commits', async () => {
    const fds = new Set<number>();
    const { store, path } = open({ syncWal: (fd, done) => (fds.add(fd), fdatasync(fd, done)) });
    const wal = `${path}-wal`;
    const sameFile = () => {
      const [fd] = [...fds];
      expect(fds.size).toBe(1);
      expect([fstatSync(fd!).dev, fstatSync(fd!).ino, fstatSync(fd!).size]).toEqual([statSync(wal).dev, statSync(wal).ino, statSync(wal).size]);
    };
    // More than the 1 000-page automatic checkpoint: SQLite checkpoints by itself and starts the WAL over.
    const big = 'x'.repeat(100_000);
    for (let i = 0; i < 60; i++) await store.transaction((tx) => tx.settings.put(`big-${i % 3}`, `${i}${big}`));
    sameFile();
    const other = new Database(path);
    others.push(other);
    expect(other.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
    expect(statSync(wal).size).toBe(0);
    await store.transaction((tx) => tx.settings.put('after', 'truncate'));
    sameFile();
    expect(statSync(wal).size).toBeGreaterThan(0);
    expect(await store.read((tx) => tx.settings.get('after'))).toBe('truncate');
  });
});

describe('SqliteStore without a sync of its own', () => {
  const never: NonNullable<SqliteOptions['syncWal']> = () => {
    throw new Error('no sync expected');
  };

  test('When synchronous is NORMAL, then a transaction is answered after COMMIT without a WAL sync', async () => {
    const { store } = open({ synchronous: 'NORMAL', syncWal: never });
    await store.transaction((tx) => tx.settings.put('a', '1'));
    expect(await store.read((tx) => tx.settings.get('a'))).toBe('1');
  });

  test('When the database is in memory, then transactions and reads work without a WAL sync', async () => {
    store = new SqliteStore({ path: ':memory:', synchronous: 'FULL', migrationsDir, syncWal: never });
    await store.transaction((tx) => tx.settings.put('a', '1'));
    expect(await store.read((tx) => tx.settings.get('a'))).toBe('1');
  });
});
