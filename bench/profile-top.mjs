#!/usr/bin/env node
// The top frames of a `--cpu-prof` profile: `node bench/profile-top.mjs <file.cpuprofile[.gz]> [count] [frame…]`.
// Prints the share of samples per function by self time (where the time is spent), then the
// inclusive share (the function and all it calls) of the functions named after the count, and the
// self time per package or module (node_modules package, `node:` module, or folder of dist/).
import { samplesFrom, tally } from './profiles.mjs';

const [file, countArg = '25', ...named] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-top.mjs <file.cpuprofile> [count] [function name…]');
// PROFILE_FROM (seconds, 0 by default): leave out the samples before it (the server's start and the warm-up).
const { samples, all, seconds } = samplesFrom(file, 0);
const { self, inclusive, byOrigin } = tally(samples);
const total = samples.length;
const pct = (n) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
const out = [`${total} samples (of ${all}; ${seconds.toFixed(1)} s)`, 'self:'];
for (const [l, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(countArg))) out.push(`${pct(n)}  ${l}`);
out.push('self, by package or module:');
for (const [o, n] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, Number(countArg))) out.push(`${pct(n)}  ${o}`);
if (named.length) {
  out.push('inclusive:');
  for (const name of named)
    for (const [l, n] of [...inclusive].filter(([l]) => l.startsWith(`${name} `) || l === name).sort((a, b) => b[1] - a[1])) out.push(`${pct(n)}  ${l}`);
}
process.stdout.write(`${out.join('\n')}\n`);
