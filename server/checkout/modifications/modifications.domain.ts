import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import {
  ApiError,
  ERR_AMOUNT_INVALID,
  ERR_AMOUNT_UNCHANGED,
  ERR_AMOUNT_UPDATE_NOT_ALLOWED,
  ERR_CAPTURE_EXCEEDS_AUTHORISED,
  ERR_CURRENCY_MISMATCH,
  ERR_NOT_CANCELLABLE,
  ERR_NOT_CAPTURABLE,
  ERR_NOTHING_CAPTURED,
  ERR_NOTHING_TO_REVERSE,
  ERR_PAYMENT_NOT_FOUND,
  ERR_REFUND_EXCEEDS_CAPTURED,
} from '../../kernel/errors.js';
import type { Credential, Modification, ModificationKind, Payment } from '../../store/types.js';
import { together, type Tx } from '../../store/tx.js';
import { openAmount } from '../../kernel/open-amount.js';
import type { Money } from '../money.js';
import { settleDueCapture } from '../payments/authorisation.js';
import { assertItemsPrice } from '../payments/line-items.js';
import { failModification, type FailableKind, isFailable } from './failure.js';
import { recordModification } from './modification-record.js';

/**
 * Test values that make a modification's outcome fail. Adyen's test platform: a payment made with
 * the card holder name `capture failed` or `refund failed` has its captures or refunds accepted,
 * then failed (CAPTURE_FAILED, REFUND_FAILED). Adyen has no test value for a modification refused
 * at once; this sandbox's own is the modification `reference` `FAIL` (success false).
 */
export const TEST_FAIL_REFERENCE = 'FAIL';
export const TEST_FAILING_HOLDER_NAMES: Record<FailableKind, string> = { capture: 'capture failed', refund: 'refund failed' };

const EVENT_CODES: Record<ModificationKind, string> = {
  capture: 'CAPTURE',
  refund: 'REFUND',
  cancel: 'CANCELLATION',
  technicalCancel: 'TECHNICAL_CANCEL',
  reversal: 'CANCEL_OR_REFUND',
  amountUpdate: 'AUTHORISATION_ADJUSTMENT',
};

type Outcome = { kind: 'success' } | { kind: 'failure' } | { kind: 'failLater'; reason: string };

/** The outcome the server decides for a modification: success unless a test value asks otherwise. */
function outcomeOf(kind: ModificationKind, reference: string | undefined, payment: Payment): Outcome {
  if (reference === TEST_FAIL_REFERENCE) return { kind: 'failure' };
  if (!isFailable(kind)) return { kind: 'success' };
  if (payment.holderName?.trim().toLowerCase() === TEST_FAILING_HOLDER_NAMES[kind]) {
    return { kind: 'failLater', reason: `Failed after acceptance (test card holder name '${TEST_FAILING_HOLDER_NAMES[kind]}')` };
  }
  return { kind: 'success' };
}

/**
 * The payment state machine (docs/payment-states.md). Every change reads the payment for update, checks the
 * rule, and writes the payment and the modification in the caller's transaction, so concurrent
 * requests on one payment can never capture or refund more than the rules allow.
 */

export interface ModificationInput {
  merchantAccount: string;
  reference?: string;
}

export interface AmountModificationInput extends ModificationInput {
  amount: Money;
  lineItems?: Array<{ amountIncludingTax?: unknown; quantity?: unknown }>;
}

/** Pay-later methods bill per item: a partial capture or refund names its items, and items given must price the amount. */
const PAY_LATER = ['klarna', 'klarnapayments', 'klarnapayments_account', 'klarnapayments_b2b', 'klarna_paynow', 'klarna_account', 'klarna_b2b'];

function assertPayLaterItems(payment: Payment, input: AmountModificationInput, whole: number): void {
  if (!PAY_LATER.includes(payment.paymentMethodType)) return;
  if (input.lineItems || input.amount.value !== whole) assertItemsPrice(input.lineItems, input.amount.value);
}

export interface ModificationOutcome {
  modification: Modification;
  payment: Payment;
}

interface Context {
  tx: Tx;
  now: Date;
  credential: Credential;
}

/** The payment to modify, with any due automatic capture applied; another merchant account's payment is unknown. */
async function paymentToModify(ctx: Context, pspReference: string, merchantAccount: string): Promise<Payment> {
  await requireMerchantAccount(ctx.tx, ctx.credential, merchantAccount);
  const payment = await ctx.tx.payments.getForUpdate(pspReference);
  if (!payment || payment.merchantAccount !== merchantAccount) throw new ApiError(ERR_PAYMENT_NOT_FOUND);
  return settleDueCapture(ctx.tx, ctx.now, payment);
}

function assertAmount(amount: Money, payment: Payment): void {
  if (amount.currency !== payment.currency) {
    throw new ApiError(ERR_CURRENCY_MISMATCH, { message: `Currency ${amount.currency} does not match the payment currency ${payment.currency}` });
  }
  if (amount.value <= 0) throw new ApiError(ERR_AMOUNT_INVALID, { message: "Field 'amount.value' must be greater than 0" });
}

/**
 * Records a modification the rules accepted: the payment moves to `after` and its event is queued.
 * A test value that makes the outcome fail at once leaves the payment as it was `before` and
 * reports the failure; one that makes it fail later reports success, then fails the capture or
 * refund as CAPTURE_FAILED or REFUND_FAILED do (failure.ts: what it added is taken back).
 */
async function record(
  ctx: Context,
  before: Payment,
  after: Payment,
  kind: ModificationKind,
  details: { amount?: Money; reference?: string; action?: 'cancel' | 'refund' },
): Promise<ModificationOutcome> {
  const outcome = outcomeOf(kind, details.reference, before);
  const updated = { ...(outcome.kind === 'failure' ? before : after), updatedAt: ctx.now.toISOString() };
  const reports =
    outcome.kind === 'failure'
      ? [{ eventCode: EVENT_CODES[kind], success: false, reason: 'Modification refused by the test value FAIL' }]
      : [{ eventCode: EVENT_CODES[kind], success: true }];
  // The payment's new state and the modification's rows do not depend on each other: written
  // together, they share a round trip on PostgreSQL.
  const [, modification] = await together([
    ctx.tx.payments.update(updated, before),
    recordModification(ctx.tx, ctx.now, before, {
      kind,
      amount: details.amount ?? null,
      reported: details.amount ?? { currency: before.currency, value: before.authorisedValue },
      reference: details.reference,
      action: details.action,
      reports,
      ...(outcome.kind === 'failure' && { status: 'failed' as const }),
      additionalData: {
        ...(details.action && { 'modification.action': details.action }),
        ...(details.reference && { 'modification.merchantReference': details.reference }),
      },
    }),
  ]);
  if (outcome.kind !== 'failLater' || !isFailable(modification.kind)) return { modification, payment: updated };
  // What this capture or refund added (a capture of an automatically captured payment added nothing).
  const added = kind === 'capture' ? updated.capturedValue - before.capturedValue : updated.refundedValue - before.refundedValue;
  const failure = { value: details.amount?.value ?? added, takenBack: added, reason: outcome.reason };
  const failed = await failModification(ctx.tx, ctx.now, updated, { ...modification, kind: modification.kind }, failure);
  return { modification: { ...modification, status: 'failed' }, payment: failed };
}

const isLive = (p: Payment) => p.resultCode === 'Authorised' && !p.cancelled;

/**
 * Capture: at most what is still capturable, in the payment's currency. Without multiple
 * partial captures, a partial capture closes the rest of the authorisation. A payment that was
 * captured automatically accepts the request and is not charged again.
 */
export async function capturePayment(ctx: Context, pspReference: string, input: AmountModificationInput): Promise<ModificationOutcome> {
  const payment = await paymentToModify(ctx, pspReference, input.merchantAccount);
  if (!isLive(payment)) throw new ApiError(ERR_NOT_CAPTURABLE);
  assertAmount(input.amount, payment);
  if (payment.autoCaptured) return record(ctx, payment, payment, 'capture', input);
  const capturable = payment.captureClosed ? 0 : payment.authorisedValue - payment.capturedValue;
  if (input.amount.value > capturable) {
    throw new ApiError(ERR_CAPTURE_EXCEEDS_AUTHORISED, {
      message: `Capture amount ${input.amount.value} exceeds the amount that can still be captured (${capturable})`,
    });
  }
  assertPayLaterItems(payment, input, capturable);
  const capturedValue = payment.capturedValue + input.amount.value;
  const captureClosed = !payment.multiplePartialCaptures || capturedValue === payment.authorisedValue;
  return record(ctx, payment, { ...payment, capturedValue, captureClosed }, 'capture', input);
}

/** Refund: all refunds together never exceed what was captured. */
export async function refundPayment(ctx: Context, pspReference: string, input: AmountModificationInput): Promise<ModificationOutcome> {
  const payment = await paymentToModify(ctx, pspReference, input.merchantAccount);
  // A cancelled payment takes no refund, whatever its amounts say (the database also refuses a row both cancelled and captured).
  if (payment.resultCode !== 'Authorised' || payment.cancelled || payment.capturedValue === 0) throw new ApiError(ERR_NOTHING_CAPTURED);
  assertAmount(input.amount, payment);
  // What a chargeback took is not the merchant's to refund (a reversed chargeback gives it back).
  const refundable = openAmount(payment);
  if (input.amount.value > refundable) {
    throw new ApiError(ERR_REFUND_EXCEEDS_CAPTURED, {
      message: `Refund amount ${input.amount.value} exceeds the captured amount not yet refunded or charged back (${refundable})`,
    });
  }
  assertPayLaterItems(payment, input, refundable);
  return record(ctx, payment, { ...payment, refundedValue: payment.refundedValue + input.amount.value }, 'refund', input);
}

async function cancel(ctx: Context, payment: Payment, kind: 'cancel' | 'technicalCancel', input: ModificationInput): Promise<ModificationOutcome> {
  if (!isLive(payment) || payment.capturedValue > 0) throw new ApiError(ERR_NOT_CANCELLABLE);
  return record(ctx, payment, { ...payment, cancelled: true, captureClosed: true }, kind, input);
}

/** Cancel by pspReference: only an authorised payment of which nothing was captured. */
export async function cancelPayment(ctx: Context, pspReference: string, input: ModificationInput): Promise<ModificationOutcome> {
  return cancel(ctx, await paymentToModify(ctx, pspReference, input.merchantAccount), 'cancel', input);
}

/** Cancel by merchant reference (POST /cancels): the latest payment with that reference. */
export async function cancelPaymentByReference(ctx: Context, input: ModificationInput & { paymentReference: string }): Promise<ModificationOutcome> {
  await requireMerchantAccount(ctx.tx, ctx.credential, input.merchantAccount);
  const latest = await ctx.tx.payments.latestByReference(input.merchantAccount, input.paymentReference);
  // Found by reference, then read again locked: the cancel is decided on the row as it is now,
  // not on a copy a concurrent capture may have changed since.
  const found = latest && (await ctx.tx.payments.getForUpdate(latest.pspReference));
  if (!found) throw new ApiError(ERR_PAYMENT_NOT_FOUND, { message: `No payment with reference '${input.paymentReference}' for this merchant account` });
  return cancel(ctx, await settleDueCapture(ctx.tx, ctx.now, found), 'technicalCancel', input);
}

/** Reversal: cancels when nothing was captured, otherwise refunds what was captured and not yet refunded. */
export async function reversePayment(ctx: Context, pspReference: string, input: ModificationInput): Promise<ModificationOutcome> {
  const payment = await paymentToModify(ctx, pspReference, input.merchantAccount);
  if (!isLive(payment)) throw new ApiError(ERR_NOTHING_TO_REVERSE);
  if (payment.capturedValue === 0) {
    return record(ctx, payment, { ...payment, cancelled: true, captureClosed: true }, 'reversal', { ...input, action: 'cancel' });
  }
  const open = openAmount(payment);
  if (open === 0) throw new ApiError(ERR_NOTHING_TO_REVERSE);
  const amount = { currency: payment.currency, value: open };
  return record(ctx, payment, { ...payment, refundedValue: payment.refundedValue + open, captureClosed: true }, 'reversal', {
    ...input,
    amount,
    action: 'refund',
  });
}

/** Amount update: a new total for an authorised payment not yet captured, different from the current one. */
export async function updatePaymentAmount(ctx: Context, pspReference: string, input: AmountModificationInput): Promise<ModificationOutcome> {
  const payment = await paymentToModify(ctx, pspReference, input.merchantAccount);
  if (!isLive(payment) || payment.capturedValue > 0 || payment.captureClosed) throw new ApiError(ERR_AMOUNT_UPDATE_NOT_ALLOWED);
  assertAmount(input.amount, payment);
  if (input.amount.value === payment.authorisedValue) throw new ApiError(ERR_AMOUNT_UNCHANGED);
  return record(ctx, payment, { ...payment, authorisedValue: input.amount.value }, 'amountUpdate', input);
}
