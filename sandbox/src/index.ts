/**
 * The sandbox for a project's tests: startSandbox() runs `payments-sandbox --json` as a child
 * process and resolves with its addresses and keys once it answers. A child process, not the
 * server in the caller's process: the native SQLite addon, the server's logs and its module state
 * stay out of the test runner, a crash or a hung request cannot take the runner down, and any
 * number of sandboxes run side by side, each on its own port and data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SandboxInfo } from './info.js';

export type { SandboxInfo } from './info.js';
export { receiveWebhooks, type ReceivedWebhook, type ReceiveWebhooksOptions, type WebhookReceiver } from './webhooks.js';
export { adyenHttpClient, type AdyenHttpClient, SandboxHttpError } from './adyen.js';
export { environmentOf } from './glue.js';
export { signItem, verifyHmacSignature, type Notification, type NotificationRequestItem } from '../../lib/webhook-signature.js';

export interface SandboxOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** Keep the data in this folder (kept after stop); default: a temporary folder removed at stop. */
  dataDir?: string;
  /** postgres://… : PostgreSQL instead of SQLite (the database is seeded when empty). */
  databaseUrl?: string;
  /** API keys of the seeded credentials; default: generated for this sandbox. */
  companyKey?: string;
  merchantKey?: string;
  /** debug, info, warn (default), error or silent. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Where the sandbox's log lines (stderr) go: 'pipe' keeps the last ones for error messages (default), 'inherit' shows them. */
  logs?: 'pipe' | 'inherit';
  /** How long the start may take; default 30 000 ms. */
  timeoutMs?: number;
}

export interface Sandbox extends SandboxInfo {
  /** Moves the company's sandbox clock forward (POST /sandbox/clock/advance with the company key); resolves with the clock's new time. */
  advanceClock(seconds: number): Promise<{ now: string; offsetSeconds: number }>;
  /** Stops the sandbox (SIGTERM) and waits for its process to end; its temporary data folder is removed. */
  stop(): Promise<void>;
}

/** The command of this package (bin/payments-sandbox.mjs beside this file once packaged). */
export const binPath: string = fileURLToPath(new URL('./bin/payments-sandbox.mjs', import.meta.url));

function argumentsOf(options: SandboxOptions): string[] {
  const args = ['--json', '--stop-with-stdin', '--port', String(options.port ?? 0)];
  if (options.dataDir) args.push('--data-dir', options.dataDir);
  if (options.databaseUrl) args.push('--database-url', options.databaseUrl);
  if (options.companyKey) args.push('--company-key', options.companyKey);
  if (options.merchantKey) args.push('--merchant-key', options.merchantKey);
  if (options.logLevel) args.push('--log-level', options.logLevel);
  return args;
}

/** Starts a sandbox in its own process; resolves when it answers. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // stdin stays open as a pipe: when this process ends, however it ends, the sandbox sees it close and stops.
  const child = spawn(process.execPath, [binPath, ...argumentsOf(options)], {
    stdio: ['pipe', 'pipe', options.logs === 'inherit' ? 'inherit' : 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const info = await readyLine(child, options.timeoutMs ?? 30_000, () => stderr);
  // Nothing more is read from it: a full pipe must not block the sandbox.
  child.stdout?.resume();
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    ...info,
    async advanceClock(seconds) {
      const response = await fetch(`${info.checkoutUrl}/sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': info.companyKey },
        body: JSON.stringify({ seconds }),
      });
      const body = (await response.json()) as { now: string; offsetSeconds: number; message?: string };
      if (!response.ok) throw new Error(`advancing the sandbox clock failed (${response.status}): ${body.message ?? JSON.stringify(body)}`);
      return { now: body.now, offsetSeconds: body.offsetSeconds };
    },
    async stop() {
      // Held by its process again, so that the caller waits for the end rather than exiting before it.
      child.ref();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The sandbox's `--json` line; fails with its last log lines when it exits or takes too long. */
function readyLine(child: ChildProcess, timeoutMs: number, logs: () => string): Promise<SandboxInfo> {
  return new Promise((resolve, reject) => {
    let out = '';
    const failed = (why: string) => {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(new Error(`the payments sandbox ${why}${logs() ? `:\n${logs()}` : ''}`));
    };
    const timer = setTimeout(() => failed(`did not start within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (error) => failed(`could not be started (${error.message})`));
    child.once('exit', (code, signal) => failed(`exited before it was ready (${signal ?? `exit code ${code}`})`));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      child.stdout!.removeAllListeners('data');
      try {
        resolve(JSON.parse(out.slice(0, end)) as SandboxInfo);
      } catch {
        failed(`printed something else than its ready line: ${out.slice(0, end)}`);
      }
    });
  });
}
