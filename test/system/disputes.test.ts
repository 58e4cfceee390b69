import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { NotificationRequestItem as NotificationItem } from '../../client/webhooks.js';
import { ERR_REFUND_EXCEEDS_CAPTURED } from '../../server/kernel/errors.js';
import { hmacValidator, Types } from '../helpers/adyen-library.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { advanceClock, storedPayment } from '../helpers/methods.js';
import { authorisedPayment, capture, eur, refund } from '../helpers/payments.js';
import { type Receiver, type SignedReceiver, signedReceiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';
import { loadBundled, responseValidator } from '../contract/suite.js';

// Adyen's test scenarios: a card payment whose holderName names one is disputed once captured
// (https://docs.adyen.com/risk-management/disputes-api/test-applicable-dispute-reasons).

const validate = responseValidator('checkout', loadBundled('checkout'));
const DAY = 24 * 3600;
const merchantAccount = 'DemoMerchantECOM';

let server: TestServer;
let receiver: Receiver;
let hmacKey: string;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());
let hook: SignedReceiver;
beforeEach(async () => {
  hook = await signedReceiver(server, merchantAccount);
  ({ receiver, hmacKey } = hook);
});
afterEach(() => hook.remove());

/** An authorised card payment of EUR 10.00 with that holder name. */
const disputedPayment = (holderName: string, overrides: Parameters<typeof buildPaymentRequest>[0] = {}) =>
  authorisedPayment(server, {
    paymentMethod: { ...(buildPaymentRequest().paymentMethod as Record<string, string>), holderName } as never,
    ...overrides,
  });

/** The dispute events received for a payment, in order. */
async function disputeEvents(psp: string): Promise<NotificationItem[]> {
  await server.dispatcher.drain();
  return receiver.items().filter((i) => i.originalReference === psp && !['CAPTURE', 'REFUND'].includes(i.eventCode));
}

const codes = (items: NotificationItem[]) => items.map((i) => i.eventCode);

/** Every received notification is valid against the spec, parses with the Adyen library's types and passes its HMAC check. */
function expectAdyenShaped(): void {
  const eventCodes = Object.values(Types.notification.NotificationRequestItem.EventCodeEnum) as string[];
  for (const { notification, body } of receiver.received) {
    expect(validate('#/components/schemas/NotificationRequest', notification)).toEqual([]);
    const parsed = Types.notification.ObjectSerializer.deserialize(JSON.parse(body), 'Notification') as {
      notificationItems: Array<{ NotificationRequestItem: { eventCode: string; amount: { value: number } } }>;
    };
    const item = parsed.notificationItems[0]!.NotificationRequestItem;
    expect(eventCodes).toContain(item.eventCode);
    expect(typeof item.amount.value).toBe('number');
    expect(new hmacValidator().validateHMAC(notification.notificationItems[0]!.NotificationRequestItem as never, hmacKey)).toBe(true);
  }
}

describe('Disputes of the test scenarios', () => {
  test('When a payment named Chargeback:10.4 is captured, then NOTIFICATION_OF_CHARGEBACK comes at once, CHARGEBACK a day later taking what is not refunded, and the defense period ends undefended', async () => {
    const psp = await disputedPayment('Chargeback:10.4');
    expect((await capture(server, psp, 1000)).response.status).toBe(201);

    const [notified] = await disputeEvents(psp);
    expect(notified).toMatchObject({
      eventCode: 'NOTIFICATION_OF_CHARGEBACK',
      originalReference: psp,
      merchantAccountCode: merchantAccount,
      amount: eur(1000),
      success: 'true',
      paymentMethod: 'visa',
      reason: 'Other Fraud-Card Absent Environment',
      additionalData: expect.objectContaining({
        chargebackReasonCode: '10.4',
        chargebackSchemeCode: 'visa',
        disputeStatus: 'Undefended',
        defendable: 'true',
        modificationMerchantReferences: '',
      }),
    });
    expect(notified!.pspReference).not.toBe(psp);
    const endsAt = Date.parse(notified!.additionalData!.defensePeriodEndsAt!);
    // To the second: Adyen's format has no fraction.
    expect(endsAt - Math.floor(Date.parse(String(notified!.eventDate)) / 1000) * 1000).toBe(20 * DAY * 1000);
    expect(notified!.additionalData!.defensePeriodEndsAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);

    // A refund before the chargeback: the chargeback takes only what is left.
    expect((await refund(server, psp, 300)).response.status).toBe(201);
    await advanceClock(server, DAY);
    const afterADay = await disputeEvents(psp);
    expect(codes(afterADay)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK']);
    expect(afterADay[1]).toMatchObject({
      pspReference: notified!.pspReference,
      amount: eur(700),
      additionalData: expect.objectContaining({ disputeStatus: 'Undefended', chargebackReasonCode: '10.4' }),
    });
    expect(await storedPayment(server, psp)).toMatchObject({ capturedValue: 1000, refundedValue: 300, chargedBackValue: 700 });

    const refused = await refund(server, psp, 1);
    expect(refused.response.status).toBe(422);
    expect(refused.error).toMatchObject({ errorCode: ERR_REFUND_EXCEEDS_CAPTURED.code });

    await advanceClock(server, 19 * DAY);
    const all = await disputeEvents(psp);
    expect(codes(all)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED']);
    expect(all[2]).toMatchObject({
      pspReference: notified!.pspReference,
      amount: eur(700),
      additionalData: expect.objectContaining({ disputeStatus: 'Lost' }),
    });
    // Nothing more comes, however long the clock runs.
    await advanceClock(server, 60 * DAY);
    expect(codes(await disputeEvents(psp))).toHaveLength(3);
    expectAdyenShaped();
  });

  test('When a payment named Chargeback is captured automatically, then the dispute follows the automatic capture with the brand’s fraud reason code', async () => {
    const psp = await disputedPayment('Chargeback', { captureDelayHours: 1 });
    await server.dispatcher.drain();
    expect(await disputeEvents(psp)).toEqual([]);

    await advanceClock(server, 3600);
    expect(codes(await disputeEvents(psp))).toEqual(['NOTIFICATION_OF_CHARGEBACK']);
    await advanceClock(server, DAY);
    const items = await disputeEvents(psp);
    expect(codes(items)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK']);
    expect(items[1]).toMatchObject({ amount: eur(1000), additionalData: expect.objectContaining({ chargebackReasonCode: '10.4' }) });
    expect(await storedPayment(server, psp)).toMatchObject({ capturedValue: 1000, refundedValue: 0, chargedBackValue: 1000 });
    // A reversal finds nothing left to refund.
    const reversal = await server.checkout.POST('/payments/{paymentPspReference}/reversals', {
      params: { path: { paymentPspReference: psp } },
      body: { merchantAccount },
    });
    expect(reversal.response.status).toBe(422);
    expectAdyenShaped();
  });

  test('When a payment named Chargeback Reversed is captured, then CHARGEBACK_REVERSED a week after the chargeback gives the amount back', async () => {
    const psp = await disputedPayment('Chargeback Reversed');
    await capture(server, psp, 1000);
    await server.dispatcher.drain();
    await advanceClock(server, DAY);
    expect((await refund(server, psp, 1)).response.status).toBe(422);

    await advanceClock(server, 7 * DAY);
    const items = await disputeEvents(psp);
    expect(codes(items)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED']);
    expect(new Set(items.map((i) => i.pspReference)).size).toBe(1);
    expect(items[2]).toMatchObject({ amount: eur(1000), success: 'true', additionalData: expect.objectContaining({ disputeStatus: 'Pending' }) });
    expect(Date.parse(String(items[2]!.eventDate)) - Date.parse(String(items[1]!.eventDate))).toBe(7 * DAY * 1000);
    expect(await storedPayment(server, psp)).toMatchObject({ chargedBackValue: 0 });
    expect((await refund(server, psp, 1000)).response.status).toBe(201);
    expectAdyenShaped();
  });

  test('When a payment named Second Chargeback is captured, then the reversed chargeback is charged back again a week later', async () => {
    const psp = await disputedPayment('Second Chargeback');
    await capture(server, psp, 1000);
    await server.dispatcher.drain();
    // One jump of the clock sends every step, each dated when it fell due, in order.
    await advanceClock(server, 30 * DAY);
    const items = await disputeEvents(psp);
    expect(codes(items)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK']);
    expect(items[3]).toMatchObject({ amount: eur(1000), additionalData: expect.objectContaining({ disputeStatus: 'Lost' }) });
    const dates = items.map((i) => Date.parse(String(i.eventDate)));
    expect([dates[1]! - dates[0]!, dates[2]! - dates[1]!, dates[3]! - dates[2]!]).toEqual([DAY * 1000, 7 * DAY * 1000, 7 * DAY * 1000]);
    expect(await storedPayment(server, psp)).toMatchObject({ capturedValue: 1000, refundedValue: 0, chargedBackValue: 1000 });
    expect((await refund(server, psp, 1)).response.status).toBe(422);
    expectAdyenShaped();
  });

  test('When a payment with another holder name is captured, then no dispute event is sent', async () => {
    const plain = await authorisedPayment(server);
    await capture(server, plain, 1000);
    await advanceClock(server, 30 * DAY);
    expect(await disputeEvents(plain)).toEqual([]);
    expect(await storedPayment(server, plain)).toMatchObject({ chargedBackValue: 0 });
  });
});
