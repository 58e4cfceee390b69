/**
 * Verifying the standard webhooks the server sends: the signing code is the server's own
 * (lib/webhook-signature.ts, shared by both sides so that they cannot disagree).
 */
export { hmacBase64, type Notification, type NotificationRequestItem, signingString, signItem, verifyHmacSignature } from '../lib/webhook-signature.js';
