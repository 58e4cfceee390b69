import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { Store } from '../../store/tx.js';
import { processedApp } from './android.domain.js';

/**
 * Reads uploaded APKs outside the request, one at a time. Its queue is the store itself (apps in
 * `processing`), so apps uploaded before a crash are read when `recover()` runs at start-up.
 */
export class AndroidProcessor {
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { store: Store; clock: Clock; logger: Logger }) {}

  enqueue(id: string): void {
    this.chain = this.chain
      .then(() => this.process(id))
      .catch((error: unknown) => {
        this.deps.logger.error('android app processing failed', { id, error: error instanceof Error ? error.message : String(error) });
      });
  }

  async recover(): Promise<void> {
    for (const app of await this.deps.store.transaction((tx) => tx.android.processingApps())) this.enqueue(app.id);
  }

  /** Resolves when everything queued so far is processed (tests and shutdown). */
  idle(): Promise<void> {
    return this.chain;
  }

  private async process(id: string): Promise<void> {
    const app = await this.deps.store.transaction((tx) => tx.android.getApp(id));
    if (!app || app.status !== 'processing') return;
    const done = await processedApp(app, this.deps.clock.now(app.companyId));
    await this.deps.store.transaction(async (tx) => {
      const current = await tx.android.getApp(id);
      if (current?.status === 'processing') await tx.android.updateApp(done);
    });
  }
}
