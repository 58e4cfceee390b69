import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { NotificationRequestItem as NotificationItem } from '../../client/webhooks.js';
import type { components } from '../../generated/checkout.js';
import { ERR_SANDBOX_EVENT_NOT_APPLICABLE } from '../../server/kernel/errors.js';
import { hmacValidator, Types } from '../helpers/adyen-library.js';
import { buildPaymentRequest } from '../helpers/factories.js';
import { advanceClock, storedPayment } from '../helpers/methods.js';
import { authorisedPayment, capture, eur, refund } from '../helpers/payments.js';
import { type Receiver, type SignedReceiver, signedReceiver } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/start-server.js';
import { loadBundled, responseValidator } from '../contract/suite.js';

// The dispute flows the sandbox starts on demand (POST /sandbox/payments/{paymentPspReference}/events
// with a dispute code): their events in order on the sandbox clock, their fields and the money.

type EventBody = components['schemas']['SandboxEventRequest'];

const bundled = loadBundled('checkout');
const validate = responseValidator('checkout', bundled);
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

const trigger = (psp: string, body: EventBody) =>
  server.checkout.POST('/sandbox/payments/{paymentPspReference}/events', { params: { path: { paymentPspReference: psp } }, body });

/** A captured card payment of EUR 10.00. */
async function capturedPayment(): Promise<string> {
  const psp = await authorisedPayment(server);
  expect((await capture(server, psp, 1000)).response.status).toBe(201);
  return psp;
}

/** The dispute events received for a payment, in order. */
async function disputeEvents(psp: string): Promise<NotificationItem[]> {
  await server.dispatcher.drain();
  const items = receiver.items().filter((i) => i.originalReference === psp && !['CAPTURE', 'REFUND'].includes(i.eventCode));
  return items;
}

/** Every received notification is valid against the spec, carries a valid HMAC signature and, where the Adyen library knows the code, parses with its types. */
function expectAdyenShaped(): void {
  const libraryCodes = Object.values(Types.notification.NotificationRequestItem.EventCodeEnum) as string[];
  for (const { notification, body } of receiver.received) {
    expect(validate('#/components/schemas/NotificationRequest', notification)).toEqual([]);
    const item = notification.notificationItems[0]!.NotificationRequestItem;
    expect(new hmacValidator().validateHMAC(item as never, hmacKey)).toBe(true);
    if (libraryCodes.includes(item.eventCode)) {
      const parsed = Types.notification.ObjectSerializer.deserialize(JSON.parse(body), 'Notification') as {
        notificationItems: Array<{ NotificationRequestItem: { eventCode: string } }>;
      };
      expect(parsed.notificationItems[0]!.NotificationRequestItem.eventCode).toBe(item.eventCode);
    }
  }
}

interface FlowCase {
  title: string;
  body: EventBody;
  /** Each event: its code, its disputeStatus, and the days since the previous one. */
  events: Array<[code: string, status: string, afterDays: number]>;
  /** What the payment has charged back once the flow has ended. */
  chargedBack: number;
}

const FLOWS: FlowCase[] = [
  {
    title: 'REQUEST_FOR_INFORMATION with outcome WON',
    body: { eventCode: 'REQUEST_FOR_INFORMATION', outcome: 'WON' },
    events: [
      ['REQUEST_FOR_INFORMATION', 'Unresponded', 0],
      ['INFORMATION_SUPPLIED', 'Responded', 1],
    ],
    chargedBack: 0,
  },
  {
    title: 'REQUEST_FOR_INFORMATION without an outcome (LOST)',
    body: { eventCode: 'REQUEST_FOR_INFORMATION' },
    events: [
      ['REQUEST_FOR_INFORMATION', 'Unresponded', 0],
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 10],
      ['CHARGEBACK', 'Undefended', 1],
      ['DISPUTE_DEFENSE_PERIOD_ENDED', 'Lost', 19],
    ],
    chargedBack: 1000,
  },
  {
    title: 'CHARGEBACK with outcome LOST',
    body: { eventCode: 'CHARGEBACK', outcome: 'LOST', reasonCode: '13.1' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['DISPUTE_DEFENSE_PERIOD_ENDED', 'Lost', 19],
    ],
    chargedBack: 1000,
  },
  {
    title: 'CHARGEBACK with outcome WON',
    body: { eventCode: 'CHARGEBACK', outcome: 'WON' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['INFORMATION_SUPPLIED', 'Pending', 1],
      ['ISSUER_RESPONSE_TIMEFRAME_EXPIRED', 'Won', 7],
      ['CHARGEBACK_REVERSED', 'Won', 0],
    ],
    chargedBack: 0,
  },
  {
    title: 'PREARBITRATION_OPEN with outcome WON',
    body: { eventCode: 'PREARBITRATION_OPEN', outcome: 'WON' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['INFORMATION_SUPPLIED', 'Pending', 1],
      ['CHARGEBACK_REVERSED', 'Pending', 7],
      ['ISSUER_COMMENTS', 'Pending', 7],
      ['PREARBITRATION_OPEN', 'Pending', 1],
      ['PREARBITRATION_DECLINED', 'Pending', 1],
      ['PREARBITRATION_ISSUER_WITHDRAWN', 'Won', 7],
    ],
    chargedBack: 0,
  },
  {
    title: 'PREARBITRATION_OPEN with outcome LOST',
    body: { eventCode: 'PREARBITRATION_OPEN', outcome: 'LOST' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['INFORMATION_SUPPLIED', 'Pending', 1],
      ['CHARGEBACK_REVERSED', 'Pending', 7],
      ['ISSUER_COMMENTS', 'Pending', 7],
      ['PREARBITRATION_OPEN', 'Pending', 1],
      ['PREARBITRATION_ACCEPTED', 'Lost', 1],
    ],
    chargedBack: 1000,
  },
  {
    title: 'SECOND_CHARGEBACK with outcome WON',
    body: { eventCode: 'SECOND_CHARGEBACK', outcome: 'WON' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['INFORMATION_SUPPLIED', 'Pending', 1],
      ['CHARGEBACK_REVERSED', 'Pending', 7],
      ['SECOND_CHARGEBACK', 'Pending', 7],
      ['PREARBITRATION_WON', 'Won', 14],
    ],
    chargedBack: 0,
  },
  {
    title: 'SECOND_CHARGEBACK with outcome LOST',
    body: { eventCode: 'SECOND_CHARGEBACK', outcome: 'LOST' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['INFORMATION_SUPPLIED', 'Pending', 1],
      ['CHARGEBACK_REVERSED', 'Pending', 7],
      ['SECOND_CHARGEBACK', 'Pending', 7],
      ['PREARBITRATION_LOST', 'Lost', 14],
    ],
    chargedBack: 1000,
  },
  {
    title: 'SCHEME_ARBITRATION with outcome WON',
    body: { eventCode: 'SCHEME_ARBITRATION', outcome: 'WON' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['INFORMATION_SUPPLIED', 'Pending', 1],
      ['CHARGEBACK_REVERSED', 'Pending', 7],
      ['SECOND_CHARGEBACK', 'Pending', 7],
      ['SCHEME_ARBITRATION', 'Pending', 14],
      ['SCHEME_ARBITRATION_WON', 'Won', 30],
    ],
    chargedBack: 0,
  },
  {
    title: 'SCHEME_ARBITRATION with outcome LOST',
    body: { eventCode: 'SCHEME_ARBITRATION', outcome: 'LOST' },
    events: [
      ['NOTIFICATION_OF_CHARGEBACK', 'Undefended', 0],
      ['CHARGEBACK', 'Undefended', 1],
      ['INFORMATION_SUPPLIED', 'Pending', 1],
      ['CHARGEBACK_REVERSED', 'Pending', 7],
      ['SECOND_CHARGEBACK', 'Pending', 7],
      ['SCHEME_ARBITRATION', 'Pending', 14],
      ['SCHEME_ARBITRATION_LOST', 'Lost', 30],
    ],
    chargedBack: 1000,
  },
];

const REASONS: Record<string, string> = { '10.4': 'Other Fraud-Card Absent Environment', '13.1': 'Merchandise/Services Not Received' };

describe('Dispute flows on demand', () => {
  test.each(FLOWS)(
    'When $title is triggered, then its events come in order on the sandbox clock with their statuses, and the money ends as the outcome says',
    async ({ body, events, chargedBack }) => {
      const psp = await capturedPayment();
      const reasonCode = body.reasonCode ?? '10.4';
      const { data, response } = await trigger(psp, body);
      expect(response.status).toBe(202);
      expect(data).toEqual({
        paymentPspReference: psp,
        merchantAccount,
        eventCode: events[0]![0],
        pspReference: expect.any(String),
        originalReference: psp,
        amount: eur(1000),
        success: 'true',
        reason: REASONS[reasonCode],
        disputeStatus: events[0]![1],
        status: 'queued',
      });
      expect(data!.pspReference).not.toBe(psp);

      // The first event is in the outbox at once; nothing else until the clock moves.
      expect((await disputeEvents(psp)).map((i) => i.eventCode)).toEqual([events[0]![0]]);
      const days = events.reduce((sum, [, , after]) => sum + after, 0);
      await advanceClock(server, (days + 1) * DAY);
      const items = await disputeEvents(psp);
      expect(items.map((i) => [i.eventCode, i.additionalData?.disputeStatus])).toEqual(events.map(([code, status]) => [code, status]));
      const dates = items.map((i) => Date.parse(String(i.eventDate)));
      expect(dates.map((d, n) => (n === 0 ? 0 : (d - dates[n - 1]!) / 1000 / DAY))).toEqual(events.map(([, , after], n) => (n === 0 ? 0 : after)));
      for (const item of items) {
        const codes =
          item.eventCode === 'REQUEST_FOR_INFORMATION'
            ? { rfiReasonCode: reasonCode, rfiSchemeCode: 'visa' }
            : { chargebackReasonCode: reasonCode, chargebackSchemeCode: 'visa' };
        expect(item).toMatchObject({
          pspReference: data!.pspReference,
          originalReference: psp,
          merchantAccountCode: merchantAccount,
          amount: eur(1000),
          success: 'true',
          paymentMethod: 'visa',
          reason: REASONS[reasonCode],
          additionalData: expect.objectContaining({ ...codes, modificationMerchantReferences: '' }),
        });
        const defending = ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK'].includes(item.eventCode);
        expect(item.additionalData?.defensePeriodEndsAt !== undefined).toBe(defending);
      }
      expect(await storedPayment(server, psp)).toMatchObject({ capturedValue: 1000, refundedValue: 0, chargedBackValue: chargedBack });
      // A flow ends: nothing more comes, however long the clock runs.
      await advanceClock(server, 10 * DAY);
      expect(await disputeEvents(psp)).toHaveLength(events.length);
      expectAdyenShaped();
    },
  );

  test('When a chargeback flow meets a refund before its chargeback, then the chargeback takes only what is left, and a won stage gives that back', async () => {
    const psp = await capturedPayment();
    expect((await trigger(psp, { eventCode: 'SECOND_CHARGEBACK', outcome: 'WON' })).response.status).toBe(202);
    expect((await refund(server, psp, 400)).response.status).toBe(201);
    await advanceClock(server, DAY);
    expect(await storedPayment(server, psp)).toMatchObject({ refundedValue: 400, chargedBackValue: 600 });
    await advanceClock(server, 15 * DAY);
    // Reversed, then charged back again: 600 taken.
    expect(await storedPayment(server, psp)).toMatchObject({ chargedBackValue: 600 });
    await advanceClock(server, 14 * DAY);
    const items = await disputeEvents(psp);
    expect(items.map((i) => [i.eventCode, i.amount.value])).toEqual([
      ['NOTIFICATION_OF_CHARGEBACK', 1000],
      ['CHARGEBACK', 600],
      ['INFORMATION_SUPPLIED', 600],
      ['CHARGEBACK_REVERSED', 600],
      ['SECOND_CHARGEBACK', 600],
      ['PREARBITRATION_WON', 600],
    ]);
    expect(await storedPayment(server, psp)).toMatchObject({ capturedValue: 1000, refundedValue: 400, chargedBackValue: 0 });
    expectAdyenShaped();
  });

  test('When NOTIFICATION_OF_FRAUD is triggered, then that one event is sent with the fraud reason code and no dispute status, and nothing changes', async () => {
    const psp = await capturedPayment();
    const before = await storedPayment(server, psp);
    const { data, response } = await trigger(psp, { eventCode: 'NOTIFICATION_OF_FRAUD', reasonCode: '10.4' });
    expect(response.status).toBe(202);
    expect(data).toMatchObject({ eventCode: 'NOTIFICATION_OF_FRAUD', originalReference: psp, amount: eur(1000), success: 'true' });
    expect(data).not.toHaveProperty('disputeStatus');
    await advanceClock(server, 10 * DAY);
    const items = await disputeEvents(psp);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      eventCode: 'NOTIFICATION_OF_FRAUD',
      pspReference: data!.pspReference,
      reason: REASONS['10.4'],
      additionalData: expect.objectContaining({ nofReasonCode: '10.4', nofSchemeCode: 'visa' }),
    });
    expect(items[0]!.additionalData).not.toHaveProperty('disputeStatus');
    expect({ ...(await storedPayment(server, psp)), updatedAt: before!.updatedAt }).toEqual(before);
    expect(await server.store.read((tx) => tx.disputes.ofPayment(psp))).toBeUndefined();
    // A fraud notification is not a dispute: a chargeback may follow it.
    expect((await trigger(psp, { eventCode: 'CHARGEBACK' })).response.status).toBe(202);
    expectAdyenShaped();
  });
});

describe('Dispute flows that do not fit the payment', () => {
  /** Everything a refused flow must leave alone: the payment's row, its dispute and the outbox. */
  const stateOf = async (psp: string) =>
    server.store.read(async (tx) => ({
      payment: await tx.payments.get(psp),
      dispute: await tx.disputes.ofPayment(psp),
      events: (await tx.outbox.listEvents(merchantAccount, 0, 100_000)).length,
    }));

  const refusals: Array<[string, () => Promise<string>, EventBody, string]> = [
    ['an authorised payment with nothing captured', () => authorisedPayment(server), { eventCode: 'CHARGEBACK' }, 'nothing of it is captured'],
    [
      'a payment refunded in full',
      async () => {
        const psp = await capturedPayment();
        await refund(server, psp, 1000);
        return psp;
      },
      { eventCode: 'REQUEST_FOR_INFORMATION' },
      'nothing of it is left to dispute',
    ],
    [
      'a payment disputed already by a flow',
      async () => {
        const psp = await capturedPayment();
        await trigger(psp, { eventCode: 'CHARGEBACK' });
        return psp;
      },
      { eventCode: 'SCHEME_ARBITRATION', outcome: 'WON' },
      'it is disputed already',
    ],
    [
      'a payment disputed already by its holder name',
      async () => {
        const psp = await authorisedPayment(server, {
          paymentMethod: { ...(buildPaymentRequest().paymentMethod as Record<string, string>), holderName: 'Chargeback' } as never,
        });
        await capture(server, psp, 1000);
        return psp;
      },
      { eventCode: 'PREARBITRATION_OPEN' },
      'it is disputed already',
    ],
    [
      'a payment whose flow is asked with an outcome for a fraud notification',
      capturedPayment,
      { eventCode: 'NOTIFICATION_OF_FRAUD', outcome: 'WON' },
      'no outcome',
    ],
    ['an event that is not a dispute flow, with an outcome', capturedPayment, { eventCode: 'EXPIRE', outcome: 'LOST' }, 'only dispute flows take an outcome'],
    ['a dispute flow with a failure amount', capturedPayment, { eventCode: 'CHARGEBACK', amount: eur(100) }, 'take an amount'],
  ];

  test.each(refusals)('When a dispute flow is asked for %s, then it answers 422 and changes nothing', async (_what, arrange, body, why) => {
    const psp = await arrange();
    await server.dispatcher.drain();
    const before = await stateOf(psp);
    const { error, response } = await trigger(psp, body);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ errorCode: ERR_SANDBOX_EVENT_NOT_APPLICABLE.code, message: expect.stringContaining(why) });
    expect(error!.message).toContain(psp);
    await server.dispatcher.drain();
    expect(await stateOf(psp)).toEqual(before);
  });

  test('When two dispute flows are asked for one payment at once, then one is started and the other answers 422', async () => {
    const psp = await capturedPayment();
    const answers = await Promise.all([trigger(psp, { eventCode: 'CHARGEBACK' }), trigger(psp, { eventCode: 'REQUEST_FOR_INFORMATION' })]);
    expect(answers.map((a) => a.response.status).sort()).toEqual([202, 422]);
  });
});

/** The spec's codes that are no dispute stage: payments, modifications, payouts, reviews, reports, direct debits. */
const NOT_DISPUTES = new Set([
  'ACH_NOTIFICATION_OF_CHANGE',
  'AUTHENTICATION',
  'AUTHORISATION',
  'AUTHORISATION_ADJUSTMENT',
  'AUTORESCUE',
  'CANCELLATION',
  'CANCEL_AUTORESCUE',
  'CANCEL_OR_REFUND',
  'CAPTURE',
  'CAPTURE_FAILED',
  'DIRECT_DEBIT_NOTICE_OF_CHANGE_NOTIFICATION',
  'DONATION',
  'EXPIRE',
  'HANDLED_EXTERNALLY',
  'MANUAL_REVIEW_ACCEPT',
  'MANUAL_REVIEW_REJECT',
  'OFFER_CLOSED',
  'ORDER_CLOSED',
  'ORDER_OPENED',
  'PAIDOUT_REVERSED',
  'PAYOUT_DECLINE',
  'PAYOUT_EXPIRE',
  'PAYOUT_THIRDPARTY',
  'PENDING',
  'POSTPONED_REFUND',
  'PROCESS_RETRY',
  'RECURRING_CONTRACT',
  'REFUND',
  'REFUNDED_REVERSED',
  'REFUND_FAILED',
  'REFUND_WITH_DATA',
  'REPORT_AVAILABLE',
  'TECHNICAL_CANCEL',
  'VOID_PENDING_REFUND',
]);

// Jest runs this file's tests in random order, so coverage is read from what the tests assert (each
// flow test expects exactly its events, the fraud test its one), not from what happened to run first.
test("When the dispute tests are listed, then every dispute code of the spec's eventCode enum is one a test expects to be sent (a new dispute code in the spec fails here)", () => {
  const schema = (bundled as { components: { schemas: Record<string, { properties: { eventCode: { enum: string[] } } }> } }).components.schemas;
  const spec = schema.NotificationRequestItem!.properties.eventCode.enum;
  const disputeCodes = spec.filter((code) => !NOT_DISPUTES.has(code));
  expect(disputeCodes.length).toBeGreaterThanOrEqual(19);
  const expected = new Set([...FLOWS.flatMap((flow) => flow.events.map(([code]) => code)), 'NOTIFICATION_OF_FRAUD']);
  expect(disputeCodes.filter((code) => !expected.has(code))).toEqual([]);
});
