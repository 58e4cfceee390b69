#!/usr/bin/env node
// What each scenario's own work costs, measured by taking it away: `node bench/ablation.mjs`.
// Builds two copies of the last commit in a temporary folder: `full`, as committed, and `frame`,
// with bench/ablation/frame.patch applied: the scenarios' operations (authorise, capture, list)
// answer the reference's fixed JSON once the request is authenticated, its scope checked and its
// body validated, doing none of their own work (no idempotency claim, no statement, no commit,
// no event), and `write`, with bench/ablation/write.patch: as `frame`, but a POST first writes one
// row through the store and waits until it is durable (the least an acknowledged payment or
// capture must do). Then bench/ab.mjs measures `reference` (Express 5 + validator answering the
// same JSON), `frame`, `write` and `full` in interleaved rounds on SQLite and this prints, per
// scenario (a replay: the authorise request sent again with the same key), the server's CPU time
// per request of each, the operation's own work (full − frame),
// the cost of one durable write (write − frame) and what a target ratio leaves for the operation
// (reference ÷ target − frame): where even one durable write costs more than that budget, the
// target cannot be met by any operation that stores what it acknowledges. Where `write` itself
// reaches the target (write / reference), what stands between is the rest of the operation's own
// work: bench/profile-diff.mjs on AB_CPU_PROF's profiles of `write` and `full` says where it goes.
//   AB_ROUNDS (5), AB_SECONDS, AB_WARMUP as bench/ab.mjs; AB_CPU_PROF: profiles of the last round.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = { authorise: 0.8, capture: 0.8, list: 0.9, replay: 0.9 };
const work = mkdtempSync(join(tmpdir(), 'ablation-'));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });

try {
  const builds = {};
  for (const name of ['full', 'frame', 'write']) {
    const dir = join(work, name);
    mkdirSync(dir);
    execFileSync('sh', ['-c', `git archive HEAD | tar -x -C '${dir}'`], { cwd: root });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    if (name !== 'full') run('git', ['apply', join(root, 'bench', 'ablation', `${name}.patch`)], dir);
    process.stderr.write(`building ${name}…\n`);
    run(process.execPath, [join(dir, 'scripts', 'build.mjs')], dir);
    builds[name] = dir;
  }
  const out = run(process.execPath, [join(root, 'bench', 'ab.mjs'), 'reference', builds.frame, builds.write, builds.full], root).toString();
  process.stdout.write(out);
  const file = out.match(/All figures: (.*)/)[1].trim();
  const { results } = JSON.parse(readFileSync(file, 'utf8'));
  const cpu = (build, scenario) => median(results[build][scenario].map((m) => m.cpuMsPerRequest * 1000));
  const rps = (build, scenario) => median(results[build][scenario].map((m) => m.rps));
  const lines = [
    '',
    'Server CPU µs per request (median). Own work: full − frame; one durable write: write − frame; budget: what the target leaves the operation (reference ÷ target − frame).',
    '| scenario | reference | frame | write | full | own work | one durable write | budget at target | write / reference, req/s | full / reference, req/s |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  // AB_SCENARIOS may have measured only some of them.
  for (const [scenario, target] of Object.entries(TARGETS).filter(([scenario]) => results.reference[scenario])) {
    const [r, f, w, c] = [cpu('reference', scenario), cpu(builds.frame, scenario), cpu(builds.write, scenario), cpu(builds.full, scenario)];
    // A replay sends the authorise scenario's request again, which `frame` and `write` answer as they
    // answer authorise: its frame is that request's frame, and a replay writes nothing of its own.
    const writes = { list: '(none: a read)', replay: '(none: the stored answer is read)' }[scenario] ?? (w - f).toFixed(0);
    lines.push(
      `| ${scenario} | ${r.toFixed(0)} | ${f.toFixed(0)} | ${w.toFixed(0)} | ${c.toFixed(0)} | ${(c - f).toFixed(0)} | ${writes} | ${(r / target - f).toFixed(0)} (≥ ${target} ×) | ${(rps(builds.write, scenario) / rps('reference', scenario)).toFixed(2)} | ${(rps(builds.full, scenario) / rps('reference', scenario)).toFixed(2)} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
