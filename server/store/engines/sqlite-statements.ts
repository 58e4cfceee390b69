import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The SQLite engine's statements: prepared once per text, the tables each touches, the results
// remembered for management-only tables, and the migrations. The writer and its group commit are
// in sqlite.ts.

/** Told of each statement a connection runs, with the tables it touches (see `tableNames`), before it runs. */
export type Observer = (tables: readonly string[], writes: boolean) => void;

/** `all` with its results remembered per parameters (see ResultCache); rows are frozen, as they are shared. */
function remembered(all: (parameters: ReadonlyArray<unknown>) => unknown[], tables: readonly string[], cache: ResultCache, observe: () => void) {
  const results = new Map<string, { version: number; rows: unknown[] }>();
  let rowsHeld = 0;
  return (parameters: ReadonlyArray<unknown>) => {
    const key = JSON.stringify(parameters);
    const hit = results.get(key);
    if (hit && hit.version >= cache.lastWriteOf(tables)) {
      // The observer still hears of the read: its answer waits for durability as a real read's would.
      observe();
      return hit.rows;
    }
    const version = cache.version();
    const rows = all(parameters).map((row) => Object.freeze(row));
    if (hit) rowsHeld -= hit.rows.length;
    results.delete(key);
    // A result larger than the whole bound is not kept, and pushes nothing out.
    if (rows.length > RESULT_CACHE_ROWS) return rows;
    // Oldest first out, until both bounds hold: a page of a hundred rows weighs a hundred lookups.
    while (results.size >= RESULT_CACHE_ENTRIES || rowsHeld + rows.length > RESULT_CACHE_ROWS) {
      const [oldest, entry] = results.entries().next().value!;
      rowsHeld -= entry.rows.length;
      results.delete(oldest);
    }
    results.set(key, { version, rows });
    rowsHeld += rows.length;
    return rows;
  };
}

/**
 * Remembered results of queries on the tables that change only through management
 * (credentials, keys, merchants, companies, webhooks): every request authenticates and checks
 * its scope with them, and every payment reads its merchant account and the webhooks its events
 * go to. The terminal fleet's apps and certificates are listed far more often than uploaded, and a
 * page of them costs more to read than the rest of its request (better-sqlite3 builds every value
 * of every row). A result stands while nothing wrote any table the query reads since it was read. One
 * process owns the file, so nothing changes them unseen.
 * - On the read connection, versions are committed batches: it sees only committed data.
 * - On the writer, versions count its write statements and rollbacks: it sees its own
 *   uncommitted writes, so every write to a table (and every rollback, which may undo one)
 *   makes the results read before it stale.
 */
export interface ResultCache {
  /** Tables whose queries are remembered. */
  tables: ReadonlySet<string>;
  /** The version of the data a query run now reads. */
  version(): number;
  /** The version made by the last change to any of `tables`. */
  lastWriteOf(tables: readonly string[]): number;
}

/** What every request reads to authenticate and check its scope, and every payment to book its events; changed only by management operations. */
export const REMEMBERED_TABLES: ReadonlySet<string> = new Set([
  'api_keys',
  'api_credentials',
  'merchants',
  'companies',
  'allowed_origins',
  'retired_client_keys',
  'webhooks',
  'android_apps',
  'android_certificates',
]);

/** Entries per query: parameters beyond it replace the oldest (a credential per entry, a merchant per entry). */
export const RESULT_CACHE_ENTRIES = 5000;
/** Rows held per query, whatever the entries: list pages (up to 100 rows each) replace the oldest sooner. */
export const RESULT_CACHE_ROWS = 10_000;

/**
 * better-sqlite3 as Kysely's driver sees it, with three differences: a statement is prepared once
 * per SQL text and reused (Kysely prepares on every query), booleans are bound as 1/0 (SQLite has
 * no boolean type; better-sqlite3 refuses JS booleans), and `observe` hears of every run.
 */
export function cachedStatements(db: Database.Database, tablesOf: (text: string, writes: boolean) => string[], observe: Observer, cache?: ResultCache) {
  const bind = (parameters: ReadonlyArray<unknown>) => parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
  const wrap = (text: string) => {
    const s = db.prepare(text);
    const writes = !s.readonly;
    const tables = tablesOf(text, writes);
    const all = (parameters: ReadonlyArray<unknown>) => (observe(tables, writes), s.all(...bind(parameters)));
    return {
      reader: s.reader,
      all:
        cache && s.reader && tables.length > 0 && tables.every((t) => cache.tables.has(t))
          ? remembered(all, tables, cache, () => observe(tables, writes))
          : all,
      run: (parameters: ReadonlyArray<unknown>) => (observe(tables, writes), s.run(...bind(parameters))),
      iterate: (parameters: ReadonlyArray<unknown>) => (observe(tables, writes), s.iterate(...bind(parameters))),
    };
  };
  const statements = new Map<string, ReturnType<typeof wrap>>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = wrap(text);
        // Statements differ only in the values, not the text: the cache stays as small as the query set.
        if (statements.size < 2000) statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** Stands for every table: a write whose text names none of them (none is known today), or a rollback. */
export const ALL = '*';

/** The highest version among `tables` and ALL. */
export function latest(versions: ReadonlyMap<string, number>, tables: readonly string[]): number {
  let last = versions.get(ALL) ?? 0;
  for (const table of tables) last = Math.max(last, versions.get(table) ?? 0);
  return last;
}

/**
 * Which tables a statement may touch, from its text: every known table or view whose name it
 * contains as a word (Kysely quotes them; a column or alias that happens to match only adds a
 * table, it never leaves one out). A read of a view reads the tables the view names; a write also
 * touches what it changes through foreign-key actions and triggers.
 */
export function tableNames(db: Database.Database): (text: string, writes: boolean) => string[] {
  const schema = db.prepare("SELECT type, name, tbl_name AS target, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").all() as Array<{
    type: string;
    name: string;
    target: string;
    sql: string | null;
  }>;
  const names = schema.filter((o) => o.type === 'table' || o.type === 'view').map((o) => o.name.toLowerCase());
  const word = new RegExp(`\\b(?:${names.map((n) => n.replace(/[^a-z0-9_]/g, '\\$&')).join('|')})\\b`, 'gi');
  const named = (text: string) => [...new Set((text.match(word) ?? []).map((n) => n.toLowerCase()))];
  const reads = new Map<string, Set<string>>(names.map((n) => [n, new Set<string>()]));
  const writes = new Map<string, Set<string>>(names.map((n) => [n, new Set<string>()]));
  for (const view of schema.filter((o) => o.type === 'view')) for (const table of named(view.sql ?? '')) reads.get(view.name.toLowerCase())?.add(table);
  // A write to a table changes these others too: children whose foreign key acts on update or delete, and triggers' targets.
  for (const child of schema.filter((o) => o.type === 'table'))
    for (const fk of db.pragma(`foreign_key_list("${child.name}")`) as Array<{ table: string; on_update: string; on_delete: string }>)
      if (fk.on_update !== 'NO ACTION' || fk.on_delete !== 'NO ACTION') writes.get(fk.table.toLowerCase())?.add(child.name.toLowerCase());
  for (const trigger of schema.filter((o) => o.type === 'trigger'))
    for (const changed of named(trigger.sql ?? '')) writes.get(trigger.target.toLowerCase())?.add(changed);
  return (text, isWrite) => {
    const tables = named(text);
    if (isWrite && tables.length === 0) return [ALL];
    const through = isWrite ? writes : reads;
    for (let i = 0; i < tables.length; i++) for (const next of through.get(tables[i]!) ?? []) if (!tables.includes(next)) tables.push(next);
    return tables;
  };
}

/** Runs compiled SQL synchronously on a connection (better-sqlite3 is synchronous): rows for a reader, none for a write. */
export function directOn(statements: ReturnType<typeof cachedStatements>) {
  return (text: string, parameters: readonly unknown[]): unknown[] => {
    const statement = statements.prepare(text);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  };
}

/** Applies the numbered `.sql` files not yet applied, each in its own transaction (the file is locked meanwhile). */
export function migrate(db: Database.Database, dir: string): void {
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
