import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { components } from '../../../generated/checkout.js';
import { createCheckoutClient } from '../../../client/index.js';
import { ALL_ROLES } from '../../../server/kernel/auth/roles.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { advanceClock } from '../../helpers/methods.js';
import { authorisedPayment } from '../../helpers/payments.js';
import { Receiver } from '../../helpers/receiver.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

type Faults = components['schemas']['SandboxWebhookFaultsRequest'];

const merchantId = 'DemoMerchantECOM';
let server: TestServer;
let receiver: Receiver;
let webhookId: string;

beforeAll(async () => {
  server = await startServer({ webhookTimeoutMs: 3000, webhookRetryScheduleSeconds: [120, 300], webhookGiveUpAfterSeconds: 86_400 });
});
afterAll(() => server.stop());
beforeEach(async () => {
  receiver = await new Receiver().start();
  const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
  });
  webhookId = data!.id;
});
afterEach(async () => {
  await server.management.DELETE('/merchants/{merchantId}/webhooks/{webhookId}', { params: { path: { merchantId, webhookId } } });
  await receiver.stop();
});

const params = (id = webhookId) => ({ params: { path: { webhookId: id } } });
const setFaults = (body: Faults, client = server.checkout) => client.PUT('/sandbox/webhooks/{webhookId}/faults', { ...params(), body });
const getFaults = (client = server.checkout, id = webhookId) => client.GET('/sandbox/webhooks/{webhookId}/faults', params(id));
const deliveries = async () =>
  (await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', { params: { path: { merchantId, webhookId } } })).data!.data;
const pspReferences = () => receiver.items().map((i) => i.pspReference);

describe('GET /sandbox/webhooks/{webhookId}/faults and PUT /sandbox/webhooks/{webhookId}/faults', () => {
  test('When faults are set, then they are read back, and an empty request clears them', async () => {
    expect((await getFaults()).data).toEqual({ webhookId, delaySeconds: 0, duplicate: false, outOfOrder: 0, failNextAttempts: 0 });
    const { data, response } = await setFaults({ delaySeconds: 5, duplicate: true, outOfOrder: 3, failNextAttempts: 2 });
    expect(response.status).toBe(200);
    expect(data).toEqual({ webhookId, delaySeconds: 5, duplicate: true, outOfOrder: 3, failNextAttempts: 2 });
    expect((await getFaults()).data).toEqual(data);
    expect((await setFaults({})).data).toEqual({ webhookId, delaySeconds: 0, duplicate: false, outOfOrder: 0, failNextAttempts: 0 });
    expect((await getFaults()).data).toMatchObject({ duplicate: false, failNextAttempts: 0 });
  });

  test('When the same request is repeated with its Idempotency-Key, then the first answer is replayed and the faults are those it set', async () => {
    const headers = { 'Idempotency-Key': `faults-${webhookId}` };
    const first = await server.checkout.PUT('/sandbox/webhooks/{webhookId}/faults', { ...params(), body: { failNextAttempts: 2 }, headers });
    const again = await server.checkout.PUT('/sandbox/webhooks/{webhookId}/faults', { ...params(), body: { failNextAttempts: 2 }, headers });
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual(first.data);
    expect((await getFaults()).data).toMatchObject({ failNextAttempts: 2 });
  });

  test('When duplicate is on, then each event is delivered twice with the same body, and once again after it is cleared', async () => {
    await setFaults({ duplicate: true });
    const psp = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(pspReferences()).toEqual([psp, psp]);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ outcome: 'accepted' }, { outcome: 'accepted' }] });

    await setFaults({});
    const later = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(pspReferences()).toEqual([psp, psp, later]);
  });

  test('When outOfOrder is 3, then the first two events are held, and with the third all three arrive newest first; later ones in order', async () => {
    await setFaults({ outOfOrder: 3 });
    const first = await authorisedPayment(server);
    const second = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(0);
    const third = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(pspReferences()).toEqual([third, second, first]);
    expect((await getFaults()).data).toMatchObject({ outOfOrder: 0 });
    const fourth = await authorisedPayment(server);
    const fifth = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(pspReferences()).toEqual([third, second, first, fourth, fifth]);
  });

  test('When held events are released by clearing outOfOrder, then they go out in their order', async () => {
    await setFaults({ outOfOrder: 5 });
    const first = await authorisedPayment(server);
    const second = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(0);
    await setFaults({});
    await server.dispatcher.drain();
    expect(pspReferences()).toEqual([first, second]);
  });

  test('When failNextAttempts is 5, then the attempt and its three immediate retries fail, then the schedule (2 and 5 minutes) runs and the event is delivered', async () => {
    await setFaults({ failNextAttempts: 5 });
    const psp = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(0);
    let [delivery] = await deliveries();
    expect(delivery!.attempts).toHaveLength(4);
    expect(delivery!.attempts.every((a) => a.outcome === 'error' && a.error?.includes('failed on purpose'))).toBe(true);
    expect(delivery!.status).toBe('pending');
    expect(Date.parse(delivery!.nextAttemptAt!) - Date.parse(delivery!.attempts[3]!.attemptedAt)).toBe(120_000);
    expect((await getFaults()).data).toMatchObject({ failNextAttempts: 1 });
    const hasError = async () =>
      (await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}', { params: { path: { merchantId, webhookId } } })).data!.hasError;
    expect(await hasError()).toBe(true);

    await advanceClock(server, 120);
    [delivery] = await deliveries();
    expect(receiver.received).toHaveLength(0);
    expect(delivery!.attempts).toHaveLength(5);
    expect(Date.parse(delivery!.nextAttemptAt!) - Date.parse(delivery!.attempts[4]!.attemptedAt)).toBe(300_000);
    expect((await getFaults()).data).toMatchObject({ failNextAttempts: 0 });

    await advanceClock(server, 299);
    expect(receiver.received).toHaveLength(0);
    await advanceClock(server, 1);
    expect(pspReferences()).toEqual([psp]);
    [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'delivered' });
    expect(delivery!.attempts.map((a) => a.outcome)).toEqual(['error', 'error', 'error', 'error', 'error', 'accepted']);
    expect(await hasError()).toBe(false);
  });

  test('When delaySeconds is 1, then the delivery is sent a second of real time late', async () => {
    await setFaults({ delaySeconds: 1 });
    const psp = await authorisedPayment(server);
    const started = Date.now();
    await server.dispatcher.drain();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(pspReferences()).toEqual([psp]);
  });

  test('When the dispatcher stops during a delay, then it does not wait the delay out and nothing is sent; the event stays pending', async () => {
    await setFaults({ delaySeconds: 300 });
    await authorisedPayment(server);
    const draining = server.dispatcher.drain(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await server.dispatcher.stop();
    await draining;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries())[0]).toMatchObject({ status: 'pending', attempts: [] });
  });

  test('When a merchant-level credential asks, then the answer is 403 and the faults do not change', async () => {
    await setFaults({ failNextAttempts: 1 });
    const refused = await setFaults({ duplicate: true }, server.merchantCheckout);
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ status: 403, errorCode: '010' });
    expect((await getFaults(server.merchantCheckout)).response.status).toBe(403);
    expect((await getFaults()).data).toMatchObject({ duplicate: false, failNextAttempts: 1 });
  });

  test("When another company's credential names the webhook, or the webhook does not exist, then the answer is 404 and nothing changes", async () => {
    await insertCompany(server.store, 'FaultsOtherCompany', 'FaultsOtherMerchant');
    const key = await insertCredential(server.store, { id: 'S2-FAULTSOTHER01', companyId: 'FaultsOtherCompany', merchantId: null, roles: ALL_ROLES });
    const other = createCheckoutClient({ baseUrl: server.checkoutUrl, apiKey: key });
    const refused = await setFaults({ duplicate: true }, other);
    expect(refused.response.status).toBe(404);
    expect(refused.error).toMatchObject({ status: 404, errorCode: '000', message: `Webhook ${webhookId} not found` });
    expect((await getFaults(other)).response.status).toBe(404);
    expect((await getFaults(server.checkout, 'S2-NO-SUCH-WEBHOOK')).response.status).toBe(404);
    expect((await getFaults()).data).toMatchObject({ duplicate: false });
  });
});

describe('Webhook faults in production mode', () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await startServer({ mode: 'production' });
  });
  afterAll(() => production.stop());

  test('When faults are read or set in production mode, then the answer is 404', async () => {
    const path = { params: { path: { webhookId: 'S2-ANY' } } };
    expect((await production.checkout.GET('/sandbox/webhooks/{webhookId}/faults', path)).response.status).toBe(404);
    expect((await production.checkout.PUT('/sandbox/webhooks/{webhookId}/faults', { ...path, body: { duplicate: true } })).response.status).toBe(404);
  });
});
