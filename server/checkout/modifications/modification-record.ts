import { recordEvent } from '../../kernel/events/outbox.js';
import type { Modification, ModificationKind, Payment } from '../../store/types.js';
import { together, type Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { newPspReference } from '../references.js';
import { openTestDispute } from '../disputes/disputes.domain.js';

/** One webhook event that reports a modification's outcome. */
export interface ModificationReport {
  eventCode: string;
  success: boolean;
  reason?: string;
}

export interface ModificationInput {
  kind: ModificationKind;
  /** The amount the request named; null for cancels, which name none. */
  amount: Money | null;
  /** What the events report as the amount (a cancel reports what was authorised). */
  reported: Money;
  reference?: string | undefined;
  action?: 'cancel' | 'refund' | undefined;
  /** The events, in order. */
  reports: ModificationReport[];
  /** `failed` for a modification refused at once (the test value FAIL): there is nothing it could take back later. */
  status?: Modification['status'];
  additionalData?: Record<string, string>;
}

/**
 * The one writer of "a modification and its events": captures, refunds, cancels, reversals,
 * amount updates, automatic captures and the unwinding of a cancelled order all record through
 * it, in the caller's transaction, so a modification exists exactly when its events do.
 */
export async function recordModification(tx: Tx, now: Date, payment: Payment, input: ModificationInput): Promise<Modification> {
  const modification: Modification = {
    pspReference: newPspReference(),
    paymentPspReference: payment.pspReference,
    merchantAccount: payment.merchantAccount,
    kind: input.kind,
    currency: input.amount?.currency ?? null,
    value: input.amount?.value ?? null,
    reference: input.reference ?? null,
    status: input.status ?? 'received',
    action: input.action ?? null,
    createdAt: now.toISOString(),
  };
  // In order: the events' ids are the order their webhooks receive them.
  const reportInOrder = async () => {
    for (const report of input.reports) {
      await recordEvent(tx, now, {
        companyId: payment.companyId,
        merchantAccount: payment.merchantAccount,
        eventCode: report.eventCode,
        pspReference: modification.pspReference,
        originalReference: payment.pspReference,
        merchantReference: payment.reference,
        currency: input.reported.currency,
        value: input.reported.value,
        success: report.success,
        reason: report.reason ?? '',
        paymentMethod: payment.cardBrand || payment.paymentMethodType,
        additionalData: input.additionalData ?? {},
      });
    }
  };
  // The modification's row and its events do not depend on each other: written together, they
  // share a round trip on PostgreSQL.
  await together([tx.payments.insertModification(modification), reportInOrder()]);
  // A captured card payment whose holder name names a test dispute scenario is disputed (once).
  if (input.kind === 'capture' && input.reports.every((report) => report.success)) await openTestDispute(tx, now, payment);
  return modification;
}
