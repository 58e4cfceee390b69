/**
 * Jest's globalSetup: one sandbox for the whole run (`globalSetup: '@payments-platform/sandbox/jest/global-setup'`).
 * Jest runs it in its parent process before it starts the workers, so the environment variables
 * set here reach every test file. Pair it with '@payments-platform/sandbox/jest/global-teardown'.
 */
import { exportToEnvironment, SANDBOX_HANDLE } from './glue.js';
import { type Sandbox, startSandbox } from './index.js';

export default async function globalSetup(): Promise<void> {
  const sandbox = await startSandbox();
  exportToEnvironment(sandbox);
  (globalThis as Record<symbol, Sandbox>)[SANDBOX_HANDLE] = sandbox;
}
