import { recordEvent } from '../../kernel/events/outbox.js';
import type { Modification, Payment } from '../../store/types.js';
import { together, type Tx } from '../../store/tx.js';
import { reportedMethod } from '../payments/authorisation.js';

/** The modifications that can fail after they were accepted, and the event that says so. */
export const FAILURE_EVENT = { capture: 'CAPTURE_FAILED', refund: 'REFUND_FAILED' } as const;
export type FailableKind = keyof typeof FAILURE_EVENT;

export const isFailable = (kind: Modification['kind']): kind is FailableKind => kind in FAILURE_EVENT;

export interface Failure {
  /** How much of the modification failed: the event's amount. */
  value: number;
  /**
   * What leaves the payment's captured or refunded total: `value`, unless the modification added
   * less (a capture request on an automatically captured payment added nothing).
   */
  takenBack?: number;
  /** The event's reason. */
  reason: string;
}

/**
 * A capture or refund that the scheme rejected after it was accepted (Adyen's CAPTURE_FAILED and
 * REFUND_FAILED): the failed part is taken back from the payment's captured or refunded total, the
 * modification is marked failed (it cannot fail twice) and the event is queued, all in the
 * caller's transaction. The caller has read the payment and the modification locked and checked
 * that the failure fits (a refund of the captured money fails first). Returns the payment as written.
 */
export async function failModification(
  tx: Tx,
  now: Date,
  payment: Payment,
  modification: Modification & { kind: FailableKind },
  failure: Failure,
): Promise<Payment> {
  const takenBack = failure.takenBack ?? failure.value;
  const after: Payment =
    modification.kind === 'capture'
      ? { ...payment, capturedValue: payment.capturedValue - takenBack, updatedAt: now.toISOString() }
      : { ...payment, refundedValue: payment.refundedValue - takenBack, updatedAt: now.toISOString() };
  // Three writes that do not depend on each other: together, one round trip on PostgreSQL.
  await together([
    tx.payments.update(after, payment),
    tx.payments.markModificationFailed(modification.pspReference),
    recordEvent(tx, now, {
      companyId: payment.companyId,
      merchantAccount: payment.merchantAccount,
      eventCode: FAILURE_EVENT[modification.kind],
      pspReference: modification.pspReference,
      originalReference: payment.pspReference,
      merchantReference: payment.reference,
      currency: payment.currency,
      value: failure.value,
      success: false,
      reason: failure.reason,
      paymentMethod: reportedMethod(payment),
      additionalData: modification.reference ? { 'modification.merchantReference': modification.reference } : {},
    }),
  ]);
  return after;
}
