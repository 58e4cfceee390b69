import type { components } from '../../generated/console.js';
import { operation } from '../kernel/http/handler.js';
import { ApiError, ERR_FIELD_INVALID, ERR_NOT_ALLOWED, ERR_NOT_FOUND_ENTITY } from '../kernel/errors.js';
import type { Tx } from '../store/tx.js';
import type { ConsoleScope } from '../store/types.js';
import { scopeOf } from './scope.js';
import { actionsOf, decodeCursor, deliveryView, encodeCursor, paymentView, requestView } from './views.js';

type Schemas = components['schemas'];
type Entry = Schemas['TimelineEntry'];
type Delivery = Schemas['ConsoleDelivery'];

const DEFAULT_LIMIT = 50;
/** The requests a timeline shows at most (the newest of them). */
const TIMELINE_REQUESTS = 200;

const badCursor = (cursor: string) =>
  new ApiError(ERR_FIELD_INVALID, {
    message: 'Invalid field: cursor is not one this API gave',
    invalidFields: [{ name: 'cursor', value: cursor, message: 'unknown cursor' }],
  });

/** GET /payments */
export const listConsolePayments = operation('listConsolePayments')(async ({ query, caller }, deps) => {
  const scope = scopeOf(caller.credential);
  if (query.merchantAccount !== undefined && scope.merchantAccounts !== null && !scope.merchantAccounts.includes(query.merchantAccount)) {
    throw new ApiError(ERR_NOT_ALLOWED, { message: `Not allowed: the credential does not reach merchant account ${query.merchantAccount}` });
  }
  const limit = query.limit ?? DEFAULT_LIMIT;
  let before: { createdAt: string; pspReference: string } | undefined;
  if (query.cursor !== undefined) {
    const parts = decodeCursor(query.cursor, 2);
    if (!parts) throw badCursor(query.cursor);
    before = { createdAt: parts[0]!, pspReference: parts[1]! };
  }
  const rows = await deps.store.read((tx) =>
    tx.console.listPayments(scope, {
      ...(query.q !== undefined && { q: query.q }),
      ...(query.merchantAccount !== undefined && { merchantAccount: query.merchantAccount }),
      ...(query.status !== undefined && { status: query.status }),
      ...(query.paymentMethod !== undefined && { paymentMethod: query.paymentMethod }),
      ...(query.from !== undefined && { from: new Date(query.from).toISOString() }),
      ...(query.to !== undefined && { to: new Date(query.to).toISOString() }),
      ...(before && { before }),
      limit: limit + 1,
    }),
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page.map(paymentView), ...(rows.length > limit && last && { nextCursor: encodeCursor([last.createdAt, last.pspReference]) }) };
});

/** Every delivery of these events with its attempts, keyed by event, webhooks outside the scope left out. */
async function deliveriesOf(
  tx: Tx,
  scope: ConsoleScope,
  events: ReadonlyArray<{ id: number; eventCode: string; pspReference: string; merchantAccount: string }>,
) {
  const ids = events.map((e) => Number(e.id));
  const [deliveries, attempts] = [await tx.console.deliveriesOfEvents(ids), await tx.console.attemptsOfEvents(ids)];
  const eventOf = new Map(events.map((e) => [Number(e.id), e]));
  const out: Delivery[] = [];
  for (const d of deliveries) {
    const event = eventOf.get(Number(d.eventId))!;
    const webhook = await tx.webhooks.get(d.webhookId);
    // A company webhook is the company's; a merchant webhook shows to who reaches its merchant account.
    if (!webhook || webhook.companyId !== scope.companyId) continue;
    if (webhook.merchantId !== null && scope.merchantAccounts !== null && !scope.merchantAccounts.includes(webhook.merchantId)) continue;
    out.push(deliveryView(d, event, attempts));
  }
  return out;
}

/** GET /payments/{pspReference}/timeline */
export const getConsolePaymentTimeline = operation('getConsolePaymentTimeline')(async ({ path, caller }, deps) => {
  const scope = scopeOf(caller.credential);
  return deps.store.read(async (tx) => {
    const payment = await tx.console.getPayment(scope, path.pspReference);
    // Outside the scope or another company's: never confirmed to exist.
    if (!payment) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Payment ${path.pspReference} not found` });
    const events = await tx.console.eventsOfPayment(scope.companyId, payment.pspReference);
    const requestIds = [...new Set(events.map((e) => e.requestId).filter((id): id is string => id !== null))];
    const [requests, modifications, deliveries] = [
      await tx.requestLog.aboutPayment(scope, payment.pspReference, requestIds, TIMELINE_REQUESTS),
      await tx.payments.modifications(payment.pspReference),
      await deliveriesOf(
        tx,
        scope,
        events.map((e) => ({ id: Number(e.id), eventCode: e.eventCode, pspReference: e.pspReference, merchantAccount: e.merchantAccount })),
      ),
    ];
    const entries: Entry[] = [
      ...requests.map((r): Entry => ({ at: r.occurredAt, kind: 'request', request: requestView(r) })),
      ...modifications.map((m): Entry => ({
        at: m.createdAt,
        kind: 'modification',
        modification: {
          pspReference: m.pspReference,
          kind: m.kind,
          status: m.status,
          ...(m.reference !== null && { reference: m.reference }),
          ...(m.currency !== null && m.value !== null && { amount: { currency: m.currency, value: Number(m.value) } }),
        },
      })),
      ...events.map((e): Entry => ({
        at: e.createdAt,
        kind: 'event',
        event: {
          eventId: Number(e.id),
          eventCode: e.eventCode,
          success: e.success === true || e.success === 1,
          ...(e.reason !== '' && { reason: e.reason }),
          amount: { currency: e.currency, value: Number(e.value) },
        },
      })),
      ...deliveries.map((d): Entry => ({ at: d.attempts[0]?.attemptedAt ?? d.createdAt, kind: 'delivery', delivery: d })),
    ];
    // Oldest first; within one moment, in the order a request causes them.
    const rank = { request: 0, modification: 1, event: 2, delivery: 3 } as const;
    entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || rank[a.kind] - rank[b.kind]);
    return { payment: paymentView(payment), actions: actionsOf(payment), entries };
  });
});
