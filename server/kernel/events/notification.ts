import { type Notification, type NotificationRequestItem, signItem } from '../../../lib/webhook-signature.js';
import type { OutboxEvent } from '../../store/types.js';

/** The standard webhook body of an event (Adyen's standard webhook: `live`, `notificationItems[].NotificationRequestItem`), signed when the webhook has an HMAC key. */
export function toNotification(
  event: Pick<
    OutboxEvent,
    | 'eventCode'
    | 'success'
    | 'pspReference'
    | 'originalReference'
    | 'merchantAccount'
    | 'merchantReference'
    | 'currency'
    | 'value'
    | 'eventDate'
    | 'reason'
    | 'paymentMethod'
    | 'additionalData'
  >,
  hmacKey: string | undefined,
  live = false,
): Notification {
  const item: NotificationRequestItem = {
    eventCode: event.eventCode,
    success: event.success ? 'true' : 'false',
    pspReference: event.pspReference,
    ...(event.originalReference && { originalReference: event.originalReference }),
    merchantAccountCode: event.merchantAccount,
    merchantReference: event.merchantReference,
    amount: { currency: event.currency, value: event.value },
    eventDate: event.eventDate,
    reason: event.reason,
    ...(event.paymentMethod && { paymentMethod: event.paymentMethod }),
    additionalData: { ...event.additionalData },
  };
  if (hmacKey) item.additionalData = { ...item.additionalData, hmacSignature: signItem(hmacKey, item) };
  return { live: live ? 'true' : 'false', notificationItems: [{ NotificationRequestItem: item }] };
}
