/**
 * On PostgreSQL the server runs its statements as named (prepared) statements, each planned once
 * per connection. A newer instance's migration may add a column to a table those statements select
 * whole while this instance keeps running (a rolling deploy): PostgreSQL then refuses the cached
 * plans ("cached plan must not change result type"). The server prepares its statements again and
 * the requests succeed. PostgreSQL only: SQLite prepares per connection and re-prepares by itself.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

(TEST_ENGINE === 'postgres' ? describe : describe.skip)('When a migration changes a table under a running PostgreSQL server', () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await freshDatabase();
    server = await startServer({ ...database.config });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${server.checkoutUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const capture = (pspReference: string) =>
    post(`/payments/${pspReference}/captures`, { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } });

  test('then requests whose statements read the changed tables whole (the API key, the payment) still succeed, and their writes are stored once', async () => {
    // Every connection of the pool prepares the statements of an authorise and a capture.
    const payments = await Promise.all(Array.from({ length: 12 }, () => post('/payments', buildPaymentRequest())));
    expect(payments.map((r) => r.status)).toEqual(Array(12).fill(200));
    const references = await Promise.all(payments.map(async (r) => ((await r.json()) as { pspReference: string }).pspReference));
    expect((await Promise.all(references.slice(0, 6).map(capture))).map((r) => r.status)).toEqual(Array(6).fill(201));

    const migration = new pg.Client({ connectionString: database.config.databaseUrl });
    await migration.connect();
    try {
      await migration.query('ALTER TABLE api_keys ADD COLUMN note TEXT');
      await migration.query('ALTER TABLE payments ADD COLUMN note TEXT');
    } finally {
      await migration.end();
    }

    const after = await Promise.all(references.slice(6).map(capture));
    expect(after.map((r) => r.status)).toEqual(Array(6).fill(201));
    const captured = await database.rows(
      'SELECT payment_psp_reference AS psp, COUNT(*) AS n FROM modifications WHERE kind = ? GROUP BY payment_psp_reference',
      ['capture'],
    );
    expect(new Map(captured.map((row) => [row.psp, row.n]))).toEqual(new Map(references.map((psp) => [psp, 1])));
    const more = await Promise.all(Array.from({ length: 6 }, () => post('/payments', buildPaymentRequest())));
    expect(more.map((r) => r.status)).toEqual(Array(6).fill(200));
  }, 60_000);
});
