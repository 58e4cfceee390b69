import type { ColumnType } from 'kysely';

/**
 * The column types of the generated tables (schema.generated.ts), one per PostgreSQL type that
 * the store's code sees the same on both engines (scripts/generate-store-types.mjs maps them).
 * Engines differ in three value types, and the store's row codecs (codec.ts) absorb them:
 * - a boolean is written as a boolean and read back as 0/1 (SQLite) or a boolean (PostgreSQL);
 * - a JSON column is written as JSON text and read back as text (SQLite) or a value (jsonb);
 * - a timestamp is an ISO-8601 string both ways (TEXT in SQLite, timestamptz in PostgreSQL,
 *   read back through a type parser that gives the same ISO string).
 */
export type Flag = ColumnType<boolean | number, boolean, boolean>;
export type JsonColumn = ColumnType<unknown, string, string>;
/** Integers that are large in PostgreSQL (bigint) come back as numbers: a type parser converts them. */
export type Int = number;
export type IsoTimestamp = string;
