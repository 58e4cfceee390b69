import { createApp } from './app.js';
import { compose } from './compose.js';
import { loadConfig } from './config.js';
import { DEMO } from './seed.js';

/** The only file with side effects: read configuration, open the store, seed, listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const composition = await compose(config);
  const { deps, dispatcher, generatedKeys } = composition;
  const app = createApp(deps);
  await composition.recover();
  if (config.webhookDispatch) dispatcher.start();

  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const base = config.publicBaseUrl || `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
    const lines = [
      `Payments platform (${config.mode} mode) listening on ${base}`,
      `  checkout:   ${base}/checkout/v71`,
      `  management: ${base}/management/v3`,
      `  database:   ${config.databasePath}`,
    ];
    if (generatedKeys.company) lines.push(`  API key of ${DEMO.companyUsername} (all roles, shown once): ${generatedKeys.company}`);
    if (generatedKeys.merchant)
      lines.push(`  API key of ${DEMO.merchantUsername} (${DEMO.merchantEcom}, checkout only, shown once): ${generatedKeys.merchant}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;

  const stop = (signal: string) => {
    deps.logger.info('stopping', { signal });
    server.close(() => {
      void composition.close().then(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
