/**
 * `npm run contract` (scripts/contract.mjs) against the built server in its own process
 * (dist/server.mjs, as `npm start` runs it): the example replays and the generated tests of
 * a few operations — among them the webhook and forward ones, whose loopback receiver used to
 * keep a deployment run from ever exiting — must pass, print the summary and exit 0.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

const OPERATIONS = [
  'payments',
  'captureAuthorisedPayment',
  'forward',
  'getApiCredentialDetails',
  'listMerchantAccounts',
  'setUpWebhook',
  'updateMerchantTerminalSettings',
  // Client-side: called with the client key the command reads with the API key.
  'makeSessionPayment',
  'binLookup',
];

function contract(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), 'scripts', 'contract.mjs'), ...args],
      { timeout: 280_000, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

describe('npm run contract against a running server', () => {
  let server: RunningProcess;
  beforeAll(async () => {
    server = await spawnServer({
      DATABASE_PATH: ':memory:',
      DEMO_COMPANY_API_KEY: COMPANY_KEY,
      DEMO_MERCHANT_API_KEY: MERCHANT_KEY,
      // The generated tests send more than 120 requests a minute to the rate-limited terminal settings.
      RATE_LIMIT_PER_MINUTE: '1000000',
      // The webhook and forward examples reach the suite's loopback receiver.
      FORWARD_ALLOWLIST: JSON.stringify({ '*': ['127.0.0.1', 'localhost'] }),
      FORWARD_ALLOW_PRIVATE_NETWORKS: 'true',
    });
  });
  afterAll(async () => {
    if (server) await kill(server, 'SIGTERM');
  });

  test('When the contract command runs against it, then it exits 0 with its summary', async () => {
    const result = await contract([
      '--checkout-url',
      `${server.baseUrl}/checkout/v71`,
      '--management-url',
      `${server.baseUrl}/management/v3`,
      '--api-key',
      COMPANY_KEY,
      '--operations',
      OPERATIONS.join(','),
    ]);
    const summary =
      /^contract: (PASS|FAIL) — example replays: (\d+) passed, (\d+) failed; generated tests: (\d+) operations passed, (\d+) failed \(seed \d+: (\d+) requests/m.exec(
        result.stdout,
      );
    expect({ code: result.code, summary: summary?.[0] }).toEqual({ code: 0, summary: expect.stringMatching(/^contract: PASS/) });
    expect(Number(summary![2])).toBeGreaterThanOrEqual(OPERATIONS.length);
    expect(Number(summary![4])).toBe(OPERATIONS.length);
    expect(Number(summary![6])).toBeGreaterThan(100);
    expect(result.stdout).not.toMatch(/client-side area skipped/);
  }, 300_000);

  test('When an argument is missing, then it says so and exits 2', async () => {
    const result = await contract(['--checkout-url', `${server.baseUrl}/checkout/v71`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--management-url is required/);
  });
});
