import { type Db, forUpdate } from '../db.js';

export interface Bucket {
  tokens: number;
  atMs: number;
}

/** The rate limits' token buckets, one row per key, read locked and written back. */
export function rateLimitsStore(db: Db) {
  const { q } = db;
  return {
    /**
     * The bucket of `key`, made full (`capacity`) if it is new, and locked until the transaction
     * ends: concurrent requests of one key on any instance take their tokens one after another.
     */
    lock: async (key: string, capacity: number, nowMs: number): Promise<Bucket> => {
      await q
        .insertInto('rate_limits')
        .values({ key, tokens: capacity, at_ms: nowMs })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await forUpdate(db, q.selectFrom('rate_limits').select(['tokens', 'at_ms']).where('key', '=', key)).executeTakeFirstOrThrow();
      return { tokens: Number(row.tokens), atMs: Number(row.at_ms) };
    },
    put: async (key: string, bucket: Bucket): Promise<void> =>
      void (await q.updateTable('rate_limits').set({ tokens: bucket.tokens, at_ms: bucket.atMs }).where('key', '=', key).execute()),
  };
}

export type RateLimitsStore = ReturnType<typeof rateLimitsStore>;
