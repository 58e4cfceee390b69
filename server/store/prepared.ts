import { type Compilable, type CompiledQuery, createQueryId, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Db, Engine } from './db.js';
import { camelCaseRow, type Database } from './schema.js';

/** Stands for the i-th argument while a query is compiled once. */
class Slot {
  constructor(readonly index: number) {}
}

interface Template {
  sql: string;
  query: CompiledQuery['query'];
  /** Per parameter: the argument it takes (a number), or a value fixed in the query. */
  parameters: Array<number | { value: unknown }>;
}

/**
 * A query written once with the query builder and compiled once per engine: later calls only
 * bind their arguments (the builder's own work, some 10 µs a query, is spent once). For the
 * queries every request runs; arguments must be single values (a list would change the SQL).
 */
export function prepared<A extends unknown[], O>(build: (db: Db, ...args: A) => Compilable<O>) {
  const templates = new Map<Engine, Template>();
  const template = (db: Db, arity: number): Template => {
    let found = templates.get(db.engine);
    if (!found) {
      const slots = Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as A;
      const compiled = build(db, ...slots).compile();
      found = {
        sql: compiled.sql,
        query: compiled.query,
        parameters: compiled.parameters.map((p) => (p instanceof Slot ? p.index : { value: p })),
      };
      templates.set(db.engine, found);
    }
    return found;
  };
  const run = async (db: Db, args: A): Promise<O[]> => {
    const t = template(db, args.length);
    const parameters = t.parameters.map((p) => (typeof p === 'number' ? args[p] : p.value));
    // Rows read past the builder get the names its plugin would give them (schema.ts).
    if (db.direct) return (db.direct(t.sql, parameters) as Array<Record<string, unknown>>).map(camelCaseRow) as O[];
    if (db.send) return ((await db.send(t.sql, parameters)) as Array<Record<string, unknown>>).map(camelCaseRow) as O[];
    const result = await db.q.executeQuery<O>({ sql: t.sql, query: t.query, parameters, queryId: createQueryId() });
    return result.rows;
  };
  return {
    all: (db: Db, ...args: A): Promise<O[]> => run(db, args),
    first: async (db: Db, ...args: A): Promise<O | undefined> => (await run(db, args))[0],
    run: async (db: Db, ...args: A): Promise<void> => void (await run(db, args)),
  };
}

type Row = Record<string, unknown>;

/** The builder without table types: the generic helpers below name tables and columns by string (the codecs typed the row). */
const loose = (q: Kysely<Database>) => q as unknown as Kysely<Record<string, Row>>;

type Prepared = ReturnType<typeof prepared<unknown[], Row>>;

/** One prepared query per set of columns (a table's codec always gives the same columns, so there is one). */
function perColumns(build: (columns: string[]) => Prepared): (columns: string[]) => Prepared {
  const queries = new Map<string, Prepared>();
  return (columns) => {
    const signature = columns.join(',');
    let query = queries.get(signature);
    if (!query) {
      query = build(columns);
      queries.set(signature, query);
    }
    return query;
  };
}

/**
 * `INSERT INTO table (…) VALUES (…)` of a row, compiled once per engine: with RETURNING `returning`,
 * and with `unlessExists` (a unique key's columns) ON CONFLICT DO NOTHING, so that an existing row
 * returns nothing.
 */
export function preparedInsert<T extends keyof Database>(table: T, returning?: string, unlessExists?: string[]) {
  const query = perColumns((columns) =>
    prepared<unknown[], Row>(({ q }, ...values: unknown[]) => {
      const row = loose(q)
        .insertInto(String(table))
        .values(Object.fromEntries(columns.map((c, i) => [c, values[i]])));
      const insert = unlessExists ? row.onConflict((oc) => oc.columns(unlessExists).doNothing()) : row;
      // With RETURNING the rows are the returned columns; without, none come back. (tsc needs the
      // assertion to see a builder of untyped tables as Compilable<Row>; the linter's view does not.)
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      return (returning ? insert.returning(returning) : insert) as unknown as Compilable<Row>;
    }),
  );
  return (db: Db, row: Insertable<Database[T]>): Promise<Row | undefined> => {
    const columns = Object.keys(row);
    return query(columns).first(db, ...columns.map((c) => (row as Row)[c]));
  };
}

/** `UPDATE table SET … WHERE key = ?` of a row's columns, compiled once per engine. */
export function preparedUpdate<T extends keyof Database>(table: T, key: string) {
  const query = perColumns((columns) =>
    prepared<unknown[], Row>(
      ({ q }, ...values: unknown[]) =>
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- see preparedInsert
        loose(q)
          .updateTable(String(table))
          .set(Object.fromEntries(columns.map((c, i) => [c, values[i + 1]])))
          .where(key, '=', values[0]) as unknown as Compilable<Row>,
    ),
  );
  return (db: Db, keyValue: unknown, changes: Updateable<Database[T]>): Promise<void> => {
    const columns = Object.keys(changes);
    return query(columns).run(db, keyValue, ...columns.map((c) => (changes as Row)[c]));
  };
}
