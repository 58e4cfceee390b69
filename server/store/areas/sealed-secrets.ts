import type { Db } from '../db.js';

/**
 * Secrets kept in the database, sealed by the caller (kernel/crypto/shared-secrets.ts): this
 * module stores and returns the sealed text only, and never sees a secret.
 */
export function sealedSecretsStore(db: Db) {
  const { q } = db;
  return {
    /**
     * Stores `sealed` under `name` unless a row of that name exists. Run in the same transaction as
     * the `get` that follows: on PostgreSQL an insert racing another instance's waits for it to
     * commit and then does nothing, and the read after it sees the row that won.
     */
    insertIfAbsent: async (name: string, sealed: string, createdAt: string): Promise<void> =>
      void (await q
        .insertInto('sealedSecrets')
        .values({ name, sealed, createdAt })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute()),
    get: async (name: string): Promise<string | undefined> =>
      (await q.selectFrom('sealedSecrets').select('sealed').where('name', '=', name).executeTakeFirst())?.sealed,
  };
}

export type SealedSecretsStore = ReturnType<typeof sealedSecretsStore>;
