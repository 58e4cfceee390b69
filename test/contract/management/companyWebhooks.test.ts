import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createManagementClient } from '../../../client/index.js';
import { verifyHmacSignature } from '../../../client/webhooks.js';
import { hmacKeyCheckValue } from '../../../server/management/webhooks/webhooks.domain.js';
import { MERCHANT_KEY } from '../../helpers/keys.js';
import { authorisedPayment } from '../../helpers/payments.js';
import { Receiver } from '../../helpers/receiver.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

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

const companyId = 'DemoCompany';
const both = ['DemoMerchantECOM', 'DemoMerchantPOS'];
const create = (body: Record<string, unknown> = {}) =>
  server.management.POST('/companies/{companyId}/webhooks', {
    params: { path: { companyId } },
    body: {
      type: 'standard',
      url: receiver.url,
      active: true,
      communicationFormat: 'json',
      filterMerchantAccountType: 'includeAccounts',
      filterMerchantAccounts: both,
      ...body,
    } as never,
  });
const at = (webhookId: string) => ({ params: { path: { companyId, webhookId } } });
const events = async (webhookId: string) => (await server.management.GET('/companies/{companyId}/webhooks/{webhookId}/events', at(webhookId))).data!.data;

describe('POST /companies/{companyId}/webhooks', () => {
  test('When a webhook for two merchant accounts is set up, then it shows its filter, event codes and company without the password', async () => {
    const { data, response } = await create({
      username: 'events',
      password: 'secret-2',
      additionalSettings: { includeEventCodes: ['AUTHORISATION', 'CAPTURE'], properties: { includeCaptureDelayHours: true } },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      type: 'standard',
      active: true,
      communicationFormat: 'json',
      accountReference: companyId,
      filterMerchantAccountType: 'includeAccounts',
      filterMerchantAccounts: both,
      additionalSettings: { includeEventCodes: ['AUTHORISATION', 'CAPTURE'], properties: { includeCaptureDelayHours: true } },
      hasPassword: true,
      username: 'events',
    });
    expect(JSON.stringify(data)).not.toContain('secret-2');
    expect(data?._links).toMatchObject({
      self: { href: `${server.managementUrl}/companies/${companyId}/webhooks/${data?.id}` },
      company: { href: `${server.managementUrl}/companies/${companyId}` },
      generateHmac: { href: `${server.managementUrl}/companies/${companyId}/webhooks/${data?.id}/generateHmac` },
      testWebhook: { href: `${server.managementUrl}/companies/${companyId}/webhooks/${data?.id}/test` },
    });
  });

  test.each([
    ['includeAccounts without accounts', { filterMerchantAccounts: [] }, 'filterMerchantAccounts'],
    ['excludeAccounts without accounts', { filterMerchantAccountType: 'excludeAccounts', filterMerchantAccounts: undefined }, 'filterMerchantAccounts'],
    ['allAccounts with a list', { filterMerchantAccountType: 'allAccounts' }, 'filterMerchantAccounts'],
    ["another company's merchant account", { filterMerchantAccounts: ['DemoMerchantECOM', 'SomeoneElsesMerchant'] }, 'filterMerchantAccounts'],
    ['the SOAP format', { communicationFormat: 'soap' }, 'communicationFormat'],
    ['the HTTP POST format', { communicationFormat: 'http' }, 'communicationFormat'],
    [
      'an event code both included and excluded',
      { additionalSettings: { includeEventCodes: ['CAPTURE'], excludeEventCodes: ['CAPTURE'] } },
      'additionalSettings.excludeEventCodes',
    ],
    ['an event code Adyen does not have', { additionalSettings: { includeEventCodes: ['PAYMENT_DONE'] } }, 'additionalSettings.includeEventCodes.0'],
  ])('When the webhook has %s, then the answer is 422 naming the field and nothing is created', async (_name, body, field) => {
    const { error, response } = await create(body);
    expect(response.status).toBe(422);
    expect(error?.invalidFields?.map((f) => f.name).join(' ')).toContain(field);
    const list = await server.management.GET('/companies/{companyId}/webhooks', { params: { path: { companyId } } });
    expect(list.data?.itemsTotal).toBe(0);
  });

  test('When a merchant-level credential sets one up, then the answer is 403', async () => {
    const merchant = createManagementClient({ baseUrl: server.managementUrl, apiKey: MERCHANT_KEY });
    const { response } = await merchant.POST('/companies/{companyId}/webhooks', {
      params: { path: { companyId } },
      body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json', filterMerchantAccountType: 'allAccounts' },
    });
    expect(response.status).toBe(403);
  });
});

describe('GET /companies/{companyId}/webhooks', () => {
  test("When the company and a merchant account have webhooks, then the company's list has only the company's", async () => {
    const own = (await create()).data!.id;
    await server.management.POST('/merchants/{merchantId}/webhooks', {
      params: { path: { merchantId: 'DemoMerchantECOM' } },
      body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
    });
    const { data } = await server.management.GET('/companies/{companyId}/webhooks', { params: { path: { companyId }, query: { pageSize: 10 } } });
    expect(data).toMatchObject({ itemsTotal: 1, accountReference: companyId });
    expect(data?.data?.map((w) => w.id)).toEqual([own]);
  });
});

describe('GET /companies/{companyId}/webhooks/{webhookId}', () => {
  test("When a merchant account's webhook is asked for at the company level, then it is not found", async () => {
    const { data } = await server.management.POST('/merchants/{merchantId}/webhooks', {
      params: { path: { merchantId: 'DemoMerchantECOM' } },
      body: { type: 'standard', url: receiver.url, active: true, communicationFormat: 'json' },
    });
    expect((await server.management.GET('/companies/{companyId}/webhooks/{webhookId}', at(data!.id))).response.status).toBe(404);
  });
});

describe('PATCH /companies/{companyId}/webhooks/{webhookId}', () => {
  test('When the filter changes to excludeAccounts and then to allAccounts, then each is kept and allAccounts drops the list', async () => {
    const id = (await create()).data!.id;
    const excluded = await server.management.PATCH('/companies/{companyId}/webhooks/{webhookId}', {
      ...at(id),
      body: { filterMerchantAccountType: 'excludeAccounts', filterMerchantAccounts: ['DemoMerchantPOS'], description: 'not the shop' },
    });
    expect(excluded.data).toMatchObject({
      filterMerchantAccountType: 'excludeAccounts',
      filterMerchantAccounts: ['DemoMerchantPOS'],
      description: 'not the shop',
    });
    const all = await server.management.PATCH('/companies/{companyId}/webhooks/{webhookId}', { ...at(id), body: { filterMerchantAccountType: 'allAccounts' } });
    expect(all.data?.filterMerchantAccountType).toBe('allAccounts');
    expect(all.data?.filterMerchantAccounts).toBeUndefined();
    expect((await server.management.GET('/companies/{companyId}/webhooks/{webhookId}', at(id))).data?.filterMerchantAccountType).toBe('allAccounts');
  });

  test('When only a list is given to an allAccounts webhook, then the answer is 422 and the webhook stays as it was', async () => {
    const id = (await create({ filterMerchantAccountType: 'allAccounts', filterMerchantAccounts: undefined })).data!.id;
    const { response } = await server.management.PATCH('/companies/{companyId}/webhooks/{webhookId}', {
      ...at(id),
      body: { filterMerchantAccounts: ['DemoMerchantPOS'] },
    });
    expect(response.status).toBe(422);
    expect((await server.management.GET('/companies/{companyId}/webhooks/{webhookId}', at(id))).data?.filterMerchantAccountType).toBe('allAccounts');
  });
});

describe('DELETE /companies/{companyId}/webhooks/{webhookId}', () => {
  test('When the webhook is removed, then it is not found and events no longer go to it', async () => {
    const id = (await create()).data!.id;
    expect((await server.management.DELETE('/companies/{companyId}/webhooks/{webhookId}', at(id))).response.status).toBe(204);
    expect((await server.management.GET('/companies/{companyId}/webhooks/{webhookId}', at(id))).response.status).toBe(404);
    await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(0);
  });
});

describe('POST /companies/{companyId}/webhooks/{webhookId}/generateHmac', () => {
  test('When a key is generated, then events are signed with it and the webhook shows its check value', async () => {
    const id = (await create()).data!.id;
    const { hmacKey } = (await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/generateHmac', at(id))).data!;
    expect(hmacKey).toMatch(/^[0-9A-F]{64}$/);
    expect((await server.management.GET('/companies/{companyId}/webhooks/{webhookId}', at(id))).data?.hmacKeyCheckValue).toBe(hmacKeyCheckValue(hmacKey));
    await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(verifyHmacSignature(hmacKey, receiver.items()[0]!)).toBe(true);
  });
});

describe('POST /companies/{companyId}/webhooks/{webhookId}/test', () => {
  test('When no merchant account is named, then one test event goes to each covered account and each result is reported', async () => {
    const id = (await create()).data!.id;
    receiver.answer = (_req, res, index) => (index === 0 ? res.writeHead(200).end('[accepted]') : res.writeHead(503).end('busy'));
    const { data } = await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/test', { ...at(id), body: {} });
    expect(data?.data).toEqual([
      expect.objectContaining({ merchantId: 'DemoMerchantECOM', status: 'success', responseCode: '200', output: '[accepted]' }),
      expect.objectContaining({ merchantId: 'DemoMerchantPOS', status: 'failed', responseCode: '503', output: 'busy' }),
    ]);
    expect(receiver.items().map((i) => [i.merchantAccountCode, i.eventCode])).toEqual([
      ['DemoMerchantECOM', 'AUTHORISATION'],
      ['DemoMerchantPOS', 'AUTHORISATION'],
    ]);
    expect(JSON.parse(data!.data![1]!.requestSent!).notificationItems[0].NotificationRequestItem.merchantAccountCode).toBe('DemoMerchantPOS');
  });

  test('When one account and two types are named, then two events go to that account', async () => {
    const id = (await create()).data!.id;
    const { data } = await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/test', {
      ...at(id),
      body: { merchantIds: ['DemoMerchantPOS'], types: ['ORDER_OPENED', 'CUSTOM'], notification: { eventCode: 'REFUND', success: false, reason: 'test' } },
    });
    expect(data?.data?.map((r) => [r.merchantId, r.status])).toEqual([
      ['DemoMerchantPOS', 'success'],
      ['DemoMerchantPOS', 'success'],
    ]);
    expect(receiver.items().map((i) => [i.eventCode, i.success])).toEqual([
      ['ORDER_OPENED', 'true'],
      ['REFUND', 'false'],
    ]);
  });

  test.each([
    ['an account the webhook does not cover', { merchantIds: ['DemoMerchantPOS'] }, 'merchantIds'],
    ['an unknown type', { types: ['CAPTURE'] }, 'types'],
  ])('When the test names %s, then the answer is 422 and nothing is sent', async (_name, body, field) => {
    const id = (await create({ filterMerchantAccounts: ['DemoMerchantECOM'] })).data!.id;
    const { error, response } = await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/test', { ...at(id), body });
    expect(response.status).toBe(422);
    expect(error?.invalidFields?.[0]?.name).toBe(field);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("POST /companies/{companyId}/webhooks and POST /companies/{companyId}/webhooks/{webhookId}/test with Adyen's webhook types", () => {
  test('When a company webhook of another type covers two accounts, then it keeps its type, receives no payment event, and its test sends its type to each account', async () => {
    const { data: created } = await create({ type: 'ideal-notification' });
    expect(created?.type).toBe('ideal-notification');
    expect((await server.management.GET('/companies/{companyId}/webhooks/{webhookId}', at(created!.id))).data?.type).toBe('ideal-notification');
    await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(receiver.received).toHaveLength(0);
    expect(await events(created!.id)).toEqual([]);

    const { data } = await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/test', { ...at(created!.id), body: {} });
    expect(data?.data?.map((r) => [r.merchantId, r.status])).toEqual([
      ['DemoMerchantECOM', 'success'],
      ['DemoMerchantPOS', 'success'],
    ]);
    expect(receiver.items().map((i) => [i.merchantAccountCode, i.eventCode])).toEqual([
      ['DemoMerchantECOM', 'AUTHORISATION'],
      ['DemoMerchantPOS', 'AUTHORISATION'],
    ]);
  });

  test.each([
    ['pending-notification', { types: ['AUTHORISATION'] }],
    ['account-settings-notification', {}],
  ])('When a %s company webhook is tested with %j, then the answer is 422 and nothing is sent', async (type, body) => {
    const id = (await create({ type })).data!.id;
    const { error, response } = await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/test', { ...at(id), body: body as never });
    expect(response.status).toBe(422);
    expect(error?.invalidFields).toEqual([expect.objectContaining({ name: 'types', message: expect.stringContaining(type) })]);
    expect(receiver.received).toHaveLength(0);
  });

  test('When a company webhook update names a type, then the answer is 422 and it keeps its type', async () => {
    const id = (await create({ type: 'terminal-boarding' })).data!.id;
    const { error } = await server.management.PATCH('/companies/{companyId}/webhooks/{webhookId}', { ...at(id), body: { type: 'standard' } as never });
    expect(error).toMatchObject({ status: 422, invalidFields: [expect.objectContaining({ name: 'type' })] });
    expect((await server.management.GET('/companies/{companyId}/webhooks/{webhookId}', at(id))).data?.type).toBe('terminal-boarding');
  });
});

describe('GET /companies/{companyId}/webhooks/{webhookId}/events', () => {
  test('When both covered accounts have payments, then the webhook lists both events', async () => {
    const id = (await create()).data!.id;
    const ecom = await authorisedPayment(server);
    const pos = await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS' });
    await server.dispatcher.drain();
    const listed = await events(id);
    expect(listed.map((e) => [e.pspReference, e.status])).toEqual(
      expect.arrayContaining([
        [ecom, 'delivered'],
        [pos, 'delivered'],
      ]),
    );
  });
});

describe('POST /companies/{companyId}/webhooks/{webhookId}/events/{eventId}/resend', () => {
  test('When a delivered event is sent again, then it arrives a second time', async () => {
    const id = (await create()).data!.id;
    await authorisedPayment(server);
    await server.dispatcher.drain();
    const [event] = await events(id);
    await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/events/{eventId}/resend', {
      params: { path: { companyId, webhookId: id, eventId: event!.eventId } },
    });
    await server.dispatcher.drain();
    expect(receiver.items().map((i) => i.pspReference)).toEqual([event!.pspReference, event!.pspReference]);
  });
});
