import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { WEBHOOK_TYPES } from '../../../server/management/webhooks/webhooks.domain.js';
import { MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment } from '../../helpers/payments.js';
import { Receiver } from '../../helpers/receiver.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';
import { loadBundled } from '../suite.js';

let server: TestServer;
let receiver: Receiver;
// Each test gets its own server: tests must pass in any order (jest --randomize).
beforeEach(async () => {
  server = await startServer();
  receiver = await new Receiver().start();
});
afterEach(async () => {
  await server.stop();
  await receiver.stop();
});

const m = { merchantId: 'DemoMerchantECOM' };
const create = (body: Record<string, unknown> = {}, merchantId = 'DemoMerchantECOM') =>
  server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId } },
    body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json', ...body } as never,
  });

describe('POST /merchants/{merchantId}/webhooks', () => {
  test('When a webhook with a password is set up, then it is active and says it has a password without showing it', async () => {
    const { data, response } = await create({ username: 'events', password: 'secret-1', description: 'Orders' });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      type: 'standard',
      url: receiver.url,
      active: true,
      communicationFormat: 'json',
      username: 'events',
      hasPassword: true,
      hasError: false,
      description: 'Orders',
    });
    expect(JSON.stringify(data)).not.toContain('secret-1');
    expect(data?._links?.self.href).toBe(`${server.managementUrl}/merchants/DemoMerchantECOM/webhooks/${data?.id}`);
  });

  test.each([
    ['a host off the allow-list', { url: 'https://events.example.com/hook' }, 'url'],
    ['an ftp URL', { url: 'ftp://127.0.0.1/hook' }, 'url'],
    ['user info in the URL', { url: 'http://u:p@127.0.0.1/hook' }, 'url'],
    ['the SOAP format', { communicationFormat: 'soap' }, 'communicationFormat'],
    ['an unknown type', { type: 'banking' }, 'type'],
  ])('When the webhook has %s, then the answer is 422 naming the field', async (_name, body, field) => {
    const { error, response } = await create(body);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: field })] });
  });

  test("When another company's merchant account is named, then it is not found", async () => {
    expect((await create({}, 'SomeoneElsesMerchant')).error).toMatchObject({ status: 404, errorCode: '30_112' });
  });

  test('When a credential without a webhooks role sets one up, then the answer is 403', async () => {
    const limited = createManagementClient({ baseUrl: server.managementUrl, apiKey: MERCHANT_KEY });
    const { response } = await limited.POST('/merchants/{merchantId}/webhooks', {
      params: { path: m },
      body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
    });
    expect(response.status).toBe(403);
  });
});

describe('PATCH /merchants/{merchantId}/webhooks/{webhookId}', () => {
  test('When event codes are limited and the password removed, then the webhook shows the codes and no password', async () => {
    const id = (await create({ username: 'events', password: 'secret-1' })).data!.id;
    const { data } = await server.management.PATCH('/merchants/{merchantId}/webhooks/{webhookId}', {
      params: { path: { ...m, webhookId: id } },
      body: { password: '', additionalSettings: { includeEventCodes: ['CAPTURE', 'REFUND'], excludeEventCodes: ['AUTHORISATION'] } },
    });
    expect(data).toMatchObject({
      hasPassword: false,
      additionalSettings: { includeEventCodes: ['CAPTURE', 'REFUND'], excludeEventCodes: ['AUTHORISATION'] },
      accountReference: 'DemoMerchantECOM',
    });
  });
});

describe('GET /merchants/{merchantId}/webhooks', () => {
  test('When webhooks exist, then they are listed a page at a time', async () => {
    await create();
    await create();
    const { data } = await server.management.GET('/merchants/{merchantId}/webhooks', { params: { path: m, query: { pageSize: 1 } } });
    expect(data?.data).toHaveLength(1);
    expect(data?.itemsTotal).toBeGreaterThanOrEqual(2);
    expect(data?._links.next?.href).toContain('pageNumber=2&pageSize=1');
  });
});

describe('GET /merchants/{merchantId}/webhooks/{webhookId}, PATCH /merchants/{merchantId}/webhooks/{webhookId} and DELETE /merchants/{merchantId}/webhooks/{webhookId}', () => {
  test('When a webhook is deactivated, then it stays so; when removed, then it is not found', async () => {
    const id = (await create()).data!.id;
    const p = { params: { path: { ...m, webhookId: id } } };
    const { data } = await server.management.PATCH('/merchants/{merchantId}/webhooks/{webhookId}', { ...p, body: { active: false, description: 'paused' } });
    expect(data).toMatchObject({ active: false, description: 'paused', url: receiver.url });
    expect((await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}', p)).data?.active).toBe(false);
    expect((await server.management.DELETE('/merchants/{merchantId}/webhooks/{webhookId}', p)).response.status).toBe(204);
    expect((await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}', p)).response.status).toBe(404);
  });

  test('When a webhook is inactive, then events are not queued for it', async () => {
    const id = (await create({ active: false })).data!.id;
    await server.checkout.POST('/orders', { body: { merchantAccount: 'DemoMerchantECOM', reference: 'inactive', amount: { currency: 'EUR', value: 100 } } });
    const { data } = await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', { params: { path: { ...m, webhookId: id } } });
    expect(data?.data).toEqual([]);
  });
});

describe('POST /merchants/{merchantId}/webhooks/{webhookId}/generateHmac', () => {
  test('When a key is generated, then it is 64 hex characters and differs each time', async () => {
    const id = (await create()).data!.id;
    const p = { params: { path: { ...m, webhookId: id } } };
    const a = (await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/generateHmac', p)).data!.hmacKey;
    const b = (await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/generateHmac', p)).data!.hmacKey;
    expect(a).toMatch(/^[0-9A-F]{64}$/);
    expect(b).not.toBe(a);
  });
});

describe('POST /merchants/{merchantId}/webhooks/{webhookId}/test', () => {
  test('When the receiver accepts the test event, then the result is success with what was sent', async () => {
    const id = (await create()).data!.id;
    const { data } = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', {
      params: { path: { ...m, webhookId: id } },
      body: { notification: { eventCode: 'CAPTURE', success: true, amount: { currency: 'EUR', value: 250 } } },
    });
    expect(data?.data?.[0]).toMatchObject({ merchantId: 'DemoMerchantECOM', status: 'success', responseCode: '200', output: '[accepted]' });
    expect(JSON.parse(data!.data![0]!.requestSent!).notificationItems[0].NotificationRequestItem).toMatchObject({
      eventCode: 'CAPTURE',
      amount: { value: 250 },
    });
  });

  test('When two types are asked for, then one event of each type is sent and reported', async () => {
    const id = (await create()).data!.id;
    const { data } = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', {
      params: { path: { ...m, webhookId: id } },
      body: { types: ['ORDER_CLOSED', 'REPORT_AVAILABLE'] },
    });
    expect(data?.data?.map((r) => [r.merchantId, r.status])).toEqual([
      ['DemoMerchantECOM', 'success'],
      ['DemoMerchantECOM', 'success'],
    ]);
    expect(receiver.items().map((i) => i.eventCode)).toEqual(['ORDER_CLOSED', 'REPORT_AVAILABLE']);
  });

  test('When the receiver fails, then the result is failed with its status', async () => {
    const id = (await create()).data!.id;
    receiver.answer = (_req, res) => res.writeHead(500).end('boom');
    const { data } = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', { params: { path: { ...m, webhookId: id } }, body: {} });
    receiver.answer = (_req, res) => res.writeHead(200).end('[accepted]');
    expect(data?.data?.[0]).toMatchObject({ status: 'failed', responseCode: '500', output: 'boom' });
  });
});

describe("POST /merchants/{merchantId}/webhooks, GET /merchants/{merchantId}/webhooks and PATCH /merchants/{merchantId}/webhooks/{webhookId} with Adyen's webhook types", () => {
  test("When a webhook of each of Adyen's types is set up, then each keeps its type when read and listed, and the spec lists the same types", async () => {
    const ids: Record<string, string> = {};
    for (const type of WEBHOOK_TYPES) {
      const { data, response } = await create({ type });
      expect([type, response.status, data?.type]).toEqual([type, 200, type]);
      ids[type] = data!.id;
    }
    for (const type of WEBHOOK_TYPES) {
      const { data } = await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}', { params: { path: { ...m, webhookId: ids[type]! } } });
      expect([type, data?.type]).toEqual([type, type]);
    }
    const { data: listed } = await server.management.GET('/merchants/{merchantId}/webhooks', { params: { path: m, query: { pageSize: 100 } } });
    expect(Object.fromEntries(listed!.data!.map((w) => [w.id, w.type]))).toEqual(Object.fromEntries(WEBHOOK_TYPES.map((type) => [ids[type], type])));
    expect(loadBundled('management').components.schemas.WebhookType.enum).toEqual([...WEBHOOK_TYPES]);
  });

  test('When a payment is made, then only the standard webhook receives its event; a webhook of another type queues nothing', async () => {
    const standard = (await create()).data!.id;
    const report = (await create({ type: 'report-notification' })).data!.id;
    const pending = (await create({ type: 'pending-notification' })).data!.id;
    await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.items().map((i) => i.eventCode)).toEqual(['AUTHORISATION']);
    const history = async (webhookId: string) =>
      (await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', { params: { path: { ...m, webhookId } } })).data!.data;
    expect((await history(standard)).map((e) => e.eventCode)).toEqual(['AUTHORISATION']);
    expect(await history(report)).toEqual([]);
    expect(await history(pending)).toEqual([]);
  });

  test('When an update names a type, then the answer is 422 naming it and the webhook keeps its type', async () => {
    const id = (await create({ type: 'report-notification' })).data!.id;
    const p = { params: { path: { ...m, webhookId: id } } };
    const { error, response } = await server.management.PATCH('/merchants/{merchantId}/webhooks/{webhookId}', {
      ...p,
      body: { type: 'standard', active: false } as never,
    });
    expect(response.status).toBe(422);
    expect(error?.invalidFields?.[0]?.name).toBe('type');
    expect((await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}', p)).data).toMatchObject({ type: 'report-notification', active: true });
  });
});

describe('POST /merchants/{merchantId}/webhooks/{webhookId}/test by webhook type', () => {
  const testOf = async (type: string, body: Record<string, unknown>) => {
    const id = (await create({ type })).data!.id;
    return server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', { params: { path: { ...m, webhookId: id } }, body: body as never });
  };

  test.each([
    ['banktransfer-notification', {}, ['PENDING']],
    ['pending-notification', { types: ['PENDING'] }, ['PENDING']],
    ['report-notification', {}, ['REPORT_AVAILABLE']],
    ['ideal-notification', {}, ['AUTHORISATION']],
    ['standard', { types: ['REFUND_WITH_DATA', 'PAYOUT_THIRDPARTY'] }, ['REFUND_WITH_DATA', 'PAYOUT_THIRDPARTY']],
  ])('When a %s webhook is tested with %j, then it receives %j', async (type, body, sent) => {
    const { data, response } = await testOf(type, body);
    expect(response.status).toBe(200);
    expect(data?.data?.map((r) => r.status)).toEqual(sent.map(() => 'success'));
    expect(receiver.items().map((i) => i.eventCode)).toEqual(sent);
  });

  test.each([
    ['standard', { types: ['PENDING'] }, 'PENDING'],
    ['banktransfer-notification', { types: ['AUTHORISATION'] }, 'AUTHORISATION'],
    ['report-notification', { types: ['REPORT_AVAILABLE', 'CUSTOM'], notification: { eventCode: 'REFUND' } }, 'CUSTOM'],
    ['ideal-notification', { types: ['PENDING'] }, 'PENDING'],
    ['terminal-settings', {}, ''],
    ['directdebit-notification', { types: ['PENDING'] }, 'PENDING'],
  ])('When a %s webhook is tested with %j, then the answer is 422 naming the type and nothing is sent', async (type, body, value) => {
    const { error, response } = await testOf(type, body);
    expect(response.status).toBe(422);
    expect(error?.invalidFields).toEqual([expect.objectContaining({ name: 'types', value, message: expect.stringContaining(type) })]);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('GET /merchants/{merchantId}/webhooks/{webhookId}/events and POST /merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend', () => {
  test('When an event was delivered and is sent again, then it is delivered a second time and both attempts are listed', async () => {
    const id = (await create()).data!.id;
    const p = { params: { path: { ...m, webhookId: id } } };
    await server.checkout.POST('/orders', { body: { merchantAccount: 'DemoMerchantECOM', reference: 'resend', amount: { currency: 'EUR', value: 100 } } });
    await server.dispatcher.drain();
    const [event] = (await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', p)).data!.data;
    expect(event).toMatchObject({ eventCode: 'ORDER_OPENED', status: 'delivered' });
    const before = receiver.received.length;
    await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend', {
      params: { path: { ...m, webhookId: id, eventId: event!.eventId } },
    });
    await server.dispatcher.drain();
    expect(receiver.received.length).toBe(before + 1);
    const [again] = (await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', p)).data!.data;
    expect(again!.attempts).toHaveLength(2);
  });

  test('When older events are sent again one after another, then each is delivered once more, after what was queued before it', async () => {
    const id = (await create()).data!.id;
    const p = { params: { path: { ...m, webhookId: id } } };
    for (const reference of ['resend-1', 'resend-2', 'resend-3'])
      await server.checkout.POST('/orders', { body: { merchantAccount: 'DemoMerchantECOM', reference, amount: { currency: 'EUR', value: 100 } } });
    await server.dispatcher.drain();
    const events = (await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', p)).data!.data;
    expect(events.map((e) => e.status)).toEqual(['delivered', 'delivered', 'delivered']);
    const references = (from: number) =>
      receiver
        .items()
        .slice(from)
        .map((i) => i.merchantReference);
    const before = receiver.received.length;
    // The newest and then the oldest, queued while nothing is sent: they go out in that order.
    const [newest, , oldest] = events;
    for (const event of [newest!, oldest!])
      await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend', {
        params: { path: { ...m, webhookId: id, eventId: event.eventId } },
      });
    await server.checkout.POST('/orders', { body: { merchantAccount: 'DemoMerchantECOM', reference: 'resend-4', amount: { currency: 'EUR', value: 100 } } });
    await server.dispatcher.drain();
    expect(references(before)).toEqual(['resend-3', 'resend-1', 'resend-4']);
  });

  test('When an unknown event is sent again, then it is not found', async () => {
    const id = (await create()).data!.id;
    const { response } = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/events/{eventId}/resend', {
      params: { path: { ...m, webhookId: id, eventId: 999999 } },
    });
    expect(response.status).toBe(404);
  });
});
