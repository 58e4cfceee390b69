import type { components } from '../../generated/console.js';
import { openAmount } from '../kernel/open-amount.js';
import type { ConsolePaymentRow } from '../store/types.js';
import type { StoredRequestLogEntry } from '../store/types.js';

type Schemas = components['schemas'];
export type ConsolePaymentView = Schemas['ConsolePayment'];
export type RequestLogEntryView = Schemas['RequestLogEntry'];
export type ConsoleActionsView = Schemas['ConsoleActions'];

const PENDING = new Set(['Pending', 'Received', 'RedirectShopper', 'IdentifyShopper', 'ChallengeShopper', 'PresentToShopper']);

/** ConsolePaymentStatus of a payment; the store's search (areas/console.ts `statusIs`) applies the same rule. */
export function statusOf(p: ConsolePaymentRow): Schemas['ConsolePaymentStatus'] {
  if (p.resultCode === 'Refused') return 'refused';
  if (p.resultCode === 'Error') return 'error';
  if (p.resultCode === 'Cancelled' || (p.resultCode === 'Authorised' && p.cancelled)) return 'cancelled';
  if (PENDING.has(p.resultCode)) return 'pending';
  if (p.chargedBackValue > 0) return 'chargedBack';
  if (p.refundedValue > 0) return 'refunded';
  if (p.capturedValue > 0) return 'captured';
  return 'authorised';
}

export function paymentView(p: ConsolePaymentRow): ConsolePaymentView {
  return {
    pspReference: p.pspReference,
    merchantAccount: p.merchantAccount,
    reference: p.reference,
    ...(p.shopperReference !== null && { shopperReference: p.shopperReference }),
    amount: { currency: p.currency, value: Number(p.authorisedValue) },
    paymentMethod: p.paymentMethodType,
    ...(p.cardLastFour !== '' && { cardSummary: `${p.cardBrand} ${p.cardLastFour}` }),
    resultCode: p.resultCode,
    status: statusOf(p),
    capturedValue: Number(p.capturedValue),
    refundedValue: Number(p.refundedValue),
    chargedBackValue: Number(p.chargedBackValue),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/**
 * What the checkout API would accept on the payment now, by the rules of docs/payment-states.md
 * (checkout's modifications.domain.ts decides them for real; this is their summary for the page,
 * read from the same columns).
 */
export function actionsOf(p: ConsolePaymentRow): ConsoleActionsView {
  const authorised = p.resultCode === 'Authorised' && !p.cancelled;
  const captured = Number(p.capturedValue);
  const capturable = Number(p.authorisedValue) - captured;
  const refundable = openAmount({ capturedValue: captured, refundedValue: Number(p.refundedValue), chargedBackValue: Number(p.chargedBackValue) });
  const amount = (value: number) => ({ currency: p.currency, value });
  return {
    capture: authorised && !p.captureClosed && capturable > 0 ? { allowed: true, maxAmount: amount(capturable) } : { allowed: false },
    refund: refundable > 0 ? { allowed: true, maxAmount: amount(refundable) } : { allowed: false },
    cancel: authorised && captured === 0 ? { allowed: true } : { allowed: false },
  };
}

export function requestView(e: StoredRequestLogEntry): RequestLogEntryView {
  return {
    id: String(e.id),
    occurredAt: e.occurredAt,
    area: e.area as RequestLogEntryView['area'],
    method: e.method,
    path: e.path,
    ...(e.operationId !== null && { operationId: e.operationId }),
    status: e.status,
    durationMs: e.durationMs,
    ...(e.credentialUsername !== null && { credentialUsername: e.credentialUsername }),
    ...(e.idempotencyKey !== null && { idempotencyKey: e.idempotencyKey }),
    requestId: e.requestId,
    ...(e.pspReference !== null && { pspReference: e.pspReference }),
    ...(e.merchantAccount !== null && { merchantAccount: e.merchantAccount }),
  };
}

/** An opaque cursor: base64url of its parts. */
export const encodeCursor = (parts: readonly string[]): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** The parts of a cursor, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string, count: number): string[] | undefined {
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(parts) && parts.length === count && parts.every((p) => typeof p === 'string') ? parts : undefined;
  } catch {
    return undefined;
  }
}

/** An attempt as the store keeps it. */
interface StoredAttempt {
  attemptedAt: string;
  outcome: string;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

type Attempt = Schemas['ConsoleDeliveryAttempt'];

export function attemptView(a: StoredAttempt): Attempt {
  return {
    attemptedAt: a.attemptedAt,
    outcome: a.outcome as Attempt['outcome'],
    durationMs: a.durationMs,
    ...(a.statusCode !== null && { statusCode: a.statusCode }),
    ...(a.responseExcerpt !== null && { responseBody: a.responseExcerpt }),
    ...(a.error !== null && { error: a.error }),
  };
}

type DeliveryView = Schemas['ConsoleDelivery'];

/** A delivery of an event to a webhook, with its attempts (of any deliveries: those of this one are picked). */
export function deliveryView(
  d: { webhookId: string; eventId: number; status: string; createdAt: string; nextAttemptAt: string },
  event: { eventCode: string; pspReference: string; merchantAccount: string },
  attempts: ReadonlyArray<StoredAttempt & { webhookId: string; eventId: number }>,
): DeliveryView {
  return {
    webhookId: d.webhookId,
    eventId: Number(d.eventId),
    eventCode: event.eventCode,
    pspReference: event.pspReference,
    merchantAccount: event.merchantAccount,
    status: d.status as DeliveryView['status'],
    createdAt: d.createdAt,
    ...(d.status === 'pending' && { nextAttemptAt: d.nextAttemptAt }),
    attempts: attempts.filter((a) => a.webhookId === d.webhookId && Number(a.eventId) === Number(d.eventId)).map(attemptView),
  };
}
