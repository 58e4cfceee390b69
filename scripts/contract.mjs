#!/usr/bin/env node
// `npm run contract -- --checkout-url <url> --management-url <url> --api-key <key>`: the contract
// suite against a running deployment. It runs the spec example replays
// (test/contract/examples.test.ts) and then the generated contract tests
// (test/contract/generated/deployment.test.ts) with jest, prints a summary and exits 0 when
// everything passed, 1 when something failed, 2 on bad arguments.
//
// The key needs every role of the demo company's data set (the demo company credential). The
// run changes that company's sandbox: it creates payments, webhooks and settings, rotates the
// key of the credential in the examples (ws@Company.DemoCompany; the old key keeps working for
// 24 hours of the company's sandbox clock) and advances the clock (a day in the examples, at
// most an hour per generated request) — so run it against a fresh sandbox: a second run against
// the same one finds that key expired once its clock has moved on.
//
// The webhook and forward checks need the deployment to reach a receiver this command runs on
// 127.0.0.1 (--receiver-port): directly (a sandbox on this machine lets webhooks reach loopback
// by default; forward needs FORWARD_ALLOWLIST with 127.0.0.1 and FORWARD_ALLOW_PRIVATE_NETWORKS),
// or through --webhook-url, an address the deployment reaches that forwards to the receiver (a
// tunnel or reverse proxy). The command tries that first, with a test webhook and a forward
// request of its own, and skips the checks it cannot reach, saying why.
//
// It always ends: each generated request and each operation's requests have a time limit (the
// deployment's rate limit waited out only within it), each jest run has one too.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { testVendorMapper } from './test-vendor.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

const USAGE = `usage: npm run contract -- --checkout-url <url> --management-url <url> --api-key <key>
         [--clientside-url <url>] [--operations <operationId,…>] [--seed <n>|random] [--valid-count <n>]
         [--only examples|generated] [--webhook-url <url>] [--receiver-port <n>]

  --checkout-url     the checkout base address, e.g. http://localhost:8080/checkout/v71
  --management-url   the management base address, e.g. http://localhost:8080/management/v3
  --api-key          an API key with every role of the demo company's data set
                     (or CONTRACT_CHECKOUT_URL, CONTRACT_MANAGEMENT_URL, CONTRACT_API_KEY)
  --clientside-url   the client-side base address (default: /checkoutshopper/test on the
                     checkout address's host); its operations are called with the demo merchant
                     credential's client key, read with the API key, and left out when the key
                     cannot read it
  --operations       only these operations (comma-separated operationIds)
  --seed             the generated tests' seed (default: fixed; "random" explores; the seed is printed)
  --valid-count      valid generated requests per operation (default 3)
  --only             run only the example replays or only the generated tests
  --webhook-url      an address the deployment can reach that forwards to this command's receiver
                     (a tunnel or reverse proxy to http://127.0.0.1:<receiver port>); the webhook
                     and forward checks point the deployment there instead of at 127.0.0.1
  --receiver-port    the port of the receiver on 127.0.0.1 (default: a free one, printed)
                     (--webhook-url also from CONTRACT_WEBHOOK_URL)

  The webhook and forward checks run only when the deployment reaches the receiver: it is tried
  first, and the checks are skipped, with the reason, when it does not.`;

export function parseArgs(argv, env = process.env) {
  const options = {
    checkoutUrl: env.CONTRACT_CHECKOUT_URL,
    managementUrl: env.CONTRACT_MANAGEMENT_URL,
    apiKey: env.CONTRACT_API_KEY,
    clientsideUrl: env.CONTRACT_CLIENTSIDE_URL,
    operations: undefined,
    seed: undefined,
    validCount: undefined,
    only: undefined,
    webhookUrl: env.CONTRACT_WEBHOOK_URL,
    receiverPort: undefined,
    help: false,
  };
  const names = {
    '--checkout-url': 'checkoutUrl',
    '--management-url': 'managementUrl',
    '--api-key': 'apiKey',
    '--clientside-url': 'clientsideUrl',
    '--operations': 'operations',
    '--seed': 'seed',
    '--valid-count': 'validCount',
    '--only': 'only',
    '--webhook-url': 'webhookUrl',
    '--receiver-port': 'receiverPort',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      options.help = true;
      continue;
    }
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const key = names[flag];
    if (!key) throw new Error(`unknown argument ${arg}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    options[key] = value;
  }
  if (options.help) return options;
  for (const [key, flag] of [
    ['checkoutUrl', '--checkout-url'],
    ['managementUrl', '--management-url'],
    ['apiKey', '--api-key'],
  ]) {
    if (!options[key]) throw new Error(`${flag} is required`);
  }
  // This server's layout: the client-side area beside checkout on the same host.
  if (!options.clientsideUrl && URL.canParse(options.checkoutUrl)) options.clientsideUrl = new URL('/checkoutshopper/test', options.checkoutUrl).href;
  const flags = { checkoutUrl: '--checkout-url', managementUrl: '--management-url', clientsideUrl: '--clientside-url', webhookUrl: '--webhook-url' };
  for (const key of ['checkoutUrl', 'managementUrl', 'clientsideUrl', 'webhookUrl']) {
    if (key === 'webhookUrl' && options.webhookUrl === undefined) continue;
    try {
      const url = new URL(options[key]);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      throw new Error(`${flags[key]} must be an http(s) URL, not ${options[key]}`);
    }
    options[key] = options[key].replace(/\/+$/, '');
  }
  if (options.receiverPort !== undefined) {
    const port = Number(options.receiverPort);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--receiver-port takes a port number, not ${options.receiverPort}`);
    options.receiverPort = port;
  }
  if (options.only && options.only !== 'examples' && options.only !== 'generated') throw new Error('--only takes examples or generated');
  if (options.operations) {
    options.operations = options.operations
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = options.operations.find((id) => !/^[A-Za-z0-9_]+$/.test(id));
    if (bad) throw new Error(`--operations takes operationIds, not ${bad}`);
  }
  return options;
}

/** Jest's configuration without the repo's test-only parts: no dist/ build, no loopback-only guard (a deployment may be anywhere). */
async function jestConfig() {
  const { default: config } = await import(pathToFileURL(join(root, 'jest.config.js')).href);
  // Not the suite's build, loopback guard or order of files (whose PostgreSQL run leaves engine-independent files out).
  const { globalSetup: _build, setupFiles: _loopbackOnly, testSequencer: _engineRun, ...rest } = config;
  // Nor the packages bundled for the suite (the global setup writes them): they load from node_modules.
  const bundled = new Set(Object.keys(testVendorMapper()));
  const moduleNameMapper = Object.fromEntries(Object.entries(config.moduleNameMapper).filter(([name]) => !bundled.has(name)));
  return { ...rest, moduleNameMapper, rootDir: root, testTimeout: 180_000 };
}

/**
 * A jest run can outlive its tests only through something left open; each request and each
 * operation has its own limit, so this is the last resort when one of those fails to hold.
 */
const JEST_RUN_LIMIT_MS = 30 * 60_000;

function runJest(config, testPath, namePattern, env, reportFile) {
  const args = [
    join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--config',
    JSON.stringify(config),
    '--runInBand',
    '--json',
    '--outputFile',
    reportFile,
    '--testNamePattern',
    namePattern,
    '--runTestsByPath',
    testPath,
  ];
  // Not spawnSync: the receiver in this process must answer the deployment while jest runs.
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
    let killed = false;
    const limit = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, JEST_RUN_LIMIT_MS);
    child.on('close', (code) => {
      clearTimeout(limit);
      let report;
      try {
        report = JSON.parse(readFileSync(reportFile, 'utf8'));
      } catch {
        report = undefined;
      }
      resolveRun({ status: killed ? 1 : (code ?? 1), report, killed });
    });
  });
}

/**
 * The checks that point the deployment at the receiver: the webhooks they arrange must be
 * accepted and called (test/contract/arrange.ts), the forward request must reach its third party.
 */
export const RECEIVER_CHECKS = {
  webhook: [
    'getSandboxWebhookFaults',
    'setSandboxWebhookFaults',
    'setUpWebhook',
    'getWebhook',
    'updateWebhook',
    'removeWebhook',
    'generateHmacKey',
    'testWebhook',
    'listWebhookEvents',
    'resendWebhookEvent',
    'setUpCompanyWebhook',
    'getCompanyWebhook',
    'updateCompanyWebhook',
    'removeCompanyWebhook',
    'generateCompanyHmacKey',
    'testCompanyWebhook',
    'listCompanyWebhookEvents',
    'resendCompanyWebhookEvent',
  ],
  forward: ['forward'],
};

/** The receiver of the webhook and forward checks: it accepts everything, and remembers the paths it was called at. */
async function startReceiver(port) {
  const paths = [];
  const server = createServer((req, res) => {
    paths.push(new URL(req.url ?? '/', 'http://receiver').pathname);
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"vault-card-1"}'));
  });
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolveListen);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    // A tunnel or proxy at --webhook-url may pass its own path prefix on, or not.
    received: (path) => paths.some((p) => p.endsWith(path)),
    close: () => {
      // The deployment's deliveries may hold keep-alive connections to it.
      server.closeAllConnections();
      return new Promise((resolveClose) => server.close(resolveClose));
    },
  };
}

const PROBE_TIMEOUT_MS = 15_000;

/** A request the probes need to succeed; its failure is the reason the checks are skipped. */
async function call(options, url, method, body) {
  const response = await fetch(url, {
    method,
    headers: { 'X-API-Key': options.apiKey, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
  });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, ok: response.ok, json, text };
}

const reasonOf = (answer) => `${answer.status} ${answer.json?.message ?? answer.json?.detail ?? answer.text.slice(0, 200)}`.trim();

/** Whether the deployment delivers a test webhook to the receiver (at `url`); undefined when it does, else why not. */
async function probeWebhooks(options, url, receiver) {
  const path = `/contract-probe/webhook-${randomUUID()}`;
  const base = `${options.managementUrl}/merchants/DemoMerchantECOM/webhooks`;
  const created = await call(options, base, 'POST', { type: 'standard', url: `${url}${path}`, active: true, communicationFormat: 'json' });
  if (!created.ok) return `the deployment refused a webhook to ${url} (${reasonOf(created)})`;
  try {
    const tested = await call(options, `${base}/${created.json.id}/test`, 'POST', {});
    if (!tested.ok) return `testing a webhook to ${url} failed (${reasonOf(tested)})`;
    const result = tested.json?.data?.[0];
    if (result?.status !== 'success' || !receiver.received(path))
      return `a test webhook to ${url} did not arrive (${result?.output ?? result?.status ?? 'no result'})`;
    return undefined;
  } finally {
    await call(options, `${base}/${created.json.id}`, 'DELETE').catch(() => undefined);
  }
}

/** Whether the deployment forwards a stored card to the receiver (at `url`); undefined when it does, else why not. */
async function probeForward(options, url, receiver) {
  const path = `/contract-probe/forward-${randomUUID()}`;
  const shopperReference = 'contract-probe';
  const stored = await call(options, `${options.checkoutUrl}/storedPaymentMethods`, 'POST', {
    merchantAccount: 'DemoMerchantECOM',
    shopperReference,
    recurringProcessingModel: 'CardOnFile',
    paymentMethod: {
      type: 'scheme',
      encryptedCardNumber: 'test_4111111111111111',
      encryptedExpiryMonth: 'test_03',
      encryptedExpiryYear: 'test_2030',
      encryptedSecurityCode: 'test_737',
    },
  });
  if (!stored.ok) return `storing a card to forward failed (${reasonOf(stored)})`;
  const forwarded = await call(options, `${options.checkoutUrl}/forward`, 'POST', {
    merchantAccount: 'DemoMerchantECOM',
    shopperReference,
    storedPaymentMethodId: stored.json.id,
    baseUrl: url,
    request: { httpMethod: 'post', urlSuffix: path, body: '{"number":"{{number}}"}' },
  });
  if (!forwarded.ok) return `the deployment refused to forward to ${url} (${reasonOf(forwarded)})`;
  if (!receiver.received(path)) return `a forward request to ${url} did not arrive`;
  return undefined;
}

/** A test-name pattern part that leaves these operationIds out (none: matches anything). */
const without = (ids) => (ids.length === 0 ? '' : `(?!(${ids.join('|')}) )`);

const count = (report, key) => report?.[key] ?? 0;

export async function main(argv = process.argv.slice(2)) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    console.error(`contract: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  console.log(`contract: ${options.checkoutUrl}, ${options.managementUrl} and ${options.clientsideUrl}`);
  // Before anything else: a deployment that does not answer, or refuses the key, fails at once, not once per check.
  let me;
  try {
    me = await call(options, `${options.managementUrl}/me`, 'GET');
  } catch (error) {
    console.log(`contract: FAIL — the deployment did not answer GET ${options.managementUrl}/me: ${error.cause?.message ?? error.message}`);
    return 1;
  }
  if (!me.ok) {
    console.log(`contract: FAIL — GET ${options.managementUrl}/me answered ${reasonOf(me)} (is --api-key a key of the demo company's credential?)`);
    return 1;
  }
  let receiver;
  try {
    receiver = await startReceiver(options.receiverPort ?? 0);
  } catch (error) {
    console.error(`contract: the receiver cannot listen on 127.0.0.1:${options.receiverPort}: ${error.message}`);
    return 2;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'contract-'));
  const lines = [];
  let failed = false;
  try {
    const receiverUrl = (options.webhookUrl ?? receiver.url).replace(/\/+$/, '');
    console.log(`contract: receiver on ${receiver.url}${options.webhookUrl ? `, reached by the deployment at ${receiverUrl}` : ''}`);
    const selected = (ids) => ids.filter((id) => !options.operations || options.operations.includes(id));
    const skipped = [];
    for (const [group, probe] of [
      ['webhook', probeWebhooks],
      ['forward', probeForward],
    ]) {
      const ids = selected(RECEIVER_CHECKS[group]);
      if (ids.length === 0) continue;
      let reason;
      try {
        reason = await probe(options, receiverUrl, receiver);
      } catch (error) {
        reason = `trying it failed: ${error.cause?.message ?? error.message}`;
      }
      if (!reason) continue;
      skipped.push(...ids);
      const enable = options.webhookUrl
        ? `check that ${options.webhookUrl} forwards to ${receiver.url}`
        : group === 'webhook'
          ? `give --webhook-url <an address the deployment reaches that forwards to ${receiver.url}>, or start the sandbox with WEBHOOK_ALLOW_LOOPBACK=true (its default in sandbox mode)`
          : `give --webhook-url <an address the deployment reaches that forwards to ${receiver.url}> and allow its host in the deployment's FORWARD_ALLOWLIST, or start the sandbox with FORWARD_ALLOWLIST='{"*":["127.0.0.1"]}' FORWARD_ALLOW_PRIVATE_NETWORKS=true`;
      console.log(`contract: skipping the ${group} checks (${ids.join(', ')}): ${reason}; to run them, ${enable}`);
    }
    const env = {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
      CONTRACT_CHECKOUT_URL: options.checkoutUrl,
      CONTRACT_MANAGEMENT_URL: options.managementUrl,
      CONTRACT_API_KEY: options.apiKey,
      CONTRACT_CLIENTSIDE_URL: options.clientsideUrl,
      CONTRACT_RECEIVER_URL: receiverUrl,
      CONTRACT_REPORT_FILE: join(scratch, 'generated-report.json'),
      ...(options.seed !== undefined && { CONTRACT_SEED: options.seed }),
      ...(options.validCount !== undefined && { CONTRACT_VALID_COUNT: options.validCount }),
    };
    const ops = options.operations ? `(${options.operations.join('|')})` : '\\S+';
    const config = await jestConfig();
    const killedLine = `; killed after ${JEST_RUN_LIMIT_MS / 60_000} minutes`;
    if (options.only !== 'generated') {
      // Example test names: "… against a deployment When <operationId> <scenario> → <status> is replayed, …"
      const { status, report, killed } = await runJest(
        config,
        'test/contract/examples.test.ts',
        `against a deployment When ${without(skipped)}${ops} `,
        env,
        join(scratch, 'examples.json'),
      );
      const passed = count(report, 'numPassedTests');
      const failedTests = count(report, 'numFailedTests');
      if (status !== 0 || failedTests > 0 || !report || (passed + failedTests === 0 && skipped.length === 0)) failed = true;
      lines.push(`example replays: ${passed} passed, ${failedTests} failed${passed + failedTests === 0 ? ' (none matched)' : ''}${killed ? killedLine : ''}`);
    }
    if (options.only !== 'examples') {
      // Generated test names: "… against a deployment When <area> <operationId> gets generated …"
      // Jest reports the file only when it ends: minutes against a deployment's default rate limit.
      console.log("contract: generated tests running (up to a minute for each operation the deployment's rate limit slows down)");
      const { status, report, killed } = await runJest(
        config,
        'test/contract/generated/deployment.test.ts',
        `against a deployment When (checkout|management|clientside) ${without(skipped)}${ops} gets`,
        env,
        join(scratch, 'generated.json'),
      );
      const passed = count(report, 'numPassedTests');
      const failedTests = count(report, 'numFailedTests');
      if (status !== 0 || failedTests > 0 || !report || (passed + failedTests === 0 && skipped.length === 0)) failed = true;
      let requests = passed + failedTests === 0 ? ' (none matched)' : '';
      try {
        const generated = JSON.parse(readFileSync(env.CONTRACT_REPORT_FILE, 'utf8'));
        const sum = (f) => generated.reports.reduce((n, r) => n + f(r), 0);
        const unsent = sum((r) => r.unsent ?? 0);
        requests =
          ` (seed ${generated.seed}: ${sum((r) => r.valid + r.invalid)} requests, ${sum((r) => r.valid)} valid, ${sum((r) => r.invalid)} invalid; ` +
          `${sum((r) => r.problems.length)} problems, ${sum((r) => r.known.length)} known findings` +
          `${unsent > 0 ? `; ${unsent} not sent within the deployment's rate limit (RATE_LIMIT_PER_MINUTE on the sandbox)` : ''})${generated.skipped ? `; ${generated.skipped}` : ''}`;
      } catch {
        // no report: the run did not get that far
      }
      lines.push(`generated tests: ${passed} operations passed, ${failedTests} failed${requests}${killed ? killedLine : ''}`);
    }
    if (skipped.length > 0)
      lines.push(`skipped: the checks of ${skipped.length} operation${skipped.length === 1 ? '' : 's'} whose receiver the deployment cannot reach`);
  } finally {
    await receiver.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`contract: ${failed ? 'FAIL' : 'PASS'} — ${lines.join('; ')}`);
  return failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
