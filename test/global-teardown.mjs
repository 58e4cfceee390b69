// Stops the PostgreSQL server the global setup started (if it started one), removes the run's
// temporary files if they were in memory, or on a server the run was given (DATABASE_URL) drops the
// run's template database. Only what this process's global setup made: a jest run without it
// (scripts/contract.mjs) inherits the names and must leave them.
import { rmSync } from 'node:fs';
import pg from 'pg';

export default async function globalTeardown() {
  const embedded = globalThis.__embeddedPostgres;
  if (embedded) {
    await embedded.postgres.stop();
    rmSync(embedded.databaseDir, { recursive: true, force: true });
  }
  // The temporary files of the run, when they were in memory (global-setup.mjs).
  if (globalThis.__scratchDir) rmSync(globalThis.__scratchDir, { recursive: true, force: true });
  const template = globalThis.__templateOnGivenServer;
  if (!template) return;
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
  await client.connect();
  try {
    await client.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE false`).catch(() => undefined);
    await client.query(`DROP DATABASE IF EXISTS ${template}`);
  } finally {
    await client.end();
  }
}
