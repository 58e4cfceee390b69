import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assertUsesAnEngine, freshDatabase, TEST_ENGINE } from './database.js';

/** Ports this process has handed out: two probes running at once may be given the same free port. */
const handedOut = new Set<number>();

/** A free loopback port, chosen by the OS, never one handed out before in this process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        const chosen = typeof address === 'object' && address ? address.port : 0;
        probe.close(() => resolve(chosen));
      });
    });
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

export interface RunningProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

/**
 * Waits until `url` answers (by default: with a 2xx), or fails after `timeoutMs`. 30 s by default:
 * a server starting beside two busy test workers on a 2-core machine once took more than 15 s.
 */
export async function waitFor(url: string, timeoutMs = 30_000, accept: (response: Response) => boolean = (r) => r.ok): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (accept(response)) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs the built server (dist/server.mjs) as its own process, the way `npm start` does. */
/**
 * A server process's environment on this run's engine: on the PostgreSQL run, the database of the
 * folder the test chose for its SQLite file (the same database when the server is restarted).
 */
export async function engineEnv<E extends Record<string, string | undefined>>(env: E): Promise<E> {
  assertUsesAnEngine();
  if (TEST_ENGINE !== 'postgres' || env.DATABASE_URL) return env;
  const path = env.DATABASE_PATH;
  const dir = path && path !== ':memory:' ? dirname(path) : mkdtempSync(join(tmpdir(), 'db-'));
  return { ...env, ...(await freshDatabase(dir)).env };
}

export async function spawnServer(env: Record<string, string>): Promise<RunningProcess> {
  env = await engineEnv(env);
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [join(process.cwd(), 'dist', 'server.mjs')], {
    env: { ...process.env, NODE_OPTIONS: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${baseUrl}/health`);
    // The answer must be this process's: its banner names the port (another process on it would answer too).
    for (let i = 0; i < 250 && !output.includes(`listening on ${baseUrl}`); i++) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!output.includes(`listening on ${baseUrl}`)) throw new Error(`the server did not print that it listens on ${baseUrl}`);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
  return { child, baseUrl, output: () => output };
}

export async function kill(processToKill: RunningProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  // Already ended (by itself, or by a signal: then exitCode stays null and signalCode is set).
  if (processToKill.child.exitCode !== null || processToKill.child.signalCode !== null) return;
  const exited = new Promise((resolve) => processToKill.child.once('exit', resolve));
  processToKill.child.kill(signal);
  await exited;
}
