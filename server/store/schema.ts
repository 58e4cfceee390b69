import { CamelCasePlugin } from 'kysely';

/**
 * The tables, one type per table, as both engines hold them (column names as in SQL): generated
 * from the PostgreSQL migrations into schema.generated.ts (scripts/generate-store-types.mjs), with
 * the column types of schema-columns.ts. The schema parity test keeps the SQLite migrations equal
 * to the PostgreSQL ones, so these types hold on both engines; every query of the store modules
 * is typed against them, so a renamed column fails to compile. Tables and columns are named in
 * camelCase in code (see columnNamesPlugin).
 */
export type { DB as Database } from './schema.generated.js';

/**
 * Columns are snake_case in SQL and camelCase in code: the plugin renames them in every query the
 * builder compiles and in every row it returns. Values are left as they are (JSON kept by the
 * columns, parsed by PostgreSQL, keeps its own keys).
 */
class ColumnNames extends CamelCasePlugin {
  constructor() {
    super({ maintainNestedObjectKeys: true });
  }

  /** A row read without the builder (prepared.ts runs compiled SQL directly), named as the builder's rows are. */
  row(row: Record<string, unknown>): Record<string, unknown> {
    return this.mapRow(row);
  }
}

export const columnNamesPlugin = (): CamelCasePlugin => new ColumnNames();

const rowNames = new ColumnNames();
export const camelCaseRow = (row: Record<string, unknown>): Record<string, unknown> => rowNames.row(row);
