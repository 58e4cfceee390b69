import type { AdjustableClock, Clock } from './clock.js';
import type { Config } from '../config.js';
import type { CardVault } from './crypto/card-vault.js';
import type { RedirectSigner } from './crypto/redirect-signer.js';
import type { Metrics } from './http/metrics.js';
import type { RequestRecorder } from './http/request-recording.js';
import type { Logger } from './logger.js';
import type { Store } from '../store/tx.js';

/** Work done in the background, in order (reading uploaded APKs). */
export interface JobQueue {
  enqueue(id: string): void;
  /** Resolves when everything queued so far is done (tests and shutdown). */
  idle(): Promise<void>;
}

/** Everything the app needs from outside; server/compose.ts builds it for main, tests and the benchmark. */
export interface Deps {
  config: Config;
  store: Store;
  clock: Clock;
  /** Present in sandbox mode only: the time control. */
  sandboxClock: AdjustableClock | undefined;
  /** Signs redirect results, session data and origin keys with a key derived from the server secret. */
  redirects: RedirectSigner;
  /** Encrypts stored card numbers and webhook secrets. */
  vault: CardVault;
  logger: Logger;
  /** The Prometheus metrics (GET /metrics). */
  metrics: Metrics;
  /** Reads uploaded APKs in the background. */
  android: JobQueue;
  /** Writes the request log the console shows, off the requests' path. */
  requestRecorder: RequestRecorder;
}
