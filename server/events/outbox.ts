import type { OutboxEvent, Tx } from '../store/types.js';

export type EventInput = Omit<OutboxEvent, 'id' | 'createdAt' | 'eventDate' | 'additionalData' | 'reason' | 'originalReference' | 'paymentMethod'> &
  Partial<Pick<OutboxEvent, 'additionalData' | 'reason' | 'originalReference' | 'paymentMethod'>>;

/**
 * Records an outcome to report as a webhook, in the caller's transaction: the event exists
 * exactly when the change it reports was committed (the transactional outbox).
 */
export async function recordEvent(tx: Tx, now: Date, event: EventInput): Promise<number> {
  return tx.insertEvent({
    reason: '',
    originalReference: null,
    paymentMethod: null,
    additionalData: {},
    ...event,
    eventDate: now.toISOString(),
    createdAt: now.toISOString(),
  });
}
