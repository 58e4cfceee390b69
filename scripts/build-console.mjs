// Bundles the sandbox console's browser UI (console/src, Preact) into dist/console/: main.js and
// console.css under fixed names, plus manifest.json with a hash of each, which the server puts in
// the asset addresses (`?v=`) so a new build is fetched at once while unchanged assets revalidate.
// Run by `npm run build`; alone: `node scripts/build-console.mjs`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'console');
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(root, 'console', 'src', 'main.tsx')],
  outfile: join(out, 'main.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: join(root, 'console', 'tsconfig.json'),
  legalComments: 'none',
  logLevel: 'warning',
});
// The stylesheet is a file of its own (the pages' CSP allows no inline style), copied as written.
writeFileSync(join(out, 'console.css'), readFileSync(join(root, 'console', 'src', 'console.css')));

const hash = (file) =>
  createHash('sha256')
    .update(readFileSync(join(out, file)))
    .digest('hex')
    .slice(0, 12);
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify({ 'main.js': hash('main.js'), 'console.css': hash('console.css') }, null, 2)}\n`);
