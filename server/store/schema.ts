/**
 * The tables, one type per table, as both engines hold them (column names as in SQL): generated
 * from the PostgreSQL migrations into schema.generated.ts (scripts/generate-store-types.mjs), with
 * the column types of schema-columns.ts. The schema parity test keeps the SQLite migrations equal
 * to the PostgreSQL ones, so these types hold on both engines; every query of the store modules
 * is typed against them, so a renamed column fails to compile.
 */
export type { DB as Database } from './schema.generated.js';
