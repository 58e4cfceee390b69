// The packages every server test file loads, each bundled into one file for jest (test/global-setup.mjs
// writes them; jest.config.js maps the package names to them). Jest loads a test file's modules
// afresh for each file, one module at a time through its own loader: Kysely's 280 ES modules took
// 170-200 ms of each file, express and express-openapi-validator's CommonJS files 110-130 ms each;
// bundled, 10-15 ms and 115 ms for both. pg and prom-client (30-40 ms each) likewise. The packages are the published ones, unchanged: esbuild only puts
// their files into one, as the server's own bundle (scripts/bundle.mjs) does for `npm start`.
//
// express-openapi-validator requires express, and server/kernel/http/validator.ts imports three of
// its files and path-to-regexp: all of them are in one bundle, so each module exists once, as in
// node_modules. Each mapped name gets a small module that exports what the code imports of it.
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the bundles are written, below the project's root. */
export const TEST_VENDOR_DIR = join('node_modules', '.cache', 'test-vendor');

const EOV = 'express-openapi-validator';
/** The shared bundle's entry: every module a mapped name stands for, by a name of its own. */
const HTTP_ENTRY = `
export { default as express } from 'express';
export { default as eov } from '${EOV}';
export { default as eovAjv } from '${EOV}/dist/framework/ajv/index.js';
export { default as eovAjvOptions } from '${EOV}/dist/framework/ajv/options.js';
export { default as eovSchemaValidator } from '${EOV}/dist/framework/openapi.schema.validator.js';
export { pathToRegexp } from 'path-to-regexp';
`;

/** Each mapped package name, its file in TEST_VENDOR_DIR, and that file's text (what the code imports of it). */
const MAPPED = [
  ['express', 'express.mjs', "import { express } from './http.mjs';\nexport default express;\nexport const Router = express.Router;\n"],
  [EOV, 'eov.mjs', "export { eov as default } from './http.mjs';\n"],
  [`${EOV}/dist/framework/ajv/index.js`, 'eov-ajv.mjs', "export { eovAjv as default } from './http.mjs';\n"],
  [`${EOV}/dist/framework/ajv/options.js`, 'eov-ajv-options.mjs', "export { eovAjvOptions as default } from './http.mjs';\n"],
  [`${EOV}/dist/framework/openapi.schema.validator.js`, 'eov-schema-validator.mjs', "export { eovSchemaValidator as default } from './http.mjs';\n"],
  ['path-to-regexp', 'path-to-regexp.mjs', "export { pathToRegexp } from './http.mjs';\n"],
  ['kysely', 'kysely.mjs', null],
  ['pg', 'pg.mjs', null],
  ['prom-client', 'prom-client.mjs', null],
];

/** The bundles of one package each: their entries (what the code imports of them). */
const SINGLE = {
  'kysely.mjs': "export * from 'kysely';",
  // pg-native is pg's optional binding, not installed: pg requires it only when asked for it.
  'pg.mjs': "export { default } from 'pg';",
  'prom-client.mjs': "export { Counter, Gauge, Histogram, Registry } from 'prom-client';",
};

/** jest's moduleNameMapper entries for the bundles, below `rootDir`. */
export function testVendorMapper(rootDir = '<rootDir>') {
  const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return Object.fromEntries(MAPPED.map(([name, file]) => [`^${escape(name)}$`, `${rootDir}/${TEST_VENDOR_DIR}/${file}`]));
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

/** Writes the bundles and the mapped modules into TEST_VENDOR_DIR below `root`. */
export async function writeTestVendor(root) {
  const dir = join(root, TEST_VENDOR_DIR);
  mkdirSync(dir, { recursive: true });
  const bundles = await Promise.all([['http.mjs', HTTP_ENTRY], ...Object.entries(SINGLE)].map(async ([file, entry]) => [file, await bundle(root, entry)]));
  for (const [file, text] of bundles) writeWhole(join(dir, file), text);
  for (const [, file, text] of MAPPED) if (text !== null) writeWhole(join(dir, file), text);
}
