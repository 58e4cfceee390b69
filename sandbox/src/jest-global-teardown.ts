/** Jest's globalTeardown: stops the sandbox of '@payments-platform/sandbox/jest/global-setup' (Jest runs both in its parent process). */
import { SANDBOX_HANDLE } from './glue.js';
import type { Sandbox } from './index.js';

export default async function globalTeardown(): Promise<void> {
  const handle = globalThis as Record<symbol, Sandbox | undefined>;
  await handle[SANDBOX_HANDLE]?.stop();
  delete handle[SANDBOX_HANDLE];
}
