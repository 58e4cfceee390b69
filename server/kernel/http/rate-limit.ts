import { ApiError, ERR_RATE_LIMITED } from '../errors.js';

/**
 * A token bucket per key: `perMinute` requests a minute, refilled continuously. Real time, not the
 * sandbox clock: moving the clock must not hand out requests.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `key`, or throws 429 with the seconds to wait. */
  take(key: string): void {
    const now = this.now();
    const refill = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * refill);
    bucket.at = now;
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / refill / 1000));
      this.buckets.set(key, bucket);
      throw new ApiError(ERR_RATE_LIMITED, {
        message: `Rate limit of ${this.perMinute} requests per minute reached for this operation; retry after ${retryAfter} seconds`,
        retryAfter,
      });
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
  }
}
