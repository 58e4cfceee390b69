import type { Clock } from '../../kernel/clock.js';
import { recordEvent } from '../../kernel/events/outbox.js';
import type { Dispute, Payment } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';
import { openAmount } from '../../kernel/open-amount.js';
import { newPspReference } from '../references.js';

/**
 * Disputes as Adyen's test platform simulates them ("Test a chargeback scenario",
 * https://docs.adyen.com/risk-management/disputes-api/test-applicable-dispute-reasons): a card
 * payment whose `holderName` names a scenario is disputed once it is captured. Its events follow
 * on the company's sandbox clock, sent by the dispatcher's rounds through the outbox, each with the
 * dispute's own pspReference and the payment's as `originalReference` (as Adyen's dispute webhooks
 * carry them, https://docs.adyen.com/risk-management/disputes-api/dispute-notifications).
 *
 * Adyen's other dispute stages have no test scenario: the sandbox's trigger starts them as flows
 * (startDisputeFlow, notifyFraud; sandbox/events.domain.ts), each a scenario of the same table, so
 * their events, fields and money follow the same rules.
 *
 * Adyen gives no timing for the simulated events; the sandbox's choice (docs/sandbox-test-data.md):
 * the notification of chargeback at once, the chargeback a day later, a defense period of 20 days
 * from the notification, a reversal a week after the chargeback, a second chargeback a week after that;
 * the flows' other stages as SCENARIO_STEPS lists them. Where Adyen lists several statuses for an
 * event, the step names the one the sandbox reports.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long after the notification of chargeback the defense period ends (sandbox choice). */
export const DEFENSE_PERIOD_DAYS = 20;

/** The holder-name scenarios and the flows started on demand (sandbox/events.domain.ts). */
export type DisputeScenario =
  | 'chargeback'
  | 'chargebackReversed'
  | 'secondChargeback'
  | 'requestForInformationWon'
  | 'requestForInformationLost'
  | 'chargebackWon'
  | 'issuerPrearbitrationWon'
  | 'issuerPrearbitrationLost'
  | 'merchantPrearbitrationWon'
  | 'merchantPrearbitrationLost'
  | 'schemeArbitrationWon'
  | 'schemeArbitrationLost';

export type DisputeEventCode =
  | 'NOTIFICATION_OF_FRAUD'
  | 'REQUEST_FOR_INFORMATION'
  | 'NOTIFICATION_OF_CHARGEBACK'
  | 'CHARGEBACK'
  | 'INFORMATION_SUPPLIED'
  | 'ISSUER_RESPONSE_TIMEFRAME_EXPIRED'
  | 'CHARGEBACK_REVERSED'
  | 'ISSUER_COMMENTS'
  | 'SECOND_CHARGEBACK'
  | 'DISPUTE_DEFENSE_PERIOD_ENDED'
  | 'PREARBITRATION_OPEN'
  | 'PREARBITRATION_ACCEPTED'
  | 'PREARBITRATION_DECLINED'
  | 'PREARBITRATION_ISSUER_WITHDRAWN'
  | 'PREARBITRATION_WON'
  | 'PREARBITRATION_LOST'
  | 'SCHEME_ARBITRATION'
  | 'SCHEME_ARBITRATION_WON'
  | 'SCHEME_ARBITRATION_LOST';

/**
 * What a step does to the money: `notify` fixes the disputed amount (what is open), `take` charges
 * it back (at most what is still open), `giveBack` returns what the dispute took, `none` nothing.
 */
type Effect = 'notify' | 'take' | 'giveBack' | 'none';

interface Step {
  eventCode: DisputeEventCode;
  /** When it falls due, counted from the previous step's due time. */
  afterMs: number;
  /** `additionalData.disputeStatus` (Adyen's values, https://docs.adyen.com/risk-management/disputes-api/dispute-notifications). */
  status: string;
  effect: Effect;
}

const step = (eventCode: DisputeEventCode, afterDays: number, status: string, effect: Effect = 'none'): Step => ({
  eventCode,
  afterMs: afterDays * DAY_MS,
  status,
  effect,
});

const NOTIFIED = step('NOTIFICATION_OF_CHARGEBACK', 0, 'Undefended', 'notify');
const CHARGED_BACK = step('CHARGEBACK', 1, 'Undefended', 'take');
/** Nobody defends: the defense period (counted from the notification) ends, and the dispute is lost. */
const UNDEFENDED_END = step('DISPUTE_DEFENSE_PERIOD_ENDED', DEFENSE_PERIOD_DAYS - 1, 'Lost');
/** The sandbox defends the chargeback a day after it, and the issuer reverses it a week later. */
const DEFENDED = step('INFORMATION_SUPPLIED', 1, 'Pending');
const REVERSED_PENDING = step('CHARGEBACK_REVERSED', 7, 'Pending', 'giveBack');
/** The issuer does not take the reversal: a second chargeback, against which the merchant files a pre-arbitration case. */
const SECOND_CHARGED_BACK = step('SECOND_CHARGEBACK', 7, 'Pending', 'take');

/** Each scenario's events, in Adyen's order (https://docs.adyen.com/risk-management/understanding-disputes/dispute-process-and-flow). */
export const SCENARIO_STEPS: Record<DisputeScenario, readonly Step[]> = {
  chargeback: [NOTIFIED, CHARGED_BACK, UNDEFENDED_END],
  chargebackReversed: [NOTIFIED, CHARGED_BACK, step('CHARGEBACK_REVERSED', 7, 'Pending', 'giveBack')],
  secondChargeback: [NOTIFIED, CHARGED_BACK, REVERSED_PENDING, step('SECOND_CHARGEBACK', 7, 'Lost', 'take')],
  // The issuer asks for information; answered, nothing follows; unanswered, a chargeback follows.
  requestForInformationWon: [step('REQUEST_FOR_INFORMATION', 0, 'Unresponded', 'notify'), step('INFORMATION_SUPPLIED', 1, 'Responded')],
  requestForInformationLost: [
    step('REQUEST_FOR_INFORMATION', 0, 'Unresponded', 'notify'),
    step('NOTIFICATION_OF_CHARGEBACK', 10, 'Undefended', 'notify'),
    CHARGED_BACK,
    UNDEFENDED_END,
  ],
  // Defended, the issuer lets its response time pass: won, the chargeback is reversed.
  chargebackWon: [NOTIFIED, CHARGED_BACK, DEFENDED, step('ISSUER_RESPONSE_TIMEFRAME_EXPIRED', 7, 'Won'), step('CHARGEBACK_REVERSED', 0, 'Won', 'giveBack')],
  // After a reversal the issuer comments on the defense and opens a pre-arbitration case.
  issuerPrearbitrationWon: [
    NOTIFIED,
    CHARGED_BACK,
    DEFENDED,
    REVERSED_PENDING,
    step('ISSUER_COMMENTS', 7, 'Pending'),
    step('PREARBITRATION_OPEN', 1, 'Pending'),
    step('PREARBITRATION_DECLINED', 1, 'Pending'),
    step('PREARBITRATION_ISSUER_WITHDRAWN', 7, 'Won'),
  ],
  issuerPrearbitrationLost: [
    NOTIFIED,
    CHARGED_BACK,
    DEFENDED,
    REVERSED_PENDING,
    step('ISSUER_COMMENTS', 7, 'Pending'),
    step('PREARBITRATION_OPEN', 1, 'Pending'),
    step('PREARBITRATION_ACCEPTED', 1, 'Lost', 'take'),
  ],
  merchantPrearbitrationWon: [NOTIFIED, CHARGED_BACK, DEFENDED, REVERSED_PENDING, SECOND_CHARGED_BACK, step('PREARBITRATION_WON', 14, 'Won', 'giveBack')],
  merchantPrearbitrationLost: [NOTIFIED, CHARGED_BACK, DEFENDED, REVERSED_PENDING, SECOND_CHARGED_BACK, step('PREARBITRATION_LOST', 14, 'Lost')],
  // The issuer escalates the merchant's pre-arbitration case to the scheme, which rules.
  schemeArbitrationWon: [
    NOTIFIED,
    CHARGED_BACK,
    DEFENDED,
    REVERSED_PENDING,
    SECOND_CHARGED_BACK,
    step('SCHEME_ARBITRATION', 14, 'Pending'),
    step('SCHEME_ARBITRATION_WON', 30, 'Won', 'giveBack'),
  ],
  schemeArbitrationLost: [
    NOTIFIED,
    CHARGED_BACK,
    DEFENDED,
    REVERSED_PENDING,
    SECOND_CHARGED_BACK,
    step('SCHEME_ARBITRATION', 14, 'Pending'),
    step('SCHEME_ARBITRATION_LOST', 30, 'Lost'),
  ],
};

/** The reason code a scenario without one reports: the brand's card-absent fraud code (sandbox choice). */
const DEFAULT_REASON_CODES: Record<string, string> = { visa: '10.4', mc: '4837', amex: 'F29', discover: 'UA02' };

/** The reason texts of the reason codes the sandbox names; another code is reported as its own reason. */
const REASONS: Record<string, string> = {
  '10.4': 'Other Fraud-Card Absent Environment',
  '10.5': 'Visa Fraud Monitoring Program',
  '11.3': 'No Authorization',
  '12.6': 'Duplicate Processing or Paid by Other Means',
  '13.1': 'Merchandise/Services Not Received',
  '13.2': 'Cancelled Recurring',
  '13.3': 'Not as Described or Defective Merchandise/Services',
  '13.6': 'Credit Not Processed',
  '13.7': 'Cancelled Merchandise/Services',
  '4837': 'No Cardholder Authorization',
  '4853': 'Cardholder Dispute',
  '4863': 'Cardholder Does Not Recognize - Potential Fraud',
  F29: 'Card Not Present',
  UA02: 'Fraud - Card Not Present Transaction',
};

/** The holder names of Adyen's test scenarios (case and spacing ignored). */
export function scenarioOf(holderName: string | null): { scenario: DisputeScenario; reasonCode?: string } | undefined {
  const written = holderName?.trim() ?? '';
  const name = written.replace(/\s+/g, ' ').toLowerCase();
  if (name === 'chargeback') return { scenario: 'chargeback' };
  if (name === 'chargeback reversed') return { scenario: 'chargebackReversed' };
  if (name === 'second chargeback') return { scenario: 'secondChargeback' };
  // The code as the holder name wrote it (reason codes such as `F29` have letters).
  if (/^chargeback ?: ?\S+$/.test(name)) return { scenario: 'chargeback', reasonCode: written.slice(written.indexOf(':') + 1).trim() };
  return undefined;
}

/**
 * Opens the dispute a captured card payment's holder name asks for, its first event due at once
 * on the company's clock (the dispatcher's next round sends it). Called by the one writer of
 * modifications for every successful capture, manual or automatic; a payment is disputed once.
 */
export async function openTestDispute(tx: Tx, now: Date, payment: Payment): Promise<void> {
  const asked = payment.cardBrand ? scenarioOf(payment.holderName) : undefined;
  if (!asked) return;
  await tx.disputes.insert(newDispute(payment, asked, now));
}

/** A dispute of the payment about to start: nothing taken yet, its first step due at `now`. */
function newDispute(payment: Payment, asked: { scenario: DisputeScenario; reasonCode?: string | undefined }, now: Date): Dispute {
  const at = now.toISOString();
  return {
    pspReference: newPspReference(),
    paymentPspReference: payment.pspReference,
    companyId: payment.companyId,
    merchantAccount: payment.merchantAccount,
    scenario: asked.scenario,
    reasonCode: asked.reasonCode ?? DEFAULT_REASON_CODES[payment.cardBrand ?? ''] ?? '10.4',
    currency: payment.currency,
    value: 0,
    step: 0,
    dueAt: at,
    defensePeriodEndsAt: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The dispatcher's due work for disputes: sends the events that fell due on each company's clock.
 * Looked up on the read connection first (an idle round takes no write transaction), then each
 * dispute and its payment are read again locked, so two instances never send one step twice and a
 * refund waits for a chargeback it must see.
 */
export async function sendDueDisputeEvents(store: Store, clock: Clock): Promise<void> {
  const horizon = clock.latest().toISOString();
  const isDue = (d: Dispute) => d.dueAt !== null && d.dueAt <= clock.now(d.companyId).toISOString();
  if (!(await store.read((tx) => tx.disputes.due(horizon, 100))).some(isDue)) return;
  await store.transaction(async (tx) => {
    for (const due of (await tx.disputes.due(horizon, 100)).filter(isDue)) {
      const dispute = await tx.disputes.getForUpdate(due.pspReference);
      if (!dispute || !isDue(dispute)) continue;
      const payment = await tx.payments.getForUpdate(dispute.paymentPspReference);
      if (payment) await sendDueSteps(tx, clock.now(dispute.companyId), dispute, payment);
    }
  });
}

/** Sends every step of the dispute due by `now`, in order, each dated when it fell due. */
async function sendDueSteps(tx: Tx, now: Date, before: Dispute, paymentBefore: Payment): Promise<void> {
  const steps = SCENARIO_STEPS[before.scenario as DisputeScenario] ?? [];
  let dispute = before;
  let payment = paymentBefore;
  while (dispute.dueAt !== null && Date.parse(dispute.dueAt) <= now.getTime()) {
    const at = new Date(dispute.dueAt);
    const step = steps[dispute.step];
    if (!step) {
      dispute = { ...dispute, dueAt: null };
      break;
    }
    const moved = applyStep(step, dispute, payment, at);
    if (moved === undefined) {
      // Nothing left to dispute (refunded in full before the notification): the dispute ends unsent.
      dispute = { ...dispute, step: steps.length, dueAt: null };
      break;
    }
    ({ dispute, payment } = moved);
    await reportStep(tx, at, step, dispute, payment);
    const next = steps[dispute.step];
    dispute = { ...dispute, dueAt: next ? new Date(at.getTime() + next.afterMs).toISOString() : null };
  }
  await tx.disputes.update({ ...dispute, updatedAt: now.toISOString() });
  if (payment !== paymentBefore) await tx.payments.update({ ...payment, updatedAt: now.toISOString() }, paymentBefore);
}

/**
 * What an event does to the money: a notification fixes the disputed amount (what is open), a
 * chargeback takes it (at most what is still open), a reversal or a won stage gives it back.
 * Undefined when the notification finds nothing to dispute.
 */
function applyStep(step: Step, dispute: Dispute, payment: Payment, at: Date): { dispute: Dispute; payment: Payment } | undefined {
  const next = { ...dispute, step: dispute.step + 1 };
  switch (step.effect) {
    case 'notify': {
      const open = openAmount(payment);
      if (open <= 0) return undefined;
      const defensePeriodEndsAt =
        step.eventCode === 'NOTIFICATION_OF_CHARGEBACK' ? new Date(at.getTime() + DEFENSE_PERIOD_DAYS * DAY_MS).toISOString() : dispute.defensePeriodEndsAt;
      return { dispute: { ...next, value: open, defensePeriodEndsAt }, payment };
    }
    case 'take': {
      const taken = Math.min(dispute.value, openAmount(payment));
      return { dispute: { ...next, value: taken }, payment: { ...payment, chargedBackValue: payment.chargedBackValue + taken } };
    }
    case 'giveBack':
      return { dispute: next, payment: { ...payment, chargedBackValue: payment.chargedBackValue - dispute.value } };
    case 'none':
      return { dispute: next, payment };
  }
}

/** Adyen's date-time with offset for `defensePeriodEndsAt` (YYYY-MM-DDThh:mm:ss+TZD). */
const withOffset = (iso: string): string => `${iso.slice(0, 19)}+00:00`;

/** The reason text of a reason code: the sandbox's table, else the code itself. */
export const reasonOf = (reasonCode: string): string => REASONS[reasonCode] ?? reasonCode;

/**
 * The reason and scheme codes of an event: a request for information names them as `rfi…`, a
 * notification of fraud as `nof…`, every chargeback stage as `chargeback…` (Adyen's
 * DisputesNotificationAdditionalData fields).
 */
function codesOf(code: DisputeEventCode, reasonCode: string, scheme: string): Record<string, string> {
  if (code === 'REQUEST_FOR_INFORMATION') return { rfiReasonCode: reasonCode, rfiSchemeCode: scheme };
  if (code === 'NOTIFICATION_OF_FRAUD') return { nofReasonCode: reasonCode, nofSchemeCode: scheme };
  return { chargebackReasonCode: reasonCode, chargebackSchemeCode: scheme };
}

/** One dispute event, in the shape Adyen's dispute webhooks have. */
async function reportStep(tx: Tx, at: Date, step: Step, dispute: Dispute, payment: Payment): Promise<void> {
  const code = step.eventCode;
  const defending = code === 'NOTIFICATION_OF_CHARGEBACK' || code === 'CHARGEBACK';
  await recordEvent(tx, at, {
    companyId: dispute.companyId,
    merchantAccount: dispute.merchantAccount,
    eventCode: code,
    pspReference: dispute.pspReference,
    originalReference: dispute.paymentPspReference,
    merchantReference: payment.reference,
    currency: dispute.currency,
    value: dispute.value,
    success: true,
    reason: reasonOf(dispute.reasonCode),
    paymentMethod: payment.cardBrand,
    additionalData: {
      ...codesOf(code, dispute.reasonCode, payment.cardBrand),
      modificationMerchantReferences: '',
      disputeStatus: step.status,
      ...(defending && dispute.defensePeriodEndsAt && { defensePeriodEndsAt: withOffset(dispute.defensePeriodEndsAt), defendable: 'true' }),
    },
  });
}

/** The flows the sandbox starts on demand, by the code that names them and the outcome asked for. */
export type DisputeFlow = 'REQUEST_FOR_INFORMATION' | 'CHARGEBACK' | 'PREARBITRATION_OPEN' | 'SECOND_CHARGEBACK' | 'SCHEME_ARBITRATION';
export type DisputeOutcome = 'WON' | 'LOST';

export const FLOW_SCENARIOS: Record<DisputeFlow, Record<DisputeOutcome, DisputeScenario>> = {
  REQUEST_FOR_INFORMATION: { WON: 'requestForInformationWon', LOST: 'requestForInformationLost' },
  CHARGEBACK: { WON: 'chargebackWon', LOST: 'chargeback' },
  PREARBITRATION_OPEN: { WON: 'issuerPrearbitrationWon', LOST: 'issuerPrearbitrationLost' },
  SECOND_CHARGEBACK: { WON: 'merchantPrearbitrationWon', LOST: 'merchantPrearbitrationLost' },
  SCHEME_ARBITRATION: { WON: 'schemeArbitrationWon', LOST: 'schemeArbitrationLost' },
};

/** Why a payment cannot be disputed now, or undefined when it can (the caller holds the payment's row locked). */
export async function whyNotDisputable(tx: Tx, payment: Payment, opensDispute: boolean): Promise<string | undefined> {
  if (!payment.cardBrand) return 'it is not a card payment';
  if (payment.capturedValue <= 0) return 'nothing of it is captured';
  if (openAmount(payment) <= 0) return 'nothing of it is left to dispute (refunded or charged back)';
  if (opensDispute) {
    const open = await tx.disputes.ofPaymentForUpdate(payment.pspReference);
    if (open) return `it is disputed already (dispute ${open.pspReference})`;
  }
  return undefined;
}

/**
 * Starts a dispute flow on demand: the dispute is opened and its first event sent now, in the
 * caller's transaction, the rest on the company's clock. The caller checked whyNotDisputable
 * with the payment's row locked. Returns the dispute with its first event sent, or undefined
 * when the payment has a dispute already.
 */
export async function startDisputeFlow(
  tx: Tx,
  now: Date,
  payment: Payment,
  flow: { scenario: DisputeScenario; reasonCode?: string },
): Promise<{ dispute: Dispute; eventCode: DisputeEventCode; status: string } | undefined> {
  const opened = newDispute(payment, flow, now);
  // Undefined when the payment was disputed meanwhile (its one dispute is unique by payment).
  if (!(await tx.disputes.insert(opened))) return undefined;
  await sendDueSteps(tx, now, opened, payment);
  const first = SCENARIO_STEPS[flow.scenario][0]!;
  const sent = await tx.disputes.getForUpdate(opened.pspReference);
  return { dispute: sent!, eventCode: first.eventCode, status: first.status };
}

/**
 * NOTIFICATION_OF_FRAUD: the scheme's fraud report (Visa TC40, Mastercard SAFE). Not a dispute
 * (https://docs.adyen.com/risk-management/understanding-disputes/dispute-process-and-flow): no
 * money moves, no dispute is opened, and Adyen gives it no dispute status. Sent now, with its own
 * pspReference and the payment's as `originalReference`; the amount is the payment's open amount.
 */
export async function notifyFraud(
  tx: Tx,
  now: Date,
  payment: Payment,
  reasonCode?: string,
): Promise<{ pspReference: string; value: number; reasonCode: string }> {
  const code = reasonCode ?? DEFAULT_REASON_CODES[payment.cardBrand] ?? '10.4';
  const pspReference = newPspReference();
  const value = openAmount(payment);
  await recordEvent(tx, now, {
    companyId: payment.companyId,
    merchantAccount: payment.merchantAccount,
    eventCode: 'NOTIFICATION_OF_FRAUD',
    pspReference,
    originalReference: payment.pspReference,
    merchantReference: payment.reference,
    currency: payment.currency,
    value,
    success: true,
    reason: reasonOf(code),
    paymentMethod: payment.cardBrand,
    additionalData: { ...codesOf('NOTIFICATION_OF_FRAUD', code, payment.cardBrand), modificationMerchantReferences: '' },
  });
  return { pspReference, value, reasonCode: code };
}
