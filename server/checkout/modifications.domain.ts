import { requireMerchantAccount } from '../auth/credentials.domain.js';
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
} from '../http/errors.js';
import type { Credential, Modification, ModificationKind, Payment, Tx } from '../store/types.js';
import type { Money } from './money.js';
import { settleAutoCapture } from './payments.domain.js';
import { newPspReference } from './references.js';

/**
 * The state machine of design section 3. Every change reads the payment for update, checks the
 * rule, and writes the payment and the modification in the caller's transaction, so concurrent
 * requests on one payment can never capture or refund more than the rules allow.
 */

export interface ModificationInput {
  merchantAccount: string;
  reference?: string;
}

export interface AmountModificationInput extends ModificationInput {
  amount: Money;
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
  const payment = await ctx.tx.getPaymentForUpdate(pspReference);
  if (!payment || payment.merchantAccount !== merchantAccount) throw new ApiError(ERR_PAYMENT_NOT_FOUND);
  return settleAutoCapture(payment, ctx.now);
}

function assertAmount(amount: Money, payment: Payment): void {
  if (amount.currency !== payment.currency) {
    throw new ApiError(ERR_CURRENCY_MISMATCH, { message: `Currency ${amount.currency} does not match the payment currency ${payment.currency}` });
  }
  if (amount.value <= 0) throw new ApiError(ERR_AMOUNT_INVALID, { message: "Field 'amount.value' must be greater than 0" });
}

async function record(
  ctx: Context,
  payment: Payment,
  kind: ModificationKind,
  details: { amount?: Money; reference?: string; action?: 'cancel' | 'refund' },
): Promise<ModificationOutcome> {
  const updated = { ...payment, updatedAt: ctx.now.toISOString() };
  await ctx.tx.updatePayment(updated);
  const modification: Modification = {
    pspReference: newPspReference(),
    paymentPspReference: payment.pspReference,
    merchantAccount: payment.merchantAccount,
    kind,
    currency: details.amount?.currency ?? null,
    value: details.amount?.value ?? null,
    reference: details.reference ?? null,
    status: 'received',
    action: details.action ?? null,
    createdAt: ctx.now.toISOString(),
  };
  await ctx.tx.insertModification(modification);
  return { modification, payment: updated };
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
  if (payment.autoCaptured) return record(ctx, payment, 'capture', input);
  const capturable = payment.captureClosed ? 0 : payment.authorisedValue - payment.capturedValue;
  if (input.amount.value > capturable) {
    throw new ApiError(ERR_CAPTURE_EXCEEDS_AUTHORISED, { message: `Capture amount ${input.amount.value} exceeds the amount that can still be captured (${capturable})` });
  }
  const capturedValue = payment.capturedValue + input.amount.value;
  const captureClosed = !payment.multiplePartialCaptures || capturedValue === payment.authorisedValue;
  return record(ctx, { ...payment, capturedValue, captureClosed }, 'capture', input);
}

/** Refund: all refunds together never exceed what was captured. */
export async function refundPayment(ctx: Context, pspReference: string, input: AmountModificationInput): Promise<ModificationOutcome> {
  const payment = await paymentToModify(ctx, pspReference, input.merchantAccount);
  if (payment.resultCode !== 'Authorised' || payment.capturedValue === 0) throw new ApiError(ERR_NOTHING_CAPTURED);
  assertAmount(input.amount, payment);
  const refundable = payment.capturedValue - payment.refundedValue;
  if (input.amount.value > refundable) {
    throw new ApiError(ERR_REFUND_EXCEEDS_CAPTURED, { message: `Refund amount ${input.amount.value} exceeds the captured amount not yet refunded (${refundable})` });
  }
  return record(ctx, { ...payment, refundedValue: payment.refundedValue + input.amount.value }, 'refund', input);
}

async function cancel(ctx: Context, payment: Payment, kind: 'cancel' | 'technicalCancel', input: ModificationInput): Promise<ModificationOutcome> {
  if (!isLive(payment) || payment.capturedValue > 0) throw new ApiError(ERR_NOT_CANCELLABLE);
  return record(ctx, { ...payment, cancelled: true, captureClosed: true }, kind, input);
}

/** Cancel by pspReference: only an authorised payment of which nothing was captured. */
export async function cancelPayment(ctx: Context, pspReference: string, input: ModificationInput): Promise<ModificationOutcome> {
  return cancel(ctx, await paymentToModify(ctx, pspReference, input.merchantAccount), 'cancel', input);
}

/** Cancel by merchant reference (POST /cancels): the latest payment with that reference. */
export async function cancelPaymentByReference(ctx: Context, input: ModificationInput & { paymentReference: string }): Promise<ModificationOutcome> {
  await requireMerchantAccount(ctx.tx, ctx.credential, input.merchantAccount);
  const found = await ctx.tx.findLatestPaymentByReference(input.merchantAccount, input.paymentReference);
  if (!found) throw new ApiError(ERR_PAYMENT_NOT_FOUND, { message: `No payment with reference '${input.paymentReference}' for this merchant account` });
  return cancel(ctx, settleAutoCapture(found, ctx.now), 'technicalCancel', input);
}

/** Reversal: cancels when nothing was captured, otherwise refunds what was captured and not yet refunded. */
export async function reversePayment(ctx: Context, pspReference: string, input: ModificationInput): Promise<ModificationOutcome> {
  const payment = await paymentToModify(ctx, pspReference, input.merchantAccount);
  if (!isLive(payment)) throw new ApiError(ERR_NOTHING_TO_REVERSE);
  if (payment.capturedValue === 0) {
    return record(ctx, { ...payment, cancelled: true, captureClosed: true }, 'reversal', { ...input, action: 'cancel' });
  }
  const open = payment.capturedValue - payment.refundedValue;
  if (open === 0) throw new ApiError(ERR_NOTHING_TO_REVERSE);
  const amount = { currency: payment.currency, value: open };
  return record(ctx, { ...payment, refundedValue: payment.capturedValue, captureClosed: true }, 'reversal', { ...input, amount, action: 'refund' });
}

/** Amount update: a new total for an authorised payment not yet captured, different from the current one. */
export async function updatePaymentAmount(ctx: Context, pspReference: string, input: AmountModificationInput): Promise<ModificationOutcome> {
  const payment = await paymentToModify(ctx, pspReference, input.merchantAccount);
  if (!isLive(payment) || payment.capturedValue > 0 || payment.captureClosed) throw new ApiError(ERR_AMOUNT_UPDATE_NOT_ALLOWED);
  assertAmount(input.amount, payment);
  if (input.amount.value === payment.authorisedValue) throw new ApiError(ERR_AMOUNT_UNCHANGED);
  return record(ctx, { ...payment, authorisedValue: input.amount.value }, 'amountUpdate', input);
}
