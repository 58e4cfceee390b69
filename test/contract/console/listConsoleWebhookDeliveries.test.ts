import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { ALL_ROLES } from '../../../server/kernel/auth/roles.js';
import { DEMO } from '../../../server/seed.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { asPage, signIn, type ConsoleSignIn } from '../../helpers/console.js';
import { COMPANY_KEY } from '../../helpers/keys.js';
import { authorisedPayment } from '../../helpers/payments.js';
import { Receiver } from '../../helpers/receiver.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

let server: TestServer;
let receiver: Receiver;
let company: ConsoleSignIn;
let webhookId: string;
let psp: string;
beforeAll(async () => {
  server = await startServer();
  receiver = await new Receiver().start();
  receiver.answer = (_req, res) => res.writeHead(503).end('maintenance: card 4111111111111111 on file');
  const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId: DEMO.merchantEcom } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
  });
  webhookId = data!.id;
  company = await signIn(server, COMPANY_KEY);
  psp = await authorisedPayment(server);
  await server.dispatcher.drain();
});
afterAll(async () => {
  await server.stop();
  await receiver.stop();
});

const deliveries = (who: ConsoleSignIn, id = webhookId) => asPage(`${server.consoleUrl}/webhooks/${id}/deliveries`, { cookie: who.cookie });

describe('GET /webhooks/{webhookId}/deliveries', () => {
  test("When a receiver fails, then the delivery is pending with the attempt's status, time taken and the start of the answer, card numbers masked", async () => {
    const { status, body } = await deliveries(company);
    expect(status).toBe(200);
    const delivery = body.data.find((d: { pspReference: string }) => d.pspReference === psp);
    expect(delivery).toMatchObject({
      webhookId,
      eventCode: 'AUTHORISATION',
      merchantAccount: DEMO.merchantEcom,
      status: 'pending',
      nextAttemptAt: expect.any(String),
    });
    expect(delivery.attempts.length).toBeGreaterThan(0);
    expect(delivery.attempts[0]).toMatchObject({
      outcome: 'rejected',
      statusCode: 503,
      durationMs: expect.any(Number),
      responseBody: 'maintenance: card ************1111 on file',
    });
  });

  test('When a merchant credential of DemoMerchantPOS, or a second company, asks for the webhook, then it is not found', async () => {
    const posKey = await insertCredential(server.store, { id: 'S2-CONSOLEPOS001', merchantId: DEMO.merchantPos, roles: ALL_ROLES });
    expect((await deliveries(await signIn(server, posKey))).status).toBe(404);
    await insertCompany(server.store, 'OtherCompany', 'OtherMerchant');
    const otherKey = await insertCredential(server.store, { id: 'S2-OTHERCOMPANY1', companyId: 'OtherCompany', merchantId: null, roles: ALL_ROLES });
    expect((await deliveries(await signIn(server, otherKey))).status).toBe(404);
  });

  test('When the session lacks the webhook roles, then the answer is 403', async () => {
    const key = await insertCredential(server.store, { id: 'S2-CONSOLENOHOOK', merchantId: null, roles: ['Checkout webservice role'] });
    expect((await deliveries(await signIn(server, key))).status).toBe(403);
  });
});
