// Reading `--cpu-prof` profiles for bench/profile-top.mjs and bench/profile-diff.mjs.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * A profile (the ones kept in bench/results/ are gzipped) as its samples: for each, the time since
 * the profile started (µs) and its stack from the sampled frame out to the root.
 */
export function readProfile(file) {
  const raw = readFileSync(file);
  const profile = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map();
  const stackOf = (id) => {
    let stack = stacks.get(id);
    if (!stack) {
      stack = [];
      for (let at = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at));
      stacks.set(id, stack);
    }
    return stack;
  };
  let at = 0;
  const samples = profile.samples.map((id, i) => ({ at: (at += profile.timeDeltas?.[i] ?? 0), stack: stackOf(id) }));
  return { samples, seconds: (profile.endTime - profile.startTime) / 1e6 };
}

/**
 * The samples of a profile from PROFILE_FROM seconds on (`defaultSeconds` when it is not set): the
 * server's start and warm-up can be left out. `all` counts every sample, `from` is in seconds.
 */
export function samplesFrom(file, defaultSeconds) {
  const from = Number(process.env.PROFILE_FROM ?? defaultSeconds);
  const { samples: all, seconds } = readProfile(file);
  return { samples: all.filter((s) => s.at >= from * 1e6), all: all.length, seconds, from };
}

const labels = new WeakMap();
/** A frame as `function file:line` (made once per frame: every sample's stack asks again). */
export function label(node) {
  let text = labels.get(node);
  if (text === undefined) {
    const f = node.callFrame;
    const where = f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : '';
    labels.set(node, (text = `${f.functionName || '(anonymous)'} ${where}`.trim()));
  }
  return text;
}

/** Where a frame's code comes from: which dependency, which of Node's modules, or which of our folders. */
export function origin(node) {
  const { url, functionName } = node.callFrame;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return url ? url.replace(/^.*\/dist\//, 'dist/').replace(/\/[^/]*$/, '') : functionName;
}

/**
 * Samples per function, by self time, by inclusive time (each function counted once per sample
 * however deep it recurses) and by origin of the sampled frame.
 */
export function tally(samples) {
  const self = new Map();
  const inclusive = new Map();
  const byOrigin = new Map();
  const add = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const { stack } of samples) {
    add(self, label(stack[0]));
    add(byOrigin, origin(stack[0]));
    for (const l of new Set(stack.map(label))) add(inclusive, l);
  }
  return { self, inclusive, byOrigin };
}
