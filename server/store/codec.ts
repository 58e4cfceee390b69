/**
 * The value conversions the row codecs of the store modules share (see schema-columns.ts for why the
 * engines differ): each table's module maps its rows to records with these, in one place.
 */

/** A boolean column: 0/1 from SQLite, a boolean from PostgreSQL. */
export const flag = (value: boolean | number): boolean => value === true || value === 1;

/** A JSON column: text from SQLite, an already parsed value from PostgreSQL's jsonb. */
export const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** A value for a JSON column: JSON text, which both engines accept. */
export const jsonText = (value: unknown): string => JSON.stringify(value);

/** A count or sum: PostgreSQL returns bigint aggregates as strings. */
export const count = (value: unknown): number => Number(value ?? 0);

/** A page of rows and the number of rows in all pages, from one query scope (counted, then read). */
export async function paged<Row, T>(
  counted: { executeTakeFirst(): Promise<{ n: unknown } | undefined> },
  rows: { execute(): Promise<Row[]> },
  map: (row: Row) => T,
): Promise<{ items: T[]; total: number }> {
  const total = count((await counted.executeTakeFirst())?.n);
  return { items: (await rows.execute()).map(map), total };
}
