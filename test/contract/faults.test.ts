import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Store } from '../../server/store/tx.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

/** A store whose payment writes fail as a broken disk would. */
const failingWrites = (store: Store): Store => ({
  sharedBetweenProcesses: store.sharedBetweenProcesses,
  serializesTransactions: store.serializesTransactions,
  close: () => store.close(),
  ping: () => store.ping(),
  read: (work) => store.read(work),
  statement: (work) => store.statement(work),
  transaction: (work) =>
    store.transaction((tx) =>
      work({
        ...tx,
        payments: {
          ...tx.payments,
          insert: async () => {
            throw new Error('SQLITE_IOERR: disk I/O error at /secret/path/payments.sqlite');
          },
        },
      }),
    ),
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { wrapStore: failingWrites });
});
afterAll(() => server.stop());

describe('Server faults', () => {
  test('When the store fails while a payment is written, then the answer is 500 code 903 with no internal detail, and the server keeps serving', async () => {
    const { error, response } = await server.checkout.POST('/payments', { body: buildPaymentRequest() });
    expect(response.status).toBe(500);
    expect(error).toEqual({ status: 500, errorCode: '903', message: 'Internal error', errorType: 'internal' });
    expect(JSON.stringify(error)).not.toContain('secret');
    const me = await server.management.GET('/me');
    expect(me.response.status).toBe(200);
  });
});
