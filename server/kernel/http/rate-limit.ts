import type { Store } from '../../store/tx.js';
import { ApiError, ERR_RATE_LIMITED } from '../errors.js';

interface Bucket {
  tokens: number;
  atMs: number;
}

/**
 * A token bucket per key: `perMinute` requests a minute, refilled continuously. Real time, not the
 * sandbox clock: moving the clock must not hand out requests. When other processes share the
 * store the buckets are rows, taken from by one conditional upsert, so every instance draws from
 * the same one; a store of this process alone leaves them to its memory (no write per request).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly store: Store,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `key`, or throws 429 with the seconds to wait (at once when the buckets are in memory: nothing to wait for). */
  take(key: string): void | Promise<void> {
    if (!this.store.sharedBetweenProcesses) {
      const { next, retryAfter } = this.takeFrom(this.buckets.get(key) ?? { tokens: this.perMinute, atMs: this.now() });
      if (next) this.buckets.set(key, next);
      return this.refuse(retryAfter);
    }
    return this.takeShared(key);
  }

  private async takeShared(key: string): Promise<void> {
    // One statement, no transaction of its own: the refill and the take happen in the database.
    const refused = await this.store.statement((tx) => tx.rateLimits.take(key, this.perMinute, this.perMinute / 60_000, this.now()));
    if (refused) this.refuse(this.takeFrom(refused).retryAfter ?? 1);
  }

  private refuse(retryAfter: number | undefined): void {
    if (retryAfter !== undefined)
      throw new ApiError(ERR_RATE_LIMITED, {
        message: `Rate limit of ${this.perMinute} requests per minute reached for this operation; retry after ${retryAfter} seconds`,
        retryAfter,
      });
  }

  /** The bucket after taking a token, or the seconds to wait (then the bucket stays as it was). */
  private takeFrom(bucket: Bucket): { next?: Bucket; retryAfter?: number } {
    const now = this.now();
    const refill = this.perMinute / 60_000;
    const tokens = Math.min(this.perMinute, bucket.tokens + Math.max(0, now - bucket.atMs) * refill);
    if (tokens < 1) return { retryAfter: Math.max(1, Math.ceil((1 - tokens) / refill / 1000)) };
    return { next: { tokens: tokens - 1, atMs: now } };
  }
}
