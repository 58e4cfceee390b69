import { setFlagsFromString } from 'node:v8';
import { type Config, loadConfig } from './config.js';
import { start } from './sandbox.js';
import { DEMO } from './seed.js';

/** Where `npm run mock` listens (scripts/mock.mjs reads the same variables): both areas under the server's paths, the API reference beside checkout. */
const MOCK = {
  host: process.env.MOCK_HOST ?? '127.0.0.1',
  checkoutPort: process.env.MOCK_CHECKOUT_PORT ?? '4010',
  managementPort: process.env.MOCK_MANAGEMENT_PORT ?? '4020',
};

/** The start banner: where everything is, and the demo keys (a generated key is shown this once). */
function banner(config: Config, base: string, generatedKeys: { company?: string; merchant?: string }): string {
  // A generated key keeps the "(…, shown once): <key>" form that scripts and tests read.
  const key = (who: string, generated: string | undefined, env: string, given: string | undefined) =>
    generated
      ? `${who}, shown once): ${generated}   (only its hash is kept)`
      : `${who}): ${given ? `from ${env}` : `shown at first start (set ${env} to choose it)`}`;
  return [
    `Payments platform (${config.mode} mode) listening on ${base}`,
    `  checkout:      ${base}/checkout/v71`,
    `  management:    ${base}/management/v3`,
    `  console:       ${base}/console`,
    `  API reference: ${base}/docs`,
    `  health:        ${base}/health/live  ${base}/health/ready`,
    `  metrics:       ${base}/metrics`,
    `  mock (npm run mock):`,
    `    checkout:      http://${MOCK.host}:${MOCK.checkoutPort}/checkout/v71`,
    `    management:    http://${MOCK.host}:${MOCK.managementPort}/management/v3`,
    `    API reference: http://${MOCK.host}:${MOCK.checkoutPort}/docs`,
    `  database:      ${config.databaseUrl ? `PostgreSQL ${redactedUrl(config.databaseUrl)}` : `SQLite ${config.databasePath}`}`,
    `  demo keys (X-API-Key):`,
    `    ${DEMO.companyUsername} (${key('all roles', generatedKeys.company, 'DEMO_COMPANY_API_KEY', config.demoCompanyApiKey)}`,
    `    ${DEMO.merchantUsername} (${key(`${DEMO.merchantEcom}, checkout only`, generatedKeys.merchant, 'DEMO_MERCHANT_API_KEY', config.demoMerchantApiKey)}`,
    `  Ctrl-C stops the server.`,
  ].join('\n');
}

/**
 * How far V8 lets the old generation grow past what the last full collection kept, unless the
 * operator chose (`--heap-growing-percent` or `--max-old-space-size` in NODE_OPTIONS or on the
 * command line; `--heap-growing-percent=0` gives V8's own heuristic back). Under load this server,
 * like Express with express-openapi-validator alone, promotes ~2 MB of request objects per
 * scavenge; V8's heuristic then lets the heap reach up to 4× the ~33 MB that stays live before a
 * full collection. Growing 2× (V8's factor for memory-constrained devices) keeps the resident set
 * after `npm run bench`'s load at ~190 MB instead of ~225 MB, for more full collections: authorise
 * ~7 % and list ~1.5 % fewer requests/s (4 interleaved pairs on a 2-core machine). A bounded
 * footprint is what a container limit needs; an operator who prefers the throughput sets the flag.
 * The flag is a heuristic V8 reads at every collection, so setting it at start is safe.
 */
function tuneHeapGrowth(): void {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (!/--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)/.test(chosen)) setFlagsFromString('--heap-growing-percent=100');
}

/** The only file with side effects: read configuration, start (server/sandbox.ts), print the banner, stop on a signal. */
async function main(): Promise<void> {
  tuneHeapGrowth();
  const config = loadConfig();
  const started = await start({ overrides: config });
  const { logger } = started;

  /**
   * SIGTERM or SIGINT: stop (in-flight requests finish, see StartedServer.stop), exit. A second
   * signal, or SHUTDOWN_TIMEOUT_MS, exits at once. One Ctrl-C under `npm start` arrives twice, a
   * few milliseconds apart (the terminal signals npm and node, and npm passes its copy on): a
   * repeat within SAME_SIGNAL_MS is that copy, not a second signal.
   */
  const SAME_SIGNAL_MS = 500;
  let firstSignalAt = 0;
  const stop = (signal: string) => {
    if (firstSignalAt) {
      if (Date.now() - firstSignalAt < SAME_SIGNAL_MS) return;
      logger.warn('stopping now', { signal });
      process.exit(1);
    }
    firstSignalAt = Date.now();
    logger.info('stopping', { signal, openConnections: started.openConnections() });
    setTimeout(() => {
      logger.warn('stopping: requests still running after the shutdown timeout', { openConnections: started.openConnections() });
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    started.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('stopping failed', { error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The banner last: whoever reads it may signal at once, and the handlers are in place by then.
  const base = config.publicBaseUrl || started.baseUrl;
  process.stdout.write(`${banner(config, base.replace(/\/+$/, ''), started.generatedKeys)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

/** A database URL without its password, for the start banner. */
function redactedUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}
