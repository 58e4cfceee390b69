import type { Store } from '../../store/tx.js';
import { ApiError, ERR_RATE_LIMITED } from '../errors.js';

/**
 * A token bucket per key: `perMinute` requests a minute, refilled continuously. Real time, not the
 * sandbox clock: moving the clock must not hand out requests. The buckets live in the store, so
 * every server instance sharing a database draws from the same one.
 */
export class RateLimiter {
  constructor(
    private readonly store: Store,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `key`, or throws 429 with the seconds to wait. */
  async take(key: string): Promise<void> {
    const refill = this.perMinute / 60_000;
    const retryAfter = await this.store.transaction(async (tx) => {
      const now = this.now();
      const bucket = await tx.rateLimits.lock(key, this.perMinute, now);
      const tokens = Math.min(this.perMinute, bucket.tokens + Math.max(0, now - bucket.atMs) * refill);
      // A refused request leaves the bucket as it was (it refills from its last change all the same).
      if (tokens < 1) return Math.max(1, Math.ceil((1 - tokens) / refill / 1000));
      await tx.rateLimits.put(key, { tokens: tokens - 1, atMs: now });
      return undefined;
    });
    if (retryAfter !== undefined)
      throw new ApiError(ERR_RATE_LIMITED, {
        message: `Rate limit of ${this.perMinute} requests per minute reached for this operation; retry after ${retryAfter} seconds`,
        retryAfter,
      });
  }
}
