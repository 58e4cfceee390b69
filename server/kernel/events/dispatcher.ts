import type { Clock } from '../clock.js';
import type { Config } from '../../config.js';
import type { CardVault } from '../crypto/card-vault.js';
import type { Logger } from '../logger.js';
import { maskCardNumbers } from '../redaction.js';
import type { Delivery } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';
import { idempotencyCutoff } from '../idempotency.js';
import { toNotification } from './notification.js';
import { sendNotification, type SendOptions, type SendResult } from './sender.js';

export interface RetryPolicy {
  immediateRetries: number;
  scheduleSeconds: number[];
  giveUpAfterSeconds: number;
}

/**
 * When a failed delivery is tried next, or undefined to give up. The first `immediateRetries`
 * failures retry at once; then the schedule, its last step repeating, until the give-up age.
 */
export function nextAttemptAfter(failures: number, eventCreatedAt: Date, now: Date, policy: RetryPolicy): Date | undefined {
  if (now.getTime() - eventCreatedAt.getTime() >= policy.giveUpAfterSeconds * 1000) return undefined;
  if (failures <= policy.immediateRetries) return now;
  const step = Math.min(failures - policy.immediateRetries - 1, policy.scheduleSeconds.length - 1);
  return new Date(now.getTime() + (policy.scheduleSeconds[step] ?? 0) * 1000);
}

/**
 * Work an area registers to be done on every round, before deliveries (checkout settles the
 * automatic captures that fell due): the kernel runs it without knowing what it is.
 */
export type DueWork = (store: Store, clock: Clock) => Promise<void>;

export interface DispatcherDeps {
  store: Store;
  clock: Clock;
  vault: CardVault;
  logger: Logger;
  dueWork?: DueWork[];
  /** Told of every delivery attempt's outcome (the metrics). */
  onAttempt?: (outcome: 'accepted' | 'rejected' | 'error') => void;
}

/**
 * Delivers the event outbox. Each webhook has its own queue: only its first pending event is
 * tried, so events arrive in order and a failing one holds back the later ones until it is
 * accepted or given up. Webhooks are served independently, so a slow receiver (up to its
 * timeout) never delays another. Once a webhook's head is accepted, its next due event goes out
 * at once rather than on the next round: a backlog drains as fast as the receiver answers. Every
 * attempt is recorded; state lives in the store, so a restarted process carries on where the last
 * one stopped (at least once).
 */
export class Dispatcher {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly running = new Map<string, Promise<void>>();
  private ticking: Promise<void> | undefined;
  private purgedAt = 0;
  private purgedFor = '';
  /** Wakes the deliveries waiting out a sandbox delay, so that stopping does not wait for them. */
  private readonly sleepers = new Set<() => void>();

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: SendOptions & RetryPolicy & { pollMs: number; leaseMarginMs: number; sandboxFaults: boolean },
  ) {}

  start(): void {
    this.stopped = false;
    this.timer ??= setInterval(() => void this.tick(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopped = true;
    for (const wake of this.sleepers) wake();
    await this.ticking;
    await Promise.all(this.running.values());
  }

  /** One round: apply due automatic captures, then start the due head of every idle webhook queue. */
  tick(): Promise<void> {
    this.ticking ??= this.round().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /** Runs rounds until nothing is due or running (tests and shutdown use it). */
  async drain(maxRounds = 100): Promise<void> {
    for (let i = 0; i < maxRounds; i++) {
      await this.tick();
      if (this.running.size === 0) {
        if ((await this.dueDeliveries()).length === 0) return;
      }
      await Promise.all(this.running.values());
    }
  }

  /**
   * The head deliveries that are due, each on its own company's clock. The store is asked for
   * everything due by the latest company time, then each is held to its company's.
   */
  private async dueDeliveries(webhookId?: string): Promise<Delivery[]> {
    const { store, clock } = this.deps;
    const due = await store.read(async (tx) => {
      await clock.refresh(tx);
      return tx.outbox.dueDeliveries(clock.latest().toISOString(), webhookId);
    });
    return due.filter((d) => d.nextAttemptAt <= clock.now(d.companyId ?? '').toISOString());
  }

  /**
   * Deletes idempotency records older than 31 days on each company's clock: at most once a
   * minute of real time, and at once after a company's clock moved.
   */
  async purgeIdempotencyRecords(): Promise<number> {
    const { store, clock } = this.deps;
    return store.transaction(async (tx) => {
      let purged = 0;
      for (const { companyId } of await tx.companies.clockOffsets()) purged += await tx.idempotency.purge(companyId, idempotencyCutoff(clock.now(companyId)));
      return purged;
    });
  }

  private async purgeWhenDue(): Promise<void> {
    const clocks = await this.deps.store.read((tx) => tx.companies.clockOffsets());
    const signature = clocks.map((c) => `${c.companyId}:${c.offsetSeconds}`).join(',');
    if (signature === this.purgedFor && Date.now() - this.purgedAt < 60_000) return;
    await this.purgeIdempotencyRecords();
    this.purgedAt = Date.now();
    this.purgedFor = signature;
  }

  private async round(): Promise<void> {
    try {
      await this.purgeWhenDue();
      const { store, clock } = this.deps;
      await store.read((tx) => clock.refresh(tx));
      for (const work of this.deps.dueWork ?? []) await work(store, clock);
      const due = await this.dueDeliveries();
      for (const delivery of due) {
        if (this.running.has(delivery.webhookId)) continue;
        const attempt = this.serve(delivery).finally(() => this.running.delete(delivery.webhookId));
        this.running.set(delivery.webhookId, attempt);
      }
    } catch (error) {
      this.deps.logger.error('webhook dispatch round failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Delivers the webhook's head, then each next due event as long as the receiver accepts them. */
  private async serve(head: Delivery): Promise<void> {
    let delivery: Delivery | undefined = head;
    while (delivery && (await this.deliver(delivery)) && !this.stopped) delivery = (await this.dueDeliveries(delivery.webhookId))[0];
  }

  /** One attempt; true when the receiver accepted the event. */
  private async deliver(delivery: Delivery): Promise<boolean> {
    const { store, clock, vault } = this.deps;
    // Leased first (committed): another instance that read the same due delivery skips it; if
    // this process dies mid-send, the lease lapses and another instance delivers the event. The
    // event, the webhook and its sandbox faults are read in the same transaction (one commit per
    // attempt, not two); an attempt failed on purpose is spent there too, so it is spent once.
    const loaded = await store.transaction(async (tx) => {
      // Faults on purpose are a sandbox control: production mode does not read them on each attempt.
      const faults = this.options.sandboxFaults ? await tx.webhooks.faults(delivery.webhookId) : undefined;
      if (faults && faults.outOfOrder > 0) {
        await reverseBatch(tx, delivery.webhookId, faults.outOfOrder);
        return undefined; // the next round takes the new head
      }
      const sends = faults?.duplicate ? 2 : 1;
      const leaseMs = (faults?.delaySeconds ?? 0) * 1000 + sends * this.options.timeoutMs + this.options.leaseMarginMs;
      if (!(await tx.outbox.lease(delivery, new Date(Date.now() + leaseMs).toISOString(), new Date().toISOString()))) return undefined;
      const failOnPurpose = (faults?.failNextAttempts ?? 0) > 0 && (await tx.webhooks.spendFailure(delivery.webhookId));
      return { event: await tx.outbox.getEvent(delivery.eventId), webhook: await tx.webhooks.get(delivery.webhookId), faults, failOnPurpose };
    });
    if (!loaded?.event || !loaded.webhook) return false;
    const { event, webhook, faults, failOnPurpose } = loaded;
    const hmacKey = webhook.encryptedHmacKey ? vault.decrypt(webhook.encryptedHmacKey) : undefined;
    const payload = JSON.stringify(toNotification(event, hmacKey));
    const send = () => sendNotification(webhook, event.merchantAccount, payload, vault, this.options);
    let results: SendResult[];
    if (failOnPurpose) {
      results = [FAILED_ON_PURPOSE];
    } else {
      // Stopped meanwhile: nothing is sent; the lease lapses and the event is sent later (at least once).
      if (faults && faults.delaySeconds > 0 && !(await this.sleep(faults.delaySeconds * 1000))) return false;
      const first = await send();
      // A duplicate is the same body again once the receiver accepted it; its outcome decides nothing.
      results = first.outcome === 'accepted' && faults?.duplicate ? [first, await send()] : [first];
    }
    const result = results[0]!;
    for (const [i, r] of results.entries()) {
      this.deps.onAttempt?.(r.outcome);
      // The line names the request that caused the event (its X-Request-Id; none for the server's
      // own work), the event and the webhook.
      this.deps.logger[r.outcome === 'accepted' ? 'info' : 'warn']('webhook delivery', {
        requestId: event.requestId ?? undefined,
        eventId: event.id,
        eventCode: event.eventCode,
        pspReference: event.pspReference,
        webhookId: webhook.id,
        merchantAccount: event.merchantAccount,
        attempt: delivery.attempts + 1,
        ...(i > 0 && { duplicate: true }),
        outcome: r.outcome,
        status: r.statusCode ?? undefined,
        error: r.error ?? undefined,
        ms: r.durationMs,
      });
    }
    return store.transaction(async (tx) => {
      const current = await tx.outbox.getDelivery(delivery.webhookId, delivery.eventId);
      // Sent again or removed meanwhile: this attempt no longer decides anything.
      if (!current || current.status !== 'pending' || current.queueSeq !== delivery.queueSeq) return false;
      const now = clock.now(webhook.companyId);
      for (const r of results) {
        await tx.outbox.insertAttempt({
          webhookId: webhook.id,
          eventId: event.id!,
          attemptedAt: now.toISOString(),
          outcome: r.outcome,
          statusCode: r.statusCode,
          error: r.error,
          durationMs: r.durationMs,
          // What the console shows of the answer: its start, card numbers masked (the receiver's text is not ours to trust).
          responseExcerpt: r.statusCode === null ? null : maskCardNumbers(r.body.slice(0, RESPONSE_EXCERPT_CHARS)),
        });
      }
      const stored = await tx.webhooks.get(webhook.id);
      if (result.outcome === 'accepted') {
        await tx.outbox.updateDelivery({ ...current, status: 'delivered', attempts: current.attempts + 1, updatedAt: now.toISOString() });
        if (stored?.hasError) await tx.webhooks.update({ ...stored, hasError: false, updatedAt: now.toISOString() });
        return true;
      }
      const failures = current.attempts + 1;
      const next = nextAttemptAfter(failures, new Date(event.createdAt), now, this.options);
      await tx.outbox.updateDelivery({
        ...current,
        attempts: failures,
        status: next ? 'pending' : 'failed',
        nextAttemptAt: (next ?? now).toISOString(),
        updatedAt: now.toISOString(),
      });
      if (stored && !stored.hasError) await tx.webhooks.update({ ...stored, hasError: true, updatedAt: now.toISOString() });
      return false;
    });
  }

  /** Waits `ms` of real time: true, or false when the dispatcher stopped first. */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.sleepers.delete(wake);
        resolve(true);
      }, ms);
      this.sleepers.add(wake);
    });
  }
}

/** How much of a receiver's answer each attempt keeps. */
const RESPONSE_EXCERPT_CHARS = 500;

/** An attempt the sandbox fails on purpose (`failNextAttempts`): not sent, recorded as a connection failure. */
const FAILED_ON_PURPOSE: SendResult = {
  outcome: 'error',
  statusCode: null,
  error: 'not sent: failed on purpose (sandbox fault failNextAttempts)',
  durationMs: 0,
  body: '',
};

/**
 * The sandbox's out-of-order fault: the webhook's first `size` pending deliveries swap their
 * queue positions, the newest taking the oldest's, so they go out newest first; the fault ends
 * with it. The fault is ended with a conditional update first, so of two instances only one
 * reverses the batch (the other's update waits for the first's commit, then finds nothing).
 */
async function reverseBatch(tx: Tx, webhookId: string, size: number): Promise<void> {
  if (!(await tx.webhooks.endOutOfOrder(webhookId, size))) return;
  const batch = await tx.outbox.pendingDeliveries(webhookId, size);
  const positions = batch.map((d) => d.queueSeq);
  for (const [i, d] of batch.entries()) await tx.outbox.moveDelivery(webhookId, d.eventId, positions[positions.length - 1 - i]!);
}

/** The dispatcher's settings from the configuration; webhooks pass the same outbound guard as /forward. */
export function dispatcherOptionsFrom(config: Config) {
  return {
    pollMs: config.webhookPollMs,
    timeoutMs: config.webhookTimeoutMs,
    leaseMarginMs: config.webhookLeaseMarginMs,
    immediateRetries: config.webhookImmediateRetries,
    scheduleSeconds: config.webhookRetryScheduleSeconds,
    giveUpAfterSeconds: config.webhookGiveUpAfterSeconds,
    allowList: config.forwardAllowList,
    allowPrivate: config.forwardAllowPrivateNetworks,
    allowLoopback: config.webhookAllowLoopback,
    sandboxFaults: config.mode === 'sandbox',
  };
}
