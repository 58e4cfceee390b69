/**
 * Vitest's globalSetup (`globalSetup: ['@payments-platform/sandbox/vitest/global-setup']`): one
 * sandbox for the run. Vitest runs it in its main process before the test workers start, so the
 * environment variables set here reach them; the function it returns is the teardown.
 */
import { exportToEnvironment } from './glue.js';
import { startSandbox } from './index.js';

export default async function setup(project?: { provide?: (key: string, value: unknown) => void }): Promise<() => Promise<void>> {
  const sandbox = await startSandbox();
  exportToEnvironment(sandbox);
  // Vitest 2 and later: also `inject('paymentsSandbox')` in the tests (the addresses and keys: what survives JSON).
  project?.provide?.('paymentsSandbox', JSON.parse(JSON.stringify(sandbox)) as unknown);
  return () => sandbox.stop();
}
