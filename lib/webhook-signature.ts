/**
 * Standard webhook signatures (HMAC-SHA256), shared by the server that signs and the merchants
 * who verify. The signed text is eight values joined with `:` — pspReference, originalReference,
 * merchantAccountCode, merchantReference, amount value, amount currency, eventCode, success —
 * with missing values as empty strings; the key is hex; the signature is base64 and travels in
 * `additionalData.hmacSignature`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface NotificationRequestItem {
  pspReference: string;
  originalReference?: string;
  merchantAccountCode: string;
  merchantReference: string;
  amount: { currency: string; value: number };
  eventCode: string;
  success: string;
  additionalData?: Record<string, string>;
  [field: string]: unknown;
}

export interface Notification {
  live: string;
  notificationItems: Array<{ NotificationRequestItem: NotificationRequestItem }>;
}

/** The text that is signed. */
export function signingString(item: NotificationRequestItem): string {
  return [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
}

/** The base64 HMAC-SHA256 of `data` with a hex key. */
export function hmacBase64(hexKey: string, data: string): string {
  if (!/^([0-9a-fA-F]{2})+$/.test(hexKey)) throw new Error('the HMAC key must be hexadecimal');
  return createHmac('sha256', Buffer.from(hexKey, 'hex')).update(data, 'utf8').digest('base64');
}

/** The signature of a notification item. */
export function signItem(hexKey: string, item: NotificationRequestItem): string {
  return hmacBase64(hexKey, signingString(item));
}

/** Whether the item's `additionalData.hmacSignature` was made with the key (constant-time compare). */
export function verifyHmacSignature(hexKey: string, item: NotificationRequestItem): boolean {
  const given = item.additionalData?.hmacSignature;
  if (!given) return false;
  const expected = Buffer.from(signItem(hexKey, item), 'base64');
  const actual = Buffer.from(given, 'base64');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
