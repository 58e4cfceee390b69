import { type ExpressionBuilder, type Selectable } from 'kysely';
import type { Db } from '../db.js';
import { flag } from '../codec.js';
import type { ConsolePaymentFilter, ConsolePaymentRow, ConsoleScope, ConsoleSessionRow, DueRow } from '../records/console.js';
import type { Database } from '../schema.js';
import type { DeliveryAttempts, Events, Payments, WebhookDeliveries } from '../schema.generated.js';

const PAYMENT_COLUMNS = [
  'pspReference',
  'merchantAccount',
  'reference',
  'shopperReference',
  'currency',
  'authorisedValue',
  'capturedValue',
  'refundedValue',
  'chargedBackValue',
  'resultCode',
  'cancelled',
  'captureClosed',
  'paymentMethodType',
  'cardBrand',
  'cardLastFour',
  'createdAt',
  'updatedAt',
] as const;

const PENDING_RESULTS = ['Pending', 'Received', 'RedirectShopper', 'IdentifyShopper', 'ChallengeShopper', 'PresentToShopper'];

const paymentFromRow = (r: Pick<Selectable<Payments>, (typeof PAYMENT_COLUMNS)[number]>): ConsolePaymentRow => ({
  ...r,
  cancelled: flag(r.cancelled),
  captureClosed: flag(r.captureClosed),
});

type PaymentsEb = ExpressionBuilder<Database, 'payments'>;

/** The derived state of ConsolePaymentStatus as a condition; the first of chargedBack, refunded, captured wins. */
function statusIs(eb: PaymentsEb, status: NonNullable<ConsolePaymentFilter['status']>) {
  const authorised = eb.and([eb('resultCode', '=', 'Authorised'), eb('cancelled', '=', false)]);
  switch (status) {
    case 'pending':
      return eb('resultCode', 'in', PENDING_RESULTS);
    case 'refused':
      return eb('resultCode', '=', 'Refused');
    case 'error':
      return eb('resultCode', '=', 'Error');
    case 'cancelled':
      return eb.or([eb('resultCode', '=', 'Cancelled'), eb.and([eb('resultCode', '=', 'Authorised'), eb('cancelled', '=', true)])]);
    case 'chargedBack':
      return eb.and([authorised, eb('chargedBackValue', '>', 0)]);
    case 'refunded':
      return eb.and([authorised, eb('chargedBackValue', '=', 0), eb('refundedValue', '>', 0)]);
    case 'captured':
      return eb.and([authorised, eb('chargedBackValue', '=', 0), eb('refundedValue', '=', 0), eb('capturedValue', '>', 0)]);
    case 'authorised':
      return eb.and([authorised, eb('capturedValue', '=', 0)]);
  }
}

/** The console's sign-in sessions, and its reads of payments by company and scope. */
export function consoleStore(db: Db) {
  const { q } = db;
  const inScope = (scope: ConsoleScope) => {
    let query = q.selectFrom('payments').select(PAYMENT_COLUMNS).where('companyId', '=', scope.companyId);
    if (scope.merchantAccounts !== null) query = query.where('merchantAccount', 'in', scope.merchantAccounts.length > 0 ? scope.merchantAccounts : ['']);
    return query;
  };
  return {
    insertSession: async (session: ConsoleSessionRow): Promise<void> => void (await q.insertInto('consoleSessions').values(session).execute()),
    getSession: async (tokenHash: string): Promise<ConsoleSessionRow | undefined> =>
      q.selectFrom('consoleSessions').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst(),
    /** Deletes the session; true when there was one. */
    deleteSession: async (tokenHash: string): Promise<boolean> => {
      const result = await q.deleteFrom('consoleSessions').where('tokenHash', '=', tokenHash).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    pruneSessions: async (now: string): Promise<void> => void (await q.deleteFrom('consoleSessions').where('expiresAt', '<=', now).execute()),

    /** Payments of the scope, newest first. */
    listPayments: async (scope: ConsoleScope, filter: ConsolePaymentFilter): Promise<ConsolePaymentRow[]> => {
      let query = inScope(scope);
      const { q: text, before } = filter;
      if (text !== undefined)
        query = query.where((eb) => eb.or([eb('pspReference', '=', text), eb('reference', '=', text), eb('shopperReference', '=', text)]));
      if (filter.merchantAccount !== undefined) query = query.where('merchantAccount', '=', filter.merchantAccount);
      if (filter.paymentMethod !== undefined) query = query.where('paymentMethodType', '=', filter.paymentMethod);
      if (filter.from !== undefined) query = query.where('createdAt', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('createdAt', '<', filter.to);
      const status = filter.status;
      if (status !== undefined) query = query.where((eb) => statusIs(eb, status));
      if (before) {
        query = query.where((eb) =>
          eb.or([eb('createdAt', '<', before.createdAt), eb.and([eb('createdAt', '=', before.createdAt), eb('pspReference', '<', before.pspReference)])]),
        );
      }
      return (await query.orderBy('createdAt', 'desc').orderBy('pspReference', 'desc').limit(filter.limit).execute()).map(paymentFromRow);
    },
    getPayment: async (scope: ConsoleScope, pspReference: string): Promise<ConsolePaymentRow | undefined> => {
      const row = await inScope(scope).where('pspReference', '=', pspReference).executeTakeFirst();
      return row && paymentFromRow(row);
    },
    /** Payments of the scope changed at or after `since`, oldest change first (the live feed). */
    changedPayments: async (scope: ConsoleScope, since: string, limit: number): Promise<ConsolePaymentRow[]> =>
      (await inScope(scope).where('updatedAt', '>=', since).orderBy('updatedAt').orderBy('pspReference').limit(limit).execute()).map(paymentFromRow),
    /** The events of a company about a payment (its own and its modifications'), in the order they were recorded. */
    eventsOfPayment: async (companyId: string, pspReference: string): Promise<Array<Selectable<Events>>> =>
      q
        .selectFrom('events')
        .selectAll()
        .where('companyId', '=', companyId)
        .where((eb) => eb.or([eb('pspReference', '=', pspReference), eb('originalReference', '=', pspReference)]))
        .orderBy('id')
        .limit(500)
        .execute(),
    /** The deliveries of these events to every webhook. */
    deliveriesOfEvents: async (eventIds: readonly number[]): Promise<Array<Selectable<WebhookDeliveries>>> =>
      eventIds.length === 0
        ? []
        : q.selectFrom('webhookDeliveries').selectAll().where('eventId', 'in', eventIds).orderBy('eventId').orderBy('webhookId').execute(),
    /** The attempts at these events, every webhook, in the order they were made. */
    attemptsOfEvents: async (eventIds: readonly number[]): Promise<Array<Selectable<DeliveryAttempts>>> =>
      eventIds.length === 0 ? [] : q.selectFrom('deliveryAttempts').selectAll().where('eventId', 'in', eventIds).orderBy('id').execute(),
    /** A webhook's latest deliveries (newest queued first) with their events. */
    webhookDeliveries: async (webhookId: string, limit: number) =>
      q
        .selectFrom('webhookDeliveries as d')
        .innerJoin('events as e', 'e.id', 'd.eventId')
        .select(['d.webhookId', 'd.eventId', 'd.status', 'd.createdAt', 'd.nextAttemptAt', 'e.eventCode', 'e.pspReference', 'e.merchantAccount'])
        .where('d.webhookId', '=', webhookId)
        .orderBy('d.queueSeq', 'desc')
        .limit(limit)
        .execute(),
    /**
     * What falls due in (after, until] for a company (a sandbox clock advance): each kind read by
     * its due time, at most `limit` of each, in the order it falls due.
     */
    dueBetween: async (companyId: string, after: string, until: string, limit: number): Promise<DueRow[]> => {
      const [captures, settlements, retries, orders, links, sessions] = [
        await q
          .selectFrom('payments')
          .select(['pspReference', 'merchantAccount', 'autoCaptureAt as dueAt'])
          .where('companyId', '=', companyId)
          .where('captureClosed', '=', false)
          .where('autoCaptureAt', '>', after)
          .where('autoCaptureAt', '<=', until)
          .orderBy('autoCaptureAt')
          .limit(limit)
          .execute(),
        await q
          .selectFrom('payments')
          .select(['pspReference', 'merchantAccount', 'settleAt as dueAt'])
          .where('companyId', '=', companyId)
          .where('settleAt', '>', after)
          .where('settleAt', '<=', until)
          .orderBy('settleAt')
          .limit(limit)
          .execute(),
        await q
          .selectFrom('webhookDeliveries as d')
          .innerJoin('events as e', 'e.id', 'd.eventId')
          .select(['e.pspReference', 'e.merchantAccount', 'd.webhookId', 'd.eventId', 'd.nextAttemptAt as dueAt'])
          .where('e.companyId', '=', companyId)
          .where('d.status', '=', 'pending')
          .where('d.nextAttemptAt', '>', after)
          .where('d.nextAttemptAt', '<=', until)
          .orderBy('d.nextAttemptAt')
          .limit(limit)
          .execute(),
        await q
          .selectFrom('orders')
          .select(['pspReference', 'merchantAccount', 'expiresAt as dueAt'])
          .where('companyId', '=', companyId)
          .where('status', '=', 'open')
          .where('expiresAt', '>', after)
          .where('expiresAt', '<=', until)
          .orderBy('expiresAt')
          .limit(limit)
          .execute(),
        await q
          .selectFrom('paymentLinks')
          .select(['id', 'merchantAccount', 'expiresAt as dueAt'])
          .where('companyId', '=', companyId)
          .where('status', '=', 'active')
          .where('expiresAt', '>', after)
          .where('expiresAt', '<=', until)
          .orderBy('expiresAt')
          .limit(limit)
          .execute(),
        await q
          .selectFrom('checkoutSessions')
          .select(['id', 'merchantAccount', 'expiresAt as dueAt'])
          .where('companyId', '=', companyId)
          .where('expiresAt', '>', after)
          .where('expiresAt', '<=', until)
          .orderBy('expiresAt')
          .limit(limit)
          .execute(),
      ];
      const rows: DueRow[] = [
        ...(captures as Array<{ pspReference: string; merchantAccount: string; dueAt: string }>).map((r) => ({ kind: 'delayedCapture' as const, ...r })),
        ...(settlements as Array<{ pspReference: string; merchantAccount: string; dueAt: string }>).map((r) => ({ kind: 'paymentSettlement' as const, ...r })),
        ...retries.map((r) => ({ kind: 'webhookRetry' as const, ...r, eventId: Number(r.eventId) })),
        ...orders.map((r) => ({ kind: 'orderExpiry' as const, ...r })),
        ...links.map((r) => ({ kind: 'paymentLinkExpiry' as const, ...r })),
        ...sessions.map((r) => ({ kind: 'sessionExpiry' as const, ...r })),
      ];
      return rows.sort((a, b) => (a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : 0)).slice(0, limit);
    },
    /** The latest change time of the company's payments (where a new live feed starts). */
    latestChange: async (companyId: string): Promise<string | null> => {
      const row = await q
        .selectFrom('payments')
        .select('updatedAt')
        .where('companyId', '=', companyId)
        .orderBy('updatedAt', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.updatedAt ?? null;
    },
  };
}

export type ConsoleStore = ReturnType<typeof consoleStore>;
