/**
 * `npm run contract` (scripts/contract.mjs) against the built server in its own process
 * (dist/server.mjs, as `npm start` runs it). Whatever the deployment lets its webhooks and
 * forward requests reach, the command ends by itself with its summary: the checks that need its
 * receiver run when the deployment reaches it (directly, or through --webhook-url), and are
 * skipped with the reason and the way to enable them when it does not.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';
import { freePort, kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

const OPERATIONS = [
  'payments',
  'captureAuthorisedPayment',
  'forward',
  'getApiCredentialDetails',
  'listMerchantAccounts',
  'setUpWebhook',
  'testWebhook',
  'updateMerchantTerminalSettings',
  // Client-side: called with the client key the command reads with the API key.
  'makeSessionPayment',
  'binLookup',
];

const SUMMARY =
  /^contract: (PASS|FAIL) — example replays: (\d+) passed, (\d+) failed; generated tests: (\d+) operations passed, (\d+) failed \(seed \d+: (\d+) requests/m;

function contract(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), 'scripts', 'contract.mjs'), ...args],
      // Killed (code null) if it does not end by itself well within the test's timeout.
      { timeout: 280_000, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

const against = (server: RunningProcess) => [
  '--checkout-url',
  `${server.baseUrl}/checkout/v71`,
  '--management-url',
  `${server.baseUrl}/management/v3`,
  '--api-key',
  COMPANY_KEY,
];

const started: RunningProcess[] = [];
async function sandbox(env: Record<string, string> = {}): Promise<RunningProcess> {
  const server = await spawnServer({ DATABASE_PATH: ':memory:', DEMO_COMPANY_API_KEY: COMPANY_KEY, DEMO_MERCHANT_API_KEY: MERCHANT_KEY, ...env });
  started.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(started.map((server) => kill(server, 'SIGTERM')));
});

describe('npm run contract against a sandbox started with its defaults', () => {
  test('When it runs, then it ends by itself with its summary, runs the webhook checks and skips the forward one with the reason and how to enable it', async () => {
    // Defaults: webhooks may reach loopback in sandbox mode, /forward only allow-listed public hosts.
    const server = await sandbox();
    const result = await contract([...against(server), '--operations', 'forward,testWebhook,getWebhook,listMerchantAccounts']);
    const summary = SUMMARY.exec(result.stdout);
    expect({ code: result.code, summary: summary?.[0] }).toEqual({ code: 0, summary: expect.stringMatching(/^contract: PASS/) });
    expect(result.stdout).toMatch(
      /^contract: skipping the forward checks \(forward\): the deployment refused to forward to http:\/\/127\.0\.0\.1:\d+ .*--webhook-url.*FORWARD_ALLOWLIST/m,
    );
    expect(result.stdout).not.toMatch(/skipping the webhook checks/);
    // Jest reports each check on stderr.
    expect(result.stderr).toMatch(/✓ When testWebhook authorisation → 200 is replayed/);
    expect(result.stdout).toMatch(/; skipped: the checks of 1 operation whose receiver the deployment cannot reach$/m);
  }, 300_000);

  test('When its webhooks may not reach this machine, then the webhook checks are skipped with one line saying how to enable them, and the rest pass', async () => {
    const server = await sandbox({ WEBHOOK_ALLOW_LOOPBACK: 'false' });
    const result = await contract([...against(server), '--only', 'examples', '--operations', 'payments,setUpWebhook,testWebhook,resendCompanyWebhookEvent']);
    expect({ code: result.code, summary: /^contract: (PASS|FAIL) — .*$/m.exec(result.stdout)?.[0] }).toEqual({
      code: 0,
      summary: expect.stringMatching(/^contract: PASS — example replays: \d+ passed, 0 failed; skipped: the checks of 3 operations/),
    });
    const skipLines = result.stdout.split('\n').filter((line) => line.startsWith('contract: skipping'));
    expect(skipLines).toEqual([
      expect.stringMatching(
        /^contract: skipping the webhook checks \(setUpWebhook, testWebhook, resendCompanyWebhookEvent\): the deployment refused a webhook to .*; to run them, give --webhook-url .* or start the sandbox with WEBHOOK_ALLOW_LOOPBACK=true/,
      ),
    ]);
    expect(result.stderr).not.toMatch(/[✓✕] When testWebhook/);
  }, 300_000);
});

describe('npm run contract with --webhook-url, against a sandbox that lets webhooks and forward requests reach loopback', () => {
  let server: RunningProcess;
  let forwarder: Server;
  let receiverPort: number;
  /** Requests the forwarder passed on to the command's receiver. */
  const forwarded: string[] = [];
  beforeAll(async () => {
    server = await sandbox({
      // The generated tests send more than 120 requests a minute to the rate-limited terminal settings.
      RATE_LIMIT_PER_MINUTE: '1000000',
      FORWARD_ALLOWLIST: JSON.stringify({ '*': ['127.0.0.1', 'localhost'] }),
      FORWARD_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    receiverPort = await freePort();
    // What a user's tunnel or reverse proxy does: another address that passes each request on to the receiver.
    forwarder = createServer((req, res) => {
      forwarded.push(`${req.method} ${req.url}`);
      const upstream = request({ host: '127.0.0.1', port: receiverPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    forwarder?.closeAllConnections();
    await new Promise((resolve) => (forwarder ? forwarder.close(resolve) : resolve(undefined)));
  });

  test('When the contract command runs with --webhook-url, then the webhook and forward checks go through that address and everything passes', async () => {
    const webhookUrl = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}/relay`;
    const result = await contract([
      ...against(server),
      '--operations',
      OPERATIONS.join(','),
      '--webhook-url',
      webhookUrl,
      '--receiver-port',
      String(receiverPort),
    ]);
    const summary = SUMMARY.exec(result.stdout);
    expect({ code: result.code, summary: summary?.[0] }).toEqual({ code: 0, summary: expect.stringMatching(/^contract: PASS/) });
    expect(Number(summary![2])).toBeGreaterThanOrEqual(OPERATIONS.length);
    expect(Number(summary![4])).toBe(OPERATIONS.length);
    expect(Number(summary![6])).toBeGreaterThan(100);
    expect(result.stdout).not.toMatch(/client-side area skipped|skipping the/);
    // The probes, the forward replays and the test webhook deliveries all came through the given address.
    expect(forwarded).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/relay\/contract-probe\/webhook-/),
        expect.stringMatching(/^POST \/relay\/contract-probe\/forward-/),
        expect.stringMatching(/^POST \/relay\/cards/),
      ]),
    );
  }, 300_000);
});

describe('npm run contract with bad arguments', () => {
  test('When an argument is missing or --webhook-url is not an http(s) address, then it says so and exits 2', async () => {
    const missing = await contract(['--checkout-url', 'http://127.0.0.1:9/checkout/v71']);
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/--management-url is required/) });
    const badUrl = await contract([
      '--checkout-url',
      'http://127.0.0.1:9/checkout/v71',
      '--management-url',
      'http://127.0.0.1:9/management/v3',
      '--api-key',
      'k',
      '--webhook-url',
      'ftp://relay',
    ]);
    expect({ code: badUrl.code, stderr: badUrl.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/--webhook-url must be an http\(s\) URL/) });
  });
});

describe('npm run contract against an address where nothing answers', () => {
  test('When nothing listens there, then it ends at once with a FAIL naming the address and exits 1', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const result = await contract(['--checkout-url', `${nobody}/checkout/v71`, '--management-url', `${nobody}/management/v3`, '--api-key', COMPANY_KEY]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({
      code: 1,
      stdout: expect.stringMatching(new RegExp(`^contract: FAIL — the deployment did not answer GET ${nobody}/management/v3/me`, 'm')),
    });
  });
});
