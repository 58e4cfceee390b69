// Writes the sandbox package, dist/sandbox-package/, from a build (scripts/bundle.mjs calls it):
// `npm pack dist/sandbox-package` gives the tarball a project installs to run the sandbox in its
// tests. The folder is made whole by every build, never edited: its manifest is sandbox/package.json
// with the version of this repository and, as dependencies, exactly the packages the server bundle
// leaves outside, pinned to package-lock.json (a new import of the server updates them by itself).
//
// What is in it: the server bundle (server.mjs, the start of server/sandbox.ts), the files the
// server reads at run time from beside its package.json (server/project-root.ts): the bundled specs,
// the migrations, the hosted pages' assets and the console's (dist/console/); the command and the API (sandbox/src/, bundled
// here with esbuild, with its type declarations), and sandbox/README.md. No source map, no test.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'sandbox-package');

/**
 * Packages the bundle imports that are only for a developer's terminal: the server loads pino-pretty
 * when its stdout is a terminal, and the package's command sends its logs to stderr as JSON lines,
 * so it never loads it.
 */
const NOT_AT_RUN_TIME = new Set(['pino-pretty']);

/**
 * Packages the package carries a part of instead of depending on them: the API reference at /docs
 * serves only Scalar's browser build (one file), while the package would bring some 350 packages
 * (Vue and its tooling). `vendoredScalar` copies that folder, its licence and version to
 * vendor/scalar/, where server/docs/pages.ts looks first.
 */
const VENDORED = new Set(['@scalar/api-reference']);

const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const builtin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier));

/**
 * The runtime packages a bundle leaves outside, pinned as package-lock.json has them: what it
 * imports, and what the server finds with require.resolve (the API reference's files), which
 * scripts/bundle.mjs names in `outside`.
 */
function pinnedOutside(metafile, outside) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const names = new Set(outside.filter((name) => manifest.dependencies[name]));
  for (const output of Object.values(metafile.outputs)) {
    for (const { path, external } of output.imports) if (external && !builtin(path)) names.add(packageOf(path));
  }
  const dependencies = {};
  const peerDependencies = {};
  for (const name of [...names].sort()) {
    if (NOT_AT_RUN_TIME.has(name) || VENDORED.has(name)) continue;
    if (!manifest.dependencies[name]) throw new Error(`the server bundle imports ${name}, which is not a dependency in package.json`);
    dependencies[name] = lock.packages[`node_modules/${name}`].version;
  }
  return { dependencies };
}

/** Scalar's browser build with its version, licence and origin (its README says MIT), for /docs (see VENDORED). */
function vendoredScalar() {
  const from = join(root, 'node_modules', '@scalar', 'api-reference');
  const to = join(out, 'vendor', 'scalar');
  const { name, version, license, author, repository } = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  mkdirSync(join(to, 'browser'), { recursive: true });
  cpSync(join(from, 'dist', 'browser', 'standalone.js'), join(to, 'browser', 'standalone.js'));
  cpSync(join(from, 'README.md'), join(to, 'README.md'));
  writeFileSync(join(to, 'package.json'), `${JSON.stringify({ name, version, license, author, repository }, null, 2)}\n`);
}

/** The package's own modules, one bundle each (they share nothing at run time but the sandbox process). */
async function bundleApi() {
  const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning', outExtension: { '.js': '.mjs' } };
  await build({
    ...common,
    entryPoints: ['index', 'jest-global-setup', 'jest-global-teardown', 'vitest-global-setup'].map((name) => ({
      in: join(root, 'sandbox', 'src', `${name}.ts`),
      out: name,
    })),
    outdir: out,
  });
  await build({
    ...common,
    entryPoints: [{ in: join(root, 'sandbox', 'src', 'cli.ts'), out: 'payments-sandbox' }],
    outdir: join(out, 'bin'),
    banner: { js: '#!/usr/bin/env node' },
  });
}

/**
 * Type declarations of the package's API: index.ts and the modules its types name, one file at a
 * time (ts.transpileDeclaration: no program, no type check, some 50 ms where a program took
 * seconds). That needs what isolatedDeclarations asks, explicit types on every export, which
 * `npm run typecheck` does not check, so a missing one fails here, naming it.
 */
function declarations() {
  const files = [
    'sandbox/src/index.ts',
    'sandbox/src/info.ts',
    'sandbox/src/webhooks.ts',
    'sandbox/src/adyen.ts',
    'sandbox/src/glue.ts',
    'lib/webhook-signature.ts',
  ];
  const compilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true };
  for (const file of files) {
    const { outputText, diagnostics } = ts.transpileDeclaration(readFileSync(join(root, file), 'utf8'), {
      fileName: file,
      compilerOptions,
      reportDiagnostics: true,
    });
    if (diagnostics?.length) {
      const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
      throw new Error(`${file}: ${ts.formatDiagnostics(diagnostics, host)}`);
    }
    const target = join(out, 'types', file.replace(/\.ts$/, '.d.ts'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
}

/** Copies the files the server reads at run time, relative to its package.json. */
function runtimeFiles() {
  const copy = (from, keep) => {
    for (const name of readdirSync(join(root, from))) {
      if (keep(name)) {
        mkdirSync(join(out, from), { recursive: true });
        cpSync(join(root, from, name), join(out, from, name), { recursive: true });
      }
    }
  };
  copy('generated', (name) => name.endsWith('.json'));
  copy('server/store/migrations', () => true);
  copy('server/checkout/hosted-assets', (name) => /\.(css|js)$/.test(name));
  copy('server/checkout/secured-fields', (name) => /\.(css|js)$/.test(name));
  copy('dist/console', () => true);
}

export async function writeSandboxPackage(bundleServer, outside) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const metafile = await bundleServer(join(out, 'server.mjs'));
  const template = JSON.parse(readFileSync(join(root, 'sandbox', 'package.json'), 'utf8'));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  writeFileSync(join(out, 'package.json'), `${JSON.stringify({ ...template, version, ...pinnedOutside(metafile, outside) }, null, 2)}\n`);
  cpSync(join(root, 'sandbox', 'README.md'), join(out, 'README.md'));
  runtimeFiles();
  vendoredScalar();
  await bundleApi();
  declarations();
}
