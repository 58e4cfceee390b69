/** The console's records: sign-in sessions and the request log. */

/** A console session: only the keyed hash of its token is kept, and the keyed hash of the API key it was opened with. */
export interface ConsoleSessionRow {
  tokenHash: string;
  keyHash: string;
  credentialId: string;
  companyId: string;
  createdAt: string;
  expiresAt: string;
}

/** One recorded API request, its bodies already redacted (JSON text) or null. */
export interface RequestLogRecord {
  companyId: string;
  occurredAt: string;
  area: string;
  method: string;
  path: string;
  query: string | null;
  operationId: string | null;
  status: number;
  durationMs: number;
  credentialId: string | null;
  credentialUsername: string | null;
  idempotencyKey: string | null;
  requestId: string;
  pspReference: string | null;
  merchantAccount: string | null;
  requestBody: string | null;
  responseBody: string | null;
}

export interface StoredRequestLogEntry extends RequestLogRecord {
  id: number;
}

/**
 * Whose entries and payments a credential sees: `merchantAccounts` null is the whole company;
 * otherwise those merchant accounts, and (for the request log) what `credentialId` made itself.
 */
export interface ConsoleScope {
  companyId: string;
  merchantAccounts: readonly string[] | null;
  credentialId: string;
}

export interface RequestLogFilter {
  path?: string;
  status?: number;
  requestId?: string;
  pspReference?: string;
  /** Only entries older than this id (the cursor). */
  beforeId?: number;
  limit: number;
}

/** Payment search of the console; `status` is the derived state of ConsolePaymentStatus. */
export interface ConsolePaymentFilter {
  q?: string;
  merchantAccount?: string;
  status?: 'pending' | 'authorised' | 'captured' | 'refunded' | 'chargedBack' | 'cancelled' | 'refused' | 'error';
  paymentMethod?: string;
  from?: string;
  to?: string;
  /** Only payments before this one, newest first (the cursor). */
  before?: { createdAt: string; pspReference: string };
  limit: number;
}

/** A payment as the console reads it. */
export interface ConsolePaymentRow {
  pspReference: string;
  merchantAccount: string;
  reference: string;
  shopperReference: string | null;
  currency: string;
  authorisedValue: number;
  capturedValue: number;
  refundedValue: number;
  chargedBackValue: number;
  resultCode: string;
  cancelled: boolean;
  captureClosed: boolean;
  paymentMethodType: string;
  cardBrand: string;
  cardLastFour: string;
  createdAt: string;
  updatedAt: string;
}

/** Something a sandbox clock advance made due (ConsoleClockAdvance's DueItem). */
export interface DueRow {
  kind: 'delayedCapture' | 'paymentSettlement' | 'webhookRetry' | 'orderExpiry' | 'paymentLinkExpiry' | 'sessionExpiry';
  dueAt: string;
  merchantAccount: string;
  pspReference?: string;
  id?: string;
  webhookId?: string;
  eventId?: number;
}
