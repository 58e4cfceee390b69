/**
 * Signals and shutdown of the built server (node dist/server/main.js, as `npm start` runs it):
 * idle keep-alive connections are closed at once, in-flight requests finish, the process exits
 * within a second of the last one; and `npm start` passes the signal on and exits.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { freePort, kill, type RunningProcess, spawnServer, waitFor } from '../helpers/spawn-server.js';
import { COMPANY_KEY } from '../helpers/keys.js';

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

describe('Shutdown', () => {
  test('When SIGTERM arrives with an idle keep-alive connection open, then the connection is closed and the process exits at once', async () => {
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
    expect(closedAt - sent).toBeLessThan(1000);
    expect(at - sent).toBeLessThan(1000);
  });

  test('When SIGTERM arrives during a slow request, then the request completes and the process exits within a second after it', async () => {
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const slow = http.createServer((req, res) => {
      req.resume();
      arrived();
      setTimeout(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{"slow":true}'), 1500);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const server = await spawnServer({ ...env, FORWARD_TIMEOUT_MS: '10000' });
      running.push(server);
      const forward = fetch(`${server.baseUrl}/checkout/v71/forward`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': COMPANY_KEY },
        body: JSON.stringify({
          merchantAccount: 'DemoMerchantECOM',
          shopperReference: 'shutdown-shopper',
          paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'J Smith' },
          baseUrl: slowUrl,
          request: { httpMethod: 'post', urlSuffix: '/cards', credentials: 'x', headers: {}, body: '{"n":"{{number}}"}' },
        }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { response?: { status: number } }, at: Date.now() }));
      await requestArrived;
      const exited = exitOf(server);
      server.child.kill('SIGTERM');
      const answered = await forward;
      const { code, at } = await exited;
      expect(answered.status).toBe(200);
      expect(answered.body.response?.status).toBe(201);
      expect(code).toBe(0);
      expect(at - answered.at).toBeLessThan(1000);
      expect(at).toBeGreaterThanOrEqual(answered.at - 50);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  test('When `npm start` gets SIGTERM, then node gets it too, npm exits and the port is free', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      env: { ...process.env, ...env, NODE_OPTIONS: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'close': npm exited and every process holding its output (node) has ended too.
    const exited = new Promise<number | null>((resolve) => npm.once('close', (code) => resolve(code)));
    try {
      await waitFor(`http://127.0.0.1:${port}/health/live`, 90_000);
      expect(output).toContain(`http://127.0.0.1:${port}/docs`);
      npm.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(() => resolve('still running'), 5000)))]);
      clearTimeout(timer);
      expect(code).not.toBe('still running');
      await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 120_000);
});
