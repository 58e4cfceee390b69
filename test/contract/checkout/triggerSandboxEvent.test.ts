import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { components } from '../../../generated/checkout.js';
import { ERR_SANDBOX_EVENT_NOT_APPLICABLE } from '../../../server/kernel/errors.js';
import { DEFAULT_FAILURE_REASON } from '../../../server/checkout/sandbox/events.domain.js';
import { insertCompany, insertCredential } from '../../helpers/boundary.js';
import { buildPaymentRequest } from '../../helpers/factories.js';
import { ALL_ROLES } from '../../../server/kernel/auth/roles.js';
import { createCheckoutClient } from '../../../client/index.js';
import { recordedEvents, storedPayment } from '../../helpers/methods.js';
import { authorisedPayment, capture, eur, refund } from '../../helpers/payments.js';
import { startServer, type TestServer } from '../../helpers/start-server.js';

type EventBody = components['schemas']['SandboxEventRequest'];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const trigger = (psp: string, body: EventBody, client = server.checkout) =>
  client.POST('/sandbox/payments/{paymentPspReference}/events', { params: { path: { paymentPspReference: psp } }, body });

/** Everything a refused trigger must leave alone: the payment's row, its modifications and the outbox. */
const stateOf = async (psp: string) =>
  server.store.read(async (tx) => ({
    payment: await tx.payments.get(psp),
    modifications: await tx.payments.modifications(psp),
    events: (await tx.outbox.listEvents('DemoMerchantECOM', 0, 100_000)).length,
  }));

const capturedPayment = async (value = 1000) => {
  const psp = await authorisedPayment(server, { amount: eur(value) });
  expect((await capture(server, psp, value)).response.status).toBe(201);
  return psp;
};

describe('POST /sandbox/payments/{paymentPspReference}/events', () => {
  test('When CAPTURE_FAILED is triggered, then the latest capture is failed, its amount is no longer captured and the event names the capture', async () => {
    const psp = await capturedPayment();
    const { data, response } = await trigger(psp, { eventCode: 'CAPTURE_FAILED' });
    expect(response.status).toBe(202);
    const [captured] = await server.store.read((tx) => tx.payments.modifications(psp));
    expect(data).toEqual({
      paymentPspReference: psp,
      merchantAccount: 'DemoMerchantECOM',
      eventCode: 'CAPTURE_FAILED',
      pspReference: captured!.pspReference,
      originalReference: psp,
      amount: eur(1000),
      success: 'false',
      reason: DEFAULT_FAILURE_REASON,
      status: 'queued',
    });
    expect(captured!.status).toBe('failed');
    expect((await storedPayment(server, psp))!.capturedValue).toBe(0);
    expect(await recordedEvents(server, psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'CAPTURE_FAILED:false']);
  });

  test('When CAPTURE_FAILED names one of two partial captures with an amount, then only that part of it is taken back', async () => {
    const psp = await authorisedPayment(server, { amount: eur(3000), merchantAccount: 'DemoMerchantPOS' });
    const onPos = { merchantAccount: 'DemoMerchantPOS' };
    const first = await capture(server, psp, 1000, onPos);
    expect((await capture(server, psp, 1500, onPos)).response.status).toBe(201);
    const { data, response } = await trigger(psp, {
      eventCode: 'CAPTURE_FAILED',
      modificationPspReference: first.data!.pspReference,
      amount: eur(400),
      reason: 'Capture rejected by card scheme',
    });
    expect(response.status).toBe(202);
    expect(data).toMatchObject({ pspReference: first.data!.pspReference, amount: eur(400), reason: 'Capture rejected by card scheme' });
    expect((await storedPayment(server, psp))!.capturedValue).toBe(2100);
  });

  test('When REFUND_FAILED is triggered, then the latest refund is failed and its amount is refundable again', async () => {
    const psp = await capturedPayment();
    const refunded = await refund(server, psp, 600);
    const { data, response } = await trigger(psp, { eventCode: 'REFUND_FAILED' });
    expect(response.status).toBe(202);
    expect(data).toMatchObject({
      eventCode: 'REFUND_FAILED',
      pspReference: refunded.data!.pspReference,
      originalReference: psp,
      amount: eur(600),
      success: 'false',
    });
    expect((await storedPayment(server, psp))!.refundedValue).toBe(0);
    expect((await refund(server, psp, 1000)).response.status).toBe(201);
    expect(await recordedEvents(server, psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'REFUND:true', 'REFUND_FAILED:false', 'REFUND:true']);
  });

  test('When OFFER_CLOSED is triggered for a payment waiting at the bank page, then it is Cancelled and OFFER_CLOSED is sent, as at its expiry', async () => {
    const { data: started } = await server.checkout.POST('/payments', { body: buildPaymentRequest({ paymentMethod: { type: 'ideal' } }) });
    expect(started?.resultCode).toBe('RedirectShopper');
    const psp = started!.pspReference!;
    const { data, response } = await trigger(psp, { eventCode: 'OFFER_CLOSED' });
    expect(response.status).toBe(202);
    expect(data).toMatchObject({ eventCode: 'OFFER_CLOSED', pspReference: psp, amount: eur(1000), success: 'true' });
    expect(data).not.toHaveProperty('originalReference');
    expect(await storedPayment(server, psp)).toMatchObject({ resultCode: 'Cancelled', settleAt: null });
    expect(await recordedEvents(server, psp)).toEqual(['OFFER_CLOSED:true']);
  });

  test('When EXPIRE is triggered for a partly captured payment, then the rest expires with the event and no capture is accepted after', async () => {
    const psp = await authorisedPayment(server, { amount: eur(3000), merchantAccount: 'DemoMerchantPOS' });
    expect((await capture(server, psp, 1000, { merchantAccount: 'DemoMerchantPOS' })).response.status).toBe(201);
    const { data, response } = await trigger(psp, { eventCode: 'EXPIRE' });
    expect(response.status).toBe(202);
    expect(data).toMatchObject({ eventCode: 'EXPIRE', pspReference: psp, originalReference: psp, amount: eur(2000), success: 'true' });
    expect(await storedPayment(server, psp)).toMatchObject({ captureClosed: true, capturedValue: 1000 });
    const late = await capture(server, psp, 500, { merchantAccount: 'DemoMerchantPOS' });
    expect(late.response.status).toBe(422);
    expect(await recordedEvents(server, psp, 'DemoMerchantPOS')).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'EXPIRE:true']);
  });

  test("When REPORT_AVAILABLE is triggered, then a report event of the payment's merchant account names the file and its download address on this server", async () => {
    const psp = await authorisedPayment(server);
    const { data, response } = await trigger(psp, { eventCode: 'REPORT_AVAILABLE' });
    expect(response.status).toBe(202);
    expect(data!.pspReference).toMatch(/^received_payments_report_\d{4}_\d{2}_\d{2}_\w+\.csv$/);
    expect(data!.reason).toBe(`${server.baseUrl}/reports/download/MerchantAccount/DemoMerchantECOM/${data!.pspReference}`);
    const events = await server.store.read((tx) => tx.outbox.listEvents('DemoMerchantECOM', 0, 100_000));
    expect(events.find((e) => e.pspReference === data!.pspReference)).toMatchObject({
      eventCode: 'REPORT_AVAILABLE',
      merchantReference: '',
      currency: 'EUR',
      value: 0,
      success: true,
      reason: data!.reason,
    });
    expect(await storedPayment(server, psp)).toMatchObject({ resultCode: 'Authorised', capturedValue: 0 });
  });

  test('When a capture is made with the card holder name "capture failed" (Adyen\'s test value), then it is accepted, then fails and is taken back', async () => {
    const card = { ...(buildPaymentRequest().paymentMethod as object), holderName: 'capture failed' };
    const psp = await authorisedPayment(server, { paymentMethod: card as never });
    expect((await capture(server, psp, 1000)).response.status).toBe(201);
    expect(await recordedEvents(server, psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'CAPTURE_FAILED:false']);
    expect((await storedPayment(server, psp))!.capturedValue).toBe(0);
  });

  const refusals: Array<[string, () => Promise<string>, EventBody, string]> = [
    [
      'CAPTURE_FAILED for a payment without a capture',
      () => authorisedPayment(server),
      { eventCode: 'CAPTURE_FAILED' },
      'it has no capture that has not failed',
    ],
    [
      'CAPTURE_FAILED for a capture whose money was refunded',
      async () => {
        const psp = await capturedPayment();
        await refund(server, psp, 1000);
        return psp;
      },
      { eventCode: 'CAPTURE_FAILED' },
      '1000 of it is refunded; fail the refund first (REFUND_FAILED)',
    ],
    [
      'CAPTURE_FAILED for a capture that failed already',
      async () => {
        const psp = await capturedPayment();
        await trigger(psp, { eventCode: 'CAPTURE_FAILED' });
        return psp;
      },
      { eventCode: 'CAPTURE_FAILED' },
      'it has no capture that has not failed',
    ],
    ['REFUND_FAILED for a payment without a refund', () => capturedPayment(), { eventCode: 'REFUND_FAILED' }, 'it has no refund that has not failed'],
    ['OFFER_CLOSED for an authorised payment', () => authorisedPayment(server), { eventCode: 'OFFER_CLOSED' }, 'it does not wait for the shopper'],
    ['EXPIRE for a fully captured payment', () => capturedPayment(), { eventCode: 'EXPIRE' }, 'nothing of it is left to capture'],
    [
      'EXPIRE with an amount',
      () => authorisedPayment(server),
      { eventCode: 'EXPIRE', amount: eur(100) },
      'only CAPTURE_FAILED and REFUND_FAILED take an amount',
    ],
  ];
  test.each(refusals)('When %s is triggered, then the answer is 422 22_030 with a clear message and nothing changed', async (_name, arrange, body, why) => {
    const psp = await arrange();
    const before = await stateOf(psp);
    const { error, response } = await trigger(psp, body);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ status: 422, errorCode: ERR_SANDBOX_EVENT_NOT_APPLICABLE.code, errorType: 'validation' });
    expect(error!.message).toContain(`${body.eventCode} does not fit payment ${psp}: ${why}`);
    expect(await stateOf(psp)).toEqual(before);
  });

  test('When CAPTURE_FAILED names more than the capture, then the answer is 422 and nothing changed', async () => {
    const psp = await capturedPayment();
    const before = await stateOf(psp);
    const { response } = await trigger(psp, { eventCode: 'CAPTURE_FAILED', amount: eur(1001) });
    expect(response.status).toBe(422);
    expect(await stateOf(psp)).toEqual(before);
  });

  test('When an unknown payment is named, then the answer is 422 167', async () => {
    const { error, response } = await trigger('0000000000000000', { eventCode: 'EXPIRE' });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ errorCode: '167' });
  });

  test("When another company's credential names the payment, then it is not found (422 167) and nothing changed", async () => {
    await insertCompany(server.store, 'TriggerOtherCompany', 'TriggerOtherMerchant');
    const key = await insertCredential(server.store, { id: 'S2-TRIGGEROTHER01', companyId: 'TriggerOtherCompany', merchantId: null, roles: ALL_ROLES });
    const other = createCheckoutClient({ baseUrl: server.checkoutUrl, apiKey: key });
    const psp = await capturedPayment();
    const before = await stateOf(psp);
    const { error, response } = await trigger(psp, { eventCode: 'CAPTURE_FAILED' }, other);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ errorCode: '167' });
    expect(await stateOf(psp)).toEqual(before);
  });

  test('When a merchant-level credential triggers an event, then the answer is 403 and nothing changed', async () => {
    const psp = await capturedPayment();
    const before = await stateOf(psp);
    const { error, response } = await trigger(psp, { eventCode: 'CAPTURE_FAILED' }, server.merchantCheckout);
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ status: 403, errorCode: '010' });
    expect(await stateOf(psp)).toEqual(before);
  });

  test('When the same Idempotency-Key is sent twice, then the second answer is the first replayed and the capture fails once', async () => {
    const psp = await capturedPayment();
    const send = () =>
      server.checkout.POST('/sandbox/payments/{paymentPspReference}/events', {
        params: { path: { paymentPspReference: psp }, header: { 'Idempotency-Key': `trigger-${psp}` } },
        body: { eventCode: 'CAPTURE_FAILED' },
      });
    const first = await send();
    const second = await send();
    expect(second.response.status).toBe(202);
    expect(second.data).toEqual(first.data);
    expect(await recordedEvents(server, psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'CAPTURE_FAILED:false']);
  });

  test('When the capture was refused at once by the test value FAIL, then nothing is left to fail', async () => {
    const psp = await authorisedPayment(server);
    await capture(server, psp, 1000, { reference: 'FAIL' });
    const { error, response } = await trigger(psp, { eventCode: 'CAPTURE_FAILED' });
    // The refused capture is recorded as failed: it took nothing that a failure could take back.
    expect(response.status).toBe(422);
    expect(error!.message).toContain('it has no capture that has not failed');
  });
});

describe('POST /sandbox/payments/{paymentPspReference}/events in production mode', () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await startServer({ mode: 'production' });
  });
  afterAll(() => production.stop());

  test('When an event is triggered in production mode, then the answer is 404 and nothing changed', async () => {
    const psp = await authorisedPayment(production);
    const { response } = await production.checkout.POST('/sandbox/payments/{paymentPspReference}/events', {
      params: { path: { paymentPspReference: psp } },
      body: { eventCode: 'EXPIRE' },
    });
    expect(response.status).toBe(404);
    expect(await production.store.read((tx) => tx.payments.get(psp))).toMatchObject({ captureClosed: false });
  });
});
