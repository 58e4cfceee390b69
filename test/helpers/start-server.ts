import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from '../../server/app.js';
import type { AdjustableClock } from '../../server/kernel/clock.js';
import { holdContinue } from '../../server/kernel/http/expect-continue.js';
import { compose } from '../../server/compose.js';
import { type Config, loadConfig } from '../../server/config.js';
import type { Dispatcher } from '../../server/kernel/events/dispatcher.js';
import type { AndroidProcessor } from '../../server/management/android/android-processor.js';
import { DEMO } from '../../server/seed.js';
import type { Store } from '../../server/store/tx.js';
import { createCheckoutClient, createManagementClient } from '../../client/index.js';
import { assertUsesAnEngine, freshDatabase, TEST_ENGINE, type TestDatabase } from './database.js';
import { COMPANY_KEY, MERCHANT_KEY } from './keys.js';

export interface TestServer {
  baseUrl: string;
  checkoutUrl: string;
  managementUrl: string;
  /** The client-side area (what Adyen's web library calls with a client key). */
  clientsideUrl: string;
  /** The console's API (spec/console). */
  consoleUrl: string;
  /** Writes the request log's queued entries now (the server writes them about once a second). */
  flushRequestLog(): Promise<void>;
  store: Store;
  /** The sandbox clock of the demo company (the one the demo credentials belong to). */
  clock: { now(): Date };
  /** Every company's sandbox clock (undefined in production mode). */
  clocks: AdjustableClock | undefined;
  /** Checkout client with the company credential (every role). */
  checkout: ReturnType<typeof createCheckoutClient>;
  /** Checkout client with the merchant credential (DemoMerchantECOM, checkout roles only). */
  merchantCheckout: ReturnType<typeof createCheckoutClient>;
  management: ReturnType<typeof createManagementClient>;
  /** The webhook dispatcher; not started: tests drive it with `drain()`, or `start()` it. */
  dispatcher: Dispatcher;
  /** The APK processor; `idle()` resolves when uploads are read. */
  android: AndroidProcessor;
  uploadDir: string;
  stop(): Promise<void>;
}

/** Starts the app in this process on a free loopback port with a fresh in-memory store, seeded. */
export interface StartOptions {
  wrapStore?: (store: Store) => Store;
  /** Serve HTTPS on localhost with the test certificate (for clients that speak HTTPS only). */
  https?: boolean;
}

export async function startServer(overrides: Partial<Config> = {}, options: StartOptions = {}): Promise<TestServer> {
  // On the PostgreSQL run every server gets a fresh database of its own, unless the test names one:
  // a copy of the migrated template (the server's migrations then find nothing to do).
  assertUsesAnEngine();
  let database: TestDatabase | undefined;
  if (TEST_ENGINE === 'postgres' && !overrides.databaseUrl) {
    database = await freshDatabase(undefined, { migrated: true });
    overrides = { ...overrides, ...database.config };
  }
  const config = loadConfig(
    {},
    {
      logLevel: (process.env.TEST_LOG_LEVEL as Config['logLevel'] | undefined) ?? 'silent',
      databasePath: ':memory:',
      port: 0,
      validateResponses: true,
      cardEncryptionKey: '6b'.repeat(32),
      serverSecret: '5e'.repeat(32),
      forwardAllowList: { '*': ['127.0.0.1', 'localhost'] },
      forwardAllowPrivateNetworks: true,
      ...overrides,
    },
  );
  const composition = await compose(config, {
    demoKeys: { company: COMPANY_KEY, merchant: MERCHANT_KEY },
    ...(options.wrapStore && { wrapStore: options.wrapStore }),
  });
  const { deps, dispatcher, android } = composition;
  const store = deps.store;
  // A test file's module registry is its own, so are the validators its apps share: the other
  // area's validator is loaded only if the file asks that area something.
  const app = createApp(deps, { warmValidators: false });
  const tls = join(process.cwd(), 'test', 'fixtures', 'tls');
  const server = options.https
    ? createHttpsServer({ key: readFileSync(join(tls, 'localhost.key')), cert: readFileSync(join(tls, 'localhost.crt')) }, app).listen(0, '127.0.0.1')
    : app.listen(0, '127.0.0.1');
  // As server/main.ts does.
  holdContinue(server);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = options.https ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  const checkoutUrl = `${baseUrl}/checkout/v71`;
  const managementUrl = `${baseUrl}/management/v3`;
  return {
    clientsideUrl: `${baseUrl}/checkoutshopper/test`,
    consoleUrl: `${baseUrl}/console/api`,
    flushRequestLog: () => deps.requestRecorder.flush(),
    baseUrl,
    checkoutUrl,
    managementUrl,
    store,
    clock: { now: () => deps.clock.now(DEMO.companyId) },
    clocks: composition.sandboxClock,
    checkout: createCheckoutClient({ baseUrl: checkoutUrl, apiKey: COMPANY_KEY }),
    merchantCheckout: createCheckoutClient({ baseUrl: checkoutUrl, apiKey: MERCHANT_KEY }),
    management: createManagementClient({ baseUrl: managementUrl, apiKey: COMPANY_KEY }),
    dispatcher,
    android,
    uploadDir: config.uploadDir,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await composition.close();
      await database?.drop();
    },
  };
}
