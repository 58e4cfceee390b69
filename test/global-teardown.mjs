// Stops the PostgreSQL server the global setup started (if it started one).
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const embedded = globalThis.__embeddedPostgres;
  if (!embedded) return;
  await embedded.postgres.stop();
  rmSync(embedded.databaseDir, { recursive: true, force: true });
}
