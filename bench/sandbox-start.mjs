// The sandbox package as a team meets it: `node bench/sandbox-start.mjs` (bench/run.mjs runs it too)
// packs dist/sandbox-package, installs the tarball offline into an empty project (as
// test/tooling/sandbox-package.test.ts does) and reports the tarball's size, the install's time,
// and the time until a sandbox answers: started as a child process (startSandbox(), the package's
// way), and in the same process (server.mjs's start(), what the package chose not to do), cold (the
// first start of a process, which loads the 4 MB bundle) and warm (a later one). Then the time for
// three child sandboxes started at once. Progress goes to stderr, the figures as one JSON line to
// stdout. A benchmark: it reports, it never fails on a time.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageDir = join(root, 'dist', 'sandbox-package');
const NAME = '@payments-platform/sandbox';
const STARTS = Number(process.env.SANDBOX_STARTS ?? 5);
const log = (line) => process.stderr.write(`${line}\n`);
const npmEnv = {
  ...process.env,
  NODE_OPTIONS: '',
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
if (!existsSync(join(packageDir, 'package.json'))) throw new Error('run `npm run build` first (npm run bench does)');

/** The lockfile entries of `names` and what they depend on, where Node would find them (see the test). */
function lockClosure(names) {
  const { packages } = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const find = (from, name) => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
      const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[key]) return key;
      if (!base) return undefined;
    }
  };
  const out = {};
  const queue = names.map((name) => ['', name, false]);
  while (queue.length > 0) {
    const [from, name, optional] = queue.shift();
    const key = find(from, name);
    if (!key && optional) continue;
    if (!key) throw new Error(`${name} is not in package-lock.json`);
    if (out[key]) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = packages[key];
    out[key] = entry;
    for (const d of Object.keys(entry.dependencies ?? {})) queue.push([key, d, false]);
    for (const d of Object.keys(entry.optionalDependencies ?? {})) queue.push([key, d, true]);
    for (const d of Object.keys(entry.peerDependencies ?? {})) queue.push([key, d, entry.peerDependenciesMeta?.[d]?.optional === true]);
  }
  return out;
}

const since = (start) => performance.now() - start;
const work = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
try {
  const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: packageDir, env: npmEnv, encoding: 'utf8' });
  const [pack] = JSON.parse(packed.slice(packed.indexOf('[')));
  const tarballBytes = statSync(join(work, pack.filename)).size;
  log(
    `tarball ${pack.filename}: ${(tarballBytes / 1024).toFixed(0)} KiB packed, ${(pack.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${pack.files.length} files`,
  );

  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const dependency = `file:../${pack.filename}`;
  const { dependencies } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const closure = lockClosure(Object.keys(dependencies));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies: { [NAME]: dependency } }));
  writeFileSync(
    join(consumer, 'package-lock.json'),
    JSON.stringify({
      name: 'consumer',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { dependencies: { [NAME]: dependency } }, ...closure },
    }),
  );
  let started = performance.now();
  execFileSync('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: consumer, env: npmEnv, stdio: 'ignore' });
  const installMs = since(started);
  log(`offline install: ${installMs.toFixed(0)} ms, ${Object.keys(closure).length + 1} packages`);
  // What better-sqlite3's install script (skipped offline) would fetch: its addon for this Node.
  const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(dirname(join(consumer, addon)), { recursive: true });
  copyFileSync(join(root, addon), join(consumer, addon));

  const installed = join(consumer, 'node_modules', NAME);
  const { startSandbox } = await import(pathToFileURL(join(installed, 'index.mjs')).href);
  const child = [];
  for (let i = 0; i < STARTS; i++) {
    started = performance.now();
    const sandbox = await startSandbox();
    const response = await fetch(`${sandbox.managementUrl}/me`, { headers: { 'X-API-Key': sandbox.companyKey } });
    await response.arrayBuffer();
    child.push(since(started));
    await sandbox.stop();
  }
  log(`child process, first answer: ${child.map((t) => t.toFixed(0)).join(' ')} ms`);

  started = performance.now();
  const three = await Promise.all([0, 1, 2].map(() => startSandbox()));
  const threeMs = since(started);
  await Promise.all(three.map((s) => s.stop()));
  log(`three child processes at once, all ready: ${threeMs.toFixed(0)} ms`);

  // In this process: the bundle's start(), as the command calls it; the first start loads the bundle.
  const inProcess = [];
  for (let i = 0; i < STARTS; i++) {
    const dataDir = mkdtempSync(join(work, 'in-process-'));
    const env = { APP_MODE: 'sandbox', HOST: '127.0.0.1', PORT: '0', DATABASE_PATH: join(dataDir, 'payments.sqlite'), SQLITE_SYNCHRONOUS: 'NORMAL' };
    Object.assign(env, { UPLOAD_DIR: join(dataDir, 'uploads'), LOG_LEVEL: 'warn', DEMO_COMPANY_API_KEY: 'bench-company-key-0123456789' });
    started = performance.now();
    const { start } = await import(pathToFileURL(join(installed, 'server.mjs')).href);
    const server = await start({ env, logDestination: process.stderr });
    const response = await fetch(`${server.baseUrl}/management/v3/me`, { headers: { 'X-API-Key': env.DEMO_COMPANY_API_KEY } });
    await response.arrayBuffer();
    inProcess.push(since(started));
    await server.stop();
  }
  log(`in process, first answer: ${inProcess.map((t) => t.toFixed(0)).join(' ')} ms (the first loads the bundle)`);

  process.stdout.write(
    `${JSON.stringify({
      tarballBytes,
      unpackedBytes: pack.unpackedSize,
      files: pack.files.length,
      installMs,
      installedPackages: Object.keys(closure).length + 1,
      childReadyMs: median(child),
      childReadyAllMs: child,
      threeAtOnceMs: threeMs,
      inProcessColdMs: inProcess[0],
      inProcessWarmMs: median(inProcess.slice(1)),
      inProcessAllMs: inProcess,
    })}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
