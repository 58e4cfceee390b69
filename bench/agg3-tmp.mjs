import { readdirSync } from 'node:fs';
import { readProfile } from './profiles.mjs';
const dir = process.argv[2];
const m = new Map(); const add = (k, v) => m.set(k, (m.get(k) ?? 0) + v);
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const { samples, seconds } = readProfile(`${dir}/${f}`);
  const iv = seconds / samples.length;
  for (const s of samples) {
    const top = s.stack[0].callFrame.url;
    if (!/ajv|json-schema-traverse|express-openapi-validator|clonedeep|json-schema-ref-parser|fast-uri/.test(top)) continue;
    const chain = [...s.stack].reverse().filter((n) => /express-openapi-validator\/dist\/(framework|middlewares|openapi)/.test(n.callFrame.url) || /ajv\/dist\/(core|compile\/index)/.test(n.callFrame.url)).map((n) => `${n.callFrame.functionName || '?'}@${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber}`);
    add(chain.slice(0, 6).join(' > '), iv);
  }
}
for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(v.toFixed(1).padStart(6), k);
