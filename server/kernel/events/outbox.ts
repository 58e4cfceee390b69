import type { OutboxEvent } from '../../store/types.js';
import { together, type Tx } from '../../store/tx.js';
import { recipients } from './routing.js';

export type EventInput = Omit<
  OutboxEvent,
  'id' | 'createdAt' | 'eventDate' | 'additionalData' | 'reason' | 'originalReference' | 'paymentMethod' | 'requestId'
> &
  Partial<Pick<OutboxEvent, 'additionalData' | 'reason' | 'originalReference' | 'paymentMethod'>>;

/**
 * Records an outcome to report as a webhook, in the caller's transaction, and queues it for
 * every active webhook that covers the merchant account and wants the event code: the account's
 * own webhooks and its company's webhooks whose filter takes the account in. The event and its
 * deliveries exist exactly when the change they report was committed (the transactional
 * outbox); each delivery is a queue entry of its own webhook, signed with that webhook's key
 * when the dispatcher sends it. The event keeps the id of the request being handled, if any,
 * which the dispatcher logs with every attempt to deliver it.
 */
export async function recordEvent(tx: Tx, now: Date, event: EventInput): Promise<number> {
  const at = now.toISOString();
  // The event's row and the webhooks it goes to do not depend on each other, nor do the
  // deliveries: asked for together, PostgreSQL answers each group in one round trip (the
  // connection pipelines them); either failing fails the transaction, which is rolled back whole.
  const [id, webhooks] = await together([
    tx.outbox.insertEvent({
      reason: '',
      originalReference: null,
      paymentMethod: null,
      additionalData: {},
      ...event,
      eventDate: at,
      createdAt: at,
      requestId: tx.context.requestId,
    }),
    tx.webhooks.active(event.merchantAccount, event.companyId),
  ]);
  await together(
    recipients(webhooks, event).map((webhook) =>
      tx.outbox.insertDelivery({
        webhookId: webhook.id,
        eventId: id,
        queueSeq: id,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: at,
        createdAt: at,
        updatedAt: at,
      }),
    ),
  );
  return id;
}
