import { describe, expect, test } from '@jest/globals';
import { PostgresDialect } from 'kysely';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

// server/store/engines/postgres-driver.ts is the store's own Kysely driver on node-postgres: named
// statements and pipelining (pg's public options), the socket corked for a turn of the event loop
// (pg's internal `client.connection.stream`) and Kysely's PostgreSQL dialect with that driver in
// place of its own. docs/performance.md ("Replaced internals of dependencies") says what each is
// worth. Where a new pg or Kysely moves what the driver relies on, the store would fall back to
// slower paths (or stop) without saying so: this test says so, naming the installed versions.
/** The version of a package as installed (node_modules/<name>/package.json; the suite loads some packages bundled, scripts/test-vendor.mjs). */
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(process.cwd(), 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
const installed = `pg ${versionOf('pg')}, kysely ${versionOf('kysely')}`;

function expectInPlace(missing: string[]): void {
  if (missing.length === 0) return;
  throw new Error(
    `${installed} no longer have what server/store/engines/postgres-driver.ts relies on (written against pg 8.23.1, kysely 0.28.19): ` +
      `${missing.join('; ')}. Adapt the driver to these versions or drop what it replaces, and measure again ` +
      '(docs/performance.md, "Replaced internals of dependencies").',
  );
}

describe('What the PostgreSQL driver relies on in node-postgres and Kysely', () => {
  test('When a client is created with pipeline: true, then it pipelines and its socket can be corked', () => {
    const client = new pg.Client({ pipeline: true });
    const missing: string[] = [];
    if ((client as unknown as { pipeline?: unknown }).pipeline !== true) missing.push("pg.Client ignores the 'pipeline' option");
    const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } }).connection?.stream;
    if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') missing.push('client.connection.stream has no cork() and uncork()');
    expectInPlace(missing);
    expect(missing).toEqual([]);
  });

  test('When the dialect is subclassed, then its driver is the one createDriver returns', () => {
    expectInPlace(typeof PostgresDialect.prototype.createDriver === 'function' ? [] : ['PostgresDialect has no createDriver() to override']);
  });
});
