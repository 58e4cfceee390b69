import type { ColumnType } from 'kysely';
import type { Flag, Json, Int, Timestamp } from './columns.js';

/** Payments and their modifications, orders, stored payment methods, payment links, sessions and donations. */

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
