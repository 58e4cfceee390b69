import type { Flag, Json, Int, Timestamp } from './columns.js';

/** What merchant accounts and companies configure: payment methods, payouts, splits, Android apps and certificates, stores, terminals and their settings. */

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
