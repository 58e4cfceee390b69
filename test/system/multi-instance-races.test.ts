/**
 * Three server processes on one PostgreSQL database (skipped on the SQLite run: an SQLite file
 * belongs to one process, whose single writer serializes everything). Every path that changes
 * money is raced across the instances the way a busy order system sends requests, and the
 * outcome is checked three ways: no answer is a server error; the events of each payment,
 * replayed in the order they were written, obey the payment rules; and the totals the API and
 * the store give afterwards agree with the events.
 *
 * RACE_SEEDS (comma-separated) chooses the pseudo-random mixes; one seed by default.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPaymentRequest } from '../helpers/factories.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { Receiver } from '../helpers/receiver.js';
import { kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

const onPostgres = TEST_ENGINE === 'postgres' ? describe : describe.skip;
const SEEDS = (process.env.RACE_SEEDS ?? '20261129')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);

const ECOM = 'DemoMerchantECOM';
/** Takes several partial captures. */
const POS = 'DemoMerchantPOS';
const GIFT_CARD = { type: 'giftcard', brand: 'givex', number: '6036283997595793321', cvc: '1234' };

let database: TestDatabase;
let instances: RunningProcess[] = [];

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One request, sent again after a 503 as a client following Retry-After would: a 503 says the
 * database could not be reached (on a busy machine, a pool's connection took too long to open)
 * and that nothing changed, so it is not an answer about the money rules.
 */
async function call(instance: RunningProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await callOnce(instance, method, path, body);
    if (answer.status !== 503 || attempt === 5) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
}

async function callOnce(instance: RunningProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': COMPANY_KEY, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: response.status, body: { text } };
  }
}

const checkout = (path: string) => `/checkout/v71${path}`;
const on = (i: number) => instances[i % instances.length]!;

/** A linear congruential generator: the same seed gives the same mix. */
function generator(seed: number) {
  let state = seed % 2_147_483_648;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Every answer that is not an acknowledgement or a clear refusal. */
const serverErrors: Array<{ what: string; status: number; body: unknown }> = [];
function noted(what: string, answer: Answer): Answer {
  if (answer.status >= 500 || answer.status === 0) serverErrors.push({ what, status: answer.status, body: answer.body });
  return answer;
}

interface EventRow {
  id: number;
  event_code: string;
  psp_reference: string;
  original_reference: string | null;
  value: number;
  success: boolean;
  additional_data: Record<string, string>;
}

/** The events of these payments, in the order they were written. */
async function eventsOf(psps: string[]): Promise<Map<string, EventRow[]>> {
  const rows = (await database.rows(
    `SELECT id, event_code, psp_reference, original_reference, value, success, additional_data FROM events
     WHERE original_reference = ANY(?::text[]) OR psp_reference = ANY(?::text[]) ORDER BY id`,
    [psps, psps],
  )) as unknown as EventRow[];
  const byPayment = new Map<string, EventRow[]>(psps.map((p) => [p, []]));
  for (const row of rows) byPayment.get(row.original_reference ?? row.psp_reference)?.push(row);
  return byPayment;
}

interface Replayed {
  authorised: number;
  captured: number;
  refunded: number;
  /** What chargebacks took and reversed chargebacks did not give back. */
  chargedBack: number;
  cancelled: boolean;
  violations: string[];
}

/**
 * Replays a payment's events against the rules: no capture beyond the authorised (or updated)
 * amount, no refund beyond what was captured, no cancel after a capture, no capture or refund
 * after a cancel, one cancel or reversal per payment, no amount update after a capture, and no
 * refund or chargeback beyond what is left of the capture after refunds and chargebacks.
 */
function replay(events: EventRow[]): Replayed {
  const state: Replayed = { authorised: 0, captured: 0, refunded: 0, chargedBack: 0, cancelled: false, violations: [] };
  let reversals = 0;
  let expired = false;
  /** Accepted captures and refunds by their pspReference, with their amounts; and those that failed since. */
  const accepted = new Map<string, { code: string; value: number }>();
  const failed = new Set<string>();
  const breaks = (rule: string, event: EventRow) => state.violations.push(`${rule} (${event.event_code} ${event.psp_reference} of ${event.value})`);
  for (const event of events) {
    // A failure (the sandbox's trigger) takes back part of an accepted capture or refund, once.
    if (event.event_code === 'CAPTURE_FAILED' || event.event_code === 'REFUND_FAILED') {
      const of = accepted.get(event.psp_reference);
      const code = event.event_code === 'CAPTURE_FAILED' ? 'CAPTURE' : 'REFUND';
      if (of?.code !== code) breaks(`a failure of no accepted ${code}`, event);
      if (failed.has(event.psp_reference)) breaks('a capture or refund failed twice', event);
      if (Number(event.value) > (of?.value ?? 0)) breaks('failed more than the capture or refund', event);
      failed.add(event.psp_reference);
      if (code === 'CAPTURE') state.captured -= Number(event.value);
      else state.refunded -= Number(event.value);
      if (state.refunded > state.captured) breaks('refunded more than captured after a failed capture', event);
      continue;
    }
    if (!event.success && event.event_code !== 'AUTHORISATION') continue;
    switch (event.event_code) {
      case 'AUTHORISATION':
        if (event.success) state.authorised = Number(event.value);
        break;
      case 'AUTHORISATION_ADJUSTMENT':
        if (state.captured > 0) breaks('amount update after a capture', event);
        if (state.cancelled) breaks('amount update after a cancel', event);
        state.authorised = Number(event.value);
        break;
      case 'CAPTURE':
        if (state.cancelled) breaks('capture after a cancel', event);
        if (expired) breaks('capture after an expiry', event);
        accepted.set(event.psp_reference, { code: 'CAPTURE', value: Number(event.value) });
        state.captured += Number(event.value);
        if (state.captured > state.authorised) breaks('captured more than authorised', event);
        break;
      case 'REFUND':
        if (state.cancelled) breaks('refund after a cancel', event);
        accepted.set(event.psp_reference, { code: 'REFUND', value: Number(event.value) });
        state.refunded += Number(event.value);
        if (state.refunded + state.chargedBack > state.captured) breaks('refunded more than captured and not charged back', event);
        break;
      case 'CHARGEBACK':
      case 'SECOND_CHARGEBACK':
        state.chargedBack += Number(event.value);
        if (state.refunded + state.chargedBack > state.captured) breaks('charged back more than captured and not refunded', event);
        break;
      case 'CHARGEBACK_REVERSED':
        state.chargedBack -= Number(event.value);
        if (state.chargedBack < 0) breaks('reversed more than was charged back', event);
        break;
      case 'CANCELLATION':
      case 'TECHNICAL_CANCEL':
        if (state.captured > 0) breaks('cancel after a capture', event);
        if (state.cancelled || reversals > 0) breaks('a second cancel or reversal', event);
        state.cancelled = true;
        break;
      case 'CANCEL_OR_REFUND':
        if (state.cancelled || reversals > 0) breaks('a second cancel or reversal', event);
        reversals += 1;
        if (event.additional_data['modification.action'] === 'refund') {
          state.refunded += Number(event.value);
          if (state.refunded + state.chargedBack > state.captured) breaks('reversal refunded more than captured and not charged back', event);
        } else {
          if (state.captured > 0) breaks('reversal cancelled a captured payment', event);
          state.cancelled = true;
        }
        break;
      case 'EXPIRE':
        if (state.cancelled || expired) breaks('an expiry of a cancelled or expired payment', event);
        if (state.captured >= state.authorised) breaks('an expiry with nothing left to capture', event);
        expired = true;
        break;
      default:
        break;
    }
  }
  return state;
}

/** Checks every payment's events, its stored row, and the amount the API still lets it refund or capture. */
async function checkPayments(psps: string[], merchantOf: Map<string, string>): Promise<void> {
  const events = await eventsOf(psps);
  const replayed = new Map(psps.map((p) => [p, replay(events.get(p)!)]));
  const violations = [...replayed].flatMap(([psp, r]) => r.violations.map((v) => `${psp}: ${v}`));
  expect(violations).toEqual([]);

  const rows = await database.rows(
    `SELECT psp_reference, authorised_value, captured_value, refunded_value, charged_back_value, cancelled FROM payments WHERE psp_reference = ANY(?::text[])`,
    [psps],
  );
  expect(rows).toHaveLength(psps.length);
  const stored = rows.map((row) => ({
    psp: String(row.psp_reference),
    captured: Number(row.captured_value),
    refunded: Number(row.refunded_value),
    chargedBack: Number(row.charged_back_value),
    cancelled: Boolean(row.cancelled),
  }));
  const fromEvents = stored.map(({ psp }) => {
    const r = replayed.get(psp)!;
    return { psp, captured: r.captured, refunded: r.refunded, chargedBack: r.chargedBack, cancelled: r.cancelled };
  });
  expect(stored).toEqual(fromEvents);

  // What the API answers afterwards: a refund of everything and more names what is left to refund.
  const probes = await Promise.all(
    psps.map(async (psp, i) => {
      const r = replayed.get(psp)!;
      const answer = noted(
        'refund probe',
        await call(on(i), 'POST', checkout(`/payments/${psp}/refunds`), { merchantAccount: merchantOf.get(psp), amount: { currency: 'EUR', value: 1e9 } }),
      );
      const left = /\((\d+)\)/.exec(typeof answer.body.message === 'string' ? answer.body.message : '')?.[1];
      return {
        psp,
        status: answer.status,
        left: left === undefined ? null : Number(left),
        expected: r.captured > 0 && !r.cancelled ? r.captured - r.refunded - r.chargedBack : null,
      };
    }),
  );
  expect(probes.filter((p) => p.status !== 422 || p.left !== p.expected)).toEqual([]);
}

async function authorise(i: number, merchantAccount: string, value: number, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = noted(
    'payment',
    await call(on(i), 'POST', checkout('/payments'), { ...buildPaymentRequest({ amount: { currency: 'EUR', value } }), merchantAccount, ...extra }),
  );
  expect({ status: answer.status, body: answer.body }).toMatchObject({ body: { resultCode: 'Authorised' } });
  return String(answer.body.pspReference);
}

type Kind = 'captures' | 'refunds' | 'cancels' | 'technicalCancels' | 'reversals' | 'amountUpdates';

/** One modification request, as the API takes it. */
function modify(i: number, kind: Kind, psp: string, reference: string, merchantAccount: string, value: number): Promise<Answer> {
  const amount = { currency: 'EUR', value };
  const request: [string, unknown] =
    kind === 'technicalCancels'
      ? ['/cancels', { merchantAccount, paymentReference: reference }]
      : kind === 'cancels' || kind === 'reversals'
        ? [`/payments/${psp}/${kind}`, { merchantAccount }]
        : [`/payments/${psp}/${kind}`, { merchantAccount, amount }];
  return call(on(i), 'POST', checkout(request[0]), request[1]).then((answer) => noted(kind, answer));
}

/**
 * Sends `work` to the instances, at most `inFlight` requests at a time, in the order given (so the
 * requests of one payment, adjacent in the list, are in flight together), and waits for every
 * answer. The bound keeps the instances' connection pools from queueing past their time-out on a
 * busy machine; the races are between requests in flight, not between all of them.
 */
async function together<T>(work: Array<() => Promise<T>>, inFlight = 48): Promise<T[]> {
  const results = new Array<T>(work.length);
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const i = next++;
      results[i] = await work[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, work.length) }, worker));
  return results;
}

onPostgres('Three server instances on one PostgreSQL database, racing every money path', () => {
  beforeAll(async () => {
    database = await freshDatabase(mkdtempSync(join(tmpdir(), 'races-')));
    const env = {
      ...database.env,
      DATABASE_POOL_SIZE: '8',
      SERVER_SECRET: '5e'.repeat(32),
      CARD_ENCRYPTION_KEY: '6b'.repeat(32),
      DEMO_COMPANY_API_KEY: COMPANY_KEY,
      DEMO_MERCHANT_API_KEY: MERCHANT_KEY,
      // The dispatchers' rounds close expired orders while modifications run.
      WEBHOOK_POLL_MS: '50',
    };
    instances = await Promise.all([spawnServer(env), spawnServer(env), spawnServer(env)]);
    // Each instance opens its pool's connections before the races: opening eight at once on a busy
    // machine can outlast the pool's connection time-out (answered 503, which is not what is tested here).
    for (const instance of instances) {
      for (let round = 0; round < 10; round++) {
        const answers = await Promise.all(Array.from({ length: 8 }, () => call(instance, 'POST', checkout('/paymentMethods'), { merchantAccount: ECOM })));
        if (answers.every((a) => a.status === 200)) break;
      }
    }
  }, 120_000);

  afterAll(async () => {
    for (const [i, instance] of instances.entries())
      if (instance.child.exitCode !== null) console.log(`instance ${i} exited with ${instance.child.exitCode}:\n${instance.output()}`);
    await Promise.all(instances.map((instance) => kill(instance)));
    await database?.drop();
  });

  // Each test reports its own server errors, with what the instances logged about them.
  beforeEach(() => {
    serverErrors.length = 0;
  });
  afterEach(() => {
    if (serverErrors.length > 0) for (const [i, instance] of instances.entries()) console.log(`instance ${i}:\n${instance.output().slice(-3000)}`);
  });

  describe.each(SEEDS)('with seed %i', (seed) => {
    test('When captures, refunds, cancels by pspReference and by merchant reference, reversals and amount updates race on payments across the instances, then the events of every payment obey the rules and the store and the API agree with them', async () => {
      const random = generator(seed);
      const PAYMENTS = 40;
      const payments = await Promise.all(
        Array.from({ length: PAYMENTS }, async (_, i) => {
          const merchantAccount = i % 3 === 0 ? POS : ECOM;
          const reference = `race-${seed}-${i}`;
          return { psp: await authorise(i, merchantAccount, 10_000, { reference }), reference, merchantAccount };
        }),
      );
      // Ten requests per payment, each to another instance than the one before: mostly captures
      // and refunds, and the requests that end a payment (cancels, technical cancels, reversals)
      // often enough that they meet captures and refunds in flight.
      const work = payments.flatMap(({ psp, reference, merchantAccount }) =>
        Array.from({ length: 10 }, (_, j) => {
          const roll = random();
          const kind: Kind =
            roll < 0.08
              ? 'cancels'
              : roll < 0.16
                ? 'technicalCancels'
                : roll < 0.22
                  ? 'reversals'
                  : roll < 0.3
                    ? 'amountUpdates'
                    : roll < 0.55
                      ? 'captures'
                      : 'refunds';
          const value = kind === 'amountUpdates' ? 8_000 + Math.floor(random() * 4_000) : 500 + Math.floor(random() * 4_000);
          return () => modify(j, kind, psp, reference, merchantAccount, value);
        }),
      );
      const answers = await together(work);
      expect(serverErrors).toEqual([]);
      expect(answers.filter((a) => a.status !== 201 && a.status !== 422)).toEqual([]);

      // Every acknowledgement has its event, and no event lacks an acknowledgement.
      const acknowledged = answers.filter((a) => a.status === 201).map((a) => String(a.body.pspReference));
      const psps = payments.map((p) => p.psp);
      const modificationEvents = [...(await eventsOf(psps)).values()].flat().filter((e) => e.event_code !== 'AUTHORISATION');
      expect(modificationEvents.map((e) => e.psp_reference).sort()).toEqual(acknowledged.sort());

      await checkPayments(psps, new Map(payments.map((p) => [p.psp, p.merchantAccount])));
    }, 180_000);

    test("When the sandbox's CAPTURE_FAILED, REFUND_FAILED and EXPIRE triggers race with captures and refunds across the instances, then each capture or refund fails at most once, nothing is taken back twice, and the store and the API agree with the events", async () => {
      const random = generator(seed + 1);
      const PAYMENTS = 20;
      const payments = await Promise.all(
        Array.from({ length: PAYMENTS }, async (_, i) => ({
          psp: await authorise(i, POS, 10_000, { reference: `trigger-race-${seed}-${i}` }),
          merchantAccount: POS,
        })),
      );
      type Step = 'captures' | 'refunds' | 'CAPTURE_FAILED' | 'REFUND_FAILED' | 'EXPIRE';
      const work = payments.flatMap(({ psp, merchantAccount }) =>
        Array.from({ length: 10 }, (_, j) => {
          const roll = random();
          const step: Step = roll < 0.35 ? 'captures' : roll < 0.6 ? 'refunds' : roll < 0.75 ? 'CAPTURE_FAILED' : roll < 0.9 ? 'REFUND_FAILED' : 'EXPIRE';
          const value = 500 + Math.floor(random() * 3_000);
          if (step === 'captures' || step === 'refunds') return () => modify(j, step, psp, '', merchantAccount, value);
          return () => call(on(j), 'POST', checkout(`/sandbox/payments/${psp}/events`), { eventCode: step }).then((answer) => noted(step, answer));
        }),
      );
      const answers = await together(work);
      expect(serverErrors).toEqual([]);
      expect(answers.filter((a) => a.status !== 201 && a.status !== 202 && a.status !== 422)).toEqual([]);
      // Some triggers went through (the others were refused as not fitting the state then).
      expect(answers.filter((a) => a.status === 202).length).toBeGreaterThan(0);
      await checkPayments(
        payments.map((p) => p.psp),
        new Map(payments.map((p) => [p.psp, p.merchantAccount])),
      );
    }, 180_000);

    test('When an order is cancelled, or expires as the clock moves, while its partial payments are captured and refunded on other instances, then nothing is refunded twice and nothing is written over', async () => {
      const random = generator(seed + 1);
      const ORDERS = 12;
      const orders = await Promise.all(
        Array.from({ length: ORDERS }, async (_, i) => {
          const created = noted(
            'order',
            await call(on(i), 'POST', checkout('/orders'), {
              merchantAccount: ECOM,
              reference: `order-${seed}-${i}`,
              amount: { currency: 'EUR', value: 10_000 },
            }),
          );
          expect(created.status).toBe(200);
          const order = { pspReference: String(created.body.pspReference), orderData: String(created.body.orderData) };
          const psps: string[] = [];
          // Partial payments one after the other: each books on the order it leaves open.
          for (let p = 0; p < 2; p++) psps.push(await authorise(i + p, ECOM, 4_000, { order, reference: `order-${seed}-${i}-${p}` }));
          return { order, psps };
        }),
      );
      // Half are cancelled, half expire when the clock passes their day (the dispatchers close them).
      const work: Array<() => Promise<Answer>> = [];
      for (const [i, { order, psps }] of orders.entries()) {
        for (const [p, psp] of psps.entries()) {
          work.push(() => modify(i + p, 'captures', psp, '', ECOM, 4_000));
          for (let r = 0; r < 3; r++) work.push(() => modify(i + p + r + 1, 'refunds', psp, '', ECOM, 500 + Math.floor(random() * 1_500)));
        }
        if (i % 2 === 0)
          work.push(() => call(on(i + 2), 'POST', checkout('/orders/cancel'), { merchantAccount: ECOM, order }).then((a) => noted('order cancel', a)));
      }
      work.splice(Math.floor(work.length / 2), 0, () =>
        call(on(1), 'POST', checkout('/sandbox/clock/advance'), { seconds: 25 * 3600 }).then((a) => noted('clock advance', a)),
      );
      const answers = await together(work);
      expect(serverErrors).toEqual([]);
      expect(answers.filter((a) => a.status !== 200 && a.status !== 201 && a.status !== 422)).toEqual([]);

      // Wait for the dispatchers to close every expired order.
      const references = orders.map((o) => o.order.pspReference);
      const deadline = Date.now() + 30_000;
      while ((await database.rows(`SELECT 1 FROM orders WHERE status = 'open' AND psp_reference = ANY(?::text[])`, [references])).length > 0) {
        if (Date.now() > deadline) throw new Error('the dispatchers did not close the expired orders within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const psps = orders.flatMap((o) => o.psps);
      await checkPayments(psps, new Map(psps.map((p) => [p, ECOM])));
      // A closed order gave everything back: each payment is cancelled, or refunded in full.
      const rows = await database.rows(`SELECT captured_value, refunded_value, cancelled FROM payments WHERE psp_reference = ANY(?::text[])`, [psps]);
      expect(rows.filter((r) => !r.cancelled && Number(r.refunded_value) !== Number(r.captured_value))).toEqual([]);
    }, 180_000);

    test('When the three dispatchers send the events of test disputes as the clock moves while refunds and reversals of the disputed payments race on the instances, then each event is sent once, in order, and refunds and chargebacks together never exceed the capture', async () => {
      const random = generator(seed + 3);
      const SCENARIOS: Array<[string, string[]]> = [
        ['Chargeback:13.1', ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED']],
        ['Chargeback Reversed', ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED']],
        ['Second Chargeback', ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK']],
      ];
      const PAYMENTS = 18;
      const card = buildPaymentRequest().paymentMethod as Record<string, unknown>;
      const psps = await Promise.all(
        Array.from({ length: PAYMENTS }, (_, i) =>
          authorise(i, ECOM, 5_000, { reference: `dispute-${seed}-${i}`, paymentMethod: { ...card, holderName: SCENARIOS[i % SCENARIOS.length]![0] } }),
        ),
      );
      expect((await together(psps.map((psp, i) => () => modify(i, 'captures', psp, '', ECOM, 5_000)))).map((a) => a.status)).toEqual(psps.map(() => 201));
      // Refunds and reversals of the disputed payments, with the clock moved a day at a time among them.
      const work: Array<() => Promise<Answer>> = [];
      for (let round = 0; round < 4; round++) {
        for (const [i, psp] of psps.entries()) {
          const kind: Kind = random() < 0.15 ? 'reversals' : 'refunds';
          work.push(() => modify(i + round, kind, psp, '', ECOM, 200 + Math.floor(random() * 1_500)));
        }
        work.push(() => call(on(round), 'POST', checkout('/sandbox/clock/advance'), { seconds: 4 * 24 * 3600 }).then((a) => noted('clock advance', a)));
      }
      const answers = await together(work);
      expect(serverErrors).toEqual([]);
      expect(answers.filter((a) => a.status !== 200 && a.status !== 201 && a.status !== 422)).toEqual([]);
      noted('clock advance', await call(on(0), 'POST', checkout('/sandbox/clock/advance'), { seconds: 30 * 24 * 3600 }));

      // Wait for the dispatchers to send every step that fell due.
      const deadline = Date.now() + 30_000;
      while ((await database.rows(`SELECT 1 FROM disputes WHERE due_at IS NOT NULL AND payment_psp_reference = ANY(?::text[])`, [psps])).length > 0) {
        if (Date.now() > deadline) throw new Error('the dispatchers did not send the due dispute events within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await checkPayments(psps, new Map(psps.map((p) => [p, ECOM])));
      // Each dispute's events once, in the scenario's order, under one dispute reference (a payment
      // refunded in full before its notification has none).
      const events = await eventsOf(psps);
      for (const [i, psp] of psps.entries()) {
        const disputeEvents = events.get(psp)!.filter((e) => e.psp_reference !== psp && !['CAPTURE', 'REFUND', 'CANCEL_OR_REFUND'].includes(e.event_code));
        const expected = disputeEvents.length === 0 ? [] : SCENARIOS[i % SCENARIOS.length]![1];
        expect({ psp, codes: disputeEvents.map((e) => e.event_code) }).toEqual({ psp, codes: expected });
        expect(new Set(disputeEvents.map((e) => e.psp_reference)).size).toBeLessThanOrEqual(1);
      }
      // The race took place: chargebacks took money from payments that refunds were also taking from.
      const charged = [...events.values()].flat().filter((e) => e.event_code === 'CHARGEBACK' && Number(e.value) > 0);
      expect(charged.length).toBeGreaterThan(0);
    }, 180_000);

    test('When a session, or the rest of its order, is paid twice at once on two instances, a single-use link paid twice at once, a donation token used twice at once, and one gift card drawn by several payments at once, then each is paid or used once and the card never goes below zero', async () => {
      const PAIRS = 10;
      // Sessions.
      const sessions = await Promise.all(
        Array.from({ length: PAIRS }, async (_, i) => {
          const created = noted(
            'session',
            await call(on(i), 'POST', checkout('/sessions'), {
              merchantAccount: ECOM,
              amount: { currency: 'EUR', value: 1_500 },
              reference: `session-${seed}-${i}`,
              returnUrl: 'https://shop.example.com/return',
            }),
          );
          expect(created.status).toBe(201);
          return { id: String(created.body.id), sessionData: String(created.body.sessionData) };
        }),
      );
      // Sessions paid towards an order (as Drop-in pays the rest after a gift card): the order's
      // rest is sent twice at once.
      const orderedSessions = await Promise.all(
        Array.from({ length: PAIRS }, async (_, i) => {
          const reference = `session-order-${seed}-${i}`;
          const amount = { currency: 'EUR', value: 1_500 };
          const created = noted(
            'session',
            await call(on(i), 'POST', checkout('/sessions'), { merchantAccount: ECOM, amount, reference, returnUrl: 'https://shop.example.com/return' }),
          );
          const order = noted('order', await call(on(i + 1), 'POST', checkout('/orders'), { merchantAccount: ECOM, amount, reference }));
          expect([created.status, order.status]).toEqual([201, 200]);
          return {
            id: String(created.body.id),
            sessionData: String(created.body.sessionData),
            order: { pspReference: String(order.body.pspReference), orderData: String(order.body.orderData) },
          };
        }),
      );
      // Single-use payment links, paid on their hosted page.
      const links = await Promise.all(
        Array.from({ length: PAIRS }, async (_, i) => {
          const created = noted(
            'link',
            await call(on(i), 'POST', checkout('/paymentLinks'), {
              merchantAccount: ECOM,
              amount: { currency: 'EUR', value: 2_000 },
              reference: `link-${seed}-${i}`,
            }),
          );
          expect(created.status).toBe(201);
          return String(created.body.id);
        }),
      );
      // Donation tokens of authorised card payments.
      const originals = await Promise.all(
        Array.from({ length: PAIRS }, async (_, i) => {
          const paid = noted('payment', await call(on(i), 'POST', checkout('/payments'), buildPaymentRequest({ amount: { currency: 'EUR', value: 3_000 } })));
          expect(paid.body.donationToken).toBeDefined();
          return { psp: String(paid.body.pspReference), token: String(paid.body.donationToken) };
        }),
      );
      const balance = async () =>
        Number(
          (
            (
              await call(on(0), 'POST', checkout('/paymentMethods/balance'), {
                merchantAccount: ECOM,
                amount: { currency: 'EUR', value: 100 },
                paymentMethod: { type: GIFT_CARD.brand, number: GIFT_CARD.number, cvc: GIFT_CARD.cvc },
              })
            ).body.balance as { value: number }
          ).value,
        );
      const before = await balance();

      const cardPayment = { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'John Smith' };
      const payLink = (i: number, id: string) =>
        fetch(`${on(i).baseUrl}/payByLink/${id}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            method: 'scheme',
            number: '4111 1111 1111 1111',
            expiryMonth: '03',
            expiryYear: '2030',
            cvc: '737',
            holderName: 'John Smith',
          }),
          redirect: 'manual',
        }).then(async (response) => ({ status: response.status, text: await response.text() }));
      const [sessionAnswers, linkAnswers, donationAnswers, giftAnswers, orderedAnswers] = await Promise.all([
        together(
          sessions.flatMap(({ id, sessionData }, i) =>
            [0, 1].map(
              (k) => () =>
                call(on(i + k), 'POST', checkout(`/sessions/${id}/payments`), { sessionData, paymentMethod: cardPayment }).then((a) => ({
                  id,
                  ...noted('session payment', a),
                })),
            ),
          ),
        ),
        together(links.flatMap((id, i) => [0, 1].map((k) => () => payLink(i + k, id).then((a) => ({ id, ...a }))))),
        together(
          originals.flatMap(({ psp, token }, i) =>
            [0, 1].map(
              (k) => () =>
                call(on(i + k), 'POST', checkout('/donations'), {
                  amount: { currency: 'EUR', value: 500 },
                  reference: `donation-${seed}-${i}-${k}`,
                  merchantAccount: ECOM,
                  returnUrl: 'https://shop.example.com/return',
                  donationCampaignId: 'DONATION_CAMPAIGN_OCEAN',
                  paymentMethod: { type: 'scheme' },
                  shopperInteraction: 'ContAuth',
                  donationOriginalPspReference: psp,
                  donationToken: token,
                }).then((a) => ({ psp, ...noted('donation', a) })),
            ),
          ),
        ),
        together(
          Array.from(
            { length: 8 },
            (_, i) => () =>
              call(on(i), 'POST', checkout('/payments'), {
                ...buildPaymentRequest({ amount: { currency: 'EUR', value: 2_000 } }),
                paymentMethod: GIFT_CARD,
              }).then((a) => noted('gift card payment', a)),
          ),
        ),
        together(
          orderedSessions.flatMap(({ id, sessionData, order }, i) =>
            [0, 1].map(
              (k) => () =>
                call(on(i + k), 'POST', checkout(`/sessions/${id}/payments`), { sessionData, paymentMethod: cardPayment, order }).then((a) => ({
                  id,
                  ...noted('session payment towards its order', a),
                })),
            ),
          ),
        ),
      ]);
      expect(serverErrors).toEqual([]);

      // Each session paid once: one Authorised answer, the other refused as completed.
      for (const { id } of sessions) {
        const mine = sessionAnswers.filter((a) => a.id === id);
        expect({ id, authorised: mine.filter((a) => a.body.resultCode === 'Authorised').length }).toEqual({ id, authorised: 1 });
      }
      const sessionRows = await database.rows(
        `SELECT session_id, COUNT(*) AS n FROM payments WHERE result_code = 'Authorised' AND session_id = ANY(?::text[]) GROUP BY session_id`,
        [sessions.map((s) => s.id)],
      );
      expect(sessionRows.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(sessionRows).toHaveLength(PAIRS);

      // Each session's order paid once: one Authorised answer, the other refused as completed, the order completed at zero.
      for (const { id } of orderedSessions) {
        const mine = orderedAnswers.filter((a) => a.id === id);
        expect({ id, authorised: mine.filter((a) => a.body.resultCode === 'Authorised').length }).toEqual({ id, authorised: 1 });
      }
      const orderRows = await database.rows(`SELECT psp_reference, status, remaining_value FROM orders WHERE psp_reference = ANY(?::text[])`, [
        orderedSessions.map((s) => s.order.pspReference),
      ]);
      expect(orderRows.filter((r) => r.status !== 'completed' || Number(r.remaining_value) !== 0)).toEqual([]);
      expect(orderRows).toHaveLength(PAIRS);

      // Each single-use link paid once.
      expect(linkAnswers.filter((a) => a.status >= 500)).toEqual([]);
      const linkRows = await database.rows(
        `SELECT payment_link_id, COUNT(*) AS n FROM payments WHERE result_code = 'Authorised' AND payment_link_id = ANY(?::text[]) GROUP BY payment_link_id`,
        [links],
      );
      expect(linkRows.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(linkRows).toHaveLength(PAIRS);

      // Each donation token used once.
      for (const { psp } of originals) {
        const mine = donationAnswers.filter((a) => a.psp === psp);
        expect({ psp, accepted: mine.filter((a) => a.status === 200).length }).toEqual({ psp, accepted: 1 });
      }

      // The gift card: what was authorised fits in what it held, and its balance says so.
      const drawn = giftAnswers.filter((a) => a.body.resultCode === 'Authorised');
      const spent = drawn.length * 2_000;
      expect(spent).toBeLessThanOrEqual(before);
      expect(await balance()).toBe(before - spent);
      // Given back for the next seed: cancelled on the instances at once.
      const cancels = await together(drawn.map((a, i) => () => modify(i, 'cancels', String(a.body.pspReference), '', ECOM, 0)));
      expect(cancels.map((c) => c.status)).toEqual(drawn.map(() => 201));
      expect(await balance()).toBe(before);
    }, 180_000);

    test('When the three dispatchers race on a webhook with sandbox faults (fail 3 attempts, duplicate, reverse the next batch), then exactly 3 attempts fail on purpose, the batch is reversed once and each event arrives twice', async () => {
      const receiver = await new Receiver().start();
      try {
        const webhook = noted(
          'webhook',
          await call(on(0), 'POST', `/management/v3/merchants/${ECOM}/webhooks`, {
            type: 'standard',
            url: receiver.url,
            active: true,
            communicationFormat: 'json',
            additionalSettings: { includeEventCodes: ['AUTHORISATION'] },
          }),
        );
        const webhookId = String(webhook.body.id);
        const BATCH = 6;
        const faults = await call(on(1), 'PUT', checkout(`/sandbox/webhooks/${webhookId}/faults`), { failNextAttempts: 3, duplicate: true, outOfOrder: BATCH });
        expect(faults.status).toBe(200);
        // One after the other, so the queue order is the order of the payments.
        const psps: string[] = [];
        for (let i = 0; i < BATCH; i++) psps.push(await authorise(i, ECOM, 1_000 + i, { reference: `faults-${seed}-${i}` }));
        const ours = () => receiver.items().filter((item) => psps.includes(item.pspReference));
        const deadline = Date.now() + 30_000;
        while (ours().length < 2 * BATCH) {
          if (Date.now() > deadline) throw new Error(`the dispatchers delivered ${ours().length} of ${2 * BATCH} notifications within 30 s`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(serverErrors).toEqual([]);
        const reversed = [...psps].reverse();
        expect(ours().map((item) => item.pspReference)).toEqual(reversed.flatMap((psp) => [psp, psp]));
        const bodies = receiver.received.filter((r) => psps.includes(r.notification.notificationItems[0]!.NotificationRequestItem.pspReference));
        for (let i = 0; i < bodies.length; i += 2) expect(bodies[i + 1]!.body).toBe(bodies[i]!.body);
        const failed = await database.rows(`SELECT count(*) AS n FROM delivery_attempts WHERE webhook_id = ? AND error LIKE '%failed on purpose%'`, [
          webhookId,
        ]);
        expect(Number(failed[0]!.n)).toBe(3);
        expect(await database.rows(`SELECT out_of_order, fail_next_attempts FROM webhook_faults WHERE webhook_id = ?`, [webhookId])).toEqual([
          { out_of_order: 0, fail_next_attempts: 0 },
        ]);
        await call(on(2), 'DELETE', `/management/v3/merchants/${ECOM}/webhooks/${webhookId}`);
      } finally {
        await receiver.stop();
      }
    }, 120_000);
  });
});
