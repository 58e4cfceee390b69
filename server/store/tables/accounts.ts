import type { ColumnType } from 'kysely';
import type { Flag, Json, Int, Timestamp } from './columns.js';

/** Companies and their merchant accounts, API credentials and their keys, users, idempotency records, rate-limit buckets and the server settings. */

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

export interface IdempotencyKeysTable {
  credential_id: string;
  key: string;
  company_id: string;
  fingerprint: string;
  status_code: Int;
  body: string;
  created_at: Timestamp;
}

/** PostgreSQL only: on SQLite one process owns the file and keeps its buckets in memory (kernel/http/rate-limit.ts). */
export interface RateLimitsTable {
  key: string;
  tokens: number;
  at_ms: Int;
}
