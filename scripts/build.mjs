// `npm run build`: dist/ from the sources. The server, client and lib TypeScript files become
// JavaScript one for one (dist/server/main.js, …, with source maps; the benchmarks load some of
// them), the JSON files they import are copied beside them, then the console's bundle
// (scripts/build-console.mjs) and the server's (scripts/bundle.mjs: dist/server.mjs, which
// `npm start` runs, and the sandbox package).
//
// esbuild only strips the types: it takes 0.3 s where tsc took 8 (and 3.8 s with nothing
// changed, on every `npm start`). The types are checked by `npm run typecheck` (part of
// `npm test`); tsconfig.json's isolatedModules and verbatimModuleSyntax keep each file
// translatable on its own, as esbuild translates it.
//
// When every input (INPUTS: the sources, the specs, the lockfile, these scripts) reads as it did
// for the last complete build, dist/ is left as it is (`--force` builds anyway): `npm start` then
// starts at once, and a start never rewrites the files another running start is reading.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['server', 'client', 'lib'];
const INPUTS = [
  ...SOURCES,
  'console',
  'sandbox',
  'generated',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/build.mjs',
  'scripts/build-console.mjs',
  'scripts/bundle.mjs',
  'scripts/sandbox-package.mjs',
];
const STAMP = join(root, 'dist', '.build-inputs');

/** The files under `dir` (a folder or a file), relative to the root, node_modules left out. */
function filesOf(dir) {
  const path = join(root, dir);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [dir];
  return readdirSync(path, { recursive: true })
    .map((file) => join(dir, String(file)))
    .filter((file) => !file.includes('node_modules') && statSync(join(root, file)).isFile());
}

/** One digest of every input's path and content. */
function inputsDigest(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

const inputs = INPUTS.flatMap(filesOf).sort();
const digest = inputsDigest(inputs);
if (!process.argv.includes('--force') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest && existsSync(join(root, 'dist', 'server.mjs'))) {
  process.exit(0);
}
rmSync(STAMP, { force: true });

const files = (suffix) => inputs.filter((file) => SOURCES.some((dir) => file.startsWith(`${dir}/`)) && file.endsWith(suffix));
const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: files('.ts').filter((file) => !file.endsWith('.d.ts')),
  outdir: 'dist',
  outbase: '.',
  format: 'esm',
  platform: 'node',
  // Node's own syntax, as tsc's ES2022 output left it, with the JSON imports' attributes.
  target: 'node20.19',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
  metafile: true,
});
const written = new Set(Object.keys(metafile.outputs));
for (const file of files('.json').filter((file) => !/(^|\/)(package|tsconfig[^/]*)\.json$/.test(file))) {
  const to = join('dist', file);
  mkdirSync(dirname(join(root, to)), { recursive: true });
  copyFileSync(join(root, file), join(root, to));
  written.add(to);
}
// What a deleted source compiled to does not stay behind.
for (const dir of SOURCES) for (const file of filesOf(join('dist', dir))) if (!written.has(file)) rmSync(join(root, file));

await import('./build-console.mjs');
await import('./bundle.mjs');
writeFileSync(STAMP, digest);
