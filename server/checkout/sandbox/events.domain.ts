import { reaches } from '../../kernel/auth/credentials.js';
import { recordEvent } from '../../kernel/events/outbox.js';
import { ApiError, ERR_AMOUNT_INVALID, ERR_CURRENCY_MISMATCH, ERR_PAYMENT_NOT_FOUND, ERR_SANDBOX_EVENT_NOT_APPLICABLE } from '../../kernel/errors.js';
import type { Credential, Modification, Payment } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { openAmount } from '../../kernel/open-amount.js';
import type { Money } from '../money.js';
import { closeOffer, conclude, reportedMethod, settleDueCapture } from '../payments/authorisation.js';
import { failModification, FAILURE_EVENT, type FailableKind } from '../modifications/failure.js';
import { newPspReference } from '../references.js';
import {
  FLOW_SCENARIOS,
  notifyFraud,
  reasonOf as reasonOfCode,
  startDisputeFlow,
  whyNotDisputable,
  type DisputeFlow,
  type DisputeOutcome,
} from '../disputes/disputes.domain.js';

/**
 * The sandbox's events on demand: what Adyen's platform sends on its own time (a capture the
 * scheme rejects, an offer that closes, an authorisation that expires, a report) and its test
 * platform cannot be asked for. Each event is queued through the outbox with the change that goes
 * with it, in the request's transaction; one that does not fit the payment's state changes nothing.
 * Every row the decision reads (the payment, the modification to fail, the payment's dispute) is
 * read locked. The dispute codes start the disputes module's flows (disputes.domain.ts).
 */

/** The dispute flows the trigger starts (disputes.domain.ts), and the fraud notification it sends. */
const DISPUTE_CODES = new Set<string>(['NOTIFICATION_OF_FRAUD', ...Object.keys(FLOW_SCENARIOS)]);

/** The event codes the trigger takes (the spec's enum). */
export type SandboxEventCode = 'CAPTURE_FAILED' | 'REFUND_FAILED' | 'OFFER_CLOSED' | 'EXPIRE' | 'REPORT_AVAILABLE' | 'NOTIFICATION_OF_FRAUD' | DisputeFlow;

export interface SandboxEventInput {
  eventCode: SandboxEventCode;
  modificationPspReference?: string;
  amount?: Money;
  reason?: string;
  /** Dispute flows: how the flow ends (default LOST: nobody defends in the sandbox). */
  outcome?: DisputeOutcome;
  /** Dispute flows and NOTIFICATION_OF_FRAUD: the scheme's reason code (default: the brand's card-absent fraud code). */
  reasonCode?: string;
}

export interface SandboxEventContext {
  tx: Tx;
  now: Date;
  credential: Credential;
  /** This server's external base address, for the report's download address. */
  baseUrl: string;
}

/** What was queued: the event as its receivers get it, less its date and signature. */
export interface QueuedEvent {
  paymentPspReference: string;
  merchantAccount: string;
  eventCode: string;
  pspReference: string;
  originalReference?: string;
  amount: Money;
  success: 'true' | 'false';
  reason?: string;
  /** Dispute flows: the first event's `additionalData.disputeStatus`. */
  disputeStatus?: string;
  status: 'queued';
}

export const DEFAULT_FAILURE_REASON = 'Rejected by the card scheme (sandbox trigger)';

const notApplicable = (code: SandboxEventCode, payment: Payment, why: string) =>
  new ApiError(ERR_SANDBOX_EVENT_NOT_APPLICABLE, { message: `${code} does not fit payment ${payment.pspReference}: ${why}` });

/** The payment, locked; one of another company, or of a merchant account the credential does not reach, is unknown. */
async function paymentOf(ctx: SandboxEventContext, pspReference: string): Promise<Payment> {
  const payment = await ctx.tx.payments.getForUpdate(pspReference);
  const merchant = payment && (await ctx.tx.merchants.get(payment.merchantAccount));
  if (!payment || !merchant || !reaches(ctx.credential, merchant)) {
    throw new ApiError(ERR_PAYMENT_NOT_FOUND, { message: `Payment ${pspReference} not found` });
  }
  // An automatic capture that fell due is applied first, as every change to a payment does.
  return settleDueCapture(ctx.tx, ctx.now, payment);
}

/** The answer's common fields. */
const queued = (payment: Payment, eventCode: string, rest: Omit<QueuedEvent, 'paymentPspReference' | 'merchantAccount' | 'eventCode' | 'status'>) => ({
  paymentPspReference: payment.pspReference,
  merchantAccount: payment.merchantAccount,
  eventCode,
  ...rest,
  status: 'queued' as const,
});

/** POST /sandbox/payments/{paymentPspReference}/events: sends the event for the payment, with its change. */
export async function triggerEvent(ctx: SandboxEventContext, pspReference: string, input: SandboxEventInput): Promise<QueuedEvent> {
  const payment = await paymentOf(ctx, pspReference);
  if (!DISPUTE_CODES.has(input.eventCode)) {
    if (input.outcome) throw notApplicable(input.eventCode, payment, 'only dispute flows take an outcome');
    if (input.reasonCode) throw notApplicable(input.eventCode, payment, 'only dispute flows and NOTIFICATION_OF_FRAUD take a reasonCode');
  } else if (input.eventCode === 'NOTIFICATION_OF_FRAUD' && input.outcome) {
    throw notApplicable(input.eventCode, payment, 'a notification of fraud has no outcome');
  }
  if (input.eventCode !== 'CAPTURE_FAILED' && input.eventCode !== 'REFUND_FAILED') {
    if (input.amount) throw notApplicable(input.eventCode, payment, 'only CAPTURE_FAILED and REFUND_FAILED take an amount');
    if (input.reason) throw notApplicable(input.eventCode, payment, 'only CAPTURE_FAILED and REFUND_FAILED take a reason');
    if (input.modificationPspReference) throw notApplicable(input.eventCode, payment, 'only CAPTURE_FAILED and REFUND_FAILED name a modification');
  }
  switch (input.eventCode) {
    case 'CAPTURE_FAILED':
      return failLatest(ctx, payment, 'capture', input);
    case 'REFUND_FAILED':
      return failLatest(ctx, payment, 'refund', input);
    case 'OFFER_CLOSED':
      return closeWaitingOffer(ctx, payment);
    case 'EXPIRE':
      return expireRemainder(ctx, payment);
    case 'REPORT_AVAILABLE':
      return reportAvailable(ctx, payment);
    case 'NOTIFICATION_OF_FRAUD':
      return fraudNotification(ctx, payment, input);
    default:
      return startFlow(ctx, payment, input.eventCode, input);
  }
}

/** NOTIFICATION_OF_FRAUD: the scheme's fraud report for a captured card payment; nothing changes. */
async function fraudNotification(ctx: SandboxEventContext, payment: Payment, input: SandboxEventInput): Promise<QueuedEvent> {
  const why = await whyNotDisputable(ctx.tx, payment, false);
  if (why) throw notApplicable('NOTIFICATION_OF_FRAUD', payment, why);
  const sent = await notifyFraud(ctx.tx, ctx.now, payment, input.reasonCode);
  return queued(payment, 'NOTIFICATION_OF_FRAUD', {
    pspReference: sent.pspReference,
    originalReference: payment.pspReference,
    amount: { currency: payment.currency, value: sent.value },
    success: 'true',
    reason: reasonOfCode(sent.reasonCode),
  });
}

/**
 * A dispute flow: opens a dispute of a captured card payment that has something left to dispute
 * and no dispute yet, sends its first event now and the rest on the company's clock.
 */
async function startFlow(ctx: SandboxEventContext, payment: Payment, flow: DisputeFlow, input: SandboxEventInput): Promise<QueuedEvent> {
  const why = await whyNotDisputable(ctx.tx, payment, true);
  if (why) throw notApplicable(flow, payment, why);
  const scenario = FLOW_SCENARIOS[flow][input.outcome ?? 'LOST'];
  const started = await startDisputeFlow(ctx.tx, ctx.now, payment, {
    scenario,
    ...(input.reasonCode && { reasonCode: input.reasonCode }),
  });
  if (!started) throw notApplicable(flow, payment, 'it is disputed already');
  const { dispute, eventCode, status } = started;
  return queued(payment, eventCode, {
    pspReference: dispute.pspReference,
    originalReference: payment.pspReference,
    amount: { currency: dispute.currency, value: dispute.value },
    success: 'true',
    reason: reasonOfCode(dispute.reasonCode),
    disputeStatus: status,
  });
}

/** The capture or refund to fail: the one named (of this payment, of that kind), else the latest not failed. */
async function modificationToFail(tx: Tx, payment: Payment, kind: FailableKind, named: string | undefined): Promise<Modification & { kind: FailableKind }> {
  const code = FAILURE_EVENT[kind];
  const found = named ? await tx.payments.modificationForUpdate(named) : await tx.payments.latestModificationForUpdate(payment.pspReference, kind);
  if (!found) throw notApplicable(code, payment, named ? `it has no ${kind} ${named}` : `it has no ${kind} that has not failed`);
  if (found.paymentPspReference !== payment.pspReference || found.kind !== kind)
    throw notApplicable(code, payment, `${named} is not a ${kind} of this payment`);
  if (found.status === 'failed') throw notApplicable(code, payment, `${kind} ${found.pspReference} has failed already`);
  return { ...found, kind };
}

async function failLatest(ctx: SandboxEventContext, payment: Payment, kind: FailableKind, input: SandboxEventInput): Promise<QueuedEvent> {
  const code = FAILURE_EVENT[kind];
  const modification = await modificationToFail(ctx.tx, payment, kind, input.modificationPspReference);
  const whole = modification.value ?? 0;
  if (input.amount && input.amount.currency !== payment.currency) {
    throw new ApiError(ERR_CURRENCY_MISMATCH, { message: `Currency ${input.amount.currency} does not match the payment currency ${payment.currency}` });
  }
  if (input.amount && (input.amount.value <= 0 || input.amount.value > whole)) {
    throw new ApiError(ERR_AMOUNT_INVALID, { message: `Field 'amount.value' must be between 1 and the ${kind}'s amount (${whole})` });
  }
  const value = input.amount?.value ?? whole;
  // Money refunded or charged back must have been captured: a capture whose money was refunded fails
  // only after that refund did; what a chargeback took cannot fail.
  if (kind === 'capture' && openAmount(payment) < value) {
    const why =
      payment.capturedValue - value < payment.chargedBackValue
        ? `${payment.chargedBackValue} of it is charged back`
        : `${payment.refundedValue} of it is refunded; fail the refund first (REFUND_FAILED)`;
    throw notApplicable(code, payment, why);
  }
  if (value > (kind === 'capture' ? payment.capturedValue : payment.refundedValue)) {
    throw notApplicable(code, payment, `its ${kind === 'capture' ? 'captured' : 'refunded'} total is less than ${value}`);
  }
  const reason = input.reason ?? DEFAULT_FAILURE_REASON;
  await failModification(ctx.tx, ctx.now, payment, modification, { value, reason });
  return queued(payment, code, {
    pspReference: modification.pspReference,
    originalReference: payment.pspReference,
    amount: { currency: payment.currency, value },
    success: 'false',
    reason,
  });
}

/** Result codes of a payment that waits for the shopper (its method's page, a QR code, a voucher, a 3D Secure step). */
const WAITING_FOR_SHOPPER = new Set(['RedirectShopper', 'PresentToShopper', 'IdentifyShopper', 'ChallengeShopper', 'Pending']);

/** OFFER_CLOSED: the offer closes now, as its expiry on the clock closes it (authorisation.ts closeOffer and conclude). */
async function closeWaitingOffer(ctx: SandboxEventContext, payment: Payment): Promise<QueuedEvent> {
  // A shopper who answered at the method's page (a pending bank answer) no longer holds the offer.
  if (!WAITING_FOR_SHOPPER.has(payment.resultCode) || payment.detailsSubmitted) {
    throw notApplicable('OFFER_CLOSED', payment, `it does not wait for the shopper (resultCode ${payment.resultCode})`);
  }
  await conclude(ctx.tx, ctx.now, closeOffer(payment, ctx.now), { before: payment });
  return queued(payment, 'OFFER_CLOSED', {
    pspReference: payment.pspReference,
    amount: { currency: payment.currency, value: payment.originalValue },
    success: 'true',
  });
}

/** EXPIRE: the authorisation's uncaptured rest expires; nothing more can be captured. */
async function expireRemainder(ctx: SandboxEventContext, payment: Payment): Promise<QueuedEvent> {
  if (payment.resultCode !== 'Authorised' || payment.cancelled)
    throw notApplicable('EXPIRE', payment, 'it is not an authorised payment that was not cancelled');
  const remainder = payment.authorisedValue - payment.capturedValue;
  if (payment.captureClosed || remainder <= 0) throw notApplicable('EXPIRE', payment, 'nothing of it is left to capture');
  const after: Payment = { ...payment, captureClosed: true, autoCaptureAt: null, updatedAt: ctx.now.toISOString() };
  const amount = { currency: payment.currency, value: remainder };
  await ctx.tx.payments.update(after, payment);
  await recordEvent(ctx.tx, ctx.now, {
    companyId: payment.companyId,
    merchantAccount: payment.merchantAccount,
    eventCode: 'EXPIRE',
    pspReference: payment.pspReference,
    originalReference: payment.pspReference,
    merchantReference: payment.reference,
    currency: amount.currency,
    value: amount.value,
    success: true,
    paymentMethod: reportedMethod(payment),
  });
  return queued(payment, 'EXPIRE', { pspReference: payment.pspReference, originalReference: payment.pspReference, amount, success: 'true' });
}

/** REPORT_AVAILABLE, as Adyen sends it: the report's file name as pspReference, its download address as reason, amount zero. */
async function reportAvailable(ctx: SandboxEventContext, payment: Payment): Promise<QueuedEvent> {
  const day = ctx.now.toISOString().slice(0, 10).replaceAll('-', '_');
  const fileName = `received_payments_report_${day}_${newPspReference(ctx.now.getTime())}.csv`;
  const url = `${ctx.baseUrl}/reports/download/MerchantAccount/${encodeURIComponent(payment.merchantAccount)}/${fileName}`;
  const amount = { currency: payment.currency, value: 0 };
  await recordEvent(ctx.tx, ctx.now, {
    companyId: payment.companyId,
    merchantAccount: payment.merchantAccount,
    eventCode: 'REPORT_AVAILABLE',
    pspReference: fileName,
    merchantReference: '',
    currency: amount.currency,
    value: 0,
    success: true,
    reason: url,
  });
  return queued(payment, 'REPORT_AVAILABLE', { pspReference: fileName, amount, success: 'true', reason: url });
}
