import type { ColumnType, Generated } from 'kysely';

/**
 * The tables, one type per table, as both engines hold them (column names as in SQL). The
 * migrations of each engine create exactly these (migrations/sqlite, migrations/postgres);
 * every query of the store modules is typed against them, so a renamed column fails to compile.
 *
 * Engines differ in three value types, and the store's row codecs (codecs.ts) absorb them:
 * - a boolean is written as a boolean and read back as 0/1 (SQLite) or a boolean (PostgreSQL);
 * - a JSON column is written as JSON text and read back as text (SQLite) or a value (jsonb);
 * - a timestamp is an ISO-8601 string both ways (TEXT in SQLite, timestamptz in PostgreSQL,
 *   read back through a type parser that gives the same ISO string).
 */
export type Flag = ColumnType<boolean | number, boolean, boolean>;
export type Json = ColumnType<unknown, string, string>;
/** Integers that are large in PostgreSQL (bigint) come back as numbers: a type parser converts them. */
export type Int = number;
export type Timestamp = string;

export interface SettingsTable {
  key: string;
  value: string;
}

export interface CompaniesTable {
  id: string;
  name: string;
  created_at: Timestamp;
  clock_offset_seconds: ColumnType<Int, Int | undefined, Int>;
}

export interface MerchantsTable {
  id: string;
  company_id: string;
  name: string;
  description: string;
  reference: string;
  status: string;
  capture_delay: string;
  multiple_partial_captures: Flag;
  default_shopper_interaction: string;
  primary_settlement_currency: string;
  shop_web_address: string;
  merchant_city: string;
  pricing_plan: string;
  created_at: Timestamp;
}

export interface ApiCredentialsTable {
  id: string;
  company_id: string;
  merchant_id: string | null;
  username: string;
  description: string;
  active: Flag;
  roles: Json;
  allowed_ip_addresses: Json;
  associated_merchant_accounts: Json;
  client_key: string;
  created_at: Timestamp;
  /** Keyed hash of the password shown once at creation; null for credentials made before (or by the seed). */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  subject_dn: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiKeysTable {
  key_hash: string;
  credential_id: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
}

export interface AllowedOriginsTable {
  id: string;
  credential_id: string;
  domain: string;
  created_at: Timestamp;
}

export interface OrdersTable {
  psp_reference: string;
  company_id: string;
  merchant_account: string;
  reference: string;
  currency: string;
  value: Int;
  remaining_value: Int;
  order_data: string;
  expires_at: Timestamp;
  status: string;
  created_at: Timestamp;
}

export interface PaymentsTable {
  psp_reference: string;
  company_id: string;
  merchant_account: string;
  reference: string;
  currency: string;
  authorised_value: Int;
  original_value: Int;
  captured_value: Int;
  refunded_value: Int;
  result_code: string;
  refusal_reason: string | null;
  refusal_reason_code: string | null;
  auth_code: string | null;
  cancelled: Flag;
  capture_closed: Flag;
  auto_captured: Flag;
  capture_delay_hours: Int | null;
  auto_capture_at: Timestamp | null;
  multiple_partial_captures: Flag;
  card_brand: string;
  card_bin: string;
  card_last_four: string;
  expiry_month: string;
  expiry_year: string;
  holder_name: string | null;
  shopper_reference: string | null;
  return_url: string;
  order_psp_reference: string | null;
  details_submitted: Flag;
  payment_method_type: string;
  payment_data: string | null;
  session_id: string | null;
  payment_link_id: string | null;
  stored_payment_method_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** What the payment method's flow keeps for later steps (migration 0060). */
  method_state: ColumnType<unknown, string | undefined, string>;
  /** When the method's next clock-driven step falls due (migration 0060). */
  settle_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface ModificationsTable {
  psp_reference: string;
  payment_psp_reference: string;
  merchant_account: string;
  kind: string;
  currency: string | null;
  value: Int | null;
  reference: string | null;
  status: string;
  action: string | null;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  credential_id: string;
  key: string;
  company_id: string;
  fingerprint: string;
  status_code: Int;
  body: string;
  created_at: Timestamp;
}

export interface StoredPaymentMethodsTable {
  id: string;
  company_id: string;
  merchant_account: string;
  shopper_reference: string;
  shopper_email: string | null;
  brand: string;
  card_bin: string;
  last_four: string;
  expiry_month: string;
  expiry_year: string;
  holder_name: string | null;
  recurring_processing_model: string;
  encrypted_number: string;
  created_at: Timestamp;
}

export interface PaymentLinksTable {
  id: string;
  company_id: string;
  merchant_account: string;
  reference: string;
  fields: Json;
  status: string;
  reusable: Flag;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CheckoutSessionsTable {
  id: string;
  company_id: string;
  merchant_account: string;
  reference: string;
  fields: Json;
  session_data: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface PaymentMethodSettingsTable {
  id: string;
  merchant_id: string;
  type: string;
  enabled: Flag;
  countries: Json;
  currencies: Json;
  custom_routing_flags: Json;
  store_ids: Json;
  channels: Json;
  shopper_interaction: string | null;
  reference: string | null;
  min_amount: Int | null;
  max_amount: Int | null;
  details: Json;
  business_line_id: string | null;
  verification_status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
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
}

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

export interface PayoutSettingsTable {
  id: string;
  merchant_id: string;
  transfer_instrument_id: string;
  enabled: Flag;
  enabled_from_date: string | null;
  priority: string;
  verification_status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SplitConfigurationsTable {
  id: string;
  merchant_id: string;
  description: string;
  rules: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AndroidAppsTable {
  id: string;
  company_id: string;
  status: string;
  package_name: string | null;
  version_code: Int | null;
  version_name: string | null;
  label: string | null;
  description: string | null;
  error_code: string | null;
  file_path: string;
  file_size: Int;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AndroidCertificatesTable {
  id: string;
  company_id: string;
  name: string;
  extension: string;
  description: string | null;
  status: string;
  not_before: string;
  not_after: string;
  created_at: Timestamp;
}

export interface StoresTable {
  id: string;
  merchant_id: string;
  reference: string;
  description: string;
  shopper_statement: string;
  phone_number: string;
  address: Json;
  status: string;
  details: Json;
}

export interface TerminalsTable {
  id: string;
  company_id: string;
  merchant_id: string;
  store_id: string | null;
  model: string;
  brand: string;
  serial_number: string;
  firmware_version: string;
  country_code: string;
  status: string;
}

/** One row per level, owner and terminal model that sets a logo of its own. */
export interface TerminalLogosTable {
  level: string;
  owner_id: string;
  model: string;
  data: string;
  updated_at: Timestamp;
}

export interface TerminalSettingsTable {
  level: string;
  owner_id: string;
  sections: Json;
  updated_at: Timestamp;
}

/** PostgreSQL only: on SQLite one process owns the file and keeps its buckets in memory (kernel/http/rate-limit.ts). */
export interface RateLimitsTable {
  key: string;
  tokens: number;
  at_ms: Int;
}

export interface RetiredClientKeysTable {
  client_key: string;
  credential_id: string;
  expires_at: Timestamp;
}

export interface UsersTable {
  id: string;
  company_id: string;
  merchant_id: string | null;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  active: Flag;
  roles: Json;
  account_groups: Json;
  associated_merchant_accounts: Json;
  time_zone_code: string;
  login_method: string;
  created_at: Timestamp;
}

/** A donation (POST /donations) and the payment that charged it. */
export interface DonationsTable {
  id: string;
  company_id: string;
  merchant_account: string;
  campaign_id: string;
  donation_account: string;
  payment_psp_reference: string;
  original_psp_reference: string | null;
  reference: string;
  currency: string;
  value: Int;
  status: string;
  created_at: Timestamp;
}

export interface Database {
  settings: SettingsTable;
  companies: CompaniesTable;
  merchants: MerchantsTable;
  api_credentials: ApiCredentialsTable;
  api_keys: ApiKeysTable;
  allowed_origins: AllowedOriginsTable;
  orders: OrdersTable;
  payments: PaymentsTable;
  modifications: ModificationsTable;
  idempotency_keys: IdempotencyKeysTable;
  stored_payment_methods: StoredPaymentMethodsTable;
  payment_links: PaymentLinksTable;
  checkout_sessions: CheckoutSessionsTable;
  payment_method_settings: PaymentMethodSettingsTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  payout_settings: PayoutSettingsTable;
  split_configurations: SplitConfigurationsTable;
  android_apps: AndroidAppsTable;
  android_certificates: AndroidCertificatesTable;
  stores: StoresTable;
  terminals: TerminalsTable;
  terminal_settings: TerminalSettingsTable;
  terminal_logos: TerminalLogosTable;
  rate_limits: RateLimitsTable;
  retired_client_keys: RetiredClientKeysTable;
  users: UsersTable;
  donations: DonationsTable;
}
