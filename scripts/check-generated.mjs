#!/usr/bin/env node
// Fails when generated/ differs from what `npm run generate` would write now, or the store's table
// types (server/store/schema.generated.ts) from what `npm run generate:store-types` would write.
// It regenerates into a temporary folder (and into memory) and compares, so it never touches the work tree.
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';
import { STORE_TYPES_FILE, storeTypesSource } from './generate-store-types.mjs';

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
  const storeTypes = await storeTypesSource();
  if (!existsSync(STORE_TYPES_FILE) || readFileSync(STORE_TYPES_FILE, 'utf8') !== storeTypes) {
    console.error('server/store/schema.generated.ts is stale. Run `npm run generate:store-types` and commit the result.');
    process.exit(1);
  }
  console.log('server/store/schema.generated.ts matches the migrations.');
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
