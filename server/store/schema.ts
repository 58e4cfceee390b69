import type {
  AndroidAppsTable,
  AndroidCertificatesTable,
  PaymentMethodSettingsTable,
  PayoutSettingsTable,
  SplitConfigurationsTable,
  StoresTable,
  TerminalLogosTable,
  TerminalSettingsTable,
  TerminalsTable,
} from './tables/merchant-settings.js';
import type {
  AllowedOriginsTable,
  ApiCredentialsTable,
  ApiKeysTable,
  CompaniesTable,
  IdempotencyKeysTable,
  MerchantsTable,
  RateLimitsTable,
  RetiredClientKeysTable,
  SettingsTable,
  UsersTable,
} from './tables/accounts.js';
import type {
  CheckoutSessionsTable,
  DonationsTable,
  ModificationsTable,
  OrdersTable,
  PaymentLinksTable,
  PaymentsTable,
  StoredPaymentMethodsTable,
} from './tables/checkout.js';
import type { DeliveryAttemptsTable, EventsTable, WebhookDeliveriesTable, WebhooksTable } from './tables/webhooks.js';
import type { SealedSecretsTable } from './tables/secrets.js';

/**
 * The tables, one type per table, as both engines hold them (column names as in SQL). The
 * migrations of each engine create exactly these (migrations/sqlite, migrations/postgres);
 * every query of the store modules is typed against them, so a renamed column fails to compile.
 * Each table's type lives with its area's in tables/; the column types where the engines
 * differ are in tables/columns.ts.
 */
export interface Database {
  settings: SettingsTable;
  sealed_secrets: SealedSecretsTable;
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
