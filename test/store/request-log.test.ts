/**
 * The request log's bounds, on either engine: a company keeps its newest 10,000 entries of the
 * last 7 days (its clock), trimmed as entries are written; other companies' entries are untouched.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { REQUEST_LOG_ENTRIES } from '../../server/kernel/http/request-recording.js';
import { DEMO } from '../../server/seed.js';
import type { RequestLogRecord } from '../../server/store/types.js';
import { authorisedPayment } from '../helpers/payments.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const entry = (companyId: string, occurredAt: string, n: number): RequestLogRecord => ({
  companyId,
  occurredAt,
  area: 'checkout',
  method: 'GET',
  path: `/synthetic/${n}`,
  query: null,
  operationId: null,
  status: 200,
  durationMs: 1,
  credentialId: null,
  credentialUsername: null,
  idempotencyKey: null,
  requestId: `SYNTH${n}`,
  pspReference: null,
  merchantAccount: null,
  requestBody: null,
  responseBody: null,
});

const everything = (companyId: string) =>
  server.store.read((tx) => tx.requestLog.list({ companyId, merchantAccounts: null, credentialId: '' }, { limit: 2 * REQUEST_LOG_ENTRIES }));

describe('The request log bounds', () => {
  test('When a company has more than 10,000 entries and a request is logged, then only its newest 10,000 stay and another company keeps its own', async () => {
    const now = server.clock.now().toISOString();
    await server.store.transaction(async (tx) => {
      await tx.requestLog.insertMany(Array.from({ length: REQUEST_LOG_ENTRIES }, (_, i) => entry(DEMO.companyId, now, i)));
      await tx.requestLog.insertMany([entry('OtherCompany', now, 0)]);
    });
    const psp = await authorisedPayment(server);
    await server.flushRequestLog();
    const kept = await everything(DEMO.companyId);
    expect(kept).toHaveLength(REQUEST_LOG_ENTRIES);
    expect(kept[0]).toMatchObject({ pspReference: psp });
    expect(kept.some((e) => e.path === '/synthetic/0')).toBe(false);
    expect(kept.some((e) => e.path === '/synthetic/1')).toBe(true);
    expect(await everything('OtherCompany')).toHaveLength(1);
  });

  test('When entries are older than 7 days on the company clock and a request is logged, then they are gone', async () => {
    const eightDaysAgo = new Date(server.clock.now().getTime() - 8 * 86_400_000).toISOString();
    await server.store.transaction((tx) => tx.requestLog.insertMany([entry(DEMO.companyId, eightDaysAgo, -1)]));
    expect((await everything(DEMO.companyId)).some((e) => e.path === '/synthetic/-1')).toBe(true);
    await authorisedPayment(server);
    await server.flushRequestLog();
    expect((await everything(DEMO.companyId)).some((e) => e.path === '/synthetic/-1')).toBe(false);
  });
});
