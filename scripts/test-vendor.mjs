// The packages every server test file loads, each bundled into one file for jest (test/global-setup.mjs
// writes them; jest.config.js maps the package names to them). Jest loads a test file's modules
// afresh for each file, one module at a time through its own loader: Kysely's 280 ES modules took
// 170-200 ms of each file, express and express-openapi-validator's CommonJS files 110-130 ms each;
// bundled, 10-15 ms and 115 ms for both. pg and prom-client (30-40 ms each) likewise. The packages
// are the published ones, unchanged: esbuild only puts their files into one, as the server's own
// bundle (scripts/bundle.mjs) does for `npm start`.
//
// express-openapi-validator requires express, and server/kernel/http/validator.ts imports three of
// its files and path-to-regexp: all of them are in one bundle (http.mjs), so each module exists
// once, as in node_modules; each of those names gets a small module that exports what the code
// imports of it. The bundles are written again only when the lockfile or this file changed.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the bundles are written, below the project's root. */
export const TEST_VENDOR_DIR = join('node_modules', '.cache', 'test-vendor');

const EOV = 'express-openapi-validator';
/** What the shared bundle exports, each module by a name of its own. */
const HTTP_ENTRY = `
export { default as express } from 'express';
export { default as eov } from '${EOV}';
export { default as eovAjv } from '${EOV}/dist/framework/ajv/index.js';
export { default as eovAjvOptions } from '${EOV}/dist/framework/ajv/options.js';
export { default as eovSchemaValidator } from '${EOV}/dist/framework/openapi.schema.validator.js';
export { pathToRegexp } from 'path-to-regexp';
`;

/**
 * Each mapped name and its file: either a module taken from the shared bundle (`from`), or a
 * bundle of its own (`entry`, what the code imports of the package).
 */
const MAPPED = [
  { name: 'express', file: 'express.mjs', from: "import { express } from './http.mjs';\nexport default express;\nexport const Router = express.Router;\n" },
  { name: EOV, file: 'eov.mjs', from: "export { eov as default } from './http.mjs';\n" },
  { name: `${EOV}/dist/framework/ajv/index.js`, file: 'eov-ajv.mjs', from: "export { eovAjv as default } from './http.mjs';\n" },
  { name: `${EOV}/dist/framework/ajv/options.js`, file: 'eov-ajv-options.mjs', from: "export { eovAjvOptions as default } from './http.mjs';\n" },
  {
    name: `${EOV}/dist/framework/openapi.schema.validator.js`,
    file: 'eov-schema-validator.mjs',
    from: "export { eovSchemaValidator as default } from './http.mjs';\n",
  },
  { name: 'path-to-regexp', file: 'path-to-regexp.mjs', from: "export { pathToRegexp } from './http.mjs';\n" },
  { name: 'kysely', file: 'kysely.mjs', entry: "export * from 'kysely';" },
  // pg-native is pg's optional binding, not installed: pg requires it only when asked for it.
  { name: 'pg', file: 'pg.mjs', entry: "export { default } from 'pg';" },
  { name: 'prom-client', file: 'prom-client.mjs', entry: "export { Counter, Gauge, Histogram, Registry } from 'prom-client';" },
];

/** jest's moduleNameMapper entries for the bundles, below `rootDir`. */
export function testVendorMapper(rootDir = '<rootDir>') {
  const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return Object.fromEntries(MAPPED.map(({ name, file }) => [`^${escape(name)}$`, `${rootDir}/${TEST_VENDOR_DIR}/${file}`]));
}

/** Writes a file whole or not at all: two jest runs at once (TEST_CONCURRENT=1) write the same files. */
function writeWhole(path, text) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

/** Bundles one entry (package code only; Node's own modules stay imports) into an ES module's text. */
async function bundle(root, contents) {
  const { outputFiles } = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'test-vendor-entry.mjs', loader: 'js' },
    write: false,
    outfile: 'bundle.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
    external: ['pg-native'],
    // CommonJS code inside requires Node's own modules; an ES module has no `require`.
    banner: { js: "import { createRequire as __vendorRequire } from 'node:module';\nconst require = __vendorRequire(import.meta.url);" },
  });
  return outputFiles[0].text;
}

/** What the bundles are made of: the installed packages (the lockfile) and this file. */
function sourcesDigest(root) {
  const hash = createHash('sha256');
  for (const file of [join(root, 'package-lock.json'), fileURLToPath(import.meta.url)]) hash.update(readFileSync(file));
  return hash.digest('hex');
}

/** Writes the bundles and the mapped modules into TEST_VENDOR_DIR below `root`, unless they are up to date. */
export async function writeTestVendor(root) {
  const dir = join(root, TEST_VENDOR_DIR);
  const stamp = join(dir, 'sources.sha256');
  const digest = sourcesDigest(root);
  try {
    if (readFileSync(stamp, 'utf8') === digest) return;
  } catch {
    // not written yet
  }
  mkdirSync(dir, { recursive: true });
  const files = [{ file: 'http.mjs', entry: HTTP_ENTRY }, ...MAPPED];
  const texts = await Promise.all(files.map(({ entry, from }) => (entry === undefined ? from : bundle(root, entry))));
  files.forEach(({ file }, i) => writeWhole(join(dir, file), texts[i]));
  // Last: a run stopped half-way leaves no stamp, and the next one writes everything again.
  writeWhole(stamp, digest);
}
