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
// the same one finds that key expired once its clock has moved on. The webhook and forward
// examples need the deployment to reach this machine (FORWARD_ALLOWLIST with 127.0.0.1 and
// FORWARD_ALLOW_PRIVATE_NETWORKS=true).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

const USAGE = `usage: npm run contract -- --checkout-url <url> --management-url <url> --api-key <key>
         [--clientside-url <url>] [--operations <operationId,…>] [--seed <n>|random] [--valid-count <n>]
         [--only examples|generated]

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
  --only             run only the example replays or only the generated tests`;

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
  const flags = { checkoutUrl: '--checkout-url', managementUrl: '--management-url', clientsideUrl: '--clientside-url' };
  for (const key of ['checkoutUrl', 'managementUrl', 'clientsideUrl']) {
    try {
      const url = new URL(options[key]);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      throw new Error(`${flags[key]} must be an http(s) URL, not ${options[key]}`);
    }
    options[key] = options[key].replace(/\/+$/, '');
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
  // Not the suite's build, loopback guard or engine choice (a PostgreSQL run leaves engine-independent files out).
  const { globalSetup: _build, setupFiles: _loopbackOnly, testPathIgnorePatterns: _engineRun, ...rest } = config;
  return { ...rest, rootDir: root, testTimeout: 180_000 };
}

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
  const result = spawnSync(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  let report;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8'));
  } catch {
    report = undefined;
  }
  return { status: result.status ?? 1, report };
}

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
  const scratch = mkdtempSync(join(tmpdir(), 'contract-'));
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
    CONTRACT_CHECKOUT_URL: options.checkoutUrl,
    CONTRACT_MANAGEMENT_URL: options.managementUrl,
    CONTRACT_API_KEY: options.apiKey,
    CONTRACT_CLIENTSIDE_URL: options.clientsideUrl,
    CONTRACT_REPORT_FILE: join(scratch, 'generated-report.json'),
    ...(options.seed !== undefined && { CONTRACT_SEED: options.seed }),
    ...(options.validCount !== undefined && { CONTRACT_VALID_COUNT: options.validCount }),
  };
  const ops = options.operations ? `(${options.operations.join('|')})` : '\\S+';
  const config = await jestConfig();
  const lines = [];
  let failed = false;
  try {
    console.log(`contract: ${options.checkoutUrl}, ${options.managementUrl} and ${options.clientsideUrl}`);
    if (options.only !== 'generated') {
      // Example test names: "… against a deployment When <operationId> <scenario> → <status> is replayed, …"
      const { status, report } = runJest(config, 'test/contract/examples.test.ts', `against a deployment When ${ops} `, env, join(scratch, 'examples.json'));
      const passed = count(report, 'numPassedTests');
      const failedTests = count(report, 'numFailedTests');
      if (status !== 0 || failedTests > 0 || !report || passed + failedTests === 0) failed = true;
      lines.push(`example replays: ${passed} passed, ${failedTests} failed${passed + failedTests === 0 ? ' (none matched)' : ''}`);
    }
    if (options.only !== 'examples') {
      // Generated test names: "… against a deployment When <area> <operationId> gets generated …"
      const { status, report } = runJest(
        config,
        'test/contract/generated/deployment.test.ts',
        `against a deployment When (checkout|management|clientside) ${ops} gets`,
        env,
        join(scratch, 'generated.json'),
      );
      const passed = count(report, 'numPassedTests');
      const failedTests = count(report, 'numFailedTests');
      if (status !== 0 || failedTests > 0 || !report || passed + failedTests === 0) failed = true;
      let requests = passed + failedTests === 0 ? ' (none matched)' : '';
      try {
        const generated = JSON.parse(readFileSync(env.CONTRACT_REPORT_FILE, 'utf8'));
        const sum = (f) => generated.reports.reduce((n, r) => n + f(r), 0);
        requests = ` (seed ${generated.seed}: ${sum((r) => r.valid + r.invalid)} requests, ${sum((r) => r.valid)} valid, ${sum((r) => r.invalid)} invalid; ${sum((r) => r.problems.length)} problems, ${sum((r) => r.known.length)} known findings)${generated.skipped ? `; ${generated.skipped}` : ''}`;
      } catch {
        // no report: the run did not get that far
      }
      lines.push(`generated tests: ${passed} operations passed, ${failedTests} failed${requests}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`contract: ${failed ? 'FAIL' : 'PASS'} — ${lines.join('; ')}`);
  return failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
