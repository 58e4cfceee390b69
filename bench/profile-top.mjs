#!/usr/bin/env node
// The top frames of a `--cpu-prof` profile: `node bench/profile-top.mjs <file.cpuprofile[.gz]> [count] [frame…]`.
// Prints the share of samples per function by self time (where the time is spent), then the
// inclusive share (the function and all it calls) of the functions named after the count, and the
// self time per package or module (node_modules package, `node:` module, or folder of dist/).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';

const [file, countArg = '25', ...named] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-top.mjs <file.cpuprofile> [count] [function name…]');
// The profiles kept in bench/results/ are gzipped.
const raw = readFileSync(file);
const profile = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};
// Where a frame's code comes from: which dependency, which of Node's modules, or which of our folders.
const origin = (n) => {
  const { url, functionName } = n.callFrame;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return url ? url.replace(/^.*\/dist\//, 'dist/').replace(/\/[^/]*$/, '') : functionName;
};
const self = new Map();
const byOrigin = new Map();
const inclusive = new Map();
for (const id of profile.samples) {
  const n = nodes.get(id);
  self.set(label(n), (self.get(label(n)) ?? 0) + 1);
  byOrigin.set(origin(n), (byOrigin.get(origin(n)) ?? 0) + 1);
  // Each function counted once per sample however deep it recurses.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const l = label(nodes.get(at));
    if (!seen.has(l)) (inclusive.set(l, (inclusive.get(l) ?? 0) + 1), seen.add(l));
  }
}
const total = profile.samples.length;
const pct = (n) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
const out = [`${total} samples (${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s)`, 'self:'];
for (const [l, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(countArg))) out.push(`${pct(n)}  ${l}`);
out.push('self, by package or module:');
for (const [o, n] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, Number(countArg))) out.push(`${pct(n)}  ${o}`);
if (named.length) {
  out.push('inclusive:');
  for (const name of named)
    for (const [l, n] of [...inclusive].filter(([l]) => l.startsWith(`${name} `) || l === name).sort((a, b) => b[1] - a[1])) out.push(`${pct(n)}  ${l}`);
}
process.stdout.write(`${out.join('\n')}\n`);
