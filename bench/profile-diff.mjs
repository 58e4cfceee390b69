#!/usr/bin/env node
// What one build does that another does not, per function, in µs per request:
// `node bench/profile-diff.mjs <A.cpuprofile[.gz]> <A µs/request> <B.cpuprofile[.gz]> <B µs/request> [count]`.
// Each profile's busy samples (all but idle) after PROFILE_FROM seconds (3: the server's start and
// most of the warm-up left out) are spread over the server CPU time per request that bench/ab.mjs
// printed for the profiled round: a function's share of the busy samples × that figure. Printed
// per function by self time (largest B − A first), then per package or module, each with A, B and
// B − A. Meant for two builds measured by the same ab.mjs round (AB_CPU_PROF), e.g. the ablation's
// `write` and `full`: B − A is what the operation does beyond one durable write, by function.
// Shares are sampling estimates (a sample every ~1 ms); rows under a few µs are noise.
import { samplesFrom, tally } from './profiles.mjs';

const [fileA, cpuA, fileB, cpuB, countArg = '40'] = process.argv.slice(2);
if (!fileB || !Number(cpuA) || !Number(cpuB)) {
  throw new Error('usage: node bench/profile-diff.mjs <A.cpuprofile> <A µs/request> <B.cpuprofile> <B µs/request> [count]');
}
/** µs per request per key of each tally: busy samples only, so the process's idle time is not spread over functions. */
function perRequest(file, cpu) {
  const { samples, from } = samplesFrom(file, 3);
  const busy = samples.filter((s) => s.stack[0].callFrame.functionName !== '(idle)');
  const { self, byOrigin } = tally(busy);
  const scale = (map) => new Map([...map].map(([key, n]) => [key, (n / busy.length) * cpu]));
  return { self: scale(self), byOrigin: scale(byOrigin), samples: busy.length, from };
}

const a = perRequest(fileA, Number(cpuA));
const b = perRequest(fileB, Number(cpuB));
const table = (title, ma, mb) => {
  const rows = [...new Set([...ma.keys(), ...mb.keys()])].map((key) => [key, ma.get(key) ?? 0, mb.get(key) ?? 0]);
  rows.sort((x, y) => y[2] - y[1] - (x[2] - x[1]));
  const num = (v) => v.toFixed(0).padStart(6);
  return [title, '     A      B  B − A', ...rows.slice(0, Number(countArg)).map(([key, va, vb]) => `${num(va)} ${num(vb)} ${num(vb - va)}  ${key}`)];
};
const out = [
  `A: ${fileA}, ${a.samples} busy samples, ${cpuA} µs/request; B: ${fileB}, ${b.samples} busy samples, ${cpuB} µs/request (after ${a.from} s)`,
  ...table('self, µs per request:', a.self, b.self),
  ...table('self by package or module, µs per request:', a.byOrigin, b.byOrigin),
];
process.stdout.write(`${out.join('\n')}\n`);
