import { type Insertable, type Selectable, sql } from 'kysely';
import { count, flag, jsonText, parsed } from '../codec.js';
import type { Db } from '../db.js';
import { preparedInsert } from '../prepared.js';
import type { Delivery, DeliveryAttempt, OutboxEvent } from '../records/webhooks.js';
import type { DeliveryAttempts, Events, WebhookDeliveries } from '../schema.generated.js';

const eventFromRow = (r: Selectable<Events>): OutboxEvent => ({
  id: r.id,
  companyId: r.company_id,
  merchantAccount: r.merchant_account,
  eventCode: r.event_code,
  pspReference: r.psp_reference,
  originalReference: r.original_reference,
  merchantReference: r.merchant_reference,
  currency: r.currency,
  value: r.value,
  success: flag(r.success),
  reason: r.reason,
  paymentMethod: r.payment_method,
  additionalData: parsed<Record<string, string>>(r.additional_data),
  eventDate: r.event_date,
  createdAt: r.created_at,
  requestId: r.request_id,
});

/** The id is left out: the database numbers events. */
const eventToRow = (e: OutboxEvent): Insertable<Events> => ({
  company_id: e.companyId,
  merchant_account: e.merchantAccount,
  event_code: e.eventCode,
  psp_reference: e.pspReference,
  original_reference: e.originalReference,
  merchant_reference: e.merchantReference,
  currency: e.currency,
  value: e.value,
  success: e.success,
  reason: e.reason,
  payment_method: e.paymentMethod,
  additional_data: jsonText(e.additionalData),
  event_date: e.eventDate,
  created_at: e.createdAt,
  request_id: e.requestId,
});

const deliveryFromRow = (r: Selectable<WebhookDeliveries>): Delivery => ({
  webhookId: r.webhook_id,
  eventId: r.event_id,
  queueSeq: r.queue_seq,
  status: r.status as Delivery['status'],
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** `companyId` is left out: it is the webhook's, read with due deliveries only. */
const deliveryToRow = (d: Delivery): Insertable<WebhookDeliveries> => ({
  webhook_id: d.webhookId,
  event_id: d.eventId,
  queue_seq: d.queueSeq,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});

const attemptFromRow = (r: Selectable<DeliveryAttempts>): DeliveryAttempt => ({
  webhookId: r.webhook_id,
  eventId: r.event_id,
  attemptedAt: r.attempted_at,
  outcome: r.outcome as DeliveryAttempt['outcome'],
  statusCode: r.status_code,
  error: r.error,
  durationMs: r.duration_ms,
});

const attemptToRow = (a: DeliveryAttempt): Insertable<DeliveryAttempts> => ({
  webhook_id: a.webhookId,
  event_id: a.eventId,
  attempted_at: a.attemptedAt,
  outcome: a.outcome,
  status_code: a.statusCode,
  error: a.error,
  duration_ms: a.durationMs,
});

// Written with every change that reports an event: compiled once (see prepared.ts).
const insertEventRow = preparedInsert('events', 'id');
const insertDeliveryRow = preparedInsert('webhook_deliveries');

/**
 * The transactional outbox: events to report, their deliveries to each webhook (one queue per
 * webhook, in `queue_seq` order) and the attempts made to send them.
 */
export function outboxStore(db: Db) {
  const { q } = db;
  const deliveries = () => q.selectFrom('webhook_deliveries').selectAll();
  return {
    /** Records an event; returns the id the database gave it. */
    insertEvent: async (event: OutboxEvent): Promise<number> => {
      const row = await insertEventRow(db, eventToRow(event));
      return count(row?.id);
    },
    getEvent: async (id: number): Promise<OutboxEvent | undefined> => {
      const row = await q.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
      return row && eventFromRow(row);
    },
    /** The merchant account's events after `afterId`, in the order they were recorded. */
    listEvents: async (merchantAccount: string, afterId: number, limit: number): Promise<OutboxEvent[]> =>
      (
        await q.selectFrom('events').selectAll().where('merchant_account', '=', merchantAccount).where('id', '>', afterId).orderBy('id').limit(limit).execute()
      ).map(eventFromRow),
    insertDelivery: async (delivery: Delivery): Promise<void> => void (await insertDeliveryRow(db, deliveryToRow(delivery))),
    getDelivery: async (webhookId: string, eventId: number): Promise<Delivery | undefined> => {
      const row = await deliveries().where('webhook_id', '=', webhookId).where('event_id', '=', eventId).executeTakeFirst();
      return row && deliveryFromRow(row);
    },
    /** Writes a delivery's progress (queue position, status, attempts, next attempt). */
    updateDelivery: async (delivery: Delivery): Promise<void> => {
      const { webhook_id, event_id, created_at: _created, ...changes } = deliveryToRow(delivery);
      // An attempt's outcome ends its lease.
      await q
        .updateTable('webhook_deliveries')
        .set({ ...changes, lease_until: null })
        .where('webhook_id', '=', webhook_id)
        .where('event_id', '=', event_id)
        .execute();
    },
    /**
     * Takes the delivery for one attempt, until `until` (real time): only if it is still the pending
     * head it was read as, and nobody holds an unexpired lease on it. Of several instances that
     * read the same due delivery, exactly one gets it.
     */
    lease: async (delivery: Delivery, until: string, now: string): Promise<boolean> => {
      const result = await q
        .updateTable('webhook_deliveries')
        .set({ lease_until: until })
        .where('webhook_id', '=', delivery.webhookId)
        .where('event_id', '=', delivery.eventId)
        .where('queue_seq', '=', delivery.queueSeq)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Per webhook, the first pending delivery in queue order, when it is due by `now`. */
    dueDeliveries: async (now: string): Promise<Delivery[]> => {
      const heads = q
        .selectFrom('webhook_deliveries')
        .select((eb) => ['webhook_id', eb.fn.min('queue_seq').as('head')])
        .where('status', '=', 'pending')
        .groupBy('webhook_id')
        .as('h');
      const rows = await q
        .selectFrom('webhook_deliveries as d')
        .innerJoin(heads, (join) => join.onRef('d.webhook_id', '=', 'h.webhook_id').onRef('d.queue_seq', '=', 'h.head'))
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .selectAll('d')
        .select('w.company_id')
        .where('d.next_attempt_at', '<=', now)
        .orderBy('d.queue_seq')
        .execute();
      return rows.map(({ company_id, ...row }) => ({ ...deliveryFromRow(row), companyId: company_id }));
    },
    /**
     * The next position in the webhook queues (one sequence for all). PostgreSQL draws it from a
     * sequence, so concurrent transactions never draw the same number; SQLite has one writer.
     */
    nextQueueSeq: async (): Promise<number> => {
      if (db.engine === 'postgres') {
        const { rows } = await sql<{ n: string }>`select nextval('webhook_queue_seq') as n`.execute(q);
        return count(rows[0]?.n);
      }
      const row = await q
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.coalesce(eb.fn.max('queue_seq'), eb.lit(0)).as('n'))
        .executeTakeFirst();
      return count(row?.n) + 1;
    },
    /** How many deliveries wait to be sent (the outbox backlog). */
    countPending: async (): Promise<number> => {
      const row = await q
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return count(row?.n);
    },
    /** The webhook's latest deliveries, last in queue first. */
    deliveries: async (webhookId: string, limit: number): Promise<Delivery[]> =>
      (await deliveries().where('webhook_id', '=', webhookId).orderBy('queue_seq', 'desc').limit(limit).execute()).map(deliveryFromRow),
    insertAttempt: async (attempt: DeliveryAttempt): Promise<void> => void (await q.insertInto('delivery_attempts').values(attemptToRow(attempt)).execute()),
    /** The attempts to deliver one event to one webhook, in the order they were made. */
    attempts: async (webhookId: string, eventId: number): Promise<DeliveryAttempt[]> =>
      (await q.selectFrom('delivery_attempts').selectAll().where('webhook_id', '=', webhookId).where('event_id', '=', eventId).orderBy('id').execute()).map(
        attemptFromRow,
      ),
  };
}

export type OutboxStore = ReturnType<typeof outboxStore>;
