import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ALL_ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { asPage, signIn, type ConsoleSignIn } from '../../helpers/console.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment, capture } from '../../helpers/payments.js';
import { Receiver } from '../../helpers/receiver.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let receiver: Receiver;
let company: ConsoleSignIn;
let merchant: ConsoleSignIn;
let other: ConsoleSignIn;
let captured: string;
beforeAll(async () => {
  server = await startServer();
  receiver = await new Receiver().start();
  // The receiver is down at first: its answer and status are what the console shows of the attempt.
  receiver.answer = (_req, res, index) => (index === 0 ? res.writeHead(500).end('receiver is down') : res.writeHead(200).end('[accepted]'));
  await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId: DEMO.merchantEcom } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
  });
  await insertCompany(server.store, 'OtherCompany', 'OtherMerchant');
  other = await signIn(server, await insertCredential(server.store, { id: 'S2-OTHERCOMPANY1', companyId: 'OtherCompany', merchantId: null, roles: ALL_ROLES }));
  company = await signIn(server, COMPANY_KEY);
  merchant = await signIn(server, MERCHANT_KEY);
  captured = await authorisedPayment(server);
  await capture(server, captured, 1000);
  await server.dispatcher.drain();
  await server.flushRequestLog();
});
afterAll(async () => {
  await server.stop();
  await receiver.stop();
});

const timeline = (who: ConsoleSignIn, psp: string) => asPage(`${server.consoleUrl}/payments/${psp}/timeline`, { cookie: who.cookie });

describe('GET /payments/{pspReference}/timeline', () => {
  test('When a captured payment is followed, then it shows as captured, refundable up to its amount, and neither capturable nor cancellable', async () => {
    const { status, body } = await timeline(company, captured);
    expect(status).toBe(200);
    expect(body.payment).toMatchObject({ pspReference: captured, status: 'captured', capturedValue: 1000, amount: { currency: 'EUR', value: 1000 } });
    expect(body.actions).toEqual({
      capture: { allowed: false },
      refund: { allowed: true, maxAmount: { currency: 'EUR', value: 1000 } },
      cancel: { allowed: false },
    });
  });

  test('When a captured payment is followed, then its requests, capture, events and webhook attempts are listed oldest first', async () => {
    const { body } = await timeline(company, captured);
    const entries = body.entries as Array<Record<string, any>>;
    const kinds = entries.map((e) => (e.kind === 'request' ? `request ${e.request.operationId}` : e.kind === 'event' ? `event ${e.event.eventCode}` : e.kind));
    expect(kinds).toEqual(
      expect.arrayContaining(['request payments', 'request captureAuthorisedPayment', 'modification', 'event AUTHORISATION', 'event CAPTURE', 'delivery']),
    );
    expect(kinds.indexOf('request payments')).toBeLessThan(kinds.indexOf('request captureAuthorisedPayment'));
    expect(entries.map((e) => Date.parse(e.at))).toEqual([...entries.map((e) => Date.parse(e.at))].sort((a, b) => a - b));
    expect(entries.find((e) => e.kind === 'modification')!.modification).toMatchObject({ kind: 'capture', amount: { currency: 'EUR', value: 1000 } });
    const first = entries.find((e) => e.kind === 'delivery')!.delivery;
    expect(first.attempts[0]).toMatchObject({ outcome: 'rejected', statusCode: 500, responseBody: 'receiver is down', durationMs: expect.any(Number) });
  });

  test('When an authorised payment is followed, then it may be captured up to its amount or cancelled, not refunded', async () => {
    const psp = await authorisedPayment(server);
    const { body } = await timeline(company, psp);
    expect(body.payment.status).toBe('authorised');
    expect(body.actions).toEqual({
      capture: { allowed: true, maxAmount: { currency: 'EUR', value: 1000 } },
      refund: { allowed: false },
      cancel: { allowed: true },
    });
  });

  test('When the merchant session follows its own payment, then it gets it; a DemoMerchantPOS payment is not found', async () => {
    expect((await timeline(merchant, captured)).status).toBe(200);
    const pos = await authorisedPayment(server, { merchantAccount: DEMO.merchantPos });
    const refused = await timeline(merchant, pos);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 404, errorCode: '30_112' });
  });

  test("When a second company follows the first company's payment, then it is not found", async () => {
    expect((await timeline(other, captured)).status).toBe(404);
  });
});
