import { afterEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckoutClient } from '../../client/index.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { freshDatabase } from '../helpers/database.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { eur } from '../helpers/payments.js';
import { kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

let running: RunningProcess | undefined;
afterEach(async () => {
  if (running) await kill(running);
  running = undefined;
});

describe('The server process with its database', () => {
  test('When a payment is captured and refunded and the server is killed with SIGKILL, then after a restart nothing acknowledged is lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durable-'));
    const env = { DATABASE_PATH: join(dir, 'payments.sqlite'), DEMO_COMPANY_API_KEY: COMPANY_KEY, DEMO_MERCHANT_API_KEY: MERCHANT_KEY };
    running = await spawnServer(env);
    let client = createCheckoutClient({ baseUrl: `${running.baseUrl}/checkout/v71`, apiKey: COMPANY_KEY });

    const payment = await client.POST('/payments', { body: buildPaymentRequest({ amount: eur(1000) }) });
    expect(payment.data?.resultCode).toBe('Authorised');
    const psp = payment.data!.pspReference!;
    const path = { params: { path: { paymentPspReference: psp } } };
    const captureKey = { params: { ...path.params, header: { 'Idempotency-Key': 'durable-capture' } } };
    const capture = await client.POST('/payments/{paymentPspReference}/captures', {
      ...captureKey,
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
    });
    expect(capture.response.status).toBe(201);
    const refund = await client.POST('/payments/{paymentPspReference}/refunds', { ...path, body: { merchantAccount: 'DemoMerchantECOM', amount: eur(400) } });
    expect(refund.response.status).toBe(201);

    await kill(running, 'SIGKILL');
    running = await spawnServer(env);
    client = createCheckoutClient({ baseUrl: `${running.baseUrl}/checkout/v71`, apiKey: COMPANY_KEY });

    // The capture's idempotency record survived: the same request replays the same answer.
    const replay = await client.POST('/payments/{paymentPspReference}/captures', {
      ...captureKey,
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
    });
    expect(replay.data).toEqual(capture.data);
    // The capture and the refund survived: 600 is still refundable, not one more.
    expect(
      (await client.POST('/payments/{paymentPspReference}/refunds', { ...path, body: { merchantAccount: 'DemoMerchantECOM', amount: eur(601) } })).error
        ?.errorCode,
    ).toBe('22_003');
    expect(
      (await client.POST('/payments/{paymentPspReference}/refunds', { ...path, body: { merchantAccount: 'DemoMerchantECOM', amount: eur(600) } })).response
        .status,
    ).toBe(201);
    // The demo data was not seeded twice and the keys still work.
    expect(running.output()).not.toContain('shown once');

    await kill(running, 'SIGKILL');
    running = undefined;
    const db = await freshDatabase(dir);
    const [row] = await db.rows('SELECT captured_value, refunded_value FROM payments WHERE psp_reference = ?', [psp]);
    const modifications = await db.rows('SELECT kind, value FROM modifications WHERE payment_psp_reference = ? ORDER BY created_at', [psp]);
    expect(row).toEqual({ captured_value: 1000, refunded_value: 1000 });
    expect(modifications).toEqual([
      { kind: 'capture', value: 1000 },
      { kind: 'refund', value: 400 },
      { kind: 'refund', value: 600 },
    ]);
  });

  test('When the server starts on an empty database without key variables, then it prints both generated keys once and they work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    running = await spawnServer({ DATABASE_PATH: join(dir, 'payments.sqlite'), DEMO_COMPANY_API_KEY: '', DEMO_MERCHANT_API_KEY: '' });
    const printed = running.output();
    expect(printed).toContain(`${running.baseUrl}/checkout/v71`);
    expect(printed).toContain(`${running.baseUrl}/management/v3`);
    const companyKey = /ws@Company\.DemoCompany \(all roles, shown once\): (\S+)/.exec(printed)?.[1];
    const merchantKey = /ws_100001@Company\.DemoCompany \(DemoMerchantECOM, checkout only, shown once\): (\S+)/.exec(printed)?.[1];
    expect(companyKey).toBeDefined();
    expect(merchantKey).toBeDefined();
    const me = await fetch(`${running.baseUrl}/management/v3/me`, { headers: { 'X-API-Key': companyKey! } });
    expect(me.status).toBe(200);
    const pay = await fetch(`${running.baseUrl}/checkout/v71/payments`, {
      method: 'POST',
      headers: { 'X-API-Key': merchantKey!, 'Content-Type': 'application/json' },
      body: JSON.stringify(buildPaymentRequest()),
    });
    expect(pay.status).toBe(200);
    const hashes = (await (await freshDatabase(dir)).rows('SELECT key_hash FROM api_keys')) as Array<{ key_hash: string }>;
    expect(hashes.map((h) => h.key_hash)).not.toContain(companyKey);
    expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h.key_hash))).toBe(true);
  });
});

describe('The event outbox across a crash', () => {
  test('When the server is killed after a capture committed but before delivery, then the restarted server delivers the CAPTURE event', async () => {
    const { Receiver } = await import('../helpers/receiver.js');
    const receiver = await new Receiver().start();
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const env = {
      DATABASE_PATH: join(dir, 'payments.sqlite'),
      DEMO_COMPANY_API_KEY: COMPANY_KEY,
      DEMO_MERCHANT_API_KEY: MERCHANT_KEY,
      FORWARD_ALLOWLIST: '{"*":["127.0.0.1"]}',
      FORWARD_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '50',
    };
    try {
      running = await spawnServer({ ...env, WEBHOOK_DISPATCH: 'false' });
      const headers = { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY };
      await fetch(`${running.baseUrl}/management/v3/merchants/DemoMerchantECOM/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' }),
      });
      const client = createCheckoutClient({ baseUrl: `${running.baseUrl}/checkout/v71`, apiKey: COMPANY_KEY });
      const psp = (await client.POST('/payments', { body: buildPaymentRequest() })).data!.pspReference!;
      const capture = await client.POST('/payments/{paymentPspReference}/captures', {
        params: { path: { paymentPspReference: psp } },
        body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
      });
      expect(capture.response.status).toBe(201);
      await kill(running, 'SIGKILL');
      expect(receiver.received).toHaveLength(0);

      running = await spawnServer(env);
      const deadline = Date.now() + 10_000;
      while (receiver.received.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.items().map((i) => [i.eventCode, i.pspReference])).toEqual([
        ['AUTHORISATION', psp],
        ['CAPTURE', capture.data!.pspReference],
      ]);
    } finally {
      await receiver.stop();
    }
  });
});
