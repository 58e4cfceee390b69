/** Webhooks and the event outbox. */

/** An outcome to report as a webhook event (the transactional outbox). */
export interface OutboxEvent {
  id?: number;
  companyId: string;
  merchantAccount: string;
  eventCode: string;
  pspReference: string;
  originalReference: string | null;
  merchantReference: string;
  currency: string;
  value: number;
  success: boolean;
  reason: string;
  paymentMethod: string | null;
  additionalData: Record<string, string>;
  eventDate: string;
  createdAt: string;
  /**
   * The id of the request that caused the event (its X-Request-Id), for the delivery log; null for
   * the server's own work (the clock, the dispatcher) and for events recorded before it was kept.
   */
  requestId: string | null;
}

/** Which merchant accounts a company webhook covers. */
export type MerchantAccountFilter = { type: 'allAccounts' } | { type: 'includeAccounts' | 'excludeAccounts'; merchantAccounts: string[] };

export interface Webhook {
  id: string;
  companyId: string;
  /** The merchant account of a merchant webhook; null for a company webhook. */
  merchantId: string | null;
  /** A company webhook's filter; null for a merchant webhook. */
  filter: MerchantAccountFilter | null;
  /** Event codes: only these when set, and never the excluded ones. */
  includeEventCodes: string[] | null;
  excludeEventCodes: string[] | null;
  /** Adyen's additional settings (`includeCaptureDelayHours` and the like): kept and shown. */
  additionalProperties: Record<string, boolean> | null;
  /** Identifies the HMAC key without revealing it (see webhooks.domain hmacKeyCheckValue). */
  hmacKeyCheckValue: string | null;
  /** One of Adyen's webhook types (management/webhooks WEBHOOK_TYPES); only `standard` receives events. */
  type: string;
  url: string;
  active: boolean;
  communicationFormat: 'http' | 'json' | 'soap';
  description: string | null;
  username: string | null;
  /** Encrypted with the card vault key: the service must send it, so it cannot be hashed. */
  encryptedPassword: string | null;
  encryptedHmacKey: string | null;
  acceptsExpiredCertificate: boolean;
  acceptsSelfSignedCertificate: boolean;
  acceptsUntrustedRootCertificate: boolean;
  populateSoapActionHeader: boolean;
  networkType: 'local' | 'public' | null;
  encryptionProtocol: 'HTTP' | 'TLSv1.2' | 'TLSv1.3' | null;
  hasError: boolean;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  webhookId: string;
  /** The company of the webhook (read with due deliveries: whose clock decides when it is due). */
  companyId?: string;
  eventId: number;
  queueSeq: number;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Faults the sandbox puts into one webhook's deliveries on purpose (docs/webhooks.md, "Faults on
 * purpose"). No row: none.
 */
export interface WebhookFaults {
  webhookId: string;
  /** Every delivery waits this many seconds of real time before it is sent. */
  delaySeconds: number;
  /** Every event is sent twice, the same body, once the receiver accepted it. */
  duplicate: boolean;
  /** The next this many queued events are held until all are queued, then sent newest first. */
  outOfOrder: number;
  /** The next this many attempts are not sent and count as failed. */
  failNextAttempts: number;
  updatedAt: string;
}

export interface DeliveryAttempt {
  webhookId: string;
  eventId: number;
  attemptedAt: string;
  outcome: 'accepted' | 'rejected' | 'error';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the receiver's answer (card numbers masked), when it answered; absent on attempts recorded before it was kept. */
  responseExcerpt?: string | null;
}
