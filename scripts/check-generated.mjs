#!/usr/bin/env node
// Fails when generated/ differs from what `npm run generate` would write now.
// It regenerates into a temporary folder and compares, so it never touches the work tree.
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const committed = join(root, 'generated');
const fresh = mkdtempSync(join(tmpdir(), 'generated-'));
try {
  await generate(fresh);
  const names = new Set([...readdirSync(fresh), ...(existsSync(committed) ? readdirSync(committed) : [])]);
  const stale = [...names].filter((name) => {
    const a = join(fresh, name);
    const b = join(committed, name);
    return !existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b));
  });
  if (stale.length > 0) {
    console.error(`generated/ is stale: ${stale.join(', ')}. Run \`npm run generate\` and commit the result.`);
    process.exit(1);
  }
  console.log('generated/ matches spec/.');
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
