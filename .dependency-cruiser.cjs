/**
 * The layers of the server, each pointing only down:
 *   main (main, sandbox: the start main and the sandbox package share) → app (app, compose, seed) → operations → areas (checkout, management, console)
 *     → kernel (errors, auth, idempotency, events, outbound, clock, crypto, http) → store → config
 * The API reference site (docs: /docs, also served by `npm run mock`) is a feature beside the
 * areas: the app mounts it, it may use the kernel and config, and nothing below the app imports it.
 * The base paths of the two areas are written once, in server/base-paths.json (config's layer).
 * The client stands apart: server and client share only lib/ (the webhook signature).
 * The console's browser UI (console/) stands apart too: it reaches the server only over HTTP, typed
 * from generated/; the server's console-ui module serves its built files and knows no other layer.
 * Which database engine runs is the store's business: outside server/store/ code reaches the
 * store through its interface (index, tx, types, unavailable) and asks it for capabilities
 * (`Store.sharedBetweenProcesses`, `serializesTransactions`, `tx.beforeCommit`), never for the
 * engine's name; the rule `engines-stay-in-store` and the check below (imports cannot show a
 * string) hold that.
 * `npm run lint` runs these rules; a new import that breaks one fails it.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const MAIN = '^server/(main|sandbox)\\.ts$';
const APP = '^server/(app|compose|seed)\\.ts$';
const OPERATIONS = '^server/operations\\.ts$';
const AREAS = '^server/(checkout|management|console)/';
const DOCS = '^server/docs/';
const KERNEL = '^server/kernel/';
const STORE = '^server/store/';
const CONFIG = '^server/((config|project-root|private-files)\\.ts|base-paths\\.json)$';
const CONSOLE_UI = '^server/console-ui/';
const UI = '^console/';

/** The store's interface: what code outside server/store/ may import from it. */
const STORE_INTERFACE = '^server/store/(index|tx|types|unavailable)\\.ts$';

/**
 * An engine's name as a value ('sqlite', "postgres", `postgresql`), the store's `.engine`, or its
 * `Engine` type: how code would branch on which engine runs.
 */
const ENGINE_NAMES = [/(['"`])(sqlite|postgres|postgresql)\1/i, /\.engine\b/, /\bEngine\b/];

/** Lines under server/ (outside server/store/), client/ and lib/ that name an engine, as `file:line: text`. */
function engineNamesOutsideStore(root) {
  const found = [];
  for (const top of ['server', 'client', 'lib']) {
    for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
      const file = relative(root, join(entry.parentPath ?? entry.path, entry.name))
        .split('\\')
        .join('/');
      if (!entry.isFile() || !/\.(ts|mts|cts|js|mjs|cjs)$/.test(file) || /^server\/store\/|\/(node_modules|dist)\//.test(file)) continue;
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((text, i) => {
          if (ENGINE_NAMES.some((name) => name.test(text))) found.push(`${file}:${i + 1}: ${text.trim()}`);
        });
    }
  }
  return found;
}

// Run whenever this configuration is loaded (`npm run lint:layers`): dependency-cruiser reports the
// error and exits with 1.
const named = engineNamesOutsideStore(__dirname);
if (named.length > 0) {
  throw new Error(`engine names outside server/store/ (ask the store for a capability instead, see Store in server/store/tx.ts):\n  ${named.join('\n  ')}`);
}

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules must not depend on each other in a circle.', from: {}, to: { circular: true } },
    { name: 'app-not-main', severity: 'error', from: { path: APP }, to: { path: MAIN } },
    { name: 'operations-only-down', severity: 'error', from: { path: OPERATIONS }, to: { path: [MAIN, APP] } },
    {
      name: 'areas-only-down',
      severity: 'error',
      comment: 'Areas use the kernel, the store and config; never the app or the registry.',
      from: { path: AREAS },
      to: { path: [MAIN, APP, OPERATIONS] },
    },
    {
      name: 'checkout-not-management',
      severity: 'error',
      comment: 'Areas meet only through the kernel.',
      from: { path: '^server/checkout/' },
      to: { path: '^server/management/' },
    },
    {
      name: 'management-not-checkout',
      severity: 'error',
      comment: 'Areas meet only through the kernel.',
      from: { path: '^server/management/' },
      to: { path: '^server/checkout/' },
    },
    {
      name: 'console-not-other-areas',
      severity: 'error',
      comment: 'The console reads what the other areas wrote through the store and the kernel, never their code.',
      from: { path: '^server/console/' },
      to: { path: '^server/(checkout|management)/' },
    },
    {
      name: 'other-areas-not-console',
      severity: 'error',
      comment: 'Areas meet only through the kernel.',
      from: { path: '^server/(checkout|management)/' },
      to: { path: '^server/console/' },
    },
    {
      name: 'docs-only-down',
      severity: 'error',
      comment: 'The API reference uses the kernel and config; never an area, the registry or the app.',
      from: { path: DOCS },
      to: { path: [MAIN, APP, OPERATIONS, AREAS] },
    },
    {
      name: 'areas-not-docs',
      severity: 'error',
      comment: 'The API reference is a page the app mounts, not something an area builds on.',
      from: { path: AREAS },
      to: { path: DOCS },
    },
    {
      name: 'kernel-only-down',
      severity: 'error',
      comment: 'The kernel knows no area and no feature beside them: areas register what the kernel must trigger.',
      from: { path: KERNEL },
      to: { path: [MAIN, APP, OPERATIONS, AREAS, DOCS] },
    },
    { name: 'store-only-down', severity: 'error', from: { path: STORE }, to: { path: [MAIN, APP, OPERATIONS, AREAS, DOCS, KERNEL] } },
    {
      name: 'engines-stay-in-store',
      severity: 'error',
      comment:
        'Outside the store, code knows it by its interface: never an engine (engines/), the Engine type (db.ts), an area module or the schema. Ask the Store for a capability instead.',
      from: { pathNot: STORE },
      to: { path: STORE, pathNot: STORE_INTERFACE },
    },
    { name: 'config-is-the-bottom', severity: 'error', from: { path: CONFIG }, to: { path: '^server/', pathNot: CONFIG } },
    { name: 'server-not-client', severity: 'error', from: { path: '^server/' }, to: { path: '^client/' } },
    { name: 'client-not-server', severity: 'error', from: { path: '^client/' }, to: { path: '^server/' } },
    { name: 'lib-stands-alone', severity: 'error', from: { path: '^lib/' }, to: { path: '^(server|client)/' } },
    {
      name: 'console-ui-serves-files-only',
      severity: 'error',
      comment: 'The module serving the console UI reads its built files and config; it reaches no area, kernel or store.',
      from: { path: CONSOLE_UI },
      to: { path: '^server/', pathNot: [CONFIG, CONSOLE_UI] },
    },
    {
      name: 'only-the-app-mounts-console-ui',
      severity: 'error',
      from: { path: '^server/', pathNot: [APP, CONSOLE_UI] },
      to: { path: CONSOLE_UI },
    },
    {
      name: 'ui-not-server',
      severity: 'error',
      comment: 'The browser UI holds no server code: it calls the APIs, as the signed-in credential.',
      from: { path: UI },
      to: { path: '^(server|client|lib|test|scripts)/' },
    },
    { name: 'server-not-ui', severity: 'error', from: { path: '^(server|client|lib)/' }, to: { path: UI } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|generated|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.d.ts'] },
  },
};
