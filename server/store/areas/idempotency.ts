import type { Db } from '../db.js';
import { prepared, preparedInsert } from '../prepared.js';
import type { IdempotencyRecord } from '../records/accounts.js';

// A row is the record: its columns are the record's fields (camelCase in code) and no value changes shape.
// Every request with an Idempotency-Key looks its key up: compiled once (see prepared.ts).
const insertRow = preparedInsert('idempotencyKeys');
const recordByKey = prepared(({ q }, credentialId: string, key: string) =>
  q.selectFrom('idempotencyKeys').selectAll().where('credentialId', '=', credentialId).where('key', '=', key),
);
// Every POST claims its key and records its answer: compiled once as well.
const claimRow = preparedInsert('idempotencyKeys', 'key', ['credentialId', 'key']);
const completeRow = prepared(({ q }, credentialId: string, key: string, statusCode: number, body: string) =>
  q.updateTable('idempotencyKeys').set({ statusCode, body }).where('credentialId', '=', credentialId).where('key', '=', key),
);

/** The responses kept for idempotency keys, per credential and key. */
export function idempotencyStore(db: Db) {
  const { q } = db;
  return {
    get: (credentialId: string, key: string): Promise<IdempotencyRecord | undefined> => recordByKey.first(db, credentialId, key),
    insert: async (record: IdempotencyRecord): Promise<void> => void (await insertRow(db, record)),
    /**
     * Claims a key: inserts the record unless one exists, and says whether it did. A concurrent
     * claim of the same key on another connection waits until the first transaction ends, then
     * finds the record (so of two instances racing, exactly one does the work).
     */
    claim: async (record: IdempotencyRecord): Promise<boolean> => {
      return (await claimRow(db, record)) !== undefined;
    },
    /** Records the response of a claimed key. Its statement is sent before this returns (Commands leaves it to COMMIT unawaited). */
    complete: (credentialId: string, key: string, statusCode: number, body: string): Promise<void> => completeRow.run(db, credentialId, key, statusCode, body),
    delete: async (credentialId: string, key: string): Promise<void> =>
      void (await q.deleteFrom('idempotencyKeys').where('credentialId', '=', credentialId).where('key', '=', key).execute()),
    /** Deletes the company's records created before `before`; returns how many. */
    purge: async (companyId: string, before: string): Promise<number> => {
      const result = await q.deleteFrom('idempotencyKeys').where('companyId', '=', companyId).where('createdAt', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof idempotencyStore>;
