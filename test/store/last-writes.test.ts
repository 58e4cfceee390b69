/**
 * A transaction's last write (`tx.beforeCommit`): made after the work has returned, committed with
 * it or not at all, and done before `Store.transaction` resolves, on either engine. PostgreSQL
 * sends it with COMMIT without waiting for its answer; a write that did not send its statement at
 * once is waited for instead, since sent after COMMIT it would be refused.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DEMO } from '../../server/seed.js';
import type { IdempotencyRecord } from '../../server/store/types.js';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let database: TestDatabase;
let server: TestServer;
beforeAll(async () => {
  // A file on SQLite (not memory): its reads then have a connection of their own, as in production.
  database = await freshDatabase();
  server = await startServer(database.config);
});
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const record = (key: string): IdempotencyRecord => ({
  credentialId: DEMO.companyCredentialId,
  companyId: DEMO.companyId,
  key,
  fingerprint: 'f',
  statusCode: 200,
  body: '{}',
  createdAt: new Date().toISOString(),
});

const stored = (key: string) => server.store.read(async (tx) => (await tx.idempotency.get(DEMO.companyCredentialId, key)) !== undefined);

describe('A transaction’s last write (tx.beforeCommit)', () => {
  test('When work leaves a write for last, then it runs after the work returned and is committed with it', async () => {
    const order: string[] = [];
    const answer = await server.store.transaction(async (tx) => {
      await tx.idempotency.insert(record('work-1'));
      tx.beforeCommit(async () => {
        order.push('last write');
        await tx.idempotency.insert(record('last-1'));
      });
      order.push('work returned');
      return 'answered';
    });
    expect(answer).toBe('answered');
    expect(order).toEqual(['work returned', 'last write']);
    expect([await stored('work-1'), await stored('last-1')]).toEqual([true, true]);
  });

  test('When the last write fails, then the transaction fails with its error and keeps nothing of the work', async () => {
    await server.store.transaction((tx) => tx.idempotency.insert(record('taken-2')));
    const outcome = server.store.transaction(async (tx) => {
      await tx.idempotency.insert(record('work-2'));
      // Breaks the unique key of (credential, key).
      tx.beforeCommit(() => tx.idempotency.insert(record('taken-2')));
      return 'answered';
    });
    await expect(outcome).rejects.toMatchObject({ message: expect.stringMatching(/unique|duplicate/i) });
    expect(await stored('work-2')).toBe(false);
    // The store goes on: the next transaction commits.
    await server.store.transaction((tx) => tx.idempotency.insert(record('after-2')));
    expect(await stored('after-2')).toBe(true);
  });

  test('When the last write awaits something before its statement, then it is still committed with the work', async () => {
    await server.store.transaction(async (tx) => {
      await tx.idempotency.insert(record('work-3'));
      tx.beforeCommit(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.idempotency.insert(record('late-3'));
      });
    });
    expect([await stored('work-3'), await stored('late-3')]).toEqual([true, true]);
  });

  test('When the work throws after leaving a write for last, then the write is not made', async () => {
    let made = false;
    const outcome = server.store.transaction(async (tx) => {
      tx.beforeCommit(async () => {
        made = true;
        await tx.idempotency.insert(record('never-4'));
      });
      throw new Error('refused');
    });
    await expect(outcome).rejects.toThrow('refused');
    expect(made).toBe(false);
    expect(await stored('never-4')).toBe(false);
  });

  test('When a read asks for a last write, then it is refused: a read has no commit', async () => {
    await expect(server.store.read((tx) => Promise.resolve(tx.beforeCommit(() => tx.idempotency.insert(record('read-5')))))).rejects.toThrow(/beforeCommit/);
  });
});
