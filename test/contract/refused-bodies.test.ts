/**
 * A request refused before its body is read (it takes no body, the caller may not call it, its
 * origin is not allowed, a JSON body declared over the limit) is answered once its body has been
 * read and dropped, up to 4 MiB (refusal.ts DISCARD_BYTES): every client, Node's fetch among them,
 * then reads the status and the error body instead of a reset connection, and the connection
 * serves the next request. A longer body is not waited for: the answer goes out with
 * `Connection: close` and the connection ends.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DISCARD_BYTES } from '../../server/kernel/http/refusal.js';
import { DEMO } from '../../server/seed.js';
import { COMPANY_KEY } from '../helpers/keys.js';
import { rawConnection, requestHead } from '../helpers/raw-connection.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const TWO_MB = 2 * 1024 * 1024;
const generateApiKey = `/merchants/${DEMO.merchantEcom}/apiCredentials/${DEMO.merchantCredentialId}/generateApiKey`;
const resend = `/merchants/${DEMO.merchantEcom}/webhooks/WBHK00000000000000000000000000/events/EVT0000000000000001/resend`;

/** Node's fetch, as a client would call: the whole body in one buffer. */
const post = (path: string, body: Buffer | undefined, headers: Record<string, string> = { 'X-API-Key': COMPANY_KEY }) =>
  fetch(`${server.managementUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, ...(body && { body }) });

const keysOfMerchantCredential = () => server.store.read((tx) => tx.credentials.keys(DEMO.merchantCredentialId));

describe('A body sent to an operation that takes none', () => {
  test.each([
    ['generateNewMerchantApiKey', generateApiKey],
    ['resendWebhookEvent', resend],
  ])('When Node fetch sends a 2 MB body to %s, then it reads the 400 and its error body, and nothing changed', async (_operation, path) => {
    const keysBefore = await keysOfMerchantCredential();
    const response = await post(path, Buffer.alloc(TWO_MB, 0x61));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, errorCode: '00_400', detail: 'Unexpected input: this operation takes no request body' });
    expect(await keysOfMerchantCredential()).toEqual(keysBefore);
  });

  test('When eight clients send almost 4 MiB each to an operation that takes none at once, then each reads its 400', async () => {
    const body = Buffer.alloc(DISCARD_BYTES - 64 * 1024, 0x61);
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => {
        try {
          const response = await post(generateApiKey, body);
          return `${response.status} ${((await response.json()) as { errorCode?: string }).errorCode}`;
        } catch (error) {
          return `failed: ${String((error as { cause?: unknown }).cause ?? error)}`;
        }
      }),
    );
    expect(answers).toEqual(answers.map(() => '400 00_400'));
  });

  test('When Node fetch streams a 2 MB body slowly (chunked), then the 400 comes once the body has ended, and is read', async () => {
    let sent = 0;
    let lastSentAt = 0;
    const chunk = 128 * 1024;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= TWO_MB) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 10));
        controller.enqueue(new Uint8Array(chunk).fill(0x61));
        sent += chunk;
        lastSentAt = Date.now();
      },
    });
    const response = await fetch(`${server.managementUrl}${generateApiKey}`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    });
    const answeredAt = Date.now();
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, errorCode: '00_400' });
    expect(sent).toBe(TWO_MB);
    expect(answeredAt).toBeGreaterThanOrEqual(lastSentAt);
  });

  test('When the body arrives in parts, then the answer waits for its last byte, leaves the connection open, and the connection serves the next request', async () => {
    const url = new URL(`${server.managementUrl}${generateApiKey}`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', 'Content-Length': TWO_MB }));
    client.socket.write(Buffer.alloc(TWO_MB - 1, 0x61));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // All but one byte: no answer yet.
    expect(client.answers()).toEqual([]);
    client.socket.write('a');
    await client.answered(1);
    expect(client.answers()[0]).toMatch(/^400 /);
    expect(client.answers()[0]).not.toMatch(/^connection: close/im);
    expect(client.answers()[0]).toContain('"errorCode":"00_400"');
    client.socket.write(requestHead(new URL(`${server.managementUrl}/me`), { 'X-API-Key': COMPANY_KEY }, 'GET'));
    await client.answered(2);
    expect(client.answers()[1]).toMatch(/^200 /);
    expect(client.closed()).toBe(false);
    client.socket.destroy();
  });

  test('When a body is declared longer than 4 MiB, then the 400 comes at once with Connection: close and the connection ends', async () => {
    const url = new URL(`${server.managementUrl}${generateApiKey}`);
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

  test('When a chunked body grows past 4 MiB, then the server reads no further: the connection ends, and what answer arrives before is the 400 with Connection: close', async () => {
    const url = new URL(`${server.managementUrl}${generateApiKey}`);
    const client = rawConnection(url);
    client.socket.on('error', () => undefined);
    client.socket.write(requestHead(url, { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }));
    // 4 MiB and a quarter, and then nothing (not the last chunk): a server that waited for the end would never answer.
    const piece = Buffer.alloc(256 * 1024, 0x61);
    for (let written = 0; written <= DISCARD_BYTES; written += piece.length) {
      client.socket.write(`${piece.length.toString(16)}\r\n`);
      client.socket.write(piece);
      client.socket.write('\r\n');
    }
    await client.ended(5000);
    expect(client.closed()).toBe(true);
    // The server may close with bytes of the body still unread, which resets the connection and
    // can take the answer with it: beyond the bound, only the end of the connection is promised.
    for (const answer of client.answers()) {
      expect(answer).toMatch(/^400 /);
      expect(answer).toMatch(/^connection: close/im);
      expect(answer).toContain('"errorCode":"00_400"');
    }
    client.socket.destroy();
  });

  test('When a client that waits for 100 Continue sends no body to an operation that takes none, then the 400 comes at once without 100 Continue', async () => {
    const url = new URL(`${server.managementUrl}${generateApiKey}`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', 'Content-Length': TWO_MB, Expect: '100-continue' }));
    await client.answered(1);
    expect(client.answers()).toHaveLength(1);
    expect(client.answers()[0]).toMatch(/^400 /);
    client.socket.destroy();
  });
});

describe('Other refusals before the body', () => {
  test('When Node fetch sends a 2 MB body without a key, then it reads the 401', async () => {
    const response = await post(generateApiKey, Buffer.alloc(TWO_MB, 0x61), {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 401 });
  });

  test('When Node fetch sends a 2 MB body from an origin the credential does not allow, then the page reads the 403', async () => {
    await server.store.transaction((tx) =>
      tx.credentials.insertOrigin({
        id: 'ORIGIN-REFUSED-01',
        credentialId: DEMO.companyCredentialId,
        domain: 'https://shop.example.com',
        createdAt: new Date().toISOString(),
      }),
    );
    try {
      const response = await post(`/companies/${DEMO.companyId}/webhooks`, Buffer.alloc(TWO_MB, 0x61), {
        'X-API-Key': COMPANY_KEY,
        Origin: 'https://elsewhere.example.com',
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example.com');
      expect(await response.json()).toMatchObject({ status: 403, errorCode: '00_403' });
    } finally {
      await server.store.transaction((tx) => tx.credentials.deleteOrigin('ORIGIN-REFUSED-01'));
    }
  });
});

describe('A JSON body declared over BODY_LIMIT_BYTES', () => {
  test('When Node fetch sends a 2 MB JSON body to an operation that takes one (limit 1 MiB), then it reads the 413', async () => {
    const body = Buffer.from(JSON.stringify({ merchantAccount: DEMO.merchantEcom, reference: 'x'.repeat(TWO_MB) }));
    const response = await fetch(`${server.checkoutUrl}/payments`, {
      method: 'POST',
      headers: { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: 413, errorCode: '29_100', message: 'Request larger than allowed maximum of 1048576 bytes' });
  });

  test('When a JSON body is declared longer than 4 MiB, then the 413 comes at once with Connection: close, not after reading it', async () => {
    const url = new URL(`${server.checkoutUrl}/payments`);
    const client = rawConnection(url);
    client.socket.write(requestHead(url, { 'X-API-Key': COMPANY_KEY, 'Content-Type': 'application/json', 'Content-Length': 100 * 1024 * 1024 }));
    await client.answered(1);
    expect(client.answers()[0]).toMatch(/^413 /);
    expect(client.answers()[0]).toMatch(/^connection: close/im);
    expect(client.answers()[0]).toContain('"errorCode":"29_100"');
    await client.ended(2000);
    expect(client.closed()).toBe(true);
    client.socket.destroy();
  });
});
