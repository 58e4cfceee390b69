/**
 * Two server processes on one PostgreSQL database without SERVER_SECRET and CARD_ENCRYPTION_KEY
 * (skipped on the SQLite run: an SQLite file belongs to one process, which keeps its secrets in key
 * files beside it). In sandbox mode the instances agree on the secrets by themselves: what one
 * signs, hashes or encrypts, the other reads. In production mode such a start is refused, and an
 * instance that cannot read the secrets the others share refuses to start rather than diverge.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seal } from '../../server/kernel/crypto/shared-secrets.js';
import { DEMO } from '../../server/seed.js';
import { rawCard } from '../helpers/factories.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

const onPostgres = TEST_ENGINE === 'postgres' ? describe : describe.skip;

let database: TestDatabase;
let a: RunningProcess;
let b: RunningProcess;

async function call(instance: RunningProcess, method: string, path: string, body?: unknown, apiKey = COMPANY_KEY) {
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': apiKey, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

/** Starts the built server and waits for it to exit on its own (a refused start); fails if it is still running after `ms`. */
function startRefused(env: Record<string, string>, ms = 20_000): Promise<{ code: number | null; output: string }> {
  const child: ChildProcess = spawn(process.execPath, [join(process.cwd(), 'dist', 'server.mjs')], {
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not refuse to start within ${ms} ms:\n${output}`));
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * The environment of an instance: the database, the demo key, and no secret variables at all. Each
 * instance gets a folder of its own for DATABASE_PATH (as on a host of its own): key files made
 * beside it would differ from instance to instance.
 */
function withoutSecrets(extra: Record<string, string> = {}, on: TestDatabase = database): Record<string, string> {
  return {
    ...on.env,
    DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'instance-')), 'payments.sqlite'),
    SERVER_SECRET: '',
    CARD_ENCRYPTION_KEY: '',
    DEMO_COMPANY_API_KEY: COMPANY_KEY,
    WEBHOOK_DISPATCH: 'false',
    ...extra,
  };
}

onPostgres('Two instances on one PostgreSQL database without SERVER_SECRET and CARD_ENCRYPTION_KEY', () => {
  beforeAll(async () => {
    database = await freshDatabase(mkdtempSync(join(tmpdir(), 'shared-secrets-')));
    // Started together: both find no secrets, and must still end up with the same ones.
    [a, b] = await Promise.all([spawnServer(withoutSecrets()), spawnServer(withoutSecrets())]);
  }, 60_000);

  afterAll(async () => {
    for (const instance of [a, b]) if (instance) await kill(instance);
    await database?.drop();
  });

  test('When both start at once, then the database holds one sealed row per secret and neither in plain text', async () => {
    const rows = await database.rows('SELECT name, sealed FROM sealed_secrets ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(['card-encryption-key', 'server-secret']);
    for (const { sealed } of rows) {
      // v1.<salt>.<iv>.<tag>.<ciphertext>: no 32-byte key in hex or base64 anywhere in it.
      expect(String(sealed)).toMatch(/^v1(\.[A-Za-z0-9_-]+){4}$/);
      expect(String(sealed)).not.toMatch(/[0-9a-f]{64}/i);
    }
  });

  test('When a session is created on one instance, then it is paid on the other', async () => {
    const session = await call(a, 'POST', '/checkout/v71/sessions', {
      merchantAccount: DEMO.merchantEcom,
      amount: { currency: 'EUR', value: 1000 },
      reference: 'shared-secrets-session',
      returnUrl: 'https://shop.example.com/return',
    });
    expect(session.status).toBe(201);
    const paid = await call(b, 'POST', `/checkout/v71/sessions/${session.body.id}/payments`, {
      sessionData: session.body.sessionData,
      paymentMethod: rawCard('4111111111111111'),
    });
    expect(paid).toMatchObject({ status: 200, body: { resultCode: 'Authorised' } });
  });

  test('When an API key is generated through one instance, then it authenticates on the other', async () => {
    const credential = await call(a, 'POST', `/management/v3/merchants/${DEMO.merchantEcom}/apiCredentials`, { roles: ['Management API - Accounts read'] });
    expect(credential.status).toBe(200);
    const generated = await call(a, 'POST', `/management/v3/merchants/${DEMO.merchantEcom}/apiCredentials/${credential.body.id}/generateApiKey`);
    expect(generated.status).toBe(200);
    const apiKey = String(generated.body.apiKey);
    expect((await call(b, 'GET', '/management/v3/me', undefined, apiKey)).body).toMatchObject({ id: credential.body.id });
    // And the key made with the credential, through the other instance, on the first.
    expect((await call(a, 'GET', '/management/v3/me', undefined, String(credential.body.apiKey))).status).toBe(200);
  });

  test('When a card is stored through one instance, then a payment with its token is made on the other', async () => {
    const token = await call(a, 'POST', '/checkout/v71/storedPaymentMethods', {
      merchantAccount: DEMO.merchantEcom,
      shopperReference: 'shared-secrets-shopper',
      recurringProcessingModel: 'CardOnFile',
      paymentMethod: rawCard('4111111111111111'),
    });
    expect(token.status).toBe(201);
    const paid = await call(b, 'POST', '/checkout/v71/payments', {
      merchantAccount: DEMO.merchantEcom,
      amount: { currency: 'EUR', value: 1500 },
      reference: 'shared-secrets-token',
      returnUrl: 'https://shop.example.com/return',
      shopperReference: 'shared-secrets-shopper',
      recurringProcessingModel: 'CardOnFile',
      shopperInteraction: 'ContAuth',
      paymentMethod: { type: 'scheme', storedPaymentMethodId: token.body.id },
    });
    expect(paid).toMatchObject({ status: 200, body: { resultCode: 'Authorised' } });
  });

  test('When a third instance starts later, then it reads the same secrets: the demo key and the session of the first work on it', async () => {
    const c = await spawnServer(withoutSecrets());
    try {
      expect((await call(c, 'GET', '/management/v3/me')).status).toBe(200);
      const session = await call(a, 'POST', '/checkout/v71/sessions', {
        merchantAccount: DEMO.merchantEcom,
        amount: { currency: 'EUR', value: 700 },
        reference: 'shared-secrets-later',
        returnUrl: 'https://shop.example.com/return',
      });
      const paid = await call(c, 'POST', `/checkout/v71/sessions/${session.body.id}/payments`, {
        sessionData: session.body.sessionData,
        paymentMethod: rawCard('4111111111111111'),
      });
      expect(paid.status).toBe(200);
    } finally {
      await kill(c);
    }
  });

  test('When production mode starts on DATABASE_URL without the secrets, then it refuses, naming both variables', async () => {
    const { code, output } = await startRefused(withoutSecrets({ APP_MODE: 'production' }));
    expect(code).not.toBe(0);
    expect(output).toMatch(/SERVER_SECRET is required in production mode/);
    expect(output).toMatch(/CARD_ENCRYPTION_KEY is required in production mode/);
    expect(output).toMatch(/the same on every instance sharing DATABASE_URL/);
    expect(output).not.toMatch(/listening on/);
  });
});

onPostgres('An instance that cannot read the secrets the others share', () => {
  let other: TestDatabase;
  beforeAll(async () => {
    other = await freshDatabase(mkdtempSync(join(tmpdir(), 'shared-secrets-other-')));
  });
  afterAll(async () => {
    await other?.drop();
  });

  test('When the shared secrets were sealed with another database password, then the instance refuses to start, naming the variables, instead of making its own', async () => {
    // A first instance makes the table; then its rows are replaced by ones sealed with a password this URL does not have.
    const first = await spawnServer(withoutSecrets({}, other));
    await kill(first);
    const [server, card] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    await other.rows('UPDATE sealed_secrets SET sealed = ? WHERE name = ?', [seal('server-secret', server, 'another password'), 'server-secret']);
    await other.rows('UPDATE sealed_secrets SET sealed = ? WHERE name = ?', [seal('card-encryption-key', card, 'another password'), 'card-encryption-key']);
    const before = await other.rows('SELECT name, sealed FROM sealed_secrets ORDER BY name');

    const { code, output } = await startRefused(withoutSecrets({}, other));
    expect(code).not.toBe(0);
    expect(output).toMatch(/sealed with another DATABASE_URL password/);
    expect(output).toMatch(/SERVER_SECRET and CARD_ENCRYPTION_KEY/);
    expect(await other.rows('SELECT name, sealed FROM sealed_secrets ORDER BY name')).toEqual(before);
  }, 60_000);
});
