/**
 * Refused bodies against the built server in its own process (node dist/server.mjs), where the
 * client writes while the server answers, as over a network: Node's fetch sending a body to an
 * operation that takes none reads the 400 and its error body, every time, for bodies up to the
 * 4 MiB the server reads and drops (refusal.ts DISCARD_BYTES); a longer body has its connection
 * closed after the answer. (Answered before the body was read and closed, up to three in four
 * such requests failed with "fetch failed" here.)
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DISCARD_BYTES } from '../../server/kernel/http/refusal.js';
import { DEMO } from '../../server/seed.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { rawConnection, requestHead } from '../helpers/raw-connection.js';
import { kill, type RunningProcess, spawnServer } from '../helpers/spawn-server.js';

let server: RunningProcess;
beforeAll(async () => {
  server = await spawnServer({ DATABASE_PATH: ':memory:', DEMO_COMPANY_API_KEY: COMPANY_KEY, WEBHOOK_DISPATCH: 'false' });
}, 30_000);
afterAll(async () => {
  if (server) await kill(server);
});

const management = () => `${server.baseUrl}/management/v3`;
const OPERATIONS: Array<[string, string]> = [
  ['generateNewMerchantApiKey', `/merchants/${DEMO.merchantEcom}/apiCredentials/${DEMO.merchantCredentialId}/generateApiKey`],
  ['resendWebhookEvent', `/merchants/${DEMO.merchantEcom}/webhooks/WBHK00000000000000000000000000/events/EVT0000000000000001/resend`],
];

/** What Node's fetch makes of a POST with `body`: the status and error code it read, or why it failed. */
async function outcome(path: string, body: Buffer): Promise<string> {
  try {
    const response = await fetch(`${management()}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body,
    });
    return `${response.status} ${((await response.json()) as { errorCode?: string }).errorCode}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `${(error as Error).message}: ${cause?.code ?? cause?.message ?? ''}`;
  }
}

describe('A body sent to an operation that takes none, to the server process', () => {
  test.each(OPERATIONS)('When Node fetch sends a 2 MB body to %s, then it reads the 400 and the error body', async (_operation, path) => {
    const response = await fetch(`${management()}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body: Buffer.alloc(2 * 1024 * 1024, 0x61),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, errorCode: '00_400', detail: 'Unexpected input: this operation takes no request body' });
  });

  test.each(OPERATIONS)(
    'When sixteen Node fetch clients each send almost 4 MiB to %s at once, then every one reads its 400',
    async (_operation, path) => {
      const body = Buffer.alloc(DISCARD_BYTES - 64 * 1024, 0x61);
      const outcomes = await Promise.all(Array.from({ length: 16 }, () => outcome(path, body)));
      expect(outcomes).toEqual(outcomes.map(() => '400 00_400'));
    },
    60_000,
  );

  test('When a body is declared longer than 4 MiB, then the 400 comes without waiting for it, with Connection: close, and the connection ends', async () => {
    const url = new URL(`${management()}${OPERATIONS[0]![1]}`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', 'Content-Length': DISCARD_BYTES + 1 }));
    await client.answered(1);
    expect(client.answers()[0]).toMatch(/^400 /);
    expect(client.answers()[0]).toMatch(/^connection: close/im);
    expect(client.answers()[0]).toContain('"errorCode":"00_400"');
    await client.ended(2000);
    expect(client.closed()).toBe(true);
    client.socket.destroy();
  });
});
