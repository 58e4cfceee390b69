/**
 * `npm run mock` (scripts/mock.mjs): the Prism mock answers under the server's base paths (the
 * old prefix-less paths still work), names the actual violations of an invalid request, serves
 * the API reference, and docs/mock-scenarios.md lists the scenarios of the current specs.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../helpers/spawn-server.js';

const headers = { 'Content-Type': 'application/json', 'X-API-Key': 'any-key-the-mock-accepts' };

describe('The mock (npm run mock)', () => {
  let child: ChildProcess;
  let output = '';
  const ports = { checkout: 0, management: 0 };
  beforeAll(async () => {
    ports.checkout = await freePort();
    ports.management = await freePort();
    child = spawn(process.execPath, [join(process.cwd(), 'scripts', 'mock.mjs')], {
      env: { ...process.env, NODE_OPTIONS: '', MOCK_CHECKOUT_PORT: String(ports.checkout), MOCK_MANAGEMENT_PORT: String(ports.management) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes('Mock ready')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the mock did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);
  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  test('When the mock starts, then it shows its progress and the addresses of both areas and of the docs', () => {
    expect(output).toContain('starting Prism');
    expect(output).toContain(`http://127.0.0.1:${ports.checkout}/checkout/v71`);
    expect(output).toContain(`http://127.0.0.1:${ports.management}/management/v3`);
    expect(output).toContain(`http://127.0.0.1:${ports.checkout}/docs`);
  });

  test('When a frontend calls the server paths on the mock, then both areas answer there, and the prefix-less paths still do', async () => {
    const body = JSON.stringify({
      amount: { currency: 'EUR', value: 1000 },
      reference: 'r',
      merchantAccount: 'DemoMerchantECOM',
      returnUrl: 'https://shop.example.com/return',
      paymentMethod: { type: 'scheme' },
    });
    const refused = await fetch(`http://127.0.0.1:${ports.checkout}/checkout/v71/payments`, {
      method: 'POST',
      headers: { ...headers, Prefer: 'example=card-refused' },
      body,
    });
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({ resultCode: 'Refused' });
    const me = await fetch(`http://127.0.0.1:${ports.management}/management/v3/me`, { headers });
    expect(me.status).toBe(200);
    const old = await fetch(`http://127.0.0.1:${ports.checkout}/payments`, { method: 'POST', headers, body });
    expect(old.status).toBe(200);
  });

  test("When Adyen Web's session setup reaches the mock's checkout port under the client-side base path, then it answers the spec's example, with CORS for the shop's page", async () => {
    const shop = 'http://127.0.0.1:3000';
    const setup = `http://127.0.0.1:${ports.checkout}/checkoutshopper/test/v1/sessions/CS451F2AB1ED897A94/setup?clientKey=test_ANYKEYTHEMOCKACCEPTS`;
    const response = await fetch(setup, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: shop },
      body: JSON.stringify({ sessionData: 'Ab02b4c0!BQABAgB' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/127\.0\.0\.1:3000)$/);
    expect(await response.json()).toMatchObject({ id: expect.any(String), paymentMethods: expect.anything() });
    expect(output).toContain(`http://127.0.0.1:${ports.checkout}/checkoutshopper/test/`);
    // Without the client key the call is refused, as the sandbox refuses it.
    const keyless = await fetch(setup.replace(/\?.*$/, ''), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"sessionData":"x"}' });
    expect(keyless.status).toBe(401);
  });

  test('When a request misses amount, then the mock error names amount (not the example error)', async () => {
    const response = await fetch(`http://127.0.0.1:${ports.checkout}/checkout/v71/payments`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        reference: 'r',
        merchantAccount: 'DemoMerchantECOM',
        returnUrl: 'https://shop.example.com/return',
        paymentMethod: { type: 'scheme' },
      }),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { message: string };
    expect(body.message).toContain('amount');
    expect(body.message).not.toContain("'reference'");
    const management = await fetch(`http://127.0.0.1:${ports.management}/management/v3/merchants/DemoMerchantECOM/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'standard', active: true, communicationFormat: 'json' }),
    });
    expect(management.status).toBe(422);
    expect(await management.json()).toMatchObject({ invalidFields: [{ name: 'url', value: '', message: expect.stringContaining("'url'") }] });
  });

  test('When a body holds strings that Prism 5.14.2 could not log (braces and brackets inside an array), then the mock answers it and keeps answering', async () => {
    // "a}b[c:" made Prism's CLI log pipe (jsonrepair) throw and the mock exit, as a CI run once showed.
    const tricky = await fetch(`http://127.0.0.1:${ports.checkout}/checkout/v71/paymentMethods`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ merchantAccount: 'DemoMerchantECOM', allowedPaymentMethods: ['a}b[c:', 'bzd}P.R[)dy:'] }),
    });
    expect(tricky.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(child.exitCode).toBeNull();
    const me = await fetch(`http://127.0.0.1:${ports.management}/management/v3/me`, { headers });
    expect(me.status).toBe(200);
    const again = await fetch(`http://127.0.0.1:${ports.checkout}/checkout/v71/paymentMethods`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ merchantAccount: 'DemoMerchantECOM' }),
    });
    expect(again.status).toBe(200);
  });

  test('When /docs is asked of the mock, then the reference pages and the specs pointing at the mock are served', async () => {
    expect((await fetch(`http://127.0.0.1:${ports.checkout}/docs`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${ports.checkout}/docs/checkout`)).text()).toMatch(/\/docs\/assets\/[\d.]+\/standalone\.js/);
    expect((await fetch(`http://127.0.0.1:${ports.checkout}/docs/assets/standalone.js`)).status).toBe(200);
    const spec = (await (await fetch(`http://127.0.0.1:${ports.management}/docs/management/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    expect(spec.servers[0]!.url).toBe(`http://127.0.0.1:${ports.management}/management/v3`);
  });
});

test('When the specs are read, then docs/mock-scenarios.md lists their current scenarios (npm run docs:scenarios)', () => {
  expect(() => execFileSync(process.execPath, [join(process.cwd(), 'scripts', 'mock-scenarios.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
});
