import { readdirSync } from 'node:fs';
import { readProfile } from './profiles.mjs';
const dir = process.argv[2];
const callers = new Map(); const add = (k, v) => callers.set(k, (callers.get(k) ?? 0) + v);
let total = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const { samples, seconds } = readProfile(`${dir}/${f}`);
  const iv = seconds / samples.length;
  for (const s of samples) {
    total += iv;
    const top = s.stack[0].callFrame.url;
    if (!/ajv|json-schema-traverse|express-openapi-validator|clonedeep|json-schema-ref-parser|fast-uri/.test(top)) continue;
    // first frame from our code or jest
    const ours = s.stack.find((n) => /\/work\/main\/(server|test)\//.test(n.callFrame.url));
    const eov = [...s.stack].reverse().find((n) => /express-openapi-validator/.test(n.callFrame.url));
    add(`${ours ? ours.callFrame.functionName + ' ' + ours.callFrame.url.replace(/.*\/work\/main\//, '') + ':' + ours.callFrame.lineNumber : '-'} <- eov:${eov ? eov.callFrame.functionName + ' ' + eov.callFrame.url.replace(/.*express-openapi-validator\/dist\//, '') : '-'}`, iv);
  }
}
console.log('total', total.toFixed(1));
for (const [k, v] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(1).padStart(6), k);
