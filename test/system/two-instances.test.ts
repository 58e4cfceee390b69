/**
 * Two server processes on one PostgreSQL database (the PostgreSQL run of `npm test`; on the
 * SQLite run this file is skipped: an SQLite file belongs to one process). Requests alternate
 * between the instances, as a load balancer would send them, and every invariant must hold as
 * it does on one instance.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPaymentRequest } from '../helpers/factories.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { Receiver } from '../helpers/receiver.js';
import { kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';
import { startServer, type TestServer } from '../helpers/start-server.js';
import { DEMO } from '../../server/seed.js';

const onPostgres = TEST_ENGINE === 'postgres' ? describe : describe.skip;

const PAYMENTS = 100;
const MODIFICATIONS = 1000;
const EVENTS = 200;

let database: TestDatabase;
let receiver: Receiver;
let a: RunningProcess;
let b: RunningProcess;
let env: Record<string, string>;

async function call(instance: RunningProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': COMPANY_KEY, ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

const checkout = (path: string) => `/checkout/v71${path}`;
const management = (path: string) => `/management/v3${path}`;
/** The instance for the i-th request: they alternate. */
const either = (i: number) => (i % 2 === 0 ? a : b);

async function pay(instance: RunningProcess, value: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return call(instance, 'POST', checkout('/payments'), { ...buildPaymentRequest({ amount: { currency: 'EUR', value } }), ...extra }, headers);
}

/** Resolves when `check` holds, polling; fails after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

onPostgres('Two server instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    receiver = await new Receiver().start();
    database = await freshDatabase(mkdtempSync(join(tmpdir(), 'two-instances-')));
    env = {
      ...database.env,
      DATABASE_POOL_SIZE: '10',
      // The instances share the secrets (API-key hashes, card vault) as a deployment must.
      SERVER_SECRET: '5e'.repeat(32),
      CARD_ENCRYPTION_KEY: '6b'.repeat(32),
      DEMO_COMPANY_API_KEY: COMPANY_KEY,
      DEMO_MERCHANT_API_KEY: MERCHANT_KEY,
      FORWARD_ALLOWLIST: '{"*":["127.0.0.1"]}',
      FORWARD_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '50',
      RATE_LIMIT_PER_MINUTE: '4',
      // A short receiver timeout: a delivery leased by a killed instance lapses 30 s after it.
      WEBHOOK_TIMEOUT_MS: '2000',
    };
    // Started together: migrations and the seed must not race.
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    const webhook = await call(a, 'POST', management('/merchants/DemoMerchantECOM/webhooks'), {
      type: 'standard',
      url: receiver.url,
      active: true,
      communicationFormat: 'json',
    });
    expect(webhook.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    // An instance that died on its own says why.
    for (const [name, instance] of [['a', a] as const, ['b', b] as const])
      if (instance && instance.child.exitCode !== null) console.log(`instance ${name} exited with ${instance.child.exitCode}:\n${instance.output()}`);
    for (const instance of [a, b]) if (instance) await kill(instance);
    await receiver?.stop();
    await database?.drop();
  });

  test(`When ${MODIFICATIONS} captures, refunds and cancels race on ${PAYMENTS} payments across both, then every payment keeps captured ≤ authorised and refunded ≤ captured, and the store agrees with every acknowledgement`, async () => {
    const payments = await Promise.all(Array.from({ length: PAYMENTS }, (_, i) => pay(either(i), 10_000)));
    const psps = payments.map((p) => {
      expect(p.body.resultCode).toBe('Authorised');
      return String(p.body.pspReference);
    });
    const accepted = new Map<string, { captured: number; refunded: number; cancelled: boolean }>(
      psps.map((p) => [p, { captured: 0, refunded: 0, cancelled: false }]),
    );
    // A fixed pseudo-random mix (seeded), ten operations per payment: 5 % cancels, 25 % captures of
    // 3 000–10 000, 70 % refunds of 1 000–4 000, in an order that differs from payment to payment.
    let seed = 20261123;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const work = Array.from({ length: MODIFICATIONS }, (_, i) => {
      const psp = psps[i % PAYMENTS]!;
      const roll = random();
      const kind = roll < 0.05 ? 'cancels' : roll < 0.3 ? 'captures' : 'refunds';
      const value = kind === 'captures' ? 3_000 + Math.floor(random() * 7_001) : 1_000 + Math.floor(random() * 3_001);
      return { psp, kind, value, instance: either(i) };
    });
    const results = await Promise.all(
      work.map(async ({ psp, kind, value, instance }) => {
        const body = kind === 'cancels' ? { merchantAccount: 'DemoMerchantECOM' } : { merchantAccount: 'DemoMerchantECOM', amount: { currency: 'EUR', value } };
        const answer = await call(instance, 'POST', checkout(`/payments/${psp}/${kind}`), body);
        return { psp, kind, value, status: answer.status, errorCode: answer.body?.errorCode };
      }),
    );
    // Every answer is an acknowledgement or a clear refusal, never a server error.
    expect(results.filter((r) => r.status !== 201 && r.status !== 422)).toEqual([]);
    for (const r of results.filter((x) => x.status === 201)) {
      const state = accepted.get(r.psp)!;
      if (r.kind === 'captures') state.captured += r.value;
      if (r.kind === 'refunds') state.refunded += r.value;
      if (r.kind === 'cancels') state.cancelled = true;
    }
    const rows = await database.rows(
      `SELECT psp_reference, authorised_value, captured_value, refunded_value, cancelled FROM payments WHERE psp_reference IN (${psps.map(() => '?').join(', ')})`,
      psps,
    );
    expect(rows).toHaveLength(PAYMENTS);
    for (const row of rows) {
      const psp = String(row.psp_reference);
      const expected = accepted.get(psp)!;
      expect({ psp, captured: row.captured_value, refunded: row.refunded_value }).toEqual({ psp, captured: expected.captured, refunded: expected.refunded });
      expect(Number(row.captured_value)).toBeLessThanOrEqual(Number(row.authorised_value));
      expect(Number(row.refunded_value)).toBeLessThanOrEqual(Number(row.captured_value));
      // A payment is captured at most once (no multiple partial captures) and not both captured and cancelled.
      expect(expected.cancelled && expected.captured > 0).toBe(false);
    }
    const counts = { accepted: results.filter((r) => r.status === 201).length, refused: results.filter((r) => r.status === 422).length };
    console.log(`two instances: ${MODIFICATIONS} modifications on ${PAYMENTS} payments: ${counts.accepted} accepted, ${counts.refused} refused (22_xxx)`);
    expect(counts.accepted).toBeGreaterThan(PAYMENTS);
  }, 120_000);

  test('When the same Idempotency-Key is sent to both instances at once, then it has exactly one effect and both answers are that payment', async () => {
    for (let round = 0; round < 10; round++) {
      const reference = `idem-two-${round}-${Date.now()}`;
      const headers = { 'Idempotency-Key': `two-instances-${reference}` };
      const answers = await Promise.all([a, b].map((instance) => pay(instance, 2_500, { reference }, headers)));
      // The one that lost the race replays the winner's answer (or, still running, is told so: 704).
      const paid = answers.filter((x) => x.status === 200);
      expect(paid.length).toBeGreaterThanOrEqual(1);
      expect(new Set(paid.map((x) => x.body.pspReference)).size).toBe(1);
      for (const other of answers.filter((x) => x.status !== 200)) expect(other).toMatchObject({ status: 422, body: { errorCode: '704' } });
      const rows = await database.rows('SELECT psp_reference FROM payments WHERE reference = ?', [reference]);
      expect(rows).toEqual([{ psp_reference: paid[0]!.body.pspReference }]);
    }
  }, 60_000);

  test(`When ${EVENTS} events are made across both instances, then the receiver gets each once while both dispatch`, async () => {
    receiver.received.length = 0;
    const references: string[] = [];
    await Promise.all(
      Array.from({ length: EVENTS }, async (_, i) => {
        const reference = `event-two-${i}-${Date.now()}`;
        references.push(reference);
        expect((await pay(either(i), 1_000, { reference })).status).toBe(200);
      }),
    );
    const authorisations = () => receiver.items().filter((item) => item.eventCode === 'AUTHORISATION' && references.includes(item.merchantReference));
    await eventually(() => authorisations().length >= EVENTS, 60_000, `${EVENTS} AUTHORISATION events delivered`);
    // A little longer: a duplicate would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const seen = authorisations().map((item) => item.pspReference);
    expect(seen).toHaveLength(EVENTS);
    expect(new Set(seen).size).toBe(EVENTS);
  }, 120_000);

  test('When a rate-limited operation is called alternately on both, then the limit holds for the two together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call(either(i), 'GET', management('/companies/DemoCompany/androidApps'))).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
  });

  test('When the sandbox clock is advanced on one instance, then the other sees the new time at once', async () => {
    const before = await call(b, 'GET', checkout('/sandbox/clock'));
    expect((await call(a, 'POST', checkout('/sandbox/clock/advance'), { seconds: 86_400 })).status).toBe(200);
    const after = await call(b, 'GET', checkout('/sandbox/clock'));
    expect(Number(after.body.offsetSeconds) - Number(before.body.offsetSeconds)).toBe(86_400);
    expect(Date.parse(String(after.body.now)) - Date.parse(String(before.body.now))).toBeGreaterThanOrEqual(86_400_000);
  });

  test('When one instance is killed with SIGKILL under load, then every payment it acknowledged is stored and its events are delivered by the others', async () => {
    receiver.received.length = 0;
    // A third instance to kill (jest may run this test before the others: a and b stay up).
    const c = await spawnServer(env);
    const acknowledged: string[] = [];
    let stop = false;
    const load = Array.from({ length: 8 }, async (_, lane) => {
      for (let i = 0; !stop; i++) {
        const reference = `kill-${lane}-${i}-${Date.now()}`;
        try {
          const answer = await pay(c, 1_500, { reference });
          if (answer.status === 200) acknowledged.push(String(answer.body.pspReference));
        } catch {
          return; // the instance is gone
        }
      }
    });
    // Killed once it has acknowledged a fair number (a loaded machine may take seconds to get there), and
    // at least 1.5 s into the load, so that some of its payments' events are still in flight.
    const started = Date.now();
    await eventually(() => acknowledged.length > 20 && Date.now() - started >= 1_500, 60_000, 'the instance to kill has acknowledged some payments');
    await kill(c, 'SIGKILL');
    stop = true;
    await Promise.all(load);
    expect(acknowledged.length).toBeGreaterThan(10);
    const stored = await database.rows(`SELECT psp_reference FROM payments WHERE psp_reference IN (${acknowledged.map(() => '?').join(', ')})`, acknowledged);
    expect(stored).toHaveLength(acknowledged.length);
    // The events of the killed instance's payments (some leased by it mid-send) reach the receiver through the other.
    const delivered = () =>
      new Set(
        receiver
          .items()
          .filter((item) => item.eventCode === 'AUTHORISATION')
          .map((item) => item.pspReference),
      );
    await eventually(() => acknowledged.every((psp) => delivered().has(psp)), 90_000, 'every acknowledged payment has its AUTHORISATION delivered');
    console.log(`two instances: SIGKILL under load: ${acknowledged.length} acknowledged payments, all stored, all events delivered by the survivors`);
  }, 150_000);
});

onPostgres('Two in-process instances on one PostgreSQL database: the sandbox clock', () => {
  // In this process and without their dispatchers (tests drive those): nothing but the request itself refreshes an instance's clocks.
  let clockDatabase: TestDatabase;
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    clockDatabase = await freshDatabase();
    first = await startServer(clockDatabase.config);
    second = await startServer(clockDatabase.config);
  }, 60_000);
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await clockDatabase?.drop();
  });

  const offsetIn = async (server: TestServer) => (await server.checkout.GET('/sandbox/clock')).data!.offsetSeconds;

  test('When both instances advance the same company clock at once, then every advance counts', async () => {
    const before = await offsetIn(first);
    const steps = Array.from({ length: 20 }, (_, i) => i + 1);
    const answers = await Promise.all(
      steps.map(async (seconds, i) => (await (i % 2 === 0 ? first : second).checkout.POST('/sandbox/clock/advance', { body: { seconds } })).response.status),
    );
    expect(answers).toEqual(steps.map(() => 200));
    const total = steps.reduce((sum, s) => sum + s, 0);
    expect(await offsetIn(first)).toBe(before + total);
    expect(await offsetIn(second)).toBe(before + total);
    expect(await clockDatabase.rows('SELECT clock_offset_seconds FROM companies WHERE id = ?', [DEMO.companyId])).toEqual([
      { clock_offset_seconds: before + total },
    ]);
  });

  test('When the clock is advanced on one instance, then a payment link that expired by it shows expired on the other instance’s hosted page', async () => {
    const expiresAt = new Date(first.clock.now().getTime() + 3600_000).toISOString();
    const { data: link } = await first.checkout.POST('/paymentLinks', {
      body: { merchantAccount: 'DemoMerchantECOM', reference: 'clock-two-instances', amount: { currency: 'EUR', value: 4200 }, expiresAt },
    });
    const page = `${second.baseUrl}/payByLink/${link!.id}`;
    expect((await fetch(page)).status).toBe(200);

    expect((await first.checkout.POST('/sandbox/clock/advance', { body: { seconds: 7200 } })).response.status).toBe(200);

    // The page carries no credential: the second instance learns of the advance only by reading the clock for it.
    const after = await fetch(page);
    expect(after.status).toBe(410);
    expect(await after.text()).toContain('expired');
  });
});
