import { Router } from 'express';
import type { Store } from '../../store/tx.js';

export interface HealthOptions {
  /** True once the process is shutting down: it is alive but no longer ready for new work. */
  stopping?: () => boolean;
  /** How long the store may take to answer before the process counts as not ready. */
  timeoutMs?: number;
}

/**
 * Liveness and readiness. `/health/live` answers while the process runs. `/health/ready` asks the
 * store: a read of the company clocks and the outbox touches columns the latest migrations made
 * (the store migrates before it opens, so an answer means the schema is current); a closed or
 * failing store, a slow one or a shutdown answers 503. `/health` stays as the plain probe the
 * tests and the benchmark use.
 */
export function health(store: Store, options: HealthOptions = {}): Router {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const router = Router();
  router.get(['/health', '/health/live'], (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/health/ready', async (_req, res) => {
    if (options.stopping?.()) {
      res.status(503).json({ status: 'unavailable', reason: 'shutting down' });
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const probe = store.read(async (tx) => {
        await tx.companies.clockOffsets();
        await tx.outbox.countPending();
      });
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the store did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      await Promise.race([probe, late]);
      res.json({ status: 'ok', store: 'ok' });
    } catch (error) {
      res.status(503).json({ status: 'unavailable', reason: error instanceof Error ? error.message : 'the store failed' });
    } finally {
      clearTimeout(timer);
    }
  });
  return router;
}
