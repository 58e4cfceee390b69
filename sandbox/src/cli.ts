/**
 * `payments-sandbox`: starts the sandbox from the prebuilt bundle beside this file (server.mjs),
 * prints where it listens and its keys, and stops on SIGINT or SIGTERM. The options are mapped
 * to the server's settings (server/config.ts); the caller's environment is not read, so a
 * project's own PORT, DATABASE_URL or LOG_LEVEL never reach the sandbox.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type * as ServerModule from '../../server/sandbox.js';
import type { SandboxInfo } from './info.js';

const HELP = `Usage: payments-sandbox [options]

Starts a payments sandbox (Checkout v71, Management v3) with demo data, prints its addresses and
keys, and runs until SIGINT (Ctrl-C) or SIGTERM.

Options:
  --port <n>             TCP port on 127.0.0.1; 0 (the default) picks a free one
  --data-dir <dir>       where the SQLite database and uploads are kept (kept at exit);
                         default: a new temporary folder, removed at exit
  --database-url <url>   postgres://user:password@host:port/database: PostgreSQL instead of SQLite
  --company-key <key>    API key of the company credential (every role); default: generated
  --merchant-key <key>   API key of the DemoMerchantECOM credential (checkout roles); default: generated
  --log-level <level>    debug, info, warn (default), error or silent; logs go to stderr
  --json                 print the ready line as one JSON object
  --stop-with-stdin      stop when standard input closes (the parent process ended)
  --help                 this text
  --version              the package version
`;

const here = new URL('.', import.meta.url);
const fail = (message: string): never => {
  process.stderr.write(`payments-sandbox: ${message}\n(payments-sandbox --help lists the options)\n`);
  process.exit(2);
};

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'company-key': { type: 'string' },
      'merchant-key': { type: 'string' },
      'log-level': { type: 'string', default: 'warn' },
      json: { type: 'boolean', default: false },
      'stop-with-stdin': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      version: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
}
try {
  parsed = parse();
} catch (error) {
  fail((error as Error).message);
}
const { values } = parsed!;
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const version = (JSON.parse(readFileSync(new URL('../package.json', here), 'utf8')) as { version: string }).version;
if (values.version) {
  process.stdout.write(`${version}\n`);
  process.exit(0);
}

// A key nobody else has: each sandbox gets its own unless the caller chose one.
const generatedKey = (who: string) => `sandbox_${who}_${randomBytes(18).toString('base64url')}`;
const companyKey = values['company-key'] ?? generatedKey('company');
const merchantKey = values['merchant-key'] ?? generatedKey('merchant');
const temporary = values['data-dir'] === undefined;
const dataDir = temporary ? mkdtempSync(join(tmpdir(), 'payments-sandbox-')) : resolve(values['data-dir']!);
if (!temporary) mkdirSync(dataDir, { recursive: true });
const removeData = () => {
  if (temporary) rmSync(dataDir, { recursive: true, force: true });
};
// However the process ends but SIGKILL (a stop, a failed start, an uncaught error), the temporary data goes with it.
process.on('exit', removeData);
// A parent that ended closes the pipes: a log line written then must not end the sandbox with EPIPE before it has stopped.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

const env: Record<string, string> = {
  APP_MODE: 'sandbox',
  HOST: '127.0.0.1',
  PORT: values.port,
  DATABASE_PATH: join(dataDir, 'payments.sqlite'),
  // A sandbox for tests: losing the last commits in a power cut does not matter, waiting for fsync does.
  SQLITE_SYNCHRONOUS: 'NORMAL',
  UPLOAD_DIR: join(dataDir, 'uploads'),
  LOG_LEVEL: values['log-level'],
  DEMO_COMPANY_API_KEY: companyKey,
  DEMO_MERCHANT_API_KEY: merchantKey,
  // Tests stop the sandbox with their run: in-flight requests get a short grace.
  SHUTDOWN_TIMEOUT_MS: '5000',
  ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
};

// The signals are ours from the first moment: a parent may send SIGTERM as soon as it has read the
// ready line, before anything after the line's write would have run. One that arrives while the
// server starts stops it as soon as it listens.
const sandbox: { started?: ServerModule.StartedServer; requested?: string; stoppingSince?: number } = {};
// One Ctrl-C under npx arrives twice, a few milliseconds apart (the terminal signals npx and node, and npx passes its copy on).
const SAME_SIGNAL_MS = 500;
const stop = (why: string) => {
  const { started } = sandbox;
  if (!started) {
    // A second signal while it starts: leave now, still without the temporary data (the exit handler).
    if (sandbox.requested) process.exit(1);
    sandbox.requested = why;
    return;
  }
  if (sandbox.stoppingSince !== undefined) {
    if (Date.now() - sandbox.stoppingSince < SAME_SIGNAL_MS) return;
    process.exit(1);
  }
  sandbox.stoppingSince = Date.now();
  started.logger.info('stopping', { why });
  setTimeout(() => {
    started.logger.warn('stopping: requests still running after the shutdown timeout', { openConnections: started.openConnections() });
    process.exit(1);
  }, started.config.shutdownTimeoutMs).unref();
  started.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`payments-sandbox: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
if (values['stop-with-stdin']) {
  process.stdin.on('end', () => stop('stdin closed'));
  process.stdin.on('error', () => stop('stdin closed'));
  process.stdin.resume();
}

const serverModule = new URL('../server.mjs', here).href;
const { start } = (await import(serverModule)) as typeof ServerModule;
const started = await start({ env, logDestination: process.stderr }).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
sandbox.started = started;
if (sandbox.requested) stop(sandbox.requested);

const { demo } = started;
const info: SandboxInfo = {
  checkoutUrl: `${started.baseUrl}/checkout/v71`,
  managementUrl: `${started.baseUrl}/management/v3`,
  clientsideUrl: `${started.baseUrl}/checkoutshopper/test`,
  consoleUrl: `${started.baseUrl}/console`,
  baseUrl: started.baseUrl,
  port: started.port,
  companyId: demo.companyId,
  companyKey,
  merchantKey,
  merchantAccount: demo.merchantEcom,
  merchantAccounts: [demo.merchantEcom, demo.merchantPos],
  dataDir,
  temporaryDataDir: temporary,
  pid: process.pid,
  version,
};
if (sandbox.stoppingSince === undefined)
  process.stdout.write(
    values.json
      ? `${JSON.stringify(info)}\n`
      : [
          `Payments sandbox ${version} ready`,
          `  checkout:          ${info.checkoutUrl}`,
          `  management:        ${info.managementUrl}`,
          `  console:           ${info.consoleUrl}   (sign in with a key below)`,
          `  API reference:     ${info.baseUrl}/docs`,
          `  company key:       ${companyKey}   (${demo.companyUsername}, every role)`,
          `  merchant key:      ${merchantKey}   (${demo.merchantUsername}, ${demo.merchantEcom}, checkout only)`,
          `  merchant accounts: ${info.merchantAccounts.join(', ')}`,
          `  data:              ${values['database-url'] ? 'the database of --database-url' : dataDir}${temporary ? ' (removed at exit)' : ''}`,
          `  Ctrl-C stops it.`,
          '',
        ].join('\n'),
  );
