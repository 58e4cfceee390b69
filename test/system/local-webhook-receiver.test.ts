/**
 * docs/local-webhook-receiver.md is true: its shell blocks run, in order, against the built server
 * started as the page starts it (nothing but the demo key set: the sandbox's defaults), with the
 * real examples/webhook-receiver.mjs, and the receiver prints the payment's AUTHORISATION with its
 * signature verified, as the page shows. Only the two addresses change (free ports instead of
 * 8080 and 4000).
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { freePort, kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

const run = promisify(execFile);
const root = process.cwd();
const PAGE = 'docs/local-webhook-receiver.md';
const page = readFileSync(join(root, PAGE), 'utf8');

const fenced = (lang: string) => [...page.matchAll(/```(\w*)\n([\s\S]*?)```/g)].filter((match) => match[1] === lang).map((match) => match[2]!.trim());

/** The settings that decide where webhooks may go, blanked so that the server runs on its defaults whatever this process's environment holds. */
const OUTBOUND_DEFAULTS = { APP_MODE: '', WEBHOOK_ALLOW_LOOPBACK: '', FORWARD_ALLOWLIST: '', FORWARD_ALLOW_PRIVATE_NETWORKS: '' };

const dirs: string[] = [];
const servers: RunningProcess[] = [];
const shells: ChildProcess[] = [];
afterEach(async () => {
  for (const shell of shells.splice(0)) {
    if (shell.exitCode !== null || shell.signalCode !== null) continue;
    const exited = new Promise((resolve) => shell.once('exit', resolve));
    // The shell and the receiver it started: one process group.
    process.kill(-shell.pid!, 'SIGTERM');
    await exited;
  }
  for (const server of servers.splice(0)) await kill(server, 'SIGTERM');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe(PAGE, () => {
  test('When its links are followed, then each leads to a file', () => {
    const links = [...page.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((target) => !existsSync(normalize(join(root, dirname(PAGE), target))))).toEqual([]);
  });

  test('When its steps run against the sandbox on its defaults, then the example receiver prints the payment AUTHORISATION with a verified signature', async () => {
    const [start, register, hmacKey, receiver, pay, ...rest] = fenced('sh');
    expect(rest).toEqual([]);
    const startEnv = /^((?:[A-Z_]+=\S+\s+)*)npm start$/.exec(start!)?.[1];
    expect(startEnv).toBeDefined();
    expect([receiver, pay]).toEqual(['node examples/webhook-receiver.mjs', 'sh examples/pay-with-curl.sh']);
    const [expected] = fenced('text');

    // Step 1: `npm start` is the build (jest's global setup did it) and this process.
    const dir = mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
    dirs.push(dir);
    const env = Object.fromEntries(
      startEnv!
        .trim()
        .split(/\s+/)
        .map((pair) => pair.split('=') as [string, string]),
    );
    const server = await spawnServer({ ...OUTBOUND_DEFAULTS, ...env, DATABASE_PATH: join(dir, 'payments.sqlite') });
    servers.push(server);

    // Steps 2 and 3 in one shell, as in the second terminal; the receiver keeps it running.
    const port = await freePort();
    const script = [register, hmacKey, receiver]
      .join('\n')
      .replaceAll('http://localhost:8080', server.baseUrl)
      .replaceAll('127.0.0.1:4000', `127.0.0.1:${port}`);
    expect(script).toContain(`"url": "http://127.0.0.1:${port}/webhooks"`);
    let output = '';
    const shell = spawn('sh', ['-c', script], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', RECEIVER_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    shells.push(shell);
    shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const printed = async (pattern: RegExp) => {
      for (let i = 0; i < 300 && !pattern.test(output); i++) {
        if (shell.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(output).toMatch(pattern);
    };
    await printed(/^listening on .*\(HMAC key set: signatures are checked\)$/m);
    expect(output).toMatch(/^webhook S2-\w+$/m);

    // Step 4, from a third terminal.
    const { stdout } = await run('sh', ['-c', pay!], { cwd: root, env: { ...process.env, NODE_OPTIONS: '', BASE_URL: server.baseUrl } });
    const payment = JSON.parse(stdout) as { pspReference: string; resultCode: string };
    expect(payment.resultCode).toBe('Authorised');

    // Step 5: the line the page shows, with this payment's pspReference.
    const line = expected!.split('\n')[0]!;
    const pattern = new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('…', payment.pspReference)}$`, 'm');
    await printed(pattern);
    expect(output).not.toMatch(/INVALID|NOT VERIFIED/);
  }, 90_000);
});
