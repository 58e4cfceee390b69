/**
 * A statement that runs past PostgreSQL's statement timeout (DATABASE_STATEMENT_TIMEOUT_MS): here
 * one that waits for a lock another connection holds. The request answers 503 in its area's
 * error shape, and nothing it did before the wait stays. PostgreSQL only: SQLite has one writer
 * and no statement timeout.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

const TIMEOUT_MS = 1500;

(TEST_ENGINE === 'postgres' ? describe : describe.skip)('When a statement runs past the PostgreSQL statement timeout', () => {
  let database: TestDatabase;
  let server: TestServer;
  /** Another connection to the same database, the way an operator's session or a long job would hold locks. */
  let locker: pg.Client;

  beforeAll(async () => {
    database = await freshDatabase();
    server = await startServer({ ...database.config, databaseStatementTimeoutMs: TIMEOUT_MS });
    locker = new pg.Client({ connectionString: database.config.databaseUrl });
    await locker.connect();
  }, 60_000);
  afterAll(async () => {
    await locker?.end();
    await server?.stop();
    await database?.drop();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.checkoutUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** Runs `work` while `lock` (SQL) holds in the locker's open transaction; the lock is released after. */
  async function whileLocked<T>(lock: string, parameters: unknown[], work: () => Promise<T>): Promise<T> {
    await locker.query('BEGIN');
    try {
      await locker.query(lock, parameters);
      return await work();
    } finally {
      await locker.query('ROLLBACK');
    }
  }

  test('then a capture waiting on its locked payment answers 503 in the checkout shape, its Idempotency-Key claim is gone, and the same request succeeds once the lock is released', async () => {
    const payment = await post('/payments', buildPaymentRequest());
    expect(payment.status).toBe(200);
    const { pspReference } = (await payment.json()) as { pspReference: string };
    const capture = () =>
      post(
        `/payments/${pspReference}/captures`,
        { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } },
        { 'Idempotency-Key': 'timeout-1' },
      );

    // On PostgreSQL the key is claimed (a row inserted) before the capture locks its payment and waits.
    const refused = await whileLocked('SELECT 1 FROM payments WHERE psp_reference = $1 FOR UPDATE', [pspReference], capture);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ status: 503, errorCode: '905', errorType: 'internal' });
    expect(await database.rows('SELECT key FROM idempotency_keys WHERE key = ?', ['timeout-1'])).toEqual([]);
    expect(await database.rows('SELECT psp_reference FROM modifications WHERE payment_psp_reference = ?', [pspReference])).toEqual([]);
    expect(await database.rows('SELECT captured_value FROM payments WHERE psp_reference = ?', [pspReference])).toEqual([{ captured_value: 0 }]);

    const again = await capture();
    expect(again.status).toBe(201);
    expect(await database.rows('SELECT kind FROM modifications WHERE payment_psp_reference = ?', [pspReference])).toEqual([{ kind: 'capture' }]);
  }, 30_000);

  test('then a management request waiting on a locked table answers 503 in the management shape, and the next one is served', async () => {
    const list = () => fetch(`${server.managementUrl}/merchants/DemoMerchantECOM/webhooks`, { headers: { 'X-API-Key': COMPANY_KEY } });
    const refused = await whileLocked('LOCK TABLE webhooks IN ACCESS EXCLUSIVE MODE', [], list);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ status: 503, errorCode: '00_503', requestId: refused.headers.get('x-request-id') });
    expect((await list()).status).toBe(200);
  }, 30_000);
});
