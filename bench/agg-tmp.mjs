import { readdirSync } from 'node:fs';
import { readProfile, label, origin } from './profiles.mjs';
const dir = process.argv[2];
const kinds = new Map();
const incl = new Map(); const byOrigin = new Map();
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
const WATCH = ['loadEsmModule', 'linkAndEvaluateModule', 'requireModuleOrMock', '_execModule', 'transformFile', 'transformSource', 'validate', 'compile', 'createApp', 'compose', 'startServer', 'runMigrations', 'migrate', 'openStore', 'listen', 'fetch', 'dump', 'expectUnchanged', 'middleware', 'processTicksAndRejections', 'loadSpec', 'test', 'spawnServer', 'build', 'prepareStackTrace', 'GC'];
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const { samples, seconds } = readProfile(`${dir}/${f}`);
  const urls = new Set(); let busy = 0;
  for (const s of samples) { if (s.stack[0].callFrame.functionName === '(idle)') continue; busy++; }
  const interval = samples.length ? (seconds / samples.length) : 0;
  for (const s of samples.slice(0, 20000)) for (const n of s.stack) if (n.callFrame.url) urls.add(n.callFrame.url);
  const u = [...urls].join(' ');
  const kind = u.includes('jest-runner') || u.includes('jest-circus') ? 'jest-worker' : u.includes('prism') ? 'prism' : u.includes('dist/server.mjs') ? 'server.mjs' : u.includes('jest-cli') || u.includes('@jest/core') ? 'jest-main' : u.includes('/scripts/') ? 'script' : u.includes('playwright') ? 'playwright' : u.includes('npm') ? 'npm' : 'other';
  const k = kinds.get(kind) ?? { n: 0, cpu: 0 }; k.n++; k.cpu += busy * interval; kinds.set(kind, k);
  if (kind !== 'jest-worker') continue;
  for (const s of samples) {
    if (s.stack[0].callFrame.functionName === '(idle)') continue;
    add(byOrigin, origin(s.stack[0]), interval);
    const seen = new Set();
    for (const n of s.stack) { const name = n.callFrame.functionName; if (!seen.has(name)) { seen.add(name); add(incl, name, interval); } }
  }
}
console.log('process kinds (count, cpu s):'); for (const [k, v] of kinds) console.log(' ', k, v.n, v.cpu.toFixed(0));
console.log('jest worker self by origin:'); for (const [k, v] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(' ', v.toFixed(1).padStart(7), k);
console.log('jest worker inclusive:'); for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 70)) console.log(' ', v.toFixed(1).padStart(7), k);
