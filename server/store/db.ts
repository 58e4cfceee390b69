import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

/**
 * What a store module is built on: a query builder bound to the transaction's connection and
 * the engine it speaks to. Modules write every query once; the few places where the engines
 * differ (row locks, sequences) ask `engine`.
 */
export interface Db {
  q: Kysely<Database>;
  engine: Engine;
  /** The keyed hash API keys are stored and looked up under (see kernel/auth/credentials.ts). */
  hashApiKey: (apiKey: string) => string;
  /**
   * Runs compiled SQL on the same connection without the builder's executor, where the engine can
   * do so synchronously (SQLite); prepared.ts uses it for the queries every request runs.
   */
  direct?: (sql: string, parameters: readonly unknown[]) => unknown[];
  /**
   * Sends compiled SQL to the connection at once, without the builder's executor (which runs one
   * query at a time), where the engine pipelines (PostgreSQL): statements asked for together share
   * a round trip. prepared.ts uses it.
   */
  send?: (sql: string, parameters: readonly unknown[]) => Promise<unknown[]>;
}

/**
 * Reads rows to change them. PostgreSQL locks them (SELECT … FOR UPDATE) until the transaction
 * ends, so a concurrent writer on another connection or instance waits and then sees the change;
 * SQLite has one writer at a time (BEGIN IMMEDIATE), so the read is already exclusive.
 */
export function forUpdate<DB, TB extends keyof DB, O>(db: Db, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return db.engine === 'postgres' ? query.forUpdate() : query;
}
