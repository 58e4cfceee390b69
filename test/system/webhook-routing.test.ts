import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { verifyHmacSignature } from '../../client/webhooks.js';
import { authorisedPayment, eur } from '../helpers/payments.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';

let server: TestServer;
const receivers: Receiver[] = [];
beforeEach(async () => {
  server = await startServer({ webhookRetryScheduleSeconds: [120], webhookImmediateRetries: 1 });
});
afterEach(async () => {
  await server.stop();
  for (const r of receivers.splice(0)) await r.stop();
});

const receiver = async (options: { https?: boolean } = {}) => {
  const r = await new Receiver(options).start();
  receivers.push(r);
  return r;
};
const standard = (url: string) => ({ type: 'standard', url, active: true, communicationFormat: 'json' }) as const;

async function companyWebhook(url: string, filter: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const { data, error } = await server.management.POST('/companies/{companyId}/webhooks', {
    params: { path: { companyId: 'DemoCompany' } },
    body: { ...standard(url), ...filter, ...extra } as never,
  });
  if (!data) throw new Error(JSON.stringify(error));
  const key = await server.management.POST('/companies/{companyId}/webhooks/{webhookId}/generateHmac', {
    params: { path: { companyId: 'DemoCompany', webhookId: data.id } },
  });
  return { id: data.id, hmacKey: key.data!.hmacKey };
}

async function merchantWebhook(merchantId: string, url: string, extra: Record<string, unknown> = {}) {
  const { data, error } = await server.management.POST('/merchants/{merchantId}/webhooks', {
    params: { path: { merchantId } },
    body: { ...standard(url), ...extra } as never,
  });
  if (!data) throw new Error(JSON.stringify(error));
  const key = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/generateHmac', {
    params: { path: { merchantId, webhookId: data.id } },
  });
  return { id: data.id, hmacKey: key.data!.hmacKey };
}

describe('Webhook delivery to company and merchant webhooks', () => {
  test("When each merchant account makes a payment, then each webhook whose filter covers it gets the event, signed with that webhook's own key", async () => {
    const [onlyEcom, allButEcom, everyAccount, ecomOwn] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const include = await companyWebhook(onlyEcom.url, { filterMerchantAccountType: 'includeAccounts', filterMerchantAccounts: ['DemoMerchantECOM'] });
    await companyWebhook(allButEcom.url, { filterMerchantAccountType: 'excludeAccounts', filterMerchantAccounts: ['DemoMerchantECOM'] });
    const all = await companyWebhook(everyAccount.url, { filterMerchantAccountType: 'allAccounts' });
    const own = await merchantWebhook('DemoMerchantECOM', ecomOwn.url);

    const ecom = await authorisedPayment(server);
    const pos = await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS' });
    await server.dispatcher.drain();

    const psps = (r: Receiver) => r.items().map((i) => i.pspReference);
    expect(psps(onlyEcom)).toEqual([ecom]);
    expect(psps(allButEcom)).toEqual([pos]);
    expect(psps(everyAccount).sort()).toEqual([ecom, pos].sort());
    expect(psps(ecomOwn)).toEqual([ecom]);
    // One event, three signatures: each verifies with its own webhook's key only.
    const [fromInclude] = onlyEcom.items();
    const [fromOwn] = ecomOwn.items();
    expect(verifyHmacSignature(include.hmacKey, fromInclude!)).toBe(true);
    expect(verifyHmacSignature(own.hmacKey, fromOwn!)).toBe(true);
    expect(verifyHmacSignature(all.hmacKey, fromInclude!)).toBe(false);
  });

  test('When a company webhook is inactive or its filter changes to leave an account out, then that account’s events stop reaching it', async () => {
    const target = await receiver();
    const webhook = await companyWebhook(target.url, { filterMerchantAccountType: 'allAccounts' });
    const at = { params: { path: { companyId: 'DemoCompany', webhookId: webhook.id } } };
    await server.management.PATCH('/companies/{companyId}/webhooks/{webhookId}', {
      ...at,
      body: { filterMerchantAccountType: 'excludeAccounts', filterMerchantAccounts: ['DemoMerchantPOS'] },
    });
    await authorisedPayment(server, { merchantAccount: 'DemoMerchantPOS' });
    await server.management.PATCH('/companies/{companyId}/webhooks/{webhookId}', { ...at, body: { active: false } });
    await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(target.received).toHaveLength(0);
  });

  test('When webhooks include or exclude event codes, then only the wanted codes are queued for each', async () => {
    const [captures, noAuthorisations] = await Promise.all([receiver(), receiver()]);
    await merchantWebhook('DemoMerchantECOM', captures.url, { additionalSettings: { includeEventCodes: ['CAPTURE'] } });
    await companyWebhook(noAuthorisations.url, { filterMerchantAccountType: 'allAccounts' }, { additionalSettings: { excludeEventCodes: ['AUTHORISATION'] } });
    const psp = await authorisedPayment(server);
    await server.checkout.POST('/payments/{paymentPspReference}/captures', {
      params: { path: { paymentPspReference: psp } },
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(1000) },
    });
    await server.checkout.POST('/payments/{paymentPspReference}/refunds', {
      params: { path: { paymentPspReference: psp } },
      body: { merchantAccount: 'DemoMerchantECOM', amount: eur(100) },
    });
    await server.dispatcher.drain();
    expect(captures.items().map((i) => i.eventCode)).toEqual(['CAPTURE']);
    expect(noAuthorisations.items().map((i) => i.eventCode)).toEqual(['CAPTURE', 'REFUND']);
  });
});

describe('Webhook delivery over TLS', () => {
  const events = (merchantId: string, webhookId: string) =>
    server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}/events', { params: { path: { merchantId, webhookId } } });

  test('When the receiver has a self-signed certificate that the webhook does not accept, then nothing is sent and the attempt says why', async () => {
    const tlsReceiver = await receiver({ https: true });
    // Accepting an untrusted root is not accepting a self-signed certificate.
    const webhook = await merchantWebhook('DemoMerchantECOM', tlsReceiver.url, { acceptsUntrustedRootCertificate: true });
    await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(tlsReceiver.received).toHaveLength(0);
    const [event] = (await events('DemoMerchantECOM', webhook.id)).data!.data;
    expect(event!.status).toBe('pending');
    expect(event!.attempts[0]).toMatchObject({ outcome: 'error', error: expect.stringContaining('self-signed') });
    const read = await server.management.GET('/merchants/{merchantId}/webhooks/{webhookId}', {
      params: { path: { merchantId: 'DemoMerchantECOM', webhookId: webhook.id } },
    });
    expect(read.data?.hasError).toBe(true);
    const tested = await server.management.POST('/merchants/{merchantId}/webhooks/{webhookId}/test', {
      params: { path: { merchantId: 'DemoMerchantECOM', webhookId: webhook.id } },
      body: {},
    });
    expect(tested.data?.data?.[0]).toMatchObject({ status: 'failed', output: expect.stringContaining('self-signed') });
    expect(tested.data?.data?.[0]?.responseCode).toBeUndefined();
  });

  test('When the webhook accepts self-signed certificates, then events are delivered to that receiver, signed', async () => {
    const tlsReceiver = await receiver({ https: true });
    const webhook = await companyWebhook(
      tlsReceiver.url,
      { filterMerchantAccountType: 'includeAccounts', filterMerchantAccounts: ['DemoMerchantECOM'] },
      { acceptsSelfSignedCertificate: true, encryptionProtocol: 'TLSv1.3' },
    );
    const psp = await authorisedPayment(server);
    await server.dispatcher.drain();
    expect(tlsReceiver.items().map((i) => i.pspReference)).toEqual([psp]);
    expect(verifyHmacSignature(webhook.hmacKey, tlsReceiver.items()[0]!)).toBe(true);
  });
});
