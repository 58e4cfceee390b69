/**
 * The PostgreSQL store sends statements as soon as they are asked for (its connections pipeline):
 * BEGIN goes with a transaction's first statement without being awaited, and statements asked for
 * together share a round trip. What a caller relies on: a transaction stays all or nothing, also
 * when the statement that fails is one nobody awaited, and each caller gets its own answer.
 * PostgreSQL only.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { DEMO, seedDemoData } from '../../server/seed.js';
import { PostgresStore } from '../../server/store/engines/postgres.js';
import type { IdempotencyRecord } from '../../server/store/types.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';

const record = (key: string): IdempotencyRecord => ({
  credentialId: DEMO.companyCredentialId,
  companyId: DEMO.companyId,
  key,
  fingerprint: 'f',
  statusCode: 200,
  body: '{}',
  createdAt: new Date().toISOString(),
});

(TEST_ENGINE === 'postgres' ? describe : describe.skip)('PostgresStore', () => {
  let database: TestDatabase;
  let store: PostgresStore;

  beforeAll(async () => {
    database = await freshDatabase();
    store = await PostgresStore.open({
      url: database.config.databaseUrl!,
      poolSize: 4,
      statementTimeoutMs: 10_000,
      migrationsDir: join(process.cwd(), 'server', 'store', 'migrations', 'postgres'),
      hashApiKey: (key) => `h-${key}`,
    });
    await seedDemoData(store, new Date(), {});
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const stored = async (key: string) => (await database.rows('SELECT key FROM idempotency_keys WHERE key = ?', [key])).length;

  test('When a statement nobody awaited fails, then the transaction fails with its error and keeps nothing it wrote', async () => {
    await store.transaction((tx) => tx.idempotency.insert(record('taken')));
    const outcome = store.transaction(async (tx) => {
      await tx.idempotency.insert(record('first'));
      // Sent and left to the COMMIT (as BEGIN is left to the first statement): this one breaks a unique key.
      tx.idempotency.insert(record('taken')).catch(() => undefined);
      return 'answered';
    });
    await expect(outcome).rejects.toMatchObject({ code: '23505' });
    expect(await stored('first')).toBe(0);
    // The connection went back to the pool usable: the next transactions on every connection commit.
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((key) => store.transaction((tx) => tx.idempotency.insert(record(key)))));
    expect(await Promise.all(['a', 'b', 'c', 'd', 'e'].map(stored))).toEqual([1, 1, 1, 1, 1]);
  });

  test('When statements asked for together are answered, then each caller gets its own rows, in a transaction and outside one', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `together-${i}`);
    await store.transaction((tx) => Promise.all(keys.map((key) => tx.idempotency.insert(record(key)))));
    const inside = await store.transaction((tx) => Promise.all(keys.map((key) => tx.idempotency.get(DEMO.companyCredentialId, key))));
    const outside = await store.read((tx) => Promise.all(keys.map((key) => tx.idempotency.get(DEMO.companyCredentialId, key))));
    expect(inside.map((r) => r?.key)).toEqual(keys);
    expect(outside.map((r) => r?.key)).toEqual(keys);
  });

  test('When work throws after its statements were sent, then none of them is kept and a statement asked for later is refused, not run outside the transaction', async () => {
    let late: Promise<string> | undefined;
    const outcome = store.transaction(async (tx) => {
      await tx.idempotency.insert(record('thrown'));
      setTimeout(() => {
        late = tx.idempotency.insert(record('late')).then(
          () => 'ran',
          (error: Error) => error.message,
        );
      }, 50);
      throw new Error('refused');
    });
    await expect(outcome).rejects.toThrow('refused');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await late).toBe('a statement was sent after its transaction ended');
    expect(await stored('thrown')).toBe(0);
    expect(await stored('late')).toBe(0);
  });
});
