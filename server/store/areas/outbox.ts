import { type Insertable, type Selectable, sql } from 'kysely';
import { count, flag, jsonText, parsed } from '../codec.js';
import type { Db } from '../db.js';
import { preparedInsert } from '../prepared.js';
import type { Delivery, DeliveryAttempt, OutboxEvent } from '../records/webhooks.js';
import type { DeliveryAttempts, Events, WebhookDeliveries } from '../schema.generated.js';

const eventFromRow = (r: Selectable<Events>): OutboxEvent => ({
  id: r.id,
  companyId: r.companyId,
  merchantAccount: r.merchantAccount,
  eventCode: r.eventCode,
  pspReference: r.pspReference,
  originalReference: r.originalReference,
  merchantReference: r.merchantReference,
  currency: r.currency,
  value: r.value,
  success: flag(r.success),
  reason: r.reason,
  paymentMethod: r.paymentMethod,
  additionalData: parsed<Record<string, string>>(r.additionalData),
  eventDate: r.eventDate,
  createdAt: r.createdAt,
  requestId: r.requestId,
});

/** The id is left out: the database numbers events. */
const eventToRow = (e: OutboxEvent): Insertable<Events> => ({
  companyId: e.companyId,
  merchantAccount: e.merchantAccount,
  eventCode: e.eventCode,
  pspReference: e.pspReference,
  originalReference: e.originalReference,
  merchantReference: e.merchantReference,
  currency: e.currency,
  value: e.value,
  success: e.success,
  reason: e.reason,
  paymentMethod: e.paymentMethod,
  additionalData: jsonText(e.additionalData),
  eventDate: e.eventDate,
  createdAt: e.createdAt,
  requestId: e.requestId,
});

const deliveryFromRow = (r: Selectable<WebhookDeliveries>): Delivery => ({
  webhookId: r.webhookId,
  eventId: r.eventId,
  queueSeq: r.queueSeq,
  status: r.status as Delivery['status'],
  attempts: r.attempts,
  nextAttemptAt: r.nextAttemptAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** `companyId` is left out: it is the webhook's, read with due deliveries only. */
const deliveryToRow = (d: Delivery): Insertable<WebhookDeliveries> => ({
  webhookId: d.webhookId,
  eventId: d.eventId,
  queueSeq: d.queueSeq,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: d.nextAttemptAt,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

const attemptFromRow = (r: Selectable<DeliveryAttempts>): DeliveryAttempt => ({
  webhookId: r.webhookId,
  eventId: r.eventId,
  attemptedAt: r.attemptedAt,
  outcome: r.outcome as DeliveryAttempt['outcome'],
  statusCode: r.statusCode,
  error: r.error,
  durationMs: r.durationMs,
  responseExcerpt: r.responseExcerpt,
});

const attemptToRow = (a: DeliveryAttempt): Insertable<DeliveryAttempts> => ({
  webhookId: a.webhookId,
  eventId: a.eventId,
  attemptedAt: a.attemptedAt,
  outcome: a.outcome,
  statusCode: a.statusCode,
  error: a.error,
  durationMs: a.durationMs,
  responseExcerpt: a.responseExcerpt ?? null,
});

// Written with every change that reports an event: compiled once (see prepared.ts).
const insertEventRow = preparedInsert('events', 'id');
const insertDeliveryRow = preparedInsert('webhookDeliveries');

/**
 * The transactional outbox: events to report, their deliveries to each webhook (one queue per
 * webhook, in `queue_seq` order) and the attempts made to send them.
 */
export function outboxStore(db: Db) {
  const { q } = db;
  const deliveries = () => q.selectFrom('webhookDeliveries').selectAll();
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
        await q.selectFrom('events').selectAll().where('merchantAccount', '=', merchantAccount).where('id', '>', afterId).orderBy('id').limit(limit).execute()
      ).map(eventFromRow),
    insertDelivery: async (delivery: Delivery): Promise<void> => void (await insertDeliveryRow(db, deliveryToRow(delivery))),
    getDelivery: async (webhookId: string, eventId: number): Promise<Delivery | undefined> => {
      const row = await deliveries().where('webhookId', '=', webhookId).where('eventId', '=', eventId).executeTakeFirst();
      return row && deliveryFromRow(row);
    },
    /** Writes a delivery's progress (queue position, status, attempts, next attempt). */
    updateDelivery: async (delivery: Delivery): Promise<void> => {
      const { webhookId, eventId, createdAt: _created, ...changes } = deliveryToRow(delivery);
      // An attempt's outcome ends its lease.
      await q
        .updateTable('webhookDeliveries')
        .set({ ...changes, leaseUntil: null })
        .where('webhookId', '=', webhookId)
        .where('eventId', '=', eventId)
        .execute();
    },
    /**
     * Takes the delivery for one attempt, until `until` (real time): only if it is still the pending
     * head it was read as, and nobody holds an unexpired lease on it. Of several instances that
     * read the same due delivery, exactly one gets it.
     */
    lease: async (delivery: Delivery, until: string, now: string): Promise<boolean> => {
      const result = await q
        .updateTable('webhookDeliveries')
        .set({ leaseUntil: until })
        .where('webhookId', '=', delivery.webhookId)
        .where('eventId', '=', delivery.eventId)
        .where('queueSeq', '=', delivery.queueSeq)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Per webhook (or of one webhook), the first pending delivery in queue order, when it is due by `now`. */
    dueDeliveries: async (now: string, webhookId?: string): Promise<Delivery[]> => {
      const heads = q
        .selectFrom('webhookDeliveries')
        .select((eb) => ['webhookId', eb.fn.min('queueSeq').as('head')])
        .where('status', '=', 'pending')
        .$if(webhookId !== undefined, (qb) => qb.where('webhookId', '=', webhookId!))
        .groupBy('webhookId')
        .as('h');
      const rows = await q
        .selectFrom('webhookDeliveries as d')
        .innerJoin(heads, (join) => join.onRef('d.webhookId', '=', 'h.webhookId').onRef('d.queueSeq', '=', 'h.head'))
        .innerJoin('webhooks as w', 'w.id', 'd.webhookId')
        .leftJoin('webhookFaults as f', 'f.webhookId', 'd.webhookId')
        .selectAll('d')
        .select('w.companyId')
        .where('d.status', '=', 'pending')
        .where('d.nextAttemptAt', '<=', now)
        // A webhook holding events out of order (a sandbox fault) is due once the batch is queued.
        .where((eb) =>
          eb.or([
            eb('f.outOfOrder', 'is', null),
            eb('f.outOfOrder', '=', 0),
            eb(
              'f.outOfOrder',
              '<=',
              eb
                .selectFrom('webhookDeliveries as p')
                .select((c) => c.fn.countAll<number>().as('n'))
                .whereRef('p.webhookId', '=', 'd.webhookId')
                .where('p.status', '=', 'pending'),
            ),
          ]),
        )
        .orderBy('d.queueSeq')
        .orderBy('d.eventId')
        .execute();
      // One per webhook: its head (positions are unique; the event id orders any tie all the same).
      const taken = new Set<string>();
      return rows
        .filter((row) => !taken.has(row.webhookId) && taken.add(row.webhookId))
        .map(({ companyId, ...row }) => ({ ...deliveryFromRow(row), companyId }));
    },
    /**
     * A position after every queued delivery, for an event queued again. A new event's deliveries
     * take its id as their position, so the number is drawn from the events' own id sequence: later
     * events come after it, and no event ever takes it (concurrent transactions never draw the same
     * number on PostgreSQL; SQLite's AUTOINCREMENT keeps its sequence in sqlite_sequence, moved here
     * in the writing transaction).
     */
    nextQueueSeq: async (): Promise<number> => {
      if (db.engine === 'postgres') {
        const { rows } = await sql<{ n: string }>`select nextval(pg_get_serial_sequence('events', 'id')) as n`.execute(q);
        return count(rows[0]?.n);
      }
      const { rows } = await sql<{ n: number }>`update sqlite_sequence set seq = max(seq, (select coalesce(max(id), 0) from events)) + 1
          where name = 'events' returning seq as n`.execute(q);
      if (rows.length === 0) throw new Error('no event was ever queued: nothing can be queued again');
      return count(rows[0]!.n);
    },
    /** How many deliveries wait to be sent (the outbox backlog). */
    countPending: async (): Promise<number> => {
      const row = await q
        .selectFrom('webhookDeliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return count(row?.n);
    },
    /** The webhook's first `limit` pending deliveries, in queue order. */
    pendingDeliveries: async (webhookId: string, limit: number): Promise<Delivery[]> =>
      (await deliveries().where('webhookId', '=', webhookId).where('status', '=', 'pending').orderBy('queueSeq').limit(limit).execute()).map(deliveryFromRow),
    /** Moves a delivery to another position of its webhook's queue. */
    moveDelivery: async (webhookId: string, eventId: number, queueSeq: number): Promise<void> =>
      void (await q.updateTable('webhookDeliveries').set({ queueSeq }).where('webhookId', '=', webhookId).where('eventId', '=', eventId).execute()),
    /** The webhook's latest deliveries, last in queue first. */
    deliveries: async (webhookId: string, limit: number): Promise<Delivery[]> =>
      (await deliveries().where('webhookId', '=', webhookId).orderBy('queueSeq', 'desc').limit(limit).execute()).map(deliveryFromRow),
    insertAttempt: async (attempt: DeliveryAttempt): Promise<void> => void (await q.insertInto('deliveryAttempts').values(attemptToRow(attempt)).execute()),
    /** The attempts to deliver one event to one webhook, in the order they were made. */
    attempts: async (webhookId: string, eventId: number): Promise<DeliveryAttempt[]> =>
      (await q.selectFrom('deliveryAttempts').selectAll().where('webhookId', '=', webhookId).where('eventId', '=', eventId).orderBy('id').execute()).map(
        attemptFromRow,
      ),
  };
}

export type OutboxStore = ReturnType<typeof outboxStore>;
