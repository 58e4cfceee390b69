import type { Store } from '../../store/tx.js';
import { ApiError, ERR_RATE_LIMITED } from '../errors.js';

interface Bucket {
  tokens: number;
  atMs: number;
}

/**
 * A token bucket per key: `perMinute` requests a minute, refilled continuously. Real time, not the
 * sandbox clock: moving the clock must not hand out requests. On PostgreSQL the buckets are rows,
 * locked while a token is taken, so every instance sharing the database draws from the same one;
 * an SQLite file belongs to one process, whose memory holds them (no write per request).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly store: Store,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `key`, or throws 429 with the seconds to wait (at once on SQLite: nothing to wait for). */
  take(key: string): void | Promise<void> {
    if (this.store.engine === 'sqlite')
      return this.refuse(this.takeFrom(this.buckets.get(key) ?? { tokens: this.perMinute, atMs: this.now() }, (bucket) => this.buckets.set(key, bucket)));
    return this.takeShared(key);
  }

  private async takeShared(key: string): Promise<void> {
    const retryAfter = await this.store.transaction(async (tx) => {
      const pending: Bucket[] = [];
      const wait = this.takeFrom(await tx.rateLimits.lock(key, this.perMinute, this.now()), (bucket) => pending.push(bucket));
      for (const bucket of pending) await tx.rateLimits.put(key, bucket);
      return wait;
    });
    this.refuse(retryAfter);
  }

  private refuse(retryAfter: number | undefined): void {
    if (retryAfter !== undefined)
      throw new ApiError(ERR_RATE_LIMITED, {
        message: `Rate limit of ${this.perMinute} requests per minute reached for this operation; retry after ${retryAfter} seconds`,
        retryAfter,
      });
  }

  /** Refills the bucket and takes a token (saving it), or returns the seconds to wait (leaving it as it was). */
  private takeFrom(bucket: Bucket, save: (bucket: Bucket) => void): number | undefined {
    const now = this.now();
    const refill = this.perMinute / 60_000;
    const tokens = Math.min(this.perMinute, bucket.tokens + Math.max(0, now - bucket.atMs) * refill);
    if (tokens < 1) return Math.max(1, Math.ceil((1 - tokens) / refill / 1000));
    save({ tokens: tokens - 1, atMs: now });
    return undefined;
  }
}
