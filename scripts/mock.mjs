#!/usr/bin/env node
// `npm run mock`: Prism serves both bundled specs as contract mocks.
//   checkout   http://127.0.0.1:4010  (MOCK_CHECKOUT_PORT)
//   management http://127.0.0.1:4020  (MOCK_MANAGEMENT_PORT)
// Paths are served without the /checkout/v71 and /management/v3 prefixes. Send
// `Prefer: example=<scenario>` (or `code=<status>`) to pick a spec example.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const prism = join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const host = process.env.MOCK_HOST ?? '127.0.0.1';
const mocks = [
  ['checkout', process.env.MOCK_CHECKOUT_PORT ?? '4010'],
  ['management', process.env.MOCK_MANAGEMENT_PORT ?? '4020'],
];

const children = mocks.map(([area, port]) => {
  const child = spawn(process.execPath, [prism, 'mock', '-h', host, '-p', port, join(root, 'generated', `${area}.yaml`)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${area}] `;
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix)));
  }
  child.on('exit', (code) => {
    console.error(`${prefix}mock exited with ${code}`);
    process.exitCode = code ?? 1;
    for (const other of children) other.kill('SIGTERM');
  });
  console.log(`${prefix}http://${host}:${port}`);
  return child;
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGTERM');
  });
}
