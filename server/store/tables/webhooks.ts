import type { ColumnType, Generated } from 'kysely';
import type { Flag, Json, Int, Timestamp } from './columns.js';

/** Webhooks and the event outbox: events, their deliveries to each webhook and the attempts. */

export interface WebhooksTable {
  id: string;
  company_id: string;
  /** NULL for a company webhook. */
  merchant_id: string | null;
  type: string;
  url: string;
  active: Flag;
  communication_format: string;
  description: string | null;
  username: string | null;
  encrypted_password: string | null;
  encrypted_hmac_key: string | null;
  accepts_expired_certificate: Flag;
  accepts_self_signed_certificate: Flag;
  accepts_untrusted_root_certificate: Flag;
  populate_soap_action_header: Flag;
  network_type: string | null;
  encryption_protocol: string | null;
  has_error: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  hmac_key_check_value: ColumnType<string | null, string | null | undefined, string | null>;
  filter_merchant_account_type: ColumnType<string | null, string | null | undefined, string | null>;
  filter_merchant_accounts: ColumnType<unknown, string | null | undefined, string | null>;
  include_event_codes: ColumnType<unknown, string | null | undefined, string | null>;
  exclude_event_codes: ColumnType<unknown, string | null | undefined, string | null>;
  additional_properties: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface EventsTable {
  id: Generated<Int>;
  company_id: string;
  merchant_account: string;
  event_code: string;
  psp_reference: string;
  original_reference: string | null;
  merchant_reference: string;
  currency: string;
  value: Int;
  success: Flag;
  reason: string;
  payment_method: string | null;
  additional_data: Json;
  event_date: Timestamp;
  created_at: Timestamp;
  /** The request that caused the event (migration 0070); NULL for the server's own work and older events. */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WebhookDeliveriesTable {
  webhook_id: string;
  event_id: Int;
  queue_seq: Int;
  status: string;
  attempts: Int;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Real time until which one instance is sending it (see outbox.lease). */
  lease_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface DeliveryAttemptsTable {
  id: Generated<Int>;
  webhook_id: string;
  event_id: Int;
  attempted_at: Timestamp;
  outcome: string;
  status_code: Int | null;
  error: string | null;
  duration_ms: Int;
}
