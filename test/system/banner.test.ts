/**
 * The start banner of `npm start` (server/main.ts): every address it prints answers. The server's
 * addresses are probed on the built server; the mock's on `npm run mock` (scripts/mock.mjs)
 * started on the ports the banner was told (MOCK_CHECKOUT_PORT, MOCK_MANAGEMENT_PORT).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';
import { COMPANY_KEY } from '../helpers/keys.js';

const ADDRESSES = ['/checkout/v71', '/management/v3', '/console', '/docs', '/health/live', '/health/ready', '/metrics'];

/**
 * Whether an address of the banner answers as what it is named: an area's base path answers its
 * operations (a payment methods list, the caller's credential), a page or endpoint answers 200.
 */
async function answers(url: string, apiKey: string): Promise<{ url: string; status: number; type: string }> {
  const headers = { 'Content-Type': 'application/json', 'X-API-Key': apiKey };
  let response: Response;
  if (url.endsWith('/checkout/v71')) {
    response = await fetch(`${url}/paymentMethods`, { method: 'POST', headers, body: JSON.stringify({ merchantAccount: 'DemoMerchantECOM' }) });
  } else if (url.endsWith('/management/v3')) {
    response = await fetch(`${url}/me`, { headers });
  } else {
    response = await fetch(url);
  }
  await response.arrayBuffer();
  return { url, status: response.status, type: (response.headers.get('content-type') ?? '').split(';')[0]! };
}

const urlsOf = (text: string) => [...text.matchAll(/https?:\/\/[^\s)]+/g)].map((m) => m[0]);

describe('Start banner', () => {
  let server: RunningProcess;
  let mock: ChildProcess;
  let mockOutput = '';
  const ports = { checkout: 0, management: 0 };

  beforeAll(async () => {
    ports.checkout = await freePort();
    ports.management = await freePort();
    const mockPorts = { MOCK_CHECKOUT_PORT: String(ports.checkout), MOCK_MANAGEMENT_PORT: String(ports.management) };
    mock = spawn(process.execPath, [join(process.cwd(), 'scripts', 'mock.mjs')], {
      env: { ...process.env, NODE_OPTIONS: '', ...mockPorts },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    mock.stdout?.on('data', (chunk: Buffer) => (mockOutput += chunk.toString()));
    mock.stderr?.on('data', (chunk: Buffer) => (mockOutput += chunk.toString()));
    server = await spawnServer({ DATABASE_PATH: ':memory:', DEMO_COMPANY_API_KEY: COMPANY_KEY, WEBHOOK_DISPATCH: 'false', ...mockPorts });
    const deadline = Date.now() + 90_000;
    while (!mockOutput.includes('Mock ready')) {
      if (Date.now() > deadline || mock.exitCode !== null) throw new Error(`the mock did not start:\n${mockOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (server) await kill(server);
    if (mock && mock.exitCode === null) {
      const exited = new Promise((resolve) => mock.once('exit', resolve));
      mock.kill('SIGTERM');
      await exited;
    }
  });

  test("When the server starts, then its banner lists the server's areas, console, API reference, health and metrics, and each answers", async () => {
    const listed = urlsOf(server.output()).filter((url) => url.startsWith(`${server.baseUrl}/`));
    expect(listed.map((url) => url.slice(server.baseUrl.length))).toEqual(ADDRESSES);
    for (const url of listed) expect(await answers(url, COMPANY_KEY)).toMatchObject({ url, status: 200 });
    expect(await answers(`${server.baseUrl}/docs`, COMPANY_KEY)).toMatchObject({ type: 'text/html' });
  });

  test('When the built server has answered both areas, then its metrics report every replaced validator internal in place', async () => {
    // The bundle (dist/server.mjs) holds express-openapi-validator; validator.ts replaces its internals
    // through module objects, which a bundler could lay out differently from node_modules.
    for (const area of ['/checkout/v71', '/management/v3']) expect(await answers(`${server.baseUrl}${area}`, COMPANY_KEY)).toMatchObject({ status: 200 });
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const parts = [...metrics.matchAll(/^openapi_validator_fast_path\{part="(\w+)"\} (\d+)$/gm)].map(([, part, value]) => [part, Number(value)]);
    expect(Object.fromEntries(parts)).toEqual({ routeLookup: 1, slimDocument: 1, slimPreprocessing: 1, skippedSpecValidation: 1, unoptimizedCode: 1 });
  });

  test("When the mock runs, then the banner lists its areas and its API reference on the mock's ports, and each answers", async () => {
    const mockBase = { checkout: `http://127.0.0.1:${ports.checkout}`, management: `http://127.0.0.1:${ports.management}` };
    const listed = urlsOf(server.output()).filter((url) => url.startsWith(`${mockBase.checkout}/`) || url.startsWith(`${mockBase.management}/`));
    expect(listed).toEqual([`${mockBase.checkout}/checkout/v71`, `${mockBase.management}/management/v3`, `${mockBase.checkout}/docs`]);
    for (const url of listed) expect(await answers(url, 'any-key-the-mock-accepts')).toMatchObject({ url, status: 200 });
    expect(await answers(`${mockBase.checkout}/docs`, 'any')).toMatchObject({ type: 'text/html' });
  });
});
