import { closeExpiredOrders } from './checkout/orders/orders.domain.js';
import { sendDueDisputeEvents } from './checkout/disputes/disputes.domain.js';
import { settleDueCaptures } from './checkout/payments/authorisation.js';
import { settleDuePayments } from './checkout/payments/payments.domain.js';
import { type AdjustableClock, type Clock, SandboxClocks, systemClock } from './kernel/clock.js';
import type { Config } from './config.js';
import { apiKeyHasher } from './kernel/auth/credentials.js';
import { RedirectSigner } from './kernel/crypto/redirect-signer.js';
import { loadSecrets } from './kernel/crypto/shared-secrets.js';
import type { Deps } from './kernel/deps.js';
import { Dispatcher, dispatcherOptionsFrom } from './kernel/events/dispatcher.js';
import { removeIncomingUploads } from './kernel/http/uploads.js';
import { Metrics } from './kernel/http/metrics.js';
import { RequestRecorder } from './kernel/http/request-recording.js';
import { createLogger, prettyDestination } from './kernel/logger.js';
import { AndroidProcessor } from './management/android/android-processor.js';
import { seedDemoData } from './seed.js';
import { openStore } from './store/index.js';
import type { Store } from './store/tx.js';

/** PostgreSQL's SQLSTATE for a duplicate key. */
const UNIQUE_VIOLATION = '23505';

export interface Composition {
  deps: Deps;
  /** The store as opened (tests may wrap the one the app uses). */
  store: Store;
  /** Every company's sandbox clock (sandbox mode), else undefined. */
  sandboxClock: AdjustableClock | undefined;
  dispatcher: Dispatcher;
  android: AndroidProcessor;
  /** API keys the seed generated (shown once at start), by credential. */
  generatedKeys: { company?: string; merchant?: string };
  /** Work left by a stopped process: incomplete uploads removed, unread APKs read. */
  recover(): Promise<void>;
  close(): Promise<void>;
}

export interface ComposeOptions {
  /** Keys for the seeded credentials (else the configuration's, else generated). */
  demoKeys?: { company?: string | undefined; merchant?: string | undefined };
  /** Tests wrap the store the app uses (e.g. to inject faults); background work keeps the real one. */
  wrapStore?: (store: Store) => Store;
  /** Where log lines go (tests capture them); else stdout, human-readable in a terminal outside production. */
  logDestination?: { write(line: string): void };
}

/**
 * The one place that builds the dependencies, for server/main.ts, the test helpers and (through
 * main) the benchmark: the store, the clocks, the secrets, the seed, the background workers.
 * Areas register their background work here, so the kernel never imports an area.
 */
export async function compose(config: Config, options: ComposeOptions = {}): Promise<Composition> {
  const destination = options.logDestination ?? (await prettyDestination(config.mode));
  const logger = createLogger(config.logLevel, destination ? { destination } : {});
  // API keys are hashed with a key derived from the server secret, which instances sharing a
  // database may keep in it (kernel/crypto/shared-secrets.ts): the store is opened first, and its
  // hasher is bound to the secret before anything (the seed, a request) hashes a key.
  const keys: { hash?: (apiKey: string) => string } = {};
  const store = await openStore(config, (apiKey) => {
    if (!keys.hash) throw new Error('an API key was hashed before the server secret was loaded');
    return keys.hash(apiKey);
  });
  const { secret, vault } = await loadSecrets(config, store).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  keys.hash = apiKeyHasher(secret);
  const metrics = new Metrics({ pendingDeliveries: () => store.read((tx) => tx.outbox.countPending()) });
  const sandboxClock = config.mode === 'sandbox' ? await SandboxClocks.load(store) : undefined;
  const clock: Clock = sandboxClock ?? systemClock;
  const demoKeys = {
    company: options.demoKeys?.company ?? config.demoCompanyApiKey,
    merchant: options.demoKeys?.merchant ?? config.demoMerchantApiKey,
  };
  const seed = await seedDemoData(store, new Date(), demoKeys).catch((error: unknown) => {
    // Another instance starting on the same (PostgreSQL) database seeded it first: use what it made.
    if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
    return seedDemoData(store, new Date(), demoKeys);
  });
  const redirects = await RedirectSigner.load(store, secret);
  const android = new AndroidProcessor({ store, clock, logger });
  const dispatcher = new Dispatcher(
    {
      store,
      clock,
      vault,
      logger,
      dueWork: [settleDueCaptures, settleDuePayments, closeExpiredOrders, sendDueDisputeEvents],
      onAttempt: (outcome) => metrics.deliveryAttempted(outcome),
    },
    dispatcherOptionsFrom(config),
  );
  const appStore = options.wrapStore ? options.wrapStore(store) : store;
  const requestRecorder = new RequestRecorder({ store, clock, logger });
  return {
    deps: { config, store: appStore, clock, sandboxClock, redirects, vault, logger, metrics, android, requestRecorder },
    store,
    sandboxClock,
    dispatcher,
    android,
    generatedKeys: seed.generatedKeys,
    async recover() {
      // Uploads that were arriving when the last process stopped are incomplete: nothing refers to them.
      await removeIncomingUploads(config.uploadDir);
      await android.recover();
    },
    async close() {
      // The request log's last entries, before the store closes.
      await requestRecorder.close();
      await dispatcher.stop();
      await android.idle();
      await store.close();
    },
  };
}
