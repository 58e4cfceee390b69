import { sql } from 'kysely';
import type { Db } from '../db.js';

export interface Bucket {
  tokens: number;
  atMs: number;
}

/** The rate limits' token buckets, one row per key (PostgreSQL: shared by every instance). */
export function rateLimitsStore(db: Db) {
  const { q } = db;
  return {
    /**
     * Takes a token from the bucket of `key` in one statement: a new bucket starts full
     * (`capacity`), an existing one is refilled by `refillPerMs` for the time since it was last
     * taken from. Returns undefined when a token was taken, else the bucket as it stands (the row
     * is not changed). Concurrent takes of one key, on any instance, queue on the row's lock.
     */
    take: async (key: string, capacity: number, refillPerMs: number, nowMs: number): Promise<Bucket | undefined> => {
      const available = sql<number>`least(${capacity}::double precision, b.tokens + greatest(0, ${nowMs}::bigint - b.at_ms) * ${refillPerMs}::double precision)`;
      const taken = await sql<{ tokens: number }>`
        insert into rate_limits as b (key, tokens, at_ms) values (${key}, ${capacity - 1}, ${nowMs})
        on conflict (key) do update set tokens = ${available} - 1, at_ms = ${nowMs}
        where ${available} >= 1
        returning b.tokens`.execute(q);
      if (taken.rows.length > 0) return undefined;
      const row = await q.selectFrom('rateLimits').select(['tokens', 'atMs']).where('key', '=', key).executeTakeFirstOrThrow();
      return { tokens: Number(row.tokens), atMs: Number(row.atMs) };
    },
  };
}

export type RateLimitsStore = ReturnType<typeof rateLimitsStore>;
