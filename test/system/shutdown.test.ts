/**
 * Signals and shutdown of the built server (node dist/server.mjs, as `npm start` runs it):
 * idle keep-alive connections are closed at once, in-flight requests finish, a request that
 * arrives on a busy connection is answered with Connection: close, the process exits within a
 * second of the last one; and `npm start` passes the signal on and exits, for SIGTERM
 * and for Ctrl-C (SIGINT to npm's whole process group, as a terminal sends it).
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { freePort, kill, type RunningProcess, spawnServer, waitFor } from '../helpers/spawn-server.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { rawConnection, requestHead } from '../helpers/raw-connection.js';

const env = {
  DATABASE_PATH: ':memory:',
  DEMO_COMPANY_API_KEY: COMPANY_KEY,
  FORWARD_ALLOWLIST: '{"*":["127.0.0.1"]}',
  FORWARD_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_DISPATCH: 'false',
};

const running: RunningProcess[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await kill(server);
});

const exitOf = (server: RunningProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) => server.child.once('exit', (code) => resolve({ code, at: Date.now() })));

/** GET over one keep-alive connection; resolves with the socket, left open and idle. */
function keepAliveGet(url: string, agent: http.Agent): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode ?? 0, socket: request.socket! }));
    });
    request.once('error', reject);
  });
}

/** A loopback upstream that answers 1.5 s after a request arrives; `arrived` resolves when one has. */
async function slowUpstream(): Promise<{ url: string; arrived: Promise<void>; close: () => Promise<void> }> {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const slow = http.createServer((req, res) => {
    req.resume();
    arrive();
    setTimeout(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{"slow":true}'), 1500);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
    arrived,
    close: async () => {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    },
  };
}

/** A forward to the slow upstream: it stays in flight until the upstream answers. */
const forwardBody = (upstreamUrl: string) => ({
  merchantAccount: 'DemoMerchantECOM',
  shopperReference: 'shutdown-shopper',
  paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'J Smith' },
  baseUrl: upstreamUrl,
  request: { httpMethod: 'post', urlSuffix: '/cards', credentials: 'x', headers: {}, body: '{"n":"{{number}}"}' },
});

/** A request that stays in flight until the slow upstream answers: POST /forward to it. */
function slowForward(baseUrl: string, upstreamUrl: string) {
  return fetch(`${baseUrl}/checkout/v71/forward`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
    body: JSON.stringify(forwardBody(upstreamUrl)),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as { response?: { status: number } }, at: Date.now() }));
}

/** `npm start` on a free port, its output collected; `closed` resolves when npm and node have both ended. */
/**
 * A server with a forward waiting on a slow upstream: `work` signals the server and checks what
 * came of the forward (its answer, or `no answer` when the server died first) and of the process.
 */
async function duringSlowForward(
  work: (run: {
    server: RunningProcess;
    forward: Promise<Awaited<ReturnType<typeof slowForward>> | 'no answer'>;
    exited: ReturnType<typeof exitOf>;
  }) => Promise<void>,
): Promise<void> {
  const upstream = await slowUpstream();
  try {
    const server = await spawnServer({ ...env, FORWARD_TIMEOUT_MS: '10000' });
    running.push(server);
    const forward = slowForward(server.baseUrl, upstream.url).catch(() => 'no answer' as const);
    await upstream.arrived;
    await work({ server, forward, exited: exitOf(server) });
  } finally {
    await upstream.close();
  }
}

/** The forward's answer, where the test needs one (a forward the server never answered fails here). */
function answerOf<T>(outcome: T | 'no answer'): T {
  if (outcome === 'no answer') throw new Error('the forward got no answer');
  return outcome;
}

function npmStart(port: number, options: { detached?: boolean } = {}) {
  const npm = spawn('npm', ['start'], {
    env: { ...process.env, ...env, FORWARD_TIMEOUT_MS: '10000', NODE_OPTIONS: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close': npm exited and every process holding its output (node) has ended too.
  const closed = new Promise<{ code: number | null; at: number }>((resolve) => npm.once('close', (code) => resolve({ code, at: Date.now() })));
  return { npm, closed, output: () => output };
}

/**
 * "Promptly": well inside the forward's 10 s timeout and the server's 65 s keep-alive, which a
 * shutdown that waited for them would take; a bound, not a timing target (those are in npm run bench),
 * loose enough for a machine busy with the rest of the suite.
 */
const PROMPTLY_MS = 3000;

describe('Shutdown', () => {
  test('When SIGTERM arrives with an idle keep-alive connection open, then the connection is closed and the process exits promptly', async () => {
    const server = await spawnServer(env);
    running.push(server);
    const agent = new http.Agent({ keepAlive: true });
    const { status, socket } = await keepAliveGet(`${server.baseUrl}/health/live`, agent);
    expect(status).toBe(200);
    const socketClosed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    const exited = exitOf(server);
    const sent = Date.now();
    server.child.kill('SIGTERM');
    const [{ code, at }, closedAt] = await Promise.all([exited, socketClosed]);
    agent.destroy();
    expect(code).toBe(0);
    expect(closedAt - sent).toBeLessThan(PROMPTLY_MS);
    expect(at - sent).toBeLessThan(PROMPTLY_MS);
  });

  test('When SIGTERM arrives during a slow request, then the request completes and the process exits promptly after it', () =>
    duringSlowForward(async ({ server, forward, exited }) => {
      server.child.kill('SIGTERM');
      const answered = answerOf(await forward);
      const { code, at } = await exited;
      expect(answered.status).toBe(200);
      expect(answered.body.response?.status).toBe(201);
      expect(code).toBe(0);
      expect(at - answered.at).toBeLessThan(PROMPTLY_MS);
      expect(at).toBeGreaterThanOrEqual(answered.at - 50);
    }));

  test("When one Ctrl-C reaches node twice during a slow request (the terminal's SIGINT and the copy npm passes on, milliseconds apart), then the request completes and the process exits 0 promptly after it", () =>
    duringSlowForward(async ({ server, forward, exited }) => {
      server.child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 5));
      server.child.kill('SIGINT');
      const answered = answerOf(await forward);
      const { code, at } = await exited;
      expect(answered.status).toBe(200);
      expect(answered.body.response?.status).toBe(201);
      expect(code).toBe(0);
      expect(at - answered.at).toBeLessThan(PROMPTLY_MS);
      expect(server.output()).not.toContain('stopping now');
    }));

  test.each([
    ['a request', {}],
    ['a request that waits for 100 Continue', { Expect: '100-continue' }],
  ])('When %s arrives after SIGTERM on a connection busy with a slow one, then it is answered with Connection: close', async (_what, headers) => {
    const upstream = await slowUpstream();
    try {
      const server = await spawnServer({ ...env, FORWARD_TIMEOUT_MS: '10000' });
      running.push(server);
      const url = new URL(server.baseUrl);
      const client = rawConnection(url);
      const forward = JSON.stringify(forwardBody(upstream.url));
      const auth = { 'X-API-Key': COMPANY_KEY };
      client.socket.write(
        requestHead(new URL('/checkout/v71/forward', url), { ...auth, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(forward) }) +
          forward,
      );
      await upstream.arrived;
      const exited = exitOf(server);
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      client.socket.write(requestHead(new URL('/management/v3/me', url), { ...auth, ...headers }, 'GET'));
      await client.ended(8000);
      client.socket.destroy();
      const finals = client.answers().filter((answer) => !answer.startsWith('100 '));
      expect(finals.map((answer) => answer.slice(0, 3))).toEqual(['200', '200']);
      expect(finals[1]).toMatch(/^connection: close/im);
      expect((await exited).code).toBe(0);
    } finally {
      await upstream.close();
    }
  });

  test('When a second Ctrl-C comes well after the first during a slow request, then the process exits at once without waiting for it', () =>
    duringSlowForward(async ({ server, forward, exited }) => {
      server.child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 700));
      server.child.kill('SIGINT');
      const { code } = await exited;
      expect(code).toBe(1);
      expect(await forward).toBe('no answer');
      expect(server.output()).toContain('stopping now');
    }));

  test('When `npm start` gets SIGTERM, then node gets it too, npm exits and the port is free', async () => {
    const port = await freePort();
    const { npm, closed, output } = npmStart(port);
    try {
      await waitFor(`http://127.0.0.1:${port}/health/live`, 90_000);
      expect(output()).toContain(`http://127.0.0.1:${port}/docs`);
      npm.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(() => resolve('still running'), 5000)))]);
      clearTimeout(timer);
      expect(code).not.toBe('still running');
      await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 120_000);

  test('When Ctrl-C stops `npm start` during a slow request, then the request completes, npm and node exit promptly after it and the port is free', async () => {
    const upstream = await slowUpstream();
    const port = await freePort();
    // Its own process group, as a terminal's foreground job: Ctrl-C sends SIGINT to every process of it (npm and node).
    const { npm, closed, output } = npmStart(port, { detached: true });
    try {
      await waitFor(`http://127.0.0.1:${port}/health/live`, 90_000);
      const forward = slowForward(`http://127.0.0.1:${port}`, upstream.url);
      await upstream.arrived;
      process.kill(-npm.pid!, 'SIGINT');
      const answered = await forward;
      const { at } = await closed;
      expect(answered.status).toBe(200);
      expect(answered.body.response?.status).toBe(201);
      expect(at - answered.at).toBeLessThan(PROMPTLY_MS);
      expect(output()).not.toContain('stopping now');
      await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group has ended
      }
      await upstream.close();
    }
  }, 120_000);
});
