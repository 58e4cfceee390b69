/**
 * The two migration histories (server/store/migrations/sqlite and .../postgres) must build the
 * same schema: a fresh database of each engine is migrated and described table by table, column
 * by column (type, nullability, default), with its primary key, unique constraints, foreign keys,
 * CHECK constraints and indexes (columns, order, partial predicate), in one engine-neutral notation.
 * The descriptions must be equal; a column or index added on one engine only shows as a diff.
 *
 * It needs a PostgreSQL server: the one of the PostgreSQL run (TEST_DATABASE_ADMIN_URL, set by
 * test/global-setup.mjs), or any the caller names with that variable on the SQLite run. Without
 * one the comparison is skipped and only the SQLite side is checked.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../server/store/engines/sqlite-statements.js';
import { openStore } from '../../server/store/index.js';

const MIGRATIONS = join(process.cwd(), 'server', 'store', 'migrations');
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL;

/**
 * PostgreSQL's column types and the SQLite type that holds the same values, as the store writes
 * them. A PostgreSQL column is described by its SQLite counterpart; a type missing here shows as
 * `unmapped:<type>` and fails the comparison until a pair is added.
 */
const POSTGRES_TO_SQLITE: Record<string, { sqlite: string; why: string }> = {
  text: { sqlite: 'TEXT', why: 'the same strings' },
  bigint: { sqlite: 'INTEGER', why: 'SQLite integers are 64-bit: money and counters fit either way' },
  integer: { sqlite: 'INTEGER', why: 'a narrower integer, still an SQLite INTEGER' },
  boolean: { sqlite: 'INTEGER', why: 'SQLite has no boolean: the store writes 0 and 1 and reads them back as booleans' },
  'timestamp with time zone': { sqlite: 'TEXT', why: 'SQLite keeps moments as ISO-8601 UTC text, which sorts in time order' },
  jsonb: { sqlite: 'TEXT', why: 'SQLite keeps JSON as its text; the store parses it on read' },
  'double precision': { sqlite: 'REAL', why: 'both are 8-byte IEEE floating point' },
};

/**
 * CHECK constraints that SQLite keeps as triggers: SQLite cannot add a CHECK to an existing table
 * (ALTER TABLE has no ADD CONSTRAINT), so a later migration raises the same error from a BEFORE
 * INSERT and a BEFORE UPDATE trigger. Keyed by the PostgreSQL constraint name; the SQLite side
 * counts as having the CHECK when every trigger named here exists on the table.
 */
const CHECKS_KEPT_BY_TRIGGERS: Record<string, { table: string; triggers: string[] }> = {
  orders_check: { table: 'orders', triggers: ['orders_remaining_on_insert', 'orders_remaining_on_update'] },
  payments_amounts_not_negative: { table: 'payments', triggers: ['payments_money_rules_on_insert', 'payments_money_rules_on_update'] },
  payments_cancelled_not_captured: { table: 'payments', triggers: ['payments_money_rules_on_insert', 'payments_money_rules_on_update'] },
  payments_charged_back_within_captured: { table: 'payments', triggers: ['payments_charged_back_on_insert', 'payments_charged_back_on_update'] },
};

/**
 * Tables one engine has and the other has not, on purpose: rate-limit buckets are rows only where
 * several instances share the database (PostgreSQL); an SQLite file has one server, which keeps
 * them in memory. sqlite_sequence is SQLite's own (AUTOINCREMENT's counters).
 */
const ONLY_ON: Record<'sqlite' | 'postgres', string[]> = { sqlite: ['sqlite_sequence'], postgres: ['rate_limits'] };

/** One line per column and per constraint or index, grouped by table: what the comparison diffs. */
type SchemaDescription = Record<string, string[]>;

/** Expression text without the spelling that differs between engines: casts, parentheses, case, spacing. */
const expression = (text: string) =>
  text
    .replace(/::[a-z_ ]+(\[\])?/gi, '')
    .replace(/[()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** A default value as a value: casts dropped, quotes removed, JSON re-serialized, booleans as 0/1. */
function defaultValue(text: string | null): string {
  if (text === null) return 'none';
  let value = text.replace(/::[a-z_ ]+(\[\])?$/i, '').trim();
  if (value === 'false') value = '0';
  if (value === 'true') value = '1';
  const quoted = /^'(.*)'$/s.exec(value);
  if (!quoted) return value;
  const literal = quoted[1]!.replace(/''/g, "'");
  try {
    const parsed: unknown = JSON.parse(literal);
    if (typeof parsed === 'object' && parsed !== null) return `'${JSON.stringify(parsed)}'`;
  } catch {
    // Not JSON: compared as text.
  }
  return `'${literal}'`;
}

const columnLine = (name: string, type: string, notNull: boolean, dflt: string) => `column ${name} ${type}${notNull ? ' NOT NULL' : ''} DEFAULT ${dflt}`;
const indexLine = (name: string, unique: boolean, columns: string[], predicate: string | null) =>
  `index ${name}${unique ? ' UNIQUE' : ''} (${columns.join(', ')})${predicate ? ` WHERE ${expression(predicate)}` : ''}`;

const foreignKeyLine = (columns: string[], table: string, referenced: string[], onDelete: string) =>
  `FOREIGN KEY (${columns.join(', ')}) REFERENCES ${table} (${referenced.join(', ')}) ON DELETE ${onDelete.toUpperCase()}`;
/** pg_constraint.confdeltype, as SQLite names the same actions. */
const ON_DELETE: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

/** The CHECK expressions written in an SQLite CREATE TABLE statement. */
function sqliteChecks(createTable: string): string[] {
  const text = createTable.replace(/--[^\n]*/g, '');
  const checks: string[] = [];
  const start = /\bCHECK\s*\(/gi;
  for (let match = start.exec(text); match; match = start.exec(text)) {
    let depth = 1;
    let i = match.index + match[0].length;
    for (; i < text.length && depth > 0; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
    checks.push(text.slice(match.index + match[0].length, i - 1));
  }
  return checks;
}

function describeSqlite(db: Database.Database): SchemaDescription {
  const out: SchemaDescription = {};
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string; sql: string }>;
  const triggers = db.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'").all() as Array<{ name: string; tbl_name: string }>;
  for (const { name: table, sql: createTable } of tables) {
    if (ONLY_ON.sqlite.includes(table)) continue;
    const lines: string[] = [];
    const columns = db.prepare(`SELECT * FROM pragma_table_info('${table}')`).all() as Array<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>;
    for (const c of columns) {
      const autoincrement = new RegExp(`\\b${c.name}\\s+INTEGER\\s+PRIMARY\\s+KEY\\s+AUTOINCREMENT\\b`, 'i').test(createTable);
      // A non-INTEGER primary key column accepts NULL in SQLite (a legacy quirk the store never
      // relies on); it is a key column, NOT NULL in every other database.
      lines.push(columnLine(c.name, c.type.toUpperCase(), c.notnull === 1 || c.pk > 0, autoincrement ? 'identity' : defaultValue(c.dflt_value)));
    }
    const primaryKey = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (primaryKey.length > 0) lines.push(`PRIMARY KEY (${primaryKey.map((c) => c.name).join(', ')})`);
    for (const check of sqliteChecks(createTable)) lines.push(`CHECK ${expression(check)}`);
    const references = db.prepare(`SELECT * FROM pragma_foreign_key_list('${table}') ORDER BY id, seq`).all() as Array<{
      id: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }>;
    for (const id of new Set(references.map((r) => r.id))) {
      const parts = references.filter((r) => r.id === id);
      lines.push(
        foreignKeyLine(
          parts.map((r) => r.from),
          parts[0]!.table,
          parts.map((r) => r.to),
          parts[0]!.on_delete,
        ),
      );
    }
    const onTable = new Set(triggers.filter((t) => t.tbl_name === table).map((t) => t.name));
    const standIns = new Set<string>();
    for (const [, kept] of Object.entries(CHECKS_KEPT_BY_TRIGGERS).filter(([, k]) => k.table === table)) {
      if (kept.triggers.every((t) => onTable.has(t))) kept.triggers.forEach((t) => standIns.add(t));
    }
    // A trigger standing in for a CHECK is described as that CHECK (by its PostgreSQL name).
    for (const [constraint, kept] of Object.entries(CHECKS_KEPT_BY_TRIGGERS)) {
      if (kept.table === table && kept.triggers.every((t) => onTable.has(t))) lines.push(`CHECK named ${constraint} (a trigger on SQLite)`);
    }
    for (const trigger of onTable) if (!standIns.has(trigger)) lines.push(`trigger ${trigger}`);
    const indexes = db.prepare(`SELECT * FROM pragma_index_list('${table}')`).all() as Array<{ name: string; unique: number; origin: string }>;
    for (const index of indexes) {
      if (index.origin === 'pk') continue;
      const keyColumns = (db.prepare(`SELECT * FROM pragma_index_xinfo('${index.name}')`).all() as Array<{ name: string; desc: number; key: number }>)
        .filter((c) => c.key === 1)
        .map((c) => `${c.name}${c.desc ? ' DESC' : ''}`);
      if (index.origin === 'u') {
        lines.push(`UNIQUE (${keyColumns.join(', ')})`);
        continue;
      }
      const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(index.name) as { sql: string };
      const predicate = /\bWHERE\b([\s\S]*)$/i.exec(sql)?.[1] ?? null;
      lines.push(indexLine(index.name, index.unique === 1, keyColumns, predicate));
    }
    out[table] = lines.sort();
  }
  return out;
}

async function describePostgres(client: pg.Client): Promise<SchemaDescription> {
  const out: SchemaDescription = {};
  const tables = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  for (const { name: table } of tables.rows) {
    if (ONLY_ON.postgres.includes(table)) continue;
    const lines: string[] = [];
    const columns = await client.query<{ name: string; type: string; nullable: string; dflt: string | null; identity: string }>(
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt, is_identity AS identity
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
      [table],
    );
    for (const c of columns.rows) {
      const type = POSTGRES_TO_SQLITE[c.type]?.sqlite ?? `unmapped:${c.type}`;
      const identity = c.identity === 'YES' || (c.dflt ?? '').startsWith('nextval(');
      lines.push(columnLine(c.name, type, c.nullable === 'NO', identity ? 'identity' : defaultValue(c.dflt)));
    }
    const constraints = await client.query<{
      name: string;
      type: string;
      columns: string[];
      definition: string;
      referencedTable: string | null;
      referencedColumns: string[];
      onDelete: string;
    }>(
      `SELECT con.conname AS name, con.contype AS type, pg_get_constraintdef(con.oid) AS definition,
              ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns,
              con.confrelid::regclass::text AS "referencedTable", con.confdeltype AS "onDelete",
              ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS "referencedColumns"
         FROM pg_constraint con WHERE con.conrelid = $1::regclass AND con.contype IN ('p', 'u', 'c', 'f')`,
      [table],
    );
    for (const c of constraints.rows) {
      if (c.type === 'p') lines.push(`PRIMARY KEY (${c.columns.join(', ')})`);
      else if (c.type === 'f') lines.push(foreignKeyLine(c.columns, c.referencedTable!, c.referencedColumns, ON_DELETE[c.onDelete] ?? c.onDelete));
      else if (c.type === 'u') lines.push(`UNIQUE (${c.columns.join(', ')})`);
      else if (CHECKS_KEPT_BY_TRIGGERS[c.name]?.table === table) lines.push(`CHECK named ${c.name} (a trigger on SQLite)`);
      else lines.push(`CHECK ${expression(c.definition.replace(/^CHECK\s*/i, ''))}`);
    }
    const triggers = await client.query<{ name: string }>('SELECT tgname AS name FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal', [table]);
    for (const t of triggers.rows) lines.push(`trigger ${t.name}`);
    const indexes = await client.query<{ name: string; unique: boolean; columns: string[]; options: number[]; predicate: string | null }>(
      `SELECT i.relname AS name, ix.indisunique AS unique, pg_get_expr(ix.indpred, ix.indrelid) AS predicate,
              ARRAY(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns,
              ix.indoption::int2[] AS options
         FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid
        WHERE ix.indrelid = $1::regclass
          AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = ix.indexrelid AND con.contype IN ('p', 'u'))`,
      [table],
    );
    for (const index of indexes.rows) {
      // indoption bit 0 is DESC.
      const columnsWithOrder = index.columns.map((column, i) => `${column}${(index.options[i]! & 1) === 1 ? ' DESC' : ''}`);
      lines.push(indexLine(index.name, index.unique, columnsWithOrder, index.predicate));
    }
    out[table] = lines.sort();
  }
  return out;
}

let sqlite: SchemaDescription;
let postgres: SchemaDescription | undefined;
let dropPostgres: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const db = new Database(':memory:');
  try {
    migrate(db, join(MIGRATIONS, 'sqlite'));
    sqlite = describeSqlite(db);
  } finally {
    db.close();
  }
  if (!ADMIN_URL) return;
  const name = `parity_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  dropPostgres = async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  // Migrated as the server migrates it: by opening the store.
  const store = await openStore(
    { databaseUrl: url.toString(), databasePoolSize: 1, databaseStatementTimeoutMs: 0, databasePath: ':memory:', sqliteSynchronous: 'NORMAL' },
    () => '',
  );
  await store.close();
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    postgres = await describePostgres(client);
  } finally {
    await client.end();
  }
}, 60_000);

afterAll(async () => {
  await dropPostgres?.();
});

describe('Schema parity between the SQLite and PostgreSQL migrations', () => {
  test('When the SQLite migrations run, then every trigger that stands in for a CHECK exists', () => {
    for (const [constraint, { table }] of Object.entries(CHECKS_KEPT_BY_TRIGGERS))
      expect(sqlite[table]).toContain(`CHECK named ${constraint} (a trigger on SQLite)`);
  });

  (ADMIN_URL ? test : test.skip)('When both engines are migrated from scratch, then they have the same tables, columns, keys, checks and indexes', () => {
    const tables = [...new Set([...Object.keys(sqlite), ...Object.keys(postgres!)])].sort();
    if (process.env.SCHEMA_PARITY_PRINT === '1') console.log(JSON.stringify({ sqlite, postgres }, null, 2));
    // Each line one engine has and the other lacks, named by table and engine.
    const differences = tables.flatMap((table) => {
      const [a, b] = [sqlite[table], postgres![table]];
      if (!a) return [`${table}: table on PostgreSQL only`];
      if (!b) return [`${table}: table on SQLite only`];
      return [
        ...a.filter((line) => !b.includes(line)).map((line) => `${table}: SQLite only: ${line}`),
        ...b.filter((line) => !a.includes(line)).map((line) => `${table}: PostgreSQL only: ${line}`),
      ];
    });
    expect(differences).toEqual([]);
  });
});
