/**
 * Request logs, health and metrics against the app in this process (a fresh database on the
 * engine of the run: SQLite in memory, or a PostgreSQL database of its own):
 * the log lines of real requests carrying keys, card data, IBANs and webhook secrets, the
 * readiness probe with a working and a closed store, and a Prometheus scrape.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../server/app.js';
import { compose, type Composition } from '../../server/compose.js';
import { loadConfig } from '../../server/config.js';
import { recordEvent } from '../../server/kernel/events/outbox.js';
import { createLogger } from '../../server/kernel/logger.js';
import { freshDatabase, TEST_ENGINE } from '../helpers/database.js';
import { rawCard } from '../helpers/factories.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { Receiver } from '../helpers/receiver.js';

interface Running {
  baseUrl: string;
  composition: Composition;
  lines: Array<Record<string, unknown>>;
  raw: string[];
  stop(): Promise<void>;
}

async function start(logLevel: 'info' | 'silent' = 'info'): Promise<Running> {
  const raw: string[] = [];
  const database = TEST_ENGINE === 'postgres' ? await freshDatabase() : undefined;
  const config = loadConfig(
    {},
    {
      logLevel,
      databasePath: ':memory:',
      port: 0,
      cardEncryptionKey: '6b'.repeat(32),
      serverSecret: '5e'.repeat(32),
      forwardAllowList: { '*': ['127.0.0.1', 'localhost'] },
      forwardAllowPrivateNetworks: true,
      ...database?.config,
    },
  );
  const composition = await compose(config, {
    demoKeys: { company: COMPANY_KEY, merchant: MERCHANT_KEY },
    logDestination: { write: (line: string) => void raw.push(line) },
  });
  const server: Server = createApp(composition.deps).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    composition,
    raw,
    get lines() {
      return raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await composition.close();
      await database?.drop();
    },
  };
}

const json = (apiKey: string, extra: Record<string, string> = {}) => ({ 'Content-Type': 'application/json', 'X-API-Key': apiKey, ...extra });
const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

describe('Request logs', () => {
  let app: Running;
  let receiver: Receiver;
  const secrets = {
    webhookPassword: 'webhook-password-s3cret',
    iban: 'NL13TEST0123456789',
    card: '4111111111111111',
    cvc: '737',
    encryptedCard: 'test_5555555555554444',
    hmacKey: '',
  };
  // Each test gets its own server: tests must pass in any order (jest --randomize).
  beforeEach(async () => {
    app = await start('info');
    receiver = await new Receiver().start();
  });
  afterEach(async () => {
    await receiver.stop();
    await app.stop();
  });

  test('When requests carry API keys, card data, an IBAN and webhook secrets, then one line per request names them by id, operation, status, latency, merchant account and credential, and none of the secrets appears', async () => {
    const payment = await fetch(`${app.baseUrl}/checkout/v71/payments`, {
      method: 'POST',
      headers: json(COMPANY_KEY),
      body: JSON.stringify({
        amount: { currency: 'EUR', value: 1000 },
        reference: 'log-1',
        merchantAccount: 'DemoMerchantECOM',
        returnUrl: 'https://shop.example.com/return',
        paymentMethod: rawCard(secrets.card, { cvc: secrets.cvc }),
      }),
    });
    expect(payment.status).toBe(200);
    const encrypted = await fetch(`${app.baseUrl}/checkout/v71/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: basic('ws_100001@Company.DemoCompany', MERCHANT_KEY) },
      body: JSON.stringify({
        amount: { currency: 'EUR', value: 500 },
        reference: 'log-2',
        merchantAccount: 'DemoMerchantECOM',
        returnUrl: 'https://shop.example.com/return',
        paymentMethod: {
          type: 'scheme',
          encryptedCardNumber: secrets.encryptedCard,
          encryptedExpiryMonth: 'test_03',
          encryptedExpiryYear: 'test_2030',
          encryptedSecurityCode: 'test_737',
        },
      }),
    });
    expect(encrypted.status).toBe(200);
    const sepa = await fetch(`${app.baseUrl}/checkout/v71/payments`, {
      method: 'POST',
      headers: json(COMPANY_KEY),
      body: JSON.stringify({
        amount: { currency: 'EUR', value: 700 },
        reference: 'log-3',
        merchantAccount: 'DemoMerchantECOM',
        returnUrl: 'https://shop.example.com/return',
        paymentMethod: { type: 'sepadirectdebit', 'sepa.ownerName': 'A Shopper', 'sepa.ibanNumber': secrets.iban },
      }),
    });
    expect(sepa.status).toBeLessThan(500);
    const webhook = await fetch(`${app.baseUrl}/management/v3/merchants/DemoMerchantECOM/webhooks`, {
      method: 'POST',
      headers: json(COMPANY_KEY),
      body: JSON.stringify({
        type: 'standard',
        url: receiver.url,
        active: true,
        communicationFormat: 'json',
        username: 'hook-user',
        password: secrets.webhookPassword,
      }),
    });
    expect(webhook.status).toBe(200);
    const { id } = (await webhook.json()) as { id: string };
    const hmac = await fetch(`${app.baseUrl}/management/v3/merchants/DemoMerchantECOM/webhooks/${id}/generateHmac`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY },
    });
    secrets.hmacKey = ((await hmac.json()) as { hmacKey: string }).hmacKey;
    const missing = await fetch(`${app.baseUrl}/management/v3/merchants/DemoMerchantECOM/webhooks/nope`, {
      headers: { Authorization: basic('ws@Company.DemoCompany', COMPANY_KEY) },
    });
    expect(missing.status).toBe(404);
    const error = (await missing.json()) as { requestId: string };

    const all = app.raw.join('\n');
    for (const secret of [COMPANY_KEY, MERCHANT_KEY, secrets.card, secrets.encryptedCard, secrets.iban, secrets.webhookPassword, secrets.hmacKey])
      expect(all).not.toContain(secret);
    expect(all).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/);

    const requests = app.lines.filter((line) => line.message === 'request');
    expect(requests).toHaveLength(6);
    expect(requests[0]).toEqual({
      level: 'info',
      time: expect.any(String),
      message: 'request',
      requestId: payment.headers.get('x-request-id'),
      method: 'POST',
      path: '/checkout/v71/payments',
      operationId: 'payments',
      status: 200,
      ms: expect.any(Number),
      merchantAccount: 'DemoMerchantECOM',
      credential: 'ws@Company.DemoCompany',
    });
    expect(requests[1]).toMatchObject({ credential: 'ws_100001@Company.DemoCompany', merchantAccount: 'DemoMerchantECOM', operationId: 'payments' });
    expect(requests[3]).toMatchObject({ operationId: 'setUpWebhook', merchantAccount: 'DemoMerchantECOM', status: 200 });
    // The management error's requestId is the request id of the log line and of the response header.
    expect(missing.headers.get('x-request-id')).toBe(error.requestId);
    expect(requests[5]).toMatchObject({ requestId: error.requestId, operationId: 'getWebhook', status: 404 });
  });

  test('When a request is answered from its Idempotency-Key, then its line says replayed', async () => {
    const send = () =>
      fetch(`${app.baseUrl}/checkout/v71/payments`, {
        method: 'POST',
        headers: json(COMPANY_KEY, { 'Idempotency-Key': 'log-replay' }),
        body: JSON.stringify({
          amount: { currency: 'EUR', value: 100 },
          reference: 'log-r',
          merchantAccount: 'DemoMerchantECOM',
          returnUrl: 'https://shop.example.com/return',
          paymentMethod: rawCard(secrets.card),
        }),
      });
    await send();
    const again = await send();
    const line = app.lines.find((l) => l.requestId === again.headers.get('x-request-id'));
    expect(line).toMatchObject({ replayed: true, operationId: 'payments' });
  });

  test('When payments are delivered as events, then each delivery line names the event, the webhook and the request id of the payment that caused it', async () => {
    const webhook = await fetch(`${app.baseUrl}/management/v3/merchants/DemoMerchantECOM/webhooks`, {
      method: 'POST',
      headers: json(COMPANY_KEY),
      body: JSON.stringify({
        type: 'standard',
        url: receiver.url,
        active: true,
        communicationFormat: 'json',
        username: 'hook-user',
        password: secrets.webhookPassword,
      }),
    });
    expect(webhook.status).toBe(200);
    // Several at once: on SQLite they share a group commit, and each event must still keep its own request's id.
    const payments = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const payment = await fetch(`${app.baseUrl}/checkout/v71/payments`, {
          method: 'POST',
          headers: json(COMPANY_KEY),
          body: JSON.stringify({
            amount: { currency: 'EUR', value: 100 + i },
            reference: `log-delivery-${i}`,
            merchantAccount: 'DemoMerchantECOM',
            returnUrl: 'https://shop.example.com/return',
            paymentMethod: rawCard(secrets.card),
          }),
        });
        expect(payment.status).toBe(200);
        const { pspReference } = (await payment.json()) as { pspReference: string };
        return { pspReference, requestId: payment.headers.get('x-request-id') };
      }),
    );
    expect(new Set(payments.map((p) => p.requestId)).size).toBe(payments.length);
    await app.composition.dispatcher.drain();
    const deliveries = app.lines.filter((l) => l.message === 'webhook delivery' && l.eventCode === 'AUTHORISATION');
    for (const { pspReference, requestId } of payments) {
      const line = deliveries.find((l) => l.pspReference === pspReference);
      expect({ pspReference, line }).toEqual({
        pspReference,
        line: expect.objectContaining({
          requestId,
          eventId: expect.any(Number),
          webhookId: expect.any(String),
          outcome: 'accepted',
          merchantAccount: 'DemoMerchantECOM',
        }),
      });
    }
    expect(app.raw.join('\n')).not.toContain(secrets.webhookPassword);
  });

  test('When the transactions of several requests are committed together, then each event keeps the id of its own request', async () => {
    const { store } = app.composition.deps;
    const requestIds = ['together-A', 'together-B', 'together-C', 'together-D'];
    // Started in one turn: SQLite runs them in one group commit, from one loop.
    const eventIds = await Promise.all(
      requestIds.map((requestId, i) =>
        store.transaction(
          (tx) =>
            recordEvent(tx, new Date(), {
              companyId: 'DemoCompany',
              merchantAccount: 'DemoMerchantECOM',
              eventCode: 'AUTHORISATION',
              pspReference: `TOGETHER${i}`,
              merchantReference: `together-${i}`,
              currency: 'EUR',
              value: 100,
              success: true,
            }),
          { requestId },
        ),
      ),
    );
    const events = await store.read((tx) => Promise.all(eventIds.map((id) => tx.outbox.getEvent(id))));
    expect(events.map((event) => event?.requestId)).toEqual(requestIds);
  });

  test('When /forward calls a third party, then the outbound line carries the request id of the forward request', async () => {
    const response = await fetch(`${app.baseUrl}/checkout/v71/forward`, {
      method: 'POST',
      headers: json(COMPANY_KEY),
      body: JSON.stringify({
        merchantAccount: 'DemoMerchantECOM',
        shopperReference: 'log-shopper',
        paymentMethod: rawCard(secrets.card),
        baseUrl: receiver.url.replace('/webhooks', ''),
        request: {
          httpMethod: 'post',
          urlSuffix: '/cards',
          credentials: 'vault-token',
          headers: { Authorization: 'Bearer {{credentials}}' },
          body: '{"n":"{{number}}"}',
        },
      }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(app.lines.find((l) => l.message === 'outbound call')).toMatchObject({
      requestId,
      method: 'POST',
      status: 200,
      host: expect.stringMatching(/^127\.0\.0\.1:/),
    });
    expect(app.raw.join('\n')).not.toContain('vault-token');
    expect(app.raw.join('\n')).not.toContain(secrets.card);
  });

  test('When a field carries a secret anyway, then the logger replaces it at any of the first three levels', () => {
    const out: string[] = [];
    const logger = createLogger('info', { destination: { write: (line: string) => void out.push(line) } });
    logger.info('check', {
      headers: { authorization: 'Basic c2VjcmV0', 'x-api-key': 'key-1' },
      paymentMethod: { number: '4111111111111111', cvc: '737', encryptedCardNumber: 'test_4111' },
      account: { details: { iban: 'NL13TEST0123456789' } },
      hmacKey: 'ABCDEF',
      password: 'pw',
      apiKey: 'key-2',
    });
    const line = JSON.parse(out[0]!) as Record<string, Record<string, Record<string, unknown>>>;
    expect(line.headers).toEqual({ authorization: '[redacted]', 'x-api-key': '[redacted]' });
    expect(line.paymentMethod).toEqual({ number: '[redacted]', cvc: '[redacted]', encryptedCardNumber: '[redacted]' });
    expect(line.account!.details).toEqual({ iban: '[redacted]' });
    expect(line).toMatchObject({ hmacKey: '[redacted]', password: '[redacted]', apiKey: '[redacted]' });
  });
});

describe('Health and metrics', () => {
  let app: Running;
  // Each test gets its own server: tests must pass in any order (jest --randomize).
  beforeEach(async () => {
    app = await start('silent');
  });
  afterEach(async () => {
    await app.stop();
  });

  test('When the store answers, then /health, /health/live and /health/ready answer 200', async () => {
    for (const path of ['/health', '/health/live', '/health/ready']) {
      const response = await fetch(`${app.baseUrl}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });

  test('When requests were made, then a /metrics scrape counts them by operation and status, with latency, replays, deliveries and the outbox backlog', async () => {
    const pay = (key?: string) =>
      fetch(`${app.baseUrl}/checkout/v71/payments`, {
        method: 'POST',
        headers: json(COMPANY_KEY, key ? { 'Idempotency-Key': key } : {}),
        body: JSON.stringify({
          amount: { currency: 'EUR', value: 100 },
          reference: 'm-1',
          merchantAccount: 'DemoMerchantECOM',
          returnUrl: 'https://shop.example.com/return',
          paymentMethod: rawCard('4111111111111111'),
        }),
      });
    await pay();
    await pay('metrics-1');
    await pay('metrics-1');
    await fetch(`${app.baseUrl}/checkout/v71/payments`, { method: 'POST', headers: json(COMPANY_KEY), body: '{}' });
    await fetch(`${app.baseUrl}/management/v3/merchants/DemoMerchantECOM/webhooks`, {
      method: 'POST',
      headers: json(COMPANY_KEY),
      body: JSON.stringify({ type: 'standard', url: 'http://127.0.0.1:9/hook', active: true, communicationFormat: 'json' }),
    });
    await pay();
    await app.composition.dispatcher.tick();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const response = await fetch(`${app.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}"=,]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('http_requests_total{operation="payments",status="200"}')).toBe(4);
    expect(value('http_requests_total{operation="payments",status="422"}')).toBe(1);
    expect(value('http_request_duration_seconds_count{operation="payments"}')).toBe(5);
    expect(value('idempotent_replays_total{operation="payments"}')).toBe(1);
    expect(value('webhook_delivery_failures_total')).toBeGreaterThanOrEqual(1);
    expect(value('webhook_outbox_pending_deliveries')).toBeGreaterThanOrEqual(1);
  });

  test('When the store is closed, then /health/ready answers 503 and /health/live still 200', async () => {
    await app.composition.store.close();
    const ready = await fetch(`${app.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', reason: expect.any(String) });
    expect((await fetch(`${app.baseUrl}/health/live`)).status).toBe(200);
  });
});
