import { RedirectSigner } from './checkout/redirects.js';
import { SandboxClocks, systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { createApp } from './app.js';
import { loadCardVault } from './crypto/card-vault.js';
import { loadServerSecret } from './crypto/server-secret.js';
import { Dispatcher, dispatcherOptionsFrom } from './events/dispatcher.js';
import { AndroidProcessor } from './management/android-processor.js';
import { createLogger } from './logger.js';
import { DEMO, seedDemoData } from './seed.js';
import { openStore } from './store/index.js';
import { removeIncomingUploads } from './http/uploads.js';

/** The only file with side effects: read configuration, open the store, seed, listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const secret = loadServerSecret(config);
  const store = openStore(config, secret);
  const sandboxClock = config.mode === 'sandbox' ? await SandboxClocks.load(store) : undefined;
  const clock = sandboxClock ?? systemClock;
  const seed = await seedDemoData(store, new Date(), { company: config.demoCompanyApiKey, merchant: config.demoMerchantApiKey });
  const redirects = await RedirectSigner.load(store, secret);
  const vault = loadCardVault(config);
  const android = new AndroidProcessor({ store, clock, logger });
  const app = createApp({ config, store, clock, sandboxClock, redirects, vault, logger, android });
  // Uploads that were arriving when the last process stopped are incomplete: nothing refers to them.
  await removeIncomingUploads(config.uploadDir);
  await android.recover();
  const dispatcher = new Dispatcher({ store, clock, vault, logger }, dispatcherOptionsFrom(config));
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
    if (seed.generatedKeys.company) lines.push(`  API key of ${DEMO.companyUsername} (all roles, shown once): ${seed.generatedKeys.company}`);
    if (seed.generatedKeys.merchant) lines.push(`  API key of ${DEMO.merchantUsername} (${DEMO.merchantEcom}, checkout only, shown once): ${seed.generatedKeys.merchant}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;

  const stop = (signal: string) => {
    logger.info('stopping', { signal });
    server.close(() => {
      void dispatcher
        .stop()
        .then(() => store.close())
        .then(() => process.exit(0));
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
