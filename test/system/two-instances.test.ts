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

const byHook = (x: { hook: string; pspReference: string }, y: { hook: string; pspReference: string }) =>
  x.hook === y.hook ? x.pspReference.localeCompare(y.pspReference) : x.hook.localeCompare(y.hook);

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

  test('When the console signs in on one instance, then the other accepts its cookie and shows the request log the first wrote, and refuses the cookie once signed out on the first', async () => {
    const signIn = await fetch(`${a.baseUrl}/console/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: COMPANY_KEY }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const paid = await pay(a, 1234);
    const onB = (path: string, init: RequestInit = {}) => fetch(`${b.baseUrl}/console/api${path}`, { ...init, headers: { Cookie: cookie, ...init.headers } });
    expect((await onB('/session')).status).toBe(200);
    // Instance a writes its log about a second after the answer.
    await eventually(
      async () => ((await (await onB(`/requests?pspReference=${String(paid.body.pspReference)}`)).json()) as { data: unknown[] }).data.length === 1,
      10_000,
      'the payment made on a is in the log b shows',
    );
    expect((await fetch(`${a.baseUrl}/console/api/session`, { method: 'DELETE', headers: { Cookie: cookie, 'X-Console-Csrf': csrfToken } })).status).toBe(204);
    expect((await onB('/session')).status).toBe(401);
  });

  test('When the sandbox clock is advanced on one instance, then the other sees the new time at once', async () => {
    const before = await call(b, 'GET', checkout('/sandbox/clock'));
    expect((await call(a, 'POST', checkout('/sandbox/clock/advance'), { seconds: 86_400 })).status).toBe(200);
    const after = await call(b, 'GET', checkout('/sandbox/clock'));
    expect(Number(after.body.offsetSeconds) - Number(before.body.offsetSeconds)).toBe(86_400);
    expect(Date.parse(String(after.body.now)) - Date.parse(String(before.body.now))).toBeGreaterThanOrEqual(86_400_000);
  });

  test('When one instance is killed with SIGKILL under load while it holds delivery leases, then every payment acknowledged is stored and the other instance delivers exactly the events it held, once their leases lapse', async () => {
    // Its own database, receiver and pair. The survivor is paused (SIGSTOP) while `doomed`, the only
    // dispatcher running, takes the head delivery of every webhook, whose request the receiver holds
    // (no answer); then the survivor goes on (SIGCONT) and both take payments. The doomed instance's
    // receiver timeout outlasts the rest of the test up to the kill, so it still holds those leases when it
    // dies (a lease lasts the timeout + the margin), and the survivor cannot take a leased head before it lapses.
    const killDatabase = await freshDatabase(mkdtempSync(join(tmpdir(), 'sigkill-')));
    const hooks = await new Receiver().start();
    const HOOKS = 3;
    interface Held {
      hook: string;
      pspReference: string;
      open: boolean;
    }
    const held: Held[] = [];
    const answered: Array<{ hook: string; pspReference: string; eventCode: string; at: number }> = [];
    let holding = true;
    hooks.answer = (req, res, index) => {
      const item = hooks.received[index]!.notification.notificationItems[0]!.NotificationRequestItem;
      const hook = req.url ?? '';
      if (holding) {
        const request: Held = { hook, pspReference: item.pspReference, open: true };
        req.socket.once('close', () => (request.open = false));
        held.push(request);
        return;
      }
      answered.push({ hook, pspReference: item.pspReference, eventCode: item.eventCode, at: Date.now() });
      res.writeHead(200).end('[accepted]');
    };
    // A lease lasts the timeout + WEBHOOK_LEASE_MARGIN_MS (30 s by default; 2 s here, so the survivor waits less).
    const killEnv = { ...env, ...killDatabase.env, DATABASE_POOL_SIZE: '10', WEBHOOK_LEASE_MARGIN_MS: '2000' };
    const [doomed, survivor] = await Promise.all([spawnServer({ ...killEnv, WEBHOOK_TIMEOUT_MS: '15000' }), spawnServer(killEnv)]);
    survivor.child.kill('SIGSTOP');
    try {
      for (let i = 1; i <= HOOKS; i++) {
        const hook = { type: 'standard', url: `${hooks.url}/hook-${i}`, active: true, communicationFormat: 'json' };
        expect((await call(doomed, 'POST', management('/merchants/DemoMerchantECOM/webhooks'), hook)).status).toBe(200);
      }
      const serving: RunningProcess[] = [doomed];
      const acknowledged = new Map<RunningProcess, string[]>([[doomed, []]]);
      let stop = false;
      const load = Array.from({ length: 6 }, async (_, lane) => {
        for (let i = 0; !stop; i++) {
          const instance = serving[(lane + i) % serving.length]!;
          try {
            const answer = await pay(instance, 1_500, { reference: `kill-${lane}-${i}-${Date.now()}` });
            if (answer.status === 200) acknowledged.get(instance)!.push(String(answer.body.pspReference));
          } catch {
            // the doomed instance is gone: the lane goes on with the survivor
          }
        }
      });
      const count = (instance: RunningProcess) => acknowledged.get(instance)?.length ?? 0;
      await eventually(() => new Set(held.map((h) => h.hook)).size === HOOKS, 60_000, 'the doomed instance holds a delivery of every webhook');

      survivor.child.kill('SIGCONT');
      acknowledged.set(survivor, []);
      serving.push(survivor);
      await eventually(() => count(survivor) >= 10 && count(doomed) >= 10, 60_000, 'both instances have acknowledged payments');
      // Nothing the doomed instance sent has timed out: every request the receiver holds is its own.
      expect(held.filter((h) => !h.open)).toEqual([]);
      const atKill = held.map(({ hook, pspReference }) => ({ hook, pspReference }));
      expect(atKill).toHaveLength(HOOKS);
      await kill(doomed, 'SIGKILL');
      serving.splice(serving.indexOf(doomed), 1);
      const killedAt = Date.now();
      // Its connections die with it: the held requests were its own.
      await eventually(() => held.every((h) => !h.open), 10_000, "the killed instance's connections closed");
      const leases = (
        await killDatabase.rows(
          `SELECT w.url, e.psp_reference, d.lease_until FROM webhook_deliveries d JOIN events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.status = 'pending' AND d.lease_until IS NOT NULL`,
        )
      ).map((row) => ({ hook: new URL(String(row.url)).pathname, pspReference: String(row.psp_reference), leaseUntil: new Date(row.lease_until as string) }));
      expect(leases.map(({ hook, pspReference }) => ({ hook, pspReference })).sort(byHook)).toEqual([...atKill].sort(byHook));
      holding = false;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      stop = true;
      await Promise.all(load);

      const all = [...acknowledged.values()].flat();
      const stored = await killDatabase.rows(`SELECT psp_reference FROM payments WHERE psp_reference IN (${all.map(() => '?').join(', ')})`, all);
      expect(stored).toHaveLength(all.length);
      const delivered = (hook: string, pspReference: string) =>
        answered.filter((a) => a.hook === hook && a.pspReference === pspReference && a.eventCode === 'AUTHORISATION');
      const hookPaths = Array.from({ length: HOOKS }, (_, i) => new URL(`${hooks.url}/hook-${i + 1}`).pathname);
      await eventually(
        () => hookPaths.every((hook) => all.every((psp) => delivered(hook, psp).length > 0)),
        120_000,
        'every acknowledged payment has its AUTHORISATION delivered to every webhook',
      );
      // The leased events are each delivered once, by the survivor, as the first of their webhook after the lease lapsed.
      for (const lease of leases) {
        const first = answered.find((a) => a.hook === lease.hook)!;
        expect({ hook: lease.hook, first: first.pspReference, times: delivered(lease.hook, lease.pspReference).length }).toEqual({
          hook: lease.hook,
          first: lease.pspReference,
          times: 1,
        });
        expect(first.at).toBeGreaterThanOrEqual(lease.leaseUntil.getTime());
      }
      for (const hook of hookPaths) for (const psp of all) expect(delivered(hook, psp)).toHaveLength(1);
      const lapsedAfter = Math.max(...leases.map((l) => l.leaseUntil.getTime())) - killedAt;
      console.log(
        `two instances: SIGKILL under load: ${all.length} acknowledged payments (${count(doomed)} by the killed instance, ${count(survivor)} by the survivor), all stored; ` +
          `${leases.length} events leased by the killed instance at the kill (one per webhook), delivered by the survivor once the leases lapsed ${Math.round(lapsedAfter / 1000)} s after the kill; ` +
          `${answered.length} deliveries after the kill, none twice`,
      );
    } finally {
      hooks.answer = (_req, res) => res.writeHead(200).end('[accepted]');
      await kill(doomed);
      await kill(survivor);
      await hooks.stop();
      await killDatabase.drop();
    }
  }, 240_000);
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
