// Bundles the compiled server (dist/server/main.js) into dist/server.mjs, the file `npm start` runs,
// then writes the sandbox package (dist/sandbox-package/, scripts/sandbox-package.mjs), whose
// server.mjs is the same bundle of server/sandbox.ts, the start without main's signals and banner.
//
// Why some packages are inside: a starting server spent ~600 ms of its first second resolving,
// reading and linking modules one file at a time (bench/run.mjs's cold start). Kysely alone is
// 280 ES modules; express and express-openapi-validator with what they require are some 400
// CommonJS files. In one file they load in about half the time.
//
// What stays outside: the packages below, loaded from node_modules as they are. Native addons
// (better-sqlite3), what is imported only when configured (pg, pino-pretty, yauzl, micromark,
// Scalar's files), and pino, which starts worker threads from its own files. A package that is
// inside brings what it requires inside too, so express and express-openapi-validator (which
// requires express) share one copy. server/kernel/http/validator.ts replaces internals of
// express-openapi-validator through its module objects, which works inside the bundle as in
// node_modules, and builds its route lookup with path-to-regexp, the copy the validator requires
// (inside too, so that the sandbox package, which has no node_modules of its own, needs no copy);
// test/system/banner.test.ts runs this file.
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { writeSandboxPackage } from './sandbox-package.mjs';

const INSIDE = ['kysely', 'express', 'express-openapi-validator', 'cors', 'path-to-regexp'];
const OUTSIDE = ['better-sqlite3', 'pg', 'pino', 'pino-http', 'pino-pretty', 'prom-client', 'yauzl', 'micromark', '@scalar/api-reference'];
const named = (list, path) => list.some((name) => path === name || path.startsWith(`${name}/`));

/** The plugin that keeps the OUTSIDE packages, and every package the server imports that is not INSIDE, out of a bundle. */
const insideOrOutside = {
  name: 'inside-or-outside',
  setup(b) {
    // A bare specifier (not relative, not absolute) names a package.
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || named(OUTSIDE, args.path)) return { path: args.path, external: true };
      const fromPackage = args.importer.includes('/node_modules/');
      return fromPackage || named(INSIDE, args.path) ? undefined : { path: args.path, external: true };
    });
  },
};

/** Bundles a compiled entry of the server into one ASCII file; resolves with esbuild's metafile (what stayed outside). */
async function bundleServer(entry, outfile) {
  const { outputFiles, metafile } = await build({
    entryPoints: [entry],
    outfile,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
    metafile: true,
    // CommonJS code inside the bundle requires Node's own modules; an ES module has no `require`.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);" },
    plugins: [insideOrOutside],
  });
  // Only ASCII, comments included. esbuild escapes non-ASCII characters in strings and identifiers
  // (`charset: 'ascii'`, its default) but copies comments as they are, and some packages inside have
  // typographic quotes in theirs. One such character makes V8 hold the whole 4 MB source as a
  // two-byte string: Node's loader then took 27 ms to decode the file before compiling it, against 13
  // once ASCII (docs/performance.md, cold start). What is left outside ASCII can only be in a comment,
  // so it is written there as its code point.
  const [bundle] = outputFiles;
  writeFileSync(
    bundle.path,
    bundle.text.replace(/[^\0-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`),
  );
  return metafile;
}

await bundleServer('dist/server/main.js', 'dist/server.mjs');
await writeSandboxPackage((outfile) => bundleServer('dist/server/sandbox.js', outfile), OUTSIDE);
