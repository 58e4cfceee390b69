// Cold start of built checkouts, compared in interleaved rounds: `node bench/cold-start.mjs <dir…>`
// (default: this checkout). Each start is the built server (<dir>/dist/server.mjs) on a new, empty
// SQLite file, timed from spawn to the first successful GET /management/v3/me, as bench/run.mjs
// times its one cold start. A round starts each checkout COLD_PER_ROUND times (3) in turn, so a
// machine that slows down mid-run slows every checkout alike; COLD_ROUNDS (5) rounds, then the
// median of each checkout's starts. COLD_PIN=1 runs the server on core 0 as bench/run.mjs does.
// Beside the wall time it reports the server's CPU time (user + system) up to the first answer:
// on a machine other processes load, that figure moves far less than the wall time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, KEY, median, serverEnv, waitUntil } from './helpers.mjs';

const dirs = (process.argv.length > 2 ? process.argv.slice(2) : ['.']).map((d) => resolve(d));
const ROUNDS = Number(process.env.COLD_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.COLD_PER_ROUND ?? 3);
const PIN = process.env.COLD_PIN === '1';
for (const dir of dirs) if (!existsSync(join(dir, 'dist', 'server.mjs'))) throw new Error(`${dir}/dist/server.mjs is missing: npm run build there first`);

async function coldStart(dir) {
  const work = mkdtempSync(join(tmpdir(), 'cold-start-'));
  const port = await freePort();
  const args = [join(dir, 'dist', 'server.mjs')];
  const started = performance.now();
  const child = PIN ? spawn('taskset', ['-c', '0', process.execPath, ...args], options()) : spawn(process.execPath, args, options());
  function options() {
    return { cwd: dir, env: { ...process.env, NODE_OPTIONS: '', ...serverEnv(port, join(work, 'cold.sqlite')) }, stdio: 'ignore' };
  }
  try {
    await waitUntil(`http://127.0.0.1:${port}/management/v3/me`, { 'X-API-Key': KEY }, 30_000);
    const wall = performance.now() - started;
    return { wall, cpu: cpuMs(child.pid) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(work, { recursive: true, force: true });
  }
}

/** The CPU time (user + system, ms) a process has used so far (taskset execs node: the same process). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

const spread = (values) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
const times = new Map(dirs.map((d) => [d, []]));
for (let round = 1; round <= ROUNDS; round++) {
  const line = [];
  for (const dir of dirs) {
    const these = [];
    for (let i = 0; i < PER_ROUND; i++) these.push(await coldStart(dir));
    times.get(dir).push(...these);
    line.push(`${dir}: ${these.map((t) => `${t.wall.toFixed(0)}/${t.cpu.toFixed(0)}`).join(' ')}`);
  }
  process.stderr.write(`round ${round} (wall/CPU ms)  ${line.join('  |  ')}\n`);
}
for (const dir of dirs) {
  const wall = times.get(dir).map((t) => t.wall);
  const cpu = times.get(dir).map((t) => t.cpu);
  console.log(
    `${dir}\tmedian ${median(wall).toFixed(0)} ms (${spread(wall)}), server CPU ${median(cpu).toFixed(0)} ms (${spread(cpu)}) over ${wall.length} starts`,
  );
}
