import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DEMO } from '../../../server/seed.js';
import { signIn, type ConsoleSignIn } from '../../helpers/console.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment, capture } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let company: ConsoleSignIn;
let merchant: ConsoleSignIn;
beforeAll(async () => {
  server = await startServer();
  company = await signIn(server, COMPANY_KEY);
  merchant = await signIn(server, MERCHANT_KEY);
});
afterAll(() => server.stop());

interface Stream {
  contentType: string | null;
  /** The next `payment` event's data and id. */
  next(): Promise<{ id: string; data: Record<string, unknown> }>;
  close(): void;
}

/** Opens the feed as the page's EventSource would, with the session cookie. */
async function open(session: ConsoleSignIn, lastEventId?: string): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${server.consoleUrl}/events/stream`, {
    headers: { Cookie: session.cookie, Accept: 'text/event-stream', ...(lastEventId && { 'Last-Event-ID': lastEventId }) },
    signal: abort.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  return {
    contentType: response.headers.get('content-type'),
    async next() {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
          );
          if (fields.event === 'payment') return { id: fields.id!, data: JSON.parse(fields.data!) as Record<string, unknown> };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += value;
      }
    },
    close: () => abort.abort(),
  };
}

describe('GET /events/stream', () => {
  test('When a payment is made and captured while the stream is open, then the stream sends it as authorised, then as captured', async () => {
    const stream = await open(company);
    try {
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      const psp = await authorisedPayment(server);
      expect((await stream.next()).data).toMatchObject({ pspReference: psp, status: 'authorised' });
      await capture(server, psp, 1000);
      expect((await stream.next()).data).toMatchObject({ pspReference: psp, status: 'captured', capturedValue: 1000 });
    } finally {
      stream.close();
    }
  });

  test("When a merchant session's stream is open, then a DemoMerchantPOS payment is never sent and its own is", async () => {
    const stream = await open(merchant);
    try {
      await authorisedPayment(server, { merchantAccount: DEMO.merchantPos });
      const own = await authorisedPayment(server);
      expect((await stream.next()).data).toMatchObject({ pspReference: own, merchantAccount: DEMO.merchantEcom });
    } finally {
      stream.close();
    }
  });

  test('When a browser reconnects with the last event id, then it gets what changed since', async () => {
    const first = await open(company);
    const psp = await authorisedPayment(server);
    const seen = await first.next();
    first.close();
    await capture(server, psp, 1000);
    const again = await open(company, seen.id);
    try {
      expect((await again.next()).data).toMatchObject({ pspReference: psp, status: 'captured' });
    } finally {
      again.close();
    }
  });

  test('When the session signs out while the stream is open, then the stream ends', async () => {
    const session = await signIn(server, COMPANY_KEY);
    const stream = await open(session);
    await fetch(`${server.consoleUrl}/session`, { method: 'DELETE', headers: { Cookie: session.cookie, 'X-Console-Csrf': session.csrfToken } });
    await authorisedPayment(server);
    await expect(stream.next()).rejects.toThrow('the stream ended');
  });
});
