import type { AdjustableClock, Clock } from './clock.js';
import type { RedirectSigner } from './checkout/redirects.js';
import type { Config } from './config.js';
import type { CardVault } from './crypto/card-vault.js';
import type { Logger } from './logger.js';
import type { AndroidProcessor } from './management/android-processor.js';
import type { Store } from './store/types.js';

/** Everything the app needs from outside; main.ts builds it, tests build their own. */
export interface Deps {
  config: Config;
  store: Store;
  clock: Clock;
  /** Present in sandbox mode only: the time control. */
  sandboxClock: AdjustableClock | undefined;
  redirects: RedirectSigner;
  /** Encrypts stored card numbers. */
  vault: CardVault;
  logger: Logger;
  /** Reads uploaded APKs in the background. */
  android: AndroidProcessor;
}
