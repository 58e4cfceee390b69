import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { verifyHmacSignature } from '../../client/webhooks.js';
import type { Store } from '../../server/store/tx.js';
import { hmacValidator } from '../helpers/adyen-library.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { advanceClock } from '../helpers/methods.js';
import { authorisedPayment, eur } from '../helpers/payments.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';
import { loadBundled, responseValidator } from '../contract/suite.js';

const validate = responseValidator('checkout', loadBundled('checkout'));

let server: TestServer;
/** Clean-ups of the running test, run after it whatever its outcome. */
const afterThisTest: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanUp of afterThisTest.splice(0)) await cleanUp();
});
let receiver: Receiver;
let webhookId: string;
let hmacKey: string;

async function setUp(s: TestServer, url: string, extra: Record<string, unknown> = {}) {
  const { data } = await s.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId: 'DemoMerchantECOM' } },
    body: { type: 'standard', url, active: true, communicationFormat: 'json', ...extra },
  });
  const key = await s.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/generateHmac', {
    params: { path: { merchantId: 'DemoMerchantECOM', webhookId: data!.id } },
  });
  return { id: data!.id, hmacKey: key.data!.hmacKey };
}

beforeAll(async () => {
  server = await startServer({ webhookTimeoutMs: 3000, webhookRetryScheduleSeconds: [120, 300], webhookGiveUpAfterSeconds: 3600 });
});
afterAll(() => server.stop());
beforeEach(async () => {
  receiver = await new Receiver().start();
  ({ id: webhookId, hmacKey } = await setUp(server, receiver.url, { username: 'events', password: 's3cret' }));
});
afterEach(async () => {
  await server.management.DELETE('/merchants/{merchantId}/webhooks/{webhookId}', { params: { path: { merchantId: 'DemoMerchantECOM', webhookId } } });
  await receiver.stop();
});

const path = (psp: string) => ({ params: { path: { paymentPspReference: psp } } });
const merchantAccount = 'DemoMerchantECOM';
const events = () =>
  server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', { params: { path: { merchantId: merchantAccount, webhookId } } });

describe('Webhook delivery', () => {
  test('When every kind of outcome happens, then each event arrives once, in order, valid against the spec, signed and with Basic auth', async () => {
    const psp = await authorisedPayment(server);
    await server.checkout.POST('/payments/{paymentPspReference}/amountUpdates', { ...path(psp), body: { merchantAccount, amount: eur(1500) } });
    await server.checkout.POST('/payments/{paymentPspReference}/captures', { ...path(psp), body: { merchantAccount, amount: eur(1500) } });
    await server.checkout.POST('/payments/{paymentPspReference}/refunds', { ...path(psp), body: { merchantAccount, amount: eur(500) } });
    await server.checkout.POST('/payments/{paymentPspReference}/reversals', { ...path(psp), body: { merchantAccount } });
    const toCancel = await authorisedPayment(server);
    await server.checkout.POST('/payments/{paymentPspReference}/cancels', { ...path(toCancel), body: { merchantAccount } });
    await authorisedPayment(server, { reference: 'events-tc' });
    await server.checkout.POST('/cancels', { body: { merchantAccount, paymentReference: 'events-tc' } });
    // Adyen's test holder names whose capture or refund the scheme rejects after accepting it.
    const failing = await authorisedPayment(server, { paymentMethod: { ...buildPaymentRequest().paymentMethod, holderName: 'capture failed' } as never });
    await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      ...path(failing),
      body: { merchantAccount, amount: eur(1000), reference: 'capture-fails' },
    });
    const refundFails = await authorisedPayment(server, {
      captureDelayHours: 0,
      paymentMethod: { ...buildPaymentRequest().paymentMethod, holderName: 'refund failed' } as never,
    });
    await server.checkout.POST('/payments/{paymentPspReference}/refunds', {
      ...path(refundFails),
      body: { merchantAccount, amount: eur(1000), reference: 'refund-fails' },
    });
    await server.checkout.POST('/storedPaymentMethods', {
      body: {
        merchantAccount,
        shopperReference: 'events-shopper',
        recurringProcessingModel: 'CardOnFile',
        paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030' },
      },
    });
    const order = (await server.checkout.POST('/orders', { body: { merchantAccount, reference: 'events-order', amount: eur(1000) } })).data!;
    await server.checkout.POST('/payments', {
      body: buildPaymentRequest({ amount: eur(1000), order: { pspReference: order.pspReference!, orderData: order.orderData } }),
    });

    await server.dispatcher.drain();
    const items = receiver.items();
    expect(items.map((i) => `${i.eventCode}:${i.success}`)).toEqual([
      'AUTHORISATION:true',
      'AUTHORISATION_ADJUSTMENT:true',
      'CAPTURE:true',
      'REFUND:true',
      'CANCEL_OR_REFUND:true',
      'AUTHORISATION:true',
      'CANCELLATION:true',
      'AUTHORISATION:true',
      'TECHNICAL_CANCEL:true',
      'AUTHORISATION:true',
      'CAPTURE:true',
      'CAPTURE_FAILED:false',
      'AUTHORISATION:true',
      'CAPTURE:true',
      'REFUND:true',
      'REFUND_FAILED:false',
      'RECURRING_CONTRACT:true',
      'ORDER_OPENED:true',
      'AUTHORISATION:true',
      'ORDER_CLOSED:true',
    ]);
    for (const { notification } of receiver.received) expect(validate('#/components/schemas/NotificationRequest', notification)).toEqual([]);
    for (const item of items) {
      expect(verifyHmacSignature(hmacKey, item)).toBe(true);
      // The Adyen library's own validator agrees.
      expect(new hmacValidator().validateHMAC(item as never, hmacKey)).toBe(true);
    }
    expect(items[4]).toMatchObject({ originalReference: psp, additionalData: expect.objectContaining({ 'modification.action': 'refund' }), amount: eur(1000) });
    expect(items[2]).toMatchObject({ originalReference: psp, merchantAccountCode: merchantAccount, amount: eur(1500) });
    expect(items[16]?.additionalData?.storedPaymentMethodId).toBe(items[16]?.pspReference);
    expect(receiver.received.every((r) => r.authorization === `Basic ${Buffer.from('events:s3cret').toString('base64')}`)).toBe(true);
  });

  test('When a receiver fails three times and then accepts, then it gets the same event four times and the attempts are listed', async () => {
    receiver.answer = (_req, res, index) => (index < 3 ? res.writeHead(500).end('down') : res.writeHead(200).end('[accepted]'));
    await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const listed = (await events()).data!.data[0]!;
    expect(listed).toMatchObject({ eventCode: 'AUTHORISATION', status: 'delivered' });
    expect(listed.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
      ['rejected', 500],
      ['rejected', 500],
      ['rejected', 500],
      ['accepted', 200],
    ]);
  });

  test('When an event keeps failing, then later events wait behind it, and once the receiver recovers both arrive in order', async () => {
    receiver.answer = (_req, res) => res.writeHead(503).end();
    const first = await authorisedPayment(server);
    await server.dispatcher.drain();
    const second = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.items().map((i) => i.pspReference)).toEqual([first, first, first, first]);
    const pending = (await events()).data!.data;
    expect(pending.map((e) => [e.pspReference, e.status, e.attempts.length])).toEqual([
      [second, 'pending', 0],
      [first, 'pending', 4],
    ]);
    receiver.answer = (_req, res) => res.writeHead(200).end('[accepted]');
    await server.checkout.POST('/sandbox/clock/advance', { body: { seconds: 121 } });
    await server.dispatcher.drain();
    expect(
      receiver
        .items()
        .slice(4)
        .map((i) => i.pspReference),
    ).toEqual([first, second]);
  });

  test('When retries run past the give-up age, then the event fails, and resending it delivers it', async () => {
    receiver.answer = (_req, res) => res.writeHead(500).end();
    await authorisedPayment(server);
    await server.dispatcher.drain();
    for (const seconds of [121, 301, 301, 3600]) {
      await server.checkout.POST('/sandbox/clock/advance', { body: { seconds } });
      await server.dispatcher.drain();
    }
    const [failed] = (await events()).data!.data;
    expect(failed).toMatchObject({ status: 'failed' });
    const webhook = await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}', {
      params: { path: { merchantId: merchantAccount, webhookId } },
    });
    expect(webhook.data?.hasError).toBe(true);
    receiver.answer = (_req, res) => res.writeHead(204).end();
    const resent = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend', {
      params: { path: { merchantId: merchantAccount, webhookId, eventId: failed!.eventId } },
    });
    expect(resent.data?.status).toBe('pending');
    await server.dispatcher.drain();
    expect((await events()).data!.data[0]).toMatchObject({ status: 'delivered' });
  });

  test('When a webhook has a backlog, then one round sends all of it in order, each event as soon as the one before is accepted', async () => {
    const payments: string[] = [];
    for (let i = 0; i < 5; i++) payments.push(await authorisedPayment(server));
    const started = Date.now();
    // One round only: the test server's dispatcher has no timer of its own.
    await server.dispatcher.tick();
    while (receiver.received.length < payments.length && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(receiver.items().map((item) => item.pspReference)).toEqual(payments);
  });

  test('When a receiver times out, then the other webhook still gets its events at once', async () => {
    const slow = await new Receiver().start();
    slow.answer = () => undefined;
    // Stopped even when an assertion fails: an open receiver would keep jest from exiting.
    afterThisTest.push(() => slow.stop());
    const other = await setUp(server, slow.url);
    const started = Date.now();
    await authorisedPayment(server);
    await server.dispatcher.tick();
    while (receiver.received.length === 0 && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(receiver.received).toHaveLength(1);
    // The other webhook got its event while the slow one is still waiting for its receiver (up to
    // the 3 s timeout): no attempt of the slow one is recorded yet. (Causal, not a timing target.)
    const inFlight = await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', {
      params: { path: { merchantId: merchantAccount, webhookId: other.id } },
    });
    expect(inFlight.data!.data[0]!.attempts).toHaveLength(0);
    // Its first attempt ends when the timeout does (the immediate retries after it are not waited for).
    const slowEvents = async () =>
      (
        await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', {
          params: { path: { merchantId: merchantAccount, webhookId: other.id } },
        })
      ).data!.data[0]!;
    while ((await slowEvents()).attempts.length === 0 && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await slowEvents()).attempts[0]).toMatchObject({ outcome: 'error', error: expect.stringContaining('timed out') });
    await server.management.DELETE('/merchants/{merchantId}/webhooks/{webhookId}', { params: { path: { merchantId: merchantAccount, webhookId: other.id } } });
  });

  test('When a modification is refused by the rules, then no event is sent for it', async () => {
    const psp = await authorisedPayment(server);
    await server.dispatcher.drain();
    const before = receiver.received.length;
    const refused = await server.checkout.POST('/payments/{paymentPspReference}/captures', { ...path(psp), body: { merchantAccount, amount: eur(99_999) } });
    expect(refused.response.status).toBe(422);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(before);
  });

  test('When the test value FAIL is used, then the event reports failure and the payment is unchanged', async () => {
    const psp = await authorisedPayment(server);
    await server.checkout.POST('/payments/{paymentPspReference}/captures', { ...path(psp), body: { merchantAccount, amount: eur(1000), reference: 'FAIL' } });
    await server.dispatcher.drain();
    expect(receiver.items().at(-1)).toMatchObject({ eventCode: 'CAPTURE', success: 'false', reason: expect.stringContaining('FAIL') });
    expect(
      (await server.checkout.POST('/payments/{paymentPspReference}/captures', { ...path(psp), body: { merchantAccount, amount: eur(1000) } })).response.status,
    ).toBe(201);
  });
});

describe('Webhook delivery of what the sandbox clock settles and of test events', () => {
  /** Every body received is valid against the webhook spec and signed; the items as `code:success`, sorted. */
  function validatedItems(): string[] {
    for (const { notification } of receiver.received) expect(validate('#/components/schemas/NotificationRequest', notification)).toEqual([]);
    for (const item of receiver.items()) expect(verifyHmacSignature(hmacKey, item)).toBe(true);
    return receiver
      .items()
      .map((i) => `${i.eventCode}:${i.success}`)
      .sort();
  }
  const pay = async (overrides: Record<string, unknown>) => (await server.checkout.POST('/payments', { body: buildPaymentRequest(overrides as never) })).data!;

  test('When vouchers are paid or expire, debits settle, redirects and QR codes are abandoned and an order expires, then each event arrives valid against the spec', async () => {
    const multibanco = await pay({ paymentMethod: { type: 'multibanco' } });
    expect((await fetch(`${(multibanco.action as { downloadUrl: string }).downloadUrl}/pay`, { method: 'POST' })).status).toBe(200);
    await pay({
      amount: { currency: 'BRL', value: 15000 },
      shopperName: { firstName: 'José', lastName: 'Silva' },
      socialSecurityNumber: '56861752509',
      billingAddress: { street: 'Rua Funcionarios', houseNumberOrName: '952', city: 'São Paulo', postalCode: '04386040', stateOrProvince: 'SP', country: 'BR' },
      paymentMethod: { type: 'boletobancario' },
    });
    expect((await pay({ paymentMethod: { type: 'sepadirectdebit', iban: 'NL13TEST0123456789', ownerName: 'A. Klaassen' } })).resultCode).toBe('Received');
    expect((await pay({ paymentMethod: { type: 'ideal' } })).resultCode).toBe('RedirectShopper');
    expect((await pay({ paymentMethod: { type: 'bcmc_mobile' } })).resultCode).toBe('Pending');
    const expiresAt = new Date(server.clock.now().getTime() + 3600_000).toISOString();
    const order = (await server.checkout.POST('/orders', { body: { merchantAccount, reference: 'events-expiring-order', amount: eur(3000), expiresAt } }))
      .data!;
    const giftCard = { type: 'giftcard', brand: 'givex', number: '6036283997595793321', cvc: '1234' };
    expect(
      (await pay({ amount: eur(1000), paymentMethod: giftCard, order: { pspReference: order.pspReference, orderData: order.orderData } })).resultCode,
    ).toBe('Authorised');

    // Past every expiry: the order and the redirect (an hour), the QR code (15 minutes), the debit (a day), the vouchers (3 and 5 days).
    for (const seconds of [3600 + 60, 24 * 3600, 4 * 24 * 3600]) await advanceClock(server, seconds);

    expect(validatedItems()).toEqual(
      [
        // Multibanco, paid on the voucher page.
        'AUTHORISATION:true',
        'CAPTURE:true',
        // Boleto, unpaid at its expiry.
        'OFFER_CLOSED:true',
        // SEPA Direct Debit, settled a day later.
        'AUTHORISATION:true',
        // iDEAL, abandoned; Bancontact mobile, never scanned.
        'OFFER_CLOSED:true',
        'OFFER_CLOSED:true',
        // The order: opened, paid in part by the gift card, expired (its payment cancelled).
        'ORDER_OPENED:true',
        'AUTHORISATION:true',
        'CANCELLATION:true',
        'ORDER_CLOSED:false',
        'OFFER_CLOSED:true',
      ].sort(),
    );
  });

  test('When the management test call sends each of its event types, then every one arrives valid against the spec', async () => {
    const types = [
      'AUTHORISATION',
      'CHARGEBACK_REVERSED',
      'ORDER_CLOSED',
      'ORDER_OPENED',
      'PAIDOUT_REVERSED',
      'PAYOUT_THIRDPARTY',
      'REFUNDED_REVERSED',
      'REFUND_WITH_DATA',
      'REPORT_AVAILABLE',
    ];
    const tested = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', {
      params: { path: { merchantId: merchantAccount, webhookId } },
      body: { types: [...types, 'CUSTOM'], notification: { eventCode: 'PENDING', success: false, amount: eur(500) } },
    });
    expect(tested.data?.data?.map((t) => t.status)).toEqual(Array(types.length + 1).fill('success'));
    expect(validatedItems()).toEqual([...types.map((t) => `${t}:true`), 'PENDING:false'].sort());
  });
});

describe('Webhook delivery when a change rolls back', () => {
  let broken: TestServer;
  let sink: Receiver;
  beforeAll(async () => {
    sink = await new Receiver().start();
    // The capture's modification write fails after the payment and events were written in the transaction.
    const failingModifications = (store: Store): Store => ({
      sharedBetweenProcesses: store.sharedBetweenProcesses,
      serializesTransactions: store.serializesTransactions,
      close: () => store.close(),
      ping: () => store.ping(),
      read: (work) => store.read(work),
      statement: (work) => store.statement(work),
      transaction: (work) =>
        store.transaction((tx) => work({ ...tx, payments: { ...tx.payments, insertModification: async () => Promise.reject(new Error('disk full')) } })),
    });
    broken = await startServer({}, { wrapStore: failingModifications });
    await setUp(broken, sink.url);
  });
  afterAll(async () => {
    await broken.stop();
    await sink.stop();
  });

  test('When the transaction of a capture rolls back, then nothing about it is sent', async () => {
    const psp = await authorisedPayment(broken);
    const capture = await broken.checkout.POST('/payments/{paymentPspReference}/captures', { ...path(psp), body: { merchantAccount, amount: eur(1000) } });
    expect(capture.response.status).toBe(500);
    await broken.dispatcher.drain();
    expect(sink.items().map((i) => i.eventCode)).toEqual(['AUTHORISATION']);
  });
});
