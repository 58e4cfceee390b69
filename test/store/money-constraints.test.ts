/**
 * The database keeps the money rules itself, behind the use cases' locks: a write that breaks one
 * is refused by the database whatever the code above it decided, on SQLite and on PostgreSQL.
 * Each case writes a real row through the store's own statements, with the domain's checks left
 * out, and expects the write to fail and the row to stay as it was.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Order, Payment } from '../../server/store/types.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { authorisedPayment, eur } from '../helpers/payments.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const payment = (psp: string) => server.store.transaction(async (tx) => (await tx.payments.get(psp))!);

/** Writes `change` over the payment through the store, as a use case that skipped its checks would. */
async function writePayment(psp: string, change: (p: Payment) => Payment): Promise<unknown> {
  const before = await payment(psp);
  return server.store
    .transaction((tx) => tx.payments.update({ ...change(before), updatedAt: new Date().toISOString() }, before))
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

async function capturedPayment(value: number): Promise<string> {
  const psp = await authorisedPayment(server, buildPaymentRequest({ amount: eur(value) }));
  const captured = await server.checkout.POST('/payments/{paymentPspReference}/captures', {
    params: { path: { paymentPspReference: psp } },
    body: { merchantAccount: 'DemoMerchantECOM', amount: eur(value) },
  });
  expect(captured.response.status).toBe(201);
  return psp;
}

describe('Money rules in the database', () => {
  const cases: Array<[string, (value: number) => Promise<string>, (p: Payment) => Payment]> = [
    ['refunded more than captured', capturedPayment, (p) => ({ ...p, refundedValue: p.capturedValue + 1 })],
    [
      'captured more than authorised',
      (v) => authorisedPayment(server, buildPaymentRequest({ amount: eur(v) })),
      (p) => ({ ...p, capturedValue: p.authorisedValue + 1 }),
    ],
    ['cancelled and captured', capturedPayment, (p) => ({ ...p, cancelled: true })],
    ['a negative refunded amount', capturedPayment, (p) => ({ ...p, refundedValue: -1 })],
    ['refunded and charged back more than captured', capturedPayment, (p) => ({ ...p, refundedValue: 1, chargedBackValue: p.capturedValue })],
    ['a negative charged-back amount', capturedPayment, (p) => ({ ...p, chargedBackValue: -1 })],
  ];

  test.each(cases)('When a payment row is written %s, then the database refuses it and the row stays as it was', async (_, arrange, change) => {
    const psp = await arrange(2_500);
    const before = await payment(psp);

    const error = await writePayment(psp, change);

    // The driver's error may come from another realm than the test's (SQLite's native module under jest): its message is what counts.
    expect(error).toMatchObject({ message: expect.stringMatching(/check constraint|constraint failed/i) });
    const after = await payment(psp);
    expect(after).toEqual(before);
  });

  test('When an order row is written with a negative remaining amount or more than its value, then the database refuses both', async () => {
    const created = await server.checkout.POST('/orders', {
      body: { merchantAccount: 'DemoMerchantECOM', reference: 'constraint-order', amount: eur(5_000) },
    });
    expect(created.response.status).toBe(200);
    const psp = created.data!.pspReference!;
    const read = () => server.store.transaction(async (tx) => (await tx.orders.getForUpdate(psp))!);
    const before = await read();
    for (const remainingValue of [-1, before.value + 1]) {
      const write = (order: Order) => server.store.transaction((tx) => tx.orders.update({ ...order, remainingValue }));
      await expect(write(before)).rejects.toMatchObject({ message: expect.stringMatching(/check constraint|constraint failed/i) });
    }
    expect(await read()).toEqual(before);
  });
});
