#!/usr/bin/env node
// `npm test`: the checks (`npm run lint`, the type check, check:generated and spec:diff) and the
// suite on SQLite and on PostgreSQL (npm run test:sqlite and test:pg), all run to the end even
// when one fails. dist/ is built first, then the SQLite run, then the PostgreSQL run, each with two
// jest workers. The suite is bound by the two cores' CPU, yet leaves about an eighth of it idle
// (tests waiting on timers, child processes and the browser): the checks run beside it at the
// lowest CPU priority (see IDLE), in that idle time, instead of a minute before it. Running both
// engines' runs at once (TEST_CONCURRENT=1) saved little and, on a busy machine, made timing-bound
// tests (shutdown, two instances, the contract command) fail. Each command's output is shown as it
// comes, its lines prefixed with its name; at the end the checks' outcome, each run's counts, the
// ten slowest files of both and, on its own last line, `N passed, N failed` over both runs (a
// file that failed without a failing test, a run that did not finish, or a failed check counts as
// one failed). Exits 1 if anything failed.
//
//   npm test -- <jest arguments>     passed to both runs (a path, -t <name>, …)
//   TEST_CONCURRENT=1 npm test       both runs at the same time
//   TEST_WORKERS=<n> npm test        jest workers per run (default 2)
//   SKIP_BUILD=1 npm test            reuse dist/
//   SKIP_CHECKS=1 npm test           the tests only
//
// `node scripts/test.mjs --checks` (`npm run checks`) runs the checks alone, in two lanes of about
// the same length; exits 1 if any failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

// A signal goes on to the commands running (a terminal's Ctrl-C reaches them anyway, CI's
// SIGTERM may not); a second one ends this process at once.
const children = new Set();
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    if (stopping) process.exit(130);
    stopping = true;
    for (const child of children) child.kill(signal);
  });

// How a command is started so that it gets the CPU only when nothing else wants it: Linux's idle
// scheduling class (`chrt -i 0`: a waking test process takes the core from it at once), else
// `nice -n 19` (macOS). With the checks under nice 19 the SQLite run took 311 s against 284 alone;
// under the idle class 282.
const IDLE = [
  ['chrt', '-i', '0'],
  ['nice', '-n', '19'],
].find((prefix) => spawnSync(prefix[0], [...prefix.slice(1), 'true']).status === 0);

/** `npm run -s <script> [-- args]`, its output lines prefixed; resolves with its exit code (128 + n for a signal). */
function npmRun(script, { prefix = '', args = [], env = process.env, idle = false } = {}) {
  const command = ['npm', 'run', '-s', script, ...(args.length ? ['--', ...args] : [])];
  if (idle && IDLE) command.unshift(...IDLE);
  const child = spawn(command[0], command.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ])
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix}${line}\n`));
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve(code ?? 128);
      if (signal) console.error(`${prefix}npm run ${script}: ended by ${signal}`);
    }),
  );
}

/** Runs the scripts one after another, each whatever the one before did; resolves with the names of those that failed. */
async function lane(scripts, idle) {
  const failed = [];
  for (const script of scripts) if (!stopping && (await npmRun(script, { prefix: `[${script}] `, idle })) !== 0) failed.push(script);
  return failed;
}

/**
 * The checks in two lanes for two cores: ESLint (type-aware, half of all this work) beside the
 * rest of `npm run lint`, the type check and the generated-file and spec gates. Resolves with the
 * names of those that failed and the time taken.
 */
async function checks({ idle = false } = {}) {
  const begun = Date.now();
  const LINT = ['spec:lint', 'lint:conventions', 'lint:format', 'lint:layers', 'lint:clones', 'lint:vocabulary'];
  const failed = (await Promise.all([lane(['lint:code'], idle), lane([...LINT, 'typecheck', 'check:generated', 'spec:diff'], idle)])).flat();
  return { failed, ms: Date.now() - begun };
}

if (process.argv[2] === '--checks') {
  const { failed } = await checks();
  if (failed.length > 0) console.error(`checks: ${failed.join(' and ')} failed`);
  process.exit(failed.length > 0 ? 1 : 0);
}

const checking = process.env.SKIP_CHECKS === '1' ? undefined : checks({ idle: true });

const args = process.argv.slice(2);
if (process.env.SKIP_BUILD !== '1' && (await npmRun('build', { prefix: '[build] ' })) !== 0) {
  console.error('npm test: the build failed; the tests do not run');
  const checked = await checking;
  console.log(`0 passed, ${1 + (checked?.failed.length ?? 0)} failed`);
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'npm-test-'));
const halves = [
  { engine: 'sqlite', script: 'test:sqlite' },
  { engine: 'postgres', script: 'test:pg' },
];
const sequential = process.env.TEST_CONCURRENT !== '1';
const width = Math.max(...halves.map((h) => h.engine.length));

/** One engine's jest run: its exit code, its summary (scripts/jest-slowest-files.mjs writes it at the end) and its time. */
async function run(half) {
  if (stopping) return { ...half, code: 130, summary: undefined, ms: 0 };
  const summaryFile = join(scratch, `${half.engine}.json`);
  const begun = Date.now();
  const code = await npmRun(half.script, {
    prefix: `[${half.engine}]`.padEnd(width + 3),
    args,
    env: { TEST_WORKERS: '2', ...process.env, SKIP_BUILD: '1', TEST_SUMMARY_FILE: summaryFile },
  });
  let summary;
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
  } catch {
    summary = undefined; // jest stopped before the end: its global setup failed, it crashed or was killed
  }
  return { ...half, code, summary, ms: Date.now() - begun };
}

const results = [];
if (sequential) for (const half of halves) results.push(await run(half));
else results.push(...(await Promise.all(halves.map(run))));
rmSync(scratch, { recursive: true, force: true });

// The checks usually end during the PostgreSQL run; otherwise they are waited for here.
const checked = await checking;

let passed = 0;
let failed = 0;
const lines = [];
if (checked) {
  const name = 'checks:'.padEnd(width + 2);
  lines.push(`${name}${checked.failed.length === 0 ? 'PASS' : `FAIL  ${checked.failed.join(', ')} failed (see its output above)`} in ${seconds(checked.ms)}`);
  failed += checked.failed.length;
}
for (const r of results) {
  const name = `${r.engine}:`.padEnd(width + 2);
  if (!r.summary) {
    failed += 1;
    lines.push(`${name}did not finish (exit ${r.code}) after ${seconds(r.ms)}: see its output above`);
    continue;
  }
  const s = r.summary;
  passed += s.passed;
  failed += s.failed + s.brokenFiles;
  const broken = s.brokenFiles ? `, ${s.brokenFiles} files failed to run` : '';
  lines.push(
    `${name}${r.code === 0 ? 'PASS' : 'FAIL'}  ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${broken} (${s.files.length} file${s.files.length === 1 ? '' : 's'}) in ${seconds(r.ms)}`,
  );
}
const failedRun = results.some((r) => r.code !== 0) || (checked?.failed.length ?? 0) > 0;
// A run that failed without a failed test (jest's exit code for, e.g., a file it could not run) fails the whole.
if (failedRun && failed === 0) failed = 1;

const slowest = results
  .flatMap((r) => (r.summary?.files ?? []).map((f) => ({ ...f, engine: r.engine })))
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, 10);
console.log('');
if (slowest.length > 0) {
  console.log('Slowest test files of both runs:');
  for (const f of slowest) console.log(`  ${f.seconds.toFixed(1).padStart(6)} s  ${f.engine.padEnd(width)}  ${f.path}${f.failed ? '  (failed)' : ''}`);
  console.log('');
}
for (const line of lines) console.log(line);
console.log(`npm test: ${failedRun ? 'FAIL' : 'PASS'} in ${seconds(Date.now() - started)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failedRun ? 1 : 0;
