/**
 * The layers of the server, each pointing only down:
 *   main → app (app, compose, seed) → operations → areas (checkout, management)
 *     → kernel (errors, auth, idempotency, events, outbound, clock, crypto, http) → store → config
 * The client stands apart: server and client share only lib/ (the webhook signature).
 * `npm run lint` runs these rules; a new import that breaks one fails it.
 */
const MAIN = '^server/main\\.ts$';
const APP = '^server/(app|compose|seed)\\.ts$';
const OPERATIONS = '^server/operations\\.ts$';
const AREAS = '^server/(checkout|management)/';
const KERNEL = '^server/kernel/';
const STORE = '^server/store/';
const CONFIG = '^server/(config|project-root|private-files)\\.ts$';

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
      name: 'kernel-only-down',
      severity: 'error',
      comment: 'The kernel knows no area: areas register what the kernel must trigger.',
      from: { path: KERNEL },
      to: { path: [MAIN, APP, OPERATIONS, AREAS] },
    },
    { name: 'store-only-down', severity: 'error', from: { path: STORE }, to: { path: [MAIN, APP, OPERATIONS, AREAS, KERNEL] } },
    { name: 'config-is-the-bottom', severity: 'error', from: { path: CONFIG }, to: { path: '^server/', pathNot: CONFIG } },
    { name: 'server-not-client', severity: 'error', from: { path: '^server/' }, to: { path: '^client/' } },
    { name: 'client-not-server', severity: 'error', from: { path: '^client/' }, to: { path: '^server/' } },
    { name: 'lib-stands-alone', severity: 'error', from: { path: '^lib/' }, to: { path: '^(server|client)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|generated|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts'] },
  },
};
