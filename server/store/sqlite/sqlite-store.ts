import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type {
  ApiKeyRecord,
  CheckoutSession,
  OutboxEvent,
  PaymentLink,
  PaymentMethodSetting,
  StoredPaymentMethod,
  PayoutSetting,
  SplitConfigurationRecord,
  AndroidApp,
  AndroidCertificate,
  StoreLocation,
  Terminal,
  Delivery,
  DeliveryAttempt,
  Webhook,
  Credential,
  Merchant,
  Modification,
  Order,
  Page,
  Payment,
  Store,
  Tx,
} from '../types.js';

type Row = Record<string, unknown>;

export interface SqliteOptions {
  /** A file path, or ':memory:' for tests that need no durability. */
  path: string;
  /** FULL survives power loss; NORMAL survives a killed process. */
  synchronous: 'FULL' | 'NORMAL';
  migrationsDir: string;
  /** The keyed API-key hash (`tx.hashApiKey`); without it the store refuses to hash API keys. */
  hashApiKey?: (apiKey: string) => string;
}

const noApiKeyHasher = (): string => {
  throw new Error('this store was opened without an API-key hasher (the server secret)');
};

const str = (v: unknown): string => v as string;
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));
const num = (v: unknown): number => Number(v);
const bool = (v: unknown): boolean => v === 1 || v === 1n || v === true;
const json = <T>(v: unknown): T => JSON.parse(v as string) as T;

const toMerchant = (r: Row): Merchant => ({
  id: str(r.id),
  companyId: str(r.company_id),
  name: str(r.name),
  description: str(r.description),
  reference: str(r.reference),
  status: str(r.status) as Merchant['status'],
  captureDelay: /^\d+$/.test(str(r.capture_delay)) ? Number(r.capture_delay) : (str(r.capture_delay) as 'immediate' | 'manual'),
  multiplePartialCaptures: bool(r.multiple_partial_captures),
  defaultShopperInteraction: str(r.default_shopper_interaction),
  primarySettlementCurrency: str(r.primary_settlement_currency),
  shopWebAddress: str(r.shop_web_address),
  merchantCity: str(r.merchant_city),
  pricingPlan: str(r.pricing_plan),
  createdAt: str(r.created_at),
});

const toCredential = (r: Row): Credential => ({
  id: str(r.id),
  companyId: str(r.company_id),
  merchantId: strOrNull(r.merchant_id),
  username: str(r.username),
  description: str(r.description),
  active: bool(r.active),
  roles: json<string[]>(r.roles),
  allowedIpAddresses: json<string[]>(r.allowed_ip_addresses),
  associatedMerchantAccounts: json<string[]>(r.associated_merchant_accounts),
  clientKey: str(r.client_key),
  createdAt: str(r.created_at),
});

const toPayment = (r: Row): Payment => ({
  pspReference: str(r.psp_reference),
  companyId: str(r.company_id),
  merchantAccount: str(r.merchant_account),
  reference: str(r.reference),
  currency: str(r.currency),
  authorisedValue: num(r.authorised_value),
  originalValue: num(r.original_value),
  capturedValue: num(r.captured_value),
  refundedValue: num(r.refunded_value),
  resultCode: str(r.result_code) as Payment['resultCode'],
  refusalReason: strOrNull(r.refusal_reason),
  refusalReasonCode: strOrNull(r.refusal_reason_code),
  authCode: strOrNull(r.auth_code),
  cancelled: bool(r.cancelled),
  captureClosed: bool(r.capture_closed),
  autoCaptured: bool(r.auto_captured),
  captureDelayHours: r.capture_delay_hours === null ? null : num(r.capture_delay_hours),
  autoCaptureAt: strOrNull(r.auto_capture_at),
  multiplePartialCaptures: bool(r.multiple_partial_captures),
  cardBrand: str(r.card_brand),
  cardBin: str(r.card_bin),
  cardLastFour: str(r.card_last_four),
  expiryMonth: str(r.expiry_month),
  expiryYear: str(r.expiry_year),
  holderName: strOrNull(r.holder_name),
  shopperReference: strOrNull(r.shopper_reference),
  returnUrl: str(r.return_url),
  orderPspReference: strOrNull(r.order_psp_reference),
  detailsSubmitted: bool(r.details_submitted),
  paymentMethodType: str(r.payment_method_type),
  paymentData: strOrNull(r.payment_data),
  sessionId: strOrNull(r.session_id),
  paymentLinkId: strOrNull(r.payment_link_id),
  storedPaymentMethodId: strOrNull(r.stored_payment_method_id),
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
});

const paymentParams = (p: Payment) => ({
  psp_reference: p.pspReference,
  company_id: p.companyId,
  merchant_account: p.merchantAccount,
  reference: p.reference,
  currency: p.currency,
  authorised_value: p.authorisedValue,
  original_value: p.originalValue,
  captured_value: p.capturedValue,
  refunded_value: p.refundedValue,
  result_code: p.resultCode,
  refusal_reason: p.refusalReason,
  refusal_reason_code: p.refusalReasonCode,
  auth_code: p.authCode,
  cancelled: p.cancelled ? 1 : 0,
  capture_closed: p.captureClosed ? 1 : 0,
  auto_captured: p.autoCaptured ? 1 : 0,
  capture_delay_hours: p.captureDelayHours,
  auto_capture_at: p.autoCaptureAt,
  multiple_partial_captures: p.multiplePartialCaptures ? 1 : 0,
  card_brand: p.cardBrand,
  card_bin: p.cardBin,
  card_last_four: p.cardLastFour,
  expiry_month: p.expiryMonth,
  expiry_year: p.expiryYear,
  holder_name: p.holderName,
  shopper_reference: p.shopperReference,
  return_url: p.returnUrl,
  order_psp_reference: p.orderPspReference,
  details_submitted: p.detailsSubmitted ? 1 : 0,
  payment_method_type: p.paymentMethodType,
  payment_data: p.paymentData,
  session_id: p.sessionId,
  payment_link_id: p.paymentLinkId,
  stored_payment_method_id: p.storedPaymentMethodId,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

const toModification = (r: Row): Modification => ({
  pspReference: str(r.psp_reference),
  paymentPspReference: str(r.payment_psp_reference),
  merchantAccount: str(r.merchant_account),
  kind: str(r.kind) as Modification['kind'],
  currency: strOrNull(r.currency),
  value: r.value === null ? null : num(r.value),
  reference: strOrNull(r.reference),
  status: 'received',
  action: strOrNull(r.action) as Modification['action'],
  createdAt: str(r.created_at),
});

const toOrder = (r: Row): Order => ({
  pspReference: str(r.psp_reference),
  companyId: str(r.company_id),
  merchantAccount: str(r.merchant_account),
  reference: str(r.reference),
  currency: str(r.currency),
  value: num(r.value),
  remainingValue: num(r.remaining_value),
  orderData: str(r.order_data),
  expiresAt: str(r.expires_at),
  status: str(r.status) as Order['status'],
  createdAt: str(r.created_at),
});

const toToken = (r: Row): StoredPaymentMethod => ({
  id: str(r.id),
  companyId: str(r.company_id),
  merchantAccount: str(r.merchant_account),
  shopperReference: str(r.shopper_reference),
  shopperEmail: strOrNull(r.shopper_email),
  brand: str(r.brand),
  cardBin: str(r.card_bin),
  lastFour: str(r.last_four),
  expiryMonth: str(r.expiry_month),
  expiryYear: str(r.expiry_year),
  holderName: strOrNull(r.holder_name),
  recurringProcessingModel: str(r.recurring_processing_model) as StoredPaymentMethod['recurringProcessingModel'],
  encryptedNumber: str(r.encrypted_number),
  createdAt: str(r.created_at),
});

/** The columns links and sessions share: who they belong to and the request fields as stored. */
const ownedFields = (r: Row) => ({
  id: str(r.id),
  companyId: str(r.company_id),
  merchantAccount: str(r.merchant_account),
  reference: str(r.reference),
  fields: json<Record<string, unknown>>(r.fields),
});

const toLink = (r: Row): PaymentLink => ({
  ...ownedFields(r),
  status: str(r.status) as PaymentLink['status'],
  reusable: bool(r.reusable),
  expiresAt: str(r.expires_at),
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
});
const linkParams = (l: PaymentLink) => ({ ...l, fields: JSON.stringify(l.fields), reusable: l.reusable ? 1 : 0 });

const toSession = (r: Row): CheckoutSession => ({
  ...ownedFields(r),
  sessionData: str(r.session_data),
  expiresAt: str(r.expires_at),
  createdAt: str(r.created_at),
});

const toSetting = (r: Row): PaymentMethodSetting => ({
  id: str(r.id),
  merchantId: str(r.merchant_id),
  type: str(r.type),
  enabled: bool(r.enabled),
  countries: json<string[]>(r.countries),
  currencies: json<string[]>(r.currencies),
  customRoutingFlags: json<string[]>(r.custom_routing_flags),
  storeIds: json<string[]>(r.store_ids),
  channels: json<string[]>(r.channels),
  shopperInteraction: strOrNull(r.shopper_interaction),
  reference: strOrNull(r.reference),
  minAmount: r.min_amount === null ? null : num(r.min_amount),
  maxAmount: r.max_amount === null ? null : num(r.max_amount),
  details: json<Record<string, unknown>>(r.details),
  businessLineId: strOrNull(r.business_line_id),
  verificationStatus: str(r.verification_status) as PaymentMethodSetting['verificationStatus'],
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
});
const toPayout = (r: Row): PayoutSetting => ({
  id: str(r.id),
  merchantId: str(r.merchant_id),
  transferInstrumentId: str(r.transfer_instrument_id),
  enabled: bool(r.enabled),
  enabledFromDate: strOrNull(r.enabled_from_date),
  priority: str(r.priority) as PayoutSetting['priority'],
  verificationStatus: str(r.verification_status) as PayoutSetting['verificationStatus'],
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
});
const toSplit = (r: Row): SplitConfigurationRecord => ({
  id: str(r.id),
  merchantId: str(r.merchant_id),
  description: str(r.description),
  rules: json<SplitConfigurationRecord['rules']>(r.rules),
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
});
const toApp = (r: Row): AndroidApp => ({
  id: str(r.id),
  companyId: str(r.company_id),
  status: str(r.status) as AndroidApp['status'],
  packageName: strOrNull(r.package_name),
  versionCode: r.version_code === null ? null : num(r.version_code),
  versionName: strOrNull(r.version_name),
  label: strOrNull(r.label),
  description: strOrNull(r.description),
  errorCode: strOrNull(r.error_code),
  filePath: str(r.file_path),
  fileSize: num(r.file_size),
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
});
const toCertificate = (r: Row): AndroidCertificate => ({
  id: str(r.id),
  companyId: str(r.company_id),
  name: str(r.name),
  extension: str(r.extension),
  description: strOrNull(r.description),
  status: 'ready',
  notBefore: str(r.not_before),
  notAfter: str(r.not_after),
  createdAt: str(r.created_at),
});
const toStoreLocation = (r: Row): StoreLocation => ({
  id: str(r.id),
  merchantId: str(r.merchant_id),
  reference: str(r.reference),
  description: str(r.description),
});

const settingParams = (m: PaymentMethodSetting) => ({
  ...m,
  enabled: m.enabled ? 1 : 0,
  countries: JSON.stringify(m.countries),
  currencies: JSON.stringify(m.currencies),
  customRoutingFlags: JSON.stringify(m.customRoutingFlags),
  storeIds: JSON.stringify(m.storeIds),
  channels: JSON.stringify(m.channels),
  details: JSON.stringify(m.details),
});

const toEvent = (r: Row): OutboxEvent => ({
  id: num(r.id),
  companyId: str(r.company_id),
  merchantAccount: str(r.merchant_account),
  eventCode: str(r.event_code),
  pspReference: str(r.psp_reference),
  originalReference: strOrNull(r.original_reference),
  merchantReference: str(r.merchant_reference),
  currency: str(r.currency),
  value: num(r.value),
  success: bool(r.success),
  reason: str(r.reason),
  paymentMethod: strOrNull(r.payment_method),
  additionalData: json<Record<string, string>>(r.additional_data),
  eventDate: str(r.event_date),
  createdAt: str(r.created_at),
});

const toWebhook = (r: Row): Webhook => ({
  id: str(r.id),
  companyId: str(r.company_id),
  merchantId: str(r.merchant_id),
  type: 'standard',
  url: str(r.url),
  active: bool(r.active),
  communicationFormat: str(r.communication_format) as Webhook['communicationFormat'],
  description: strOrNull(r.description),
  username: strOrNull(r.username),
  encryptedPassword: strOrNull(r.encrypted_password),
  encryptedHmacKey: strOrNull(r.encrypted_hmac_key),
  acceptsExpiredCertificate: bool(r.accepts_expired_certificate),
  acceptsSelfSignedCertificate: bool(r.accepts_self_signed_certificate),
  acceptsUntrustedRootCertificate: bool(r.accepts_untrusted_root_certificate),
  populateSoapActionHeader: bool(r.populate_soap_action_header),
  networkType: strOrNull(r.network_type) as Webhook['networkType'],
  encryptionProtocol: strOrNull(r.encryption_protocol) as Webhook['encryptionProtocol'],
  hasError: bool(r.has_error),
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
});
const webhookParams = (w: Webhook) => ({
  ...w,
  active: w.active ? 1 : 0,
  acceptsExpiredCertificate: w.acceptsExpiredCertificate ? 1 : 0,
  acceptsSelfSignedCertificate: w.acceptsSelfSignedCertificate ? 1 : 0,
  acceptsUntrustedRootCertificate: w.acceptsUntrustedRootCertificate ? 1 : 0,
  populateSoapActionHeader: w.populateSoapActionHeader ? 1 : 0,
  hasError: w.hasError ? 1 : 0,
});
const toDelivery = (r: Row): Delivery => ({
  webhookId: str(r.webhook_id),
  eventId: num(r.event_id),
  queueSeq: num(r.queue_seq),
  status: str(r.status) as Delivery['status'],
  attempts: num(r.attempts),
  nextAttemptAt: str(r.next_attempt_at),
  createdAt: str(r.created_at),
  updatedAt: str(r.updated_at),
  ...(r.company_id !== undefined && { companyId: str(r.company_id) }),
});
const toAttempt = (r: Row): DeliveryAttempt => ({
  webhookId: str(r.webhook_id),
  eventId: num(r.event_id),
  attemptedAt: str(r.attempted_at),
  outcome: str(r.outcome) as DeliveryAttempt['outcome'],
  statusCode: r.status_code === null ? null : num(r.status_code),
  error: strOrNull(r.error),
  durationMs: num(r.duration_ms),
});

const PAYMENT_COLUMNS = Object.keys(paymentParams({} as Payment));

/** Applies the numbered `.sql` files not yet applied, each in its own transaction. */
function migrate(db: Database.Database, dir: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((r) => num(r.version)));
  const files = readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();
  for (const file of files) {
    const version = Number.parseInt(file, 10);
    if (applied.has(version)) continue;
    const sql = readFileSync(join(dir, file), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    })();
  }
}

interface Job {
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The most transactions committed with one fsync. */
const MAX_BATCH = 256;

/**
 * The embedded store. One connection; transactions never interleave, which makes every
 * read-check-write in the domain atomic without row locks.
 *
 * Group commit: transactions that queue up while others run are executed one after another,
 * each inside its own SAVEPOINT of one SQLite transaction, and that transaction is committed
 * (and fsynced) once for all of them. A transaction that throws is rolled back to its savepoint
 * alone. No result is handed back before the COMMIT that made it durable, so a crash loses
 * nothing that was acknowledged, while a busy server pays one fsync per batch, not per request.
 */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly tx: Tx;
  private readonly hashApiKey: (apiKey: string) => string;
  /** A second, read-only connection: in WAL mode it sees committed data and never waits for writers. */
  private readonly readDb: Database.Database | undefined;
  private readonly readTx: Tx | undefined;
  private readonly control: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', Database.Statement>;
  private pending: Job[] = [];
  private flushing: Promise<void> | undefined;

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous}`);
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db, options.migrationsDir);
    this.hashApiKey = options.hashApiKey ?? noApiKeyHasher;
    this.tx = this.createTx(this.db);
    const q = (sql: string) => this.db.prepare(sql);
    this.control = {
      begin: q('BEGIN IMMEDIATE'),
      commit: q('COMMIT'),
      rollback: q('ROLLBACK'),
      savepoint: q('SAVEPOINT job'),
      release: q('RELEASE job'),
      rollbackTo: q('ROLLBACK TO job'),
    };
    if (options.path !== ':memory:') {
      this.readDb = new Database(options.path, { readonly: true });
      this.readDb.pragma('busy_timeout = 5000');
      this.readTx = this.createTx(this.readDb);
    }
  }

  read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    // An in-memory database has no second connection: reads then queue like writes.
    if (!this.readTx) return this.transaction(work);
    return work(this.readTx);
  }

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.flushing ??= this.flush();
    });
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.readDb?.close();
    this.db.close();
  }

  private async flush(): Promise<void> {
    // Let the requests that arrive in the same turn join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      let fatal: unknown;
      try {
        this.control.begin.run();
        for (const job of batch) {
          this.control.savepoint.run();
          try {
            const value = await job.work(this.tx);
            this.control.release.run();
            outcomes.push({ ok: true, value });
          } catch (error) {
            // Some failures (disk full, I/O) abort the whole SQLite transaction: then nothing of the batch stands.
            if (!this.db.inTransaction) throw error;
            this.control.rollbackTo.run();
            this.control.release.run();
            outcomes.push({ ok: false, error });
          }
        }
        this.control.commit.run();
      } catch (error) {
        fatal = error;
        if (this.db.inTransaction) this.control.rollback.run();
      }
      batch.forEach((job, i) => {
        const outcome = outcomes[i];
        if (fatal !== undefined || !outcome) job.reject(fatal ?? new Error('transaction not run'));
        else if (outcome.ok) job.resolve(outcome.value);
        else job.reject(outcome.error);
      });
    }
    // Cleared in the same turn as the emptiness check: a transaction queued after it starts a new flush.
    this.flushing = undefined;
  }

  private createTx(db: Database.Database): Tx {
    const q = (sql: string) => db.prepare(sql);
    const s = {
      getSetting: q('SELECT value FROM settings WHERE key = ?'),
      putSetting: q('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      deleteSetting: q('DELETE FROM settings WHERE key = ?'),
      insertCompany: q('INSERT INTO companies (id, name, created_at) VALUES (@id, @name, @createdAt)'),
      getCompany: q('SELECT * FROM companies WHERE id = ?'),
      countCompanies: q('SELECT COUNT(*) AS n FROM companies'),
      insertMerchant: q(`INSERT INTO merchants (id, company_id, name, description, reference, status, capture_delay, multiple_partial_captures,
        default_shopper_interaction, primary_settlement_currency, shop_web_address, merchant_city, pricing_plan, created_at)
        VALUES (@id, @companyId, @name, @description, @reference, @status, @captureDelay, @multiplePartialCaptures,
        @defaultShopperInteraction, @primarySettlementCurrency, @shopWebAddress, @merchantCity, @pricingPlan, @createdAt)`),
      getMerchant: q('SELECT * FROM merchants WHERE id = ?'),
      insertCredential: q(`INSERT INTO api_credentials (id, company_id, merchant_id, username, description, active, roles, allowed_ip_addresses,
        associated_merchant_accounts, client_key, created_at) VALUES (@id, @companyId, @merchantId, @username, @description, @active, @roles,
        @allowedIpAddresses, @associatedMerchantAccounts, @clientKey, @createdAt)`),
      getCredential: q('SELECT * FROM api_credentials WHERE id = ?'),
      insertApiKey: q('INSERT INTO api_keys (key_hash, credential_id, created_at, expires_at) VALUES (@keyHash, @credentialId, @createdAt, @expiresAt)'),
      getApiKey: q('SELECT * FROM api_keys WHERE key_hash = ?'),
      listApiKeys: q('SELECT * FROM api_keys WHERE credential_id = ? ORDER BY created_at'),
      updateApiKey: q('UPDATE api_keys SET expires_at = @expiresAt WHERE key_hash = @keyHash'),
      rekeyApiKey: q('UPDATE api_keys SET key_hash = ? WHERE key_hash = ?'),
      countCompanyCredentials: q('SELECT COUNT(*) AS n FROM api_credentials WHERE company_id = ? AND merchant_id IS NULL'),
      listCompanyCredentials: q('SELECT * FROM api_credentials WHERE company_id = ? AND merchant_id IS NULL ORDER BY id LIMIT ? OFFSET ?'),
      countMerchantCredentials: q('SELECT COUNT(*) AS n FROM api_credentials WHERE company_id = ? AND merchant_id = ?'),
      listMerchantCredentials: q('SELECT * FROM api_credentials WHERE company_id = ? AND merchant_id = ? ORDER BY id LIMIT ? OFFSET ?'),
      insertOrigin: q('INSERT INTO allowed_origins (id, credential_id, domain, created_at) VALUES (@id, @credentialId, @domain, @createdAt)'),
      listOrigins: q('SELECT * FROM allowed_origins WHERE credential_id = ? ORDER BY created_at, id'),
      getOrigin: q('SELECT * FROM allowed_origins WHERE id = ?'),
      deleteOrigin: q('DELETE FROM allowed_origins WHERE id = ?'),
      insertPayment: q(`INSERT INTO payments (${PAYMENT_COLUMNS.join(', ')}) VALUES (${PAYMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`),
      getPayment: q('SELECT * FROM payments WHERE psp_reference = ?'),
      findPaymentByReference: q('SELECT * FROM payments WHERE merchant_account = ? AND reference = ? ORDER BY rowid DESC LIMIT 1'),
      listPaymentsOfOrder: q('SELECT * FROM payments WHERE order_psp_reference = ? ORDER BY rowid'),
      findPaymentByPaymentData: q('SELECT * FROM payments WHERE payment_data = ?'),
      updatePayment: q(`UPDATE payments SET ${PAYMENT_COLUMNS.filter((c) => c !== 'psp_reference')
        .map((c) => `${c} = @${c}`)
        .join(', ')}
        WHERE psp_reference = @psp_reference`),
      insertModification:
        q(`INSERT INTO modifications (psp_reference, payment_psp_reference, merchant_account, kind, currency, value, reference, status, action, created_at)
        VALUES (@pspReference, @paymentPspReference, @merchantAccount, @kind, @currency, @value, @reference, @status, @action, @createdAt)`),
      listModifications: q('SELECT * FROM modifications WHERE payment_psp_reference = ? ORDER BY created_at, rowid'),
      insertOrder:
        q(`INSERT INTO orders (psp_reference, company_id, merchant_account, reference, currency, value, remaining_value, order_data, expires_at, status, created_at)
        VALUES (@pspReference, @companyId, @merchantAccount, @reference, @currency, @value, @remainingValue, @orderData, @expiresAt, @status, @createdAt)`),
      getOrder: q('SELECT * FROM orders WHERE psp_reference = ?'),
      updateOrder: q('UPDATE orders SET remaining_value = @remainingValue, status = @status, expires_at = @expiresAt WHERE psp_reference = @pspReference'),
      insertToken: q(`INSERT INTO stored_payment_methods (id, company_id, merchant_account, shopper_reference, shopper_email, brand, card_bin, last_four,
        expiry_month, expiry_year, holder_name, recurring_processing_model, encrypted_number, created_at) VALUES (@id, @companyId, @merchantAccount,
        @shopperReference, @shopperEmail, @brand, @cardBin, @lastFour, @expiryMonth, @expiryYear, @holderName, @recurringProcessingModel, @encryptedNumber, @createdAt)`),
      getToken: q('SELECT * FROM stored_payment_methods WHERE id = ?'),
      listTokens: q('SELECT * FROM stored_payment_methods WHERE merchant_account = ? AND shopper_reference = ? ORDER BY created_at, rowid'),
      deleteToken: q('DELETE FROM stored_payment_methods WHERE id = ?'),
      insertLink: q(`INSERT INTO payment_links (id, company_id, merchant_account, reference, fields, status, reusable, expires_at, created_at, updated_at)
        VALUES (@id, @companyId, @merchantAccount, @reference, @fields, @status, @reusable, @expiresAt, @createdAt, @updatedAt)`),
      getLink: q('SELECT * FROM payment_links WHERE id = ?'),
      updateLink: q(
        'UPDATE payment_links SET fields = @fields, status = @status, reusable = @reusable, expires_at = @expiresAt, updated_at = @updatedAt WHERE id = @id',
      ),
      insertSession: q(`INSERT INTO checkout_sessions (id, company_id, merchant_account, reference, fields, session_data, expires_at, created_at)
        VALUES (@id, @companyId, @merchantAccount, @reference, @fields, @sessionData, @expiresAt, @createdAt)`),
      getSession: q('SELECT * FROM checkout_sessions WHERE id = ?'),
      listPaymentsOfSession: q('SELECT * FROM payments WHERE session_id = ? ORDER BY rowid'),
      insertSetting: q(`INSERT INTO payment_method_settings (id, merchant_id, type, enabled, countries, currencies, custom_routing_flags, store_ids, channels,
        shopper_interaction, reference, min_amount, max_amount, details, business_line_id, verification_status, created_at, updated_at) VALUES (@id, @merchantId, @type,
        @enabled, @countries, @currencies, @customRoutingFlags, @storeIds, @channels, @shopperInteraction, @reference, @minAmount, @maxAmount, @details, @businessLineId,
        @verificationStatus, @createdAt, @updatedAt)`),
      getSetting2: q('SELECT * FROM payment_method_settings WHERE id = ?'),
      listSettings: q('SELECT * FROM payment_method_settings WHERE merchant_id = ? ORDER BY created_at, rowid'),
      updateSetting:
        q(`UPDATE payment_method_settings SET enabled = @enabled, countries = @countries, currencies = @currencies, custom_routing_flags = @customRoutingFlags,
        store_ids = @storeIds, channels = @channels, shopper_interaction = @shopperInteraction, reference = @reference, min_amount = @minAmount, max_amount = @maxAmount,
        details = @details, business_line_id = @businessLineId, verification_status = @verificationStatus, updated_at = @updatedAt WHERE id = @id`),
      insertApp:
        q(`INSERT INTO android_apps (id, company_id, status, package_name, version_code, version_name, label, description, error_code, file_path, file_size,
        created_at, updated_at) VALUES (@id, @companyId, @status, @packageName, @versionCode, @versionName, @label, @description, @errorCode, @filePath, @fileSize,
        @createdAt, @updatedAt)`),
      getApp: q('SELECT * FROM android_apps WHERE id = ?'),
      listApps: q(`SELECT * FROM android_apps WHERE company_id = @companyId AND (@packageName IS NULL OR package_name = @packageName)
        AND (@versionCode IS NULL OR version_code = @versionCode) ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`),
      updateApp:
        q(`UPDATE android_apps SET status = @status, package_name = @packageName, version_code = @versionCode, version_name = @versionName, label = @label,
        error_code = @errorCode, updated_at = @updatedAt WHERE id = @id`),
      processingApps: q("SELECT * FROM android_apps WHERE status = 'processing' ORDER BY created_at"),
      insertCertificate: q(`INSERT INTO android_certificates (id, company_id, name, extension, description, status, not_before, not_after, created_at)
        VALUES (@id, @companyId, @name, @extension, @description, @status, @notBefore, @notAfter, @createdAt)`),
      listCertificates: q(`SELECT * FROM android_certificates WHERE company_id = @companyId AND (@name IS NULL OR name = @name)
        ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`),
      insertStore: q('INSERT INTO stores (id, merchant_id, reference, description) VALUES (@id, @merchantId, @reference, @description)'),
      getStore: q('SELECT * FROM stores WHERE id = ?'),
      getStoreByReference: q('SELECT * FROM stores WHERE merchant_id = ? AND reference = ?'),
      insertTerminal: q('INSERT INTO terminals (id, store_id, model) VALUES (@id, @storeId, @model)'),
      getTerminal: q('SELECT * FROM terminals WHERE id = ?'),
      getTerminalSettings: q('SELECT sections FROM terminal_settings WHERE level = ? AND owner_id = ?'),
      putTerminalSettings: q(`INSERT INTO terminal_settings (level, owner_id, sections, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT(level, owner_id) DO UPDATE SET sections = excluded.sections, updated_at = excluded.updated_at`),
      insertPayout:
        q(`INSERT INTO payout_settings (id, merchant_id, transfer_instrument_id, enabled, enabled_from_date, priority, verification_status, created_at, updated_at)
        VALUES (@id, @merchantId, @transferInstrumentId, @enabled, @enabledFromDate, @priority, @verificationStatus, @createdAt, @updatedAt)`),
      getPayout: q('SELECT * FROM payout_settings WHERE id = ?'),
      listPayouts: q('SELECT * FROM payout_settings WHERE merchant_id = ? ORDER BY created_at, rowid'),
      updatePayout: q('UPDATE payout_settings SET enabled = @enabled, enabled_from_date = @enabledFromDate, updated_at = @updatedAt WHERE id = @id'),
      deletePayout: q('DELETE FROM payout_settings WHERE id = ?'),
      insertSplit: q(`INSERT INTO split_configurations (id, merchant_id, description, rules, created_at, updated_at)
        VALUES (@id, @merchantId, @description, @rules, @createdAt, @updatedAt)`),
      getSplit: q('SELECT * FROM split_configurations WHERE id = ?'),
      listSplits: q('SELECT * FROM split_configurations WHERE merchant_id = ? ORDER BY created_at, rowid'),
      updateSplit: q('UPDATE split_configurations SET description = @description, rules = @rules, updated_at = @updatedAt WHERE id = @id'),
      deleteSplit: q('DELETE FROM split_configurations WHERE id = ?'),
      insertEvent:
        q(`INSERT INTO events (company_id, merchant_account, event_code, psp_reference, original_reference, merchant_reference, currency, value, success,
        reason, payment_method, additional_data, event_date, created_at) VALUES (@companyId, @merchantAccount, @eventCode, @pspReference, @originalReference,
        @merchantReference, @currency, @value, @success, @reason, @paymentMethod, @additionalData, @eventDate, @createdAt)`),
      listEvents: q('SELECT * FROM events WHERE merchant_account = ? AND id > ? ORDER BY id LIMIT ?'),
      getEvent: q('SELECT * FROM events WHERE id = ?'),
      insertWebhook: q(`INSERT INTO webhooks (id, company_id, merchant_id, type, url, active, communication_format, description, username, encrypted_password,
        encrypted_hmac_key, accepts_expired_certificate, accepts_self_signed_certificate, accepts_untrusted_root_certificate, populate_soap_action_header,
        network_type, encryption_protocol, has_error, created_at, updated_at) VALUES (@id, @companyId, @merchantId, @type, @url, @active, @communicationFormat,
        @description, @username, @encryptedPassword, @encryptedHmacKey, @acceptsExpiredCertificate, @acceptsSelfSignedCertificate, @acceptsUntrustedRootCertificate,
        @populateSoapActionHeader, @networkType, @encryptionProtocol, @hasError, @createdAt, @updatedAt)`),
      getWebhook: q('SELECT * FROM webhooks WHERE id = ?'),
      countWebhooks: q('SELECT COUNT(*) AS n FROM webhooks WHERE merchant_id = ?'),
      listWebhooks: q('SELECT * FROM webhooks WHERE merchant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?'),
      activeWebhooks: q('SELECT * FROM webhooks WHERE merchant_id = ? AND active = 1 ORDER BY id'),
      updateWebhook:
        q(`UPDATE webhooks SET url = @url, active = @active, communication_format = @communicationFormat, description = @description, username = @username,
        encrypted_password = @encryptedPassword, encrypted_hmac_key = @encryptedHmacKey, accepts_expired_certificate = @acceptsExpiredCertificate,
        accepts_self_signed_certificate = @acceptsSelfSignedCertificate, accepts_untrusted_root_certificate = @acceptsUntrustedRootCertificate,
        populate_soap_action_header = @populateSoapActionHeader, network_type = @networkType, encryption_protocol = @encryptionProtocol, has_error = @hasError,
        updated_at = @updatedAt WHERE id = @id`),
      deleteAttempts: q('DELETE FROM delivery_attempts WHERE webhook_id = ?'),
      deleteDeliveries: q('DELETE FROM webhook_deliveries WHERE webhook_id = ?'),
      deleteWebhook: q('DELETE FROM webhooks WHERE id = ?'),
      insertDelivery: q(`INSERT INTO webhook_deliveries (webhook_id, event_id, queue_seq, status, attempts, next_attempt_at, created_at, updated_at)
        VALUES (@webhookId, @eventId, @queueSeq, @status, @attempts, @nextAttemptAt, @createdAt, @updatedAt)`),
      getDelivery: q('SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND event_id = ?'),
      updateDelivery: q(`UPDATE webhook_deliveries SET queue_seq = @queueSeq, status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt,
        updated_at = @updatedAt WHERE webhook_id = @webhookId AND event_id = @eventId`),
      dueDeliveries: q(`SELECT d.*, w.company_id AS company_id FROM webhook_deliveries d
        JOIN (SELECT webhook_id, MIN(queue_seq) AS head FROM webhook_deliveries WHERE status = 'pending' GROUP BY webhook_id) h
          ON d.webhook_id = h.webhook_id AND d.queue_seq = h.head
        JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.next_attempt_at <= ?`),
      maxQueueSeq: q('SELECT COALESCE(MAX(queue_seq), 0) AS n FROM webhook_deliveries'),
      countPendingDeliveries: q("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'"),
      listDeliveries: q('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY queue_seq DESC LIMIT ?'),
      insertAttempt: q(`INSERT INTO delivery_attempts (webhook_id, event_id, attempted_at, outcome, status_code, error, duration_ms)
        VALUES (@webhookId, @eventId, @attemptedAt, @outcome, @statusCode, @error, @durationMs)`),
      listAttempts: q('SELECT * FROM delivery_attempts WHERE webhook_id = ? AND event_id = ? ORDER BY id'),
      dueAutoCaptures: q(`SELECT * FROM payments WHERE auto_capture_at IS NOT NULL AND capture_closed = 0 AND auto_capture_at <= ?
        AND result_code = 'Authorised' AND cancelled = 0 LIMIT ?`),
      getIdempotency: q('SELECT * FROM idempotency_keys WHERE credential_id = ? AND key = ?'),
      insertIdempotency: q(`INSERT INTO idempotency_keys (credential_id, key, company_id, fingerprint, status_code, body, created_at)
        VALUES (@credentialId, @key, @companyId, @fingerprint, @statusCode, @body, @createdAt)`),
      deleteIdempotency: q('DELETE FROM idempotency_keys WHERE credential_id = ? AND key = ?'),
      purgeIdempotency: q('DELETE FROM idempotency_keys WHERE company_id = ? AND created_at < ?'),
      setClockOffset: q('UPDATE companies SET clock_offset_seconds = ? WHERE id = ?'),
      listClockOffsets: q('SELECT id, clock_offset_seconds FROM companies'),
    };
    const one = <T>(row: unknown, map: (r: Row) => T): T | undefined => (row === undefined ? undefined : map(row as Row));

    return {
      getSetting: async (key) => one(s.getSetting.get(key), (r) => str(r.value)),
      putSetting: async (key, value) => void s.putSetting.run(key, value),
      deleteSetting: async (key) => void s.deleteSetting.run(key),
      insertCompany: async (c) => void s.insertCompany.run(c),
      getCompany: async (id) =>
        one(s.getCompany.get(id), (r) => ({ id: str(r.id), name: str(r.name), createdAt: str(r.created_at), clockOffsetSeconds: num(r.clock_offset_seconds) })),
      setCompanyClockOffset: async (companyId, offsetSeconds) => void s.setClockOffset.run(offsetSeconds, companyId),
      listCompanyClockOffsets: async () =>
        (s.listClockOffsets.all() as Row[]).map((r) => ({ companyId: str(r.id), offsetSeconds: num(r.clock_offset_seconds) })),
      countCompanies: async () => num((s.countCompanies.get() as Row).n),
      insertMerchant: async (m: Merchant) =>
        void s.insertMerchant.run({ ...m, captureDelay: String(m.captureDelay), multiplePartialCaptures: m.multiplePartialCaptures ? 1 : 0 }),
      getMerchant: async (id) => one(s.getMerchant.get(id), toMerchant),
      listMerchants: async (companyId, offset, limit, only): Promise<Page<Merchant>> => {
        const filter = only ? ` AND id IN (${only.map(() => '?').join(', ') || 'NULL'})` : '';
        const args = [companyId, ...(only ?? [])];
        const total = num((db.prepare(`SELECT COUNT(*) AS n FROM merchants WHERE company_id = ?${filter}`).get(...args) as Row).n);
        const rows = db.prepare(`SELECT * FROM merchants WHERE company_id = ?${filter} ORDER BY id LIMIT ? OFFSET ?`).all(...args, limit, offset) as Row[];
        return { items: rows.map(toMerchant), total };
      },
      insertCredential: async (c: Credential) =>
        void s.insertCredential.run({
          ...c,
          active: c.active ? 1 : 0,
          roles: JSON.stringify(c.roles),
          allowedIpAddresses: JSON.stringify(c.allowedIpAddresses),
          associatedMerchantAccounts: JSON.stringify(c.associatedMerchantAccounts),
        }),
      getCredential: async (id) => one(s.getCredential.get(id), toCredential),
      insertApiKey: async (k: ApiKeyRecord) => void s.insertApiKey.run(k),
      listApiKeys: async (credentialId) =>
        (s.listApiKeys.all(credentialId) as Row[]).map((r) => ({
          keyHash: str(r.key_hash),
          credentialId: str(r.credential_id),
          createdAt: str(r.created_at),
          expiresAt: strOrNull(r.expires_at),
        })),
      updateApiKey: async (k) => void s.updateApiKey.run(k),
      rekeyApiKey: async (oldHash, newHash) => void s.rekeyApiKey.run(newHash, oldHash),
      hashApiKey: (apiKey) => this.hashApiKey(apiKey),
      listCredentials: async (companyId, merchantId, offset, limit) =>
        merchantId === null
          ? {
              items: (s.listCompanyCredentials.all(companyId, limit, offset) as Row[]).map(toCredential),
              total: num((s.countCompanyCredentials.get(companyId) as Row).n),
            }
          : {
              items: (s.listMerchantCredentials.all(companyId, merchantId, limit, offset) as Row[]).map(toCredential),
              total: num((s.countMerchantCredentials.get(companyId, merchantId) as Row).n),
            },
      insertAllowedOrigin: async (o) => void s.insertOrigin.run(o),
      listAllowedOrigins: async (credentialId) =>
        (s.listOrigins.all(credentialId) as Row[]).map((r) => ({
          id: str(r.id),
          credentialId: str(r.credential_id),
          domain: str(r.domain),
          createdAt: str(r.created_at),
        })),
      getAllowedOrigin: async (id) =>
        one(s.getOrigin.get(id), (r) => ({ id: str(r.id), credentialId: str(r.credential_id), domain: str(r.domain), createdAt: str(r.created_at) })),
      deleteAllowedOrigin: async (id) => void s.deleteOrigin.run(id),
      getApiKey: async (hash) =>
        one(s.getApiKey.get(hash), (r) => ({
          keyHash: str(r.key_hash),
          credentialId: str(r.credential_id),
          createdAt: str(r.created_at),
          expiresAt: strOrNull(r.expires_at),
        })),
      insertPayment: async (p) => void s.insertPayment.run(paymentParams(p)),
      getPaymentForUpdate: async (psp) => one(s.getPayment.get(psp), toPayment),
      getPayment: async (psp) => one(s.getPayment.get(psp), toPayment),
      findLatestPaymentByReference: async (merchant, reference) => one(s.findPaymentByReference.get(merchant, reference), toPayment),
      listPaymentsOfOrder: async (orderPsp) => (s.listPaymentsOfOrder.all(orderPsp) as Row[]).map(toPayment),
      updatePayment: async (p) => void s.updatePayment.run(paymentParams(p)),
      findPaymentByPaymentData: async (data) => one(s.findPaymentByPaymentData.get(data), toPayment),
      insertModification: async (m) => void s.insertModification.run(m),
      listModifications: async (psp) => (s.listModifications.all(psp) as Row[]).map(toModification),
      insertOrder: async (o) => void s.insertOrder.run(o),
      getOrderForUpdate: async (psp) => one(s.getOrder.get(psp), toOrder),
      updateOrder: async (o) => void s.updateOrder.run(o),
      getIdempotencyRecord: async (credentialId, key) =>
        one(s.getIdempotency.get(credentialId, key), (r) => ({
          credentialId: str(r.credential_id),
          companyId: str(r.company_id),
          key: str(r.key),
          fingerprint: str(r.fingerprint),
          statusCode: num(r.status_code),
          body: str(r.body),
          createdAt: str(r.created_at),
        })),
      insertIdempotencyRecord: async (r) => void s.insertIdempotency.run(r),
      deleteIdempotencyRecord: async (credentialId, key) => void s.deleteIdempotency.run(credentialId, key),
      purgeIdempotencyRecords: async (companyId, before) => s.purgeIdempotency.run(companyId, before).changes,
      insertStoredPaymentMethod: async (t) => void s.insertToken.run(t),
      getStoredPaymentMethod: async (id) => one(s.getToken.get(id), toToken),
      listStoredPaymentMethods: async (merchant, shopper) => (s.listTokens.all(merchant, shopper) as Row[]).map(toToken),
      deleteStoredPaymentMethod: async (id) => void s.deleteToken.run(id),
      insertPaymentLink: async (l) => void s.insertLink.run(linkParams(l)),
      getPaymentLink: async (id) => one(s.getLink.get(id), toLink),
      updatePaymentLink: async (l) => void s.updateLink.run(linkParams(l)),
      insertSession: async (c) => void s.insertSession.run({ ...c, fields: JSON.stringify(c.fields) }),
      getSession: async (id) => one(s.getSession.get(id), toSession),
      listPaymentsOfSession: async (id) => (s.listPaymentsOfSession.all(id) as Row[]).map(toPayment),
      insertPaymentMethodSetting: async (m) => void s.insertSetting.run(settingParams(m)),
      getPaymentMethodSetting: async (id) => one(s.getSetting2.get(id), toSetting),
      listPaymentMethodSettings: async (merchantId) => (s.listSettings.all(merchantId) as Row[]).map(toSetting),
      updatePaymentMethodSetting: async (m) => void s.updateSetting.run(settingParams(m)),
      insertAndroidApp: async (a) => void s.insertApp.run(a),
      getAndroidApp: async (id) => one(s.getApp.get(id), toApp),
      listAndroidApps: async (companyId, filter, offset, limit) =>
        (s.listApps.all({ companyId, packageName: filter.packageName ?? null, versionCode: filter.versionCode ?? null, offset, limit }) as Row[]).map(toApp),
      updateAndroidApp: async (a) => void s.updateApp.run(a),
      listProcessingAndroidApps: async () => (s.processingApps.all() as Row[]).map(toApp),
      insertAndroidCertificate: async (c) => void s.insertCertificate.run(c),
      listAndroidCertificates: async (companyId, filter, offset, limit) =>
        (s.listCertificates.all({ companyId, name: filter.name ?? null, offset, limit }) as Row[]).map(toCertificate),
      insertStore: async (st) => void s.insertStore.run(st),
      getStore: async (id) => one(s.getStore.get(id), toStoreLocation),
      getStoreByReference: async (merchantId, reference) => one(s.getStoreByReference.get(merchantId, reference), toStoreLocation),
      insertTerminal: async (t) => void s.insertTerminal.run(t),
      getTerminal: async (id) => one(s.getTerminal.get(id), (r): Terminal => ({ id: str(r.id), storeId: str(r.store_id), model: str(r.model) })),
      getTerminalSettings: async (level, ownerId) =>
        one(s.getTerminalSettings.get(level, ownerId), (r) => json<Record<string, Record<string, unknown>>>(r.sections)),
      putTerminalSettings: async (level, ownerId, sections, updatedAt) => void s.putTerminalSettings.run(level, ownerId, JSON.stringify(sections), updatedAt),
      insertPayoutSetting: async (p) => void s.insertPayout.run({ ...p, enabled: p.enabled ? 1 : 0 }),
      getPayoutSetting: async (id) => one(s.getPayout.get(id), toPayout),
      listPayoutSettings: async (merchantId) => (s.listPayouts.all(merchantId) as Row[]).map(toPayout),
      updatePayoutSetting: async (p) => void s.updatePayout.run({ ...p, enabled: p.enabled ? 1 : 0 }),
      deletePayoutSetting: async (id) => void s.deletePayout.run(id),
      insertSplitConfiguration: async (c) => void s.insertSplit.run({ ...c, rules: JSON.stringify(c.rules) }),
      getSplitConfiguration: async (id) => one(s.getSplit.get(id), toSplit),
      listSplitConfigurations: async (merchantId) => (s.listSplits.all(merchantId) as Row[]).map(toSplit),
      updateSplitConfiguration: async (c) => void s.updateSplit.run({ ...c, rules: JSON.stringify(c.rules) }),
      deleteSplitConfiguration: async (id) => void s.deleteSplit.run(id),
      insertEvent: async (e) => num(s.insertEvent.run({ ...e, success: e.success ? 1 : 0, additionalData: JSON.stringify(e.additionalData) }).lastInsertRowid),
      listEvents: async (merchant, afterId, limit) => (s.listEvents.all(merchant, afterId, limit) as Row[]).map(toEvent),
      getEvent: async (id) => one(s.getEvent.get(id), toEvent),
      insertWebhook: async (w) => void s.insertWebhook.run(webhookParams(w)),
      getWebhook: async (id) => one(s.getWebhook.get(id), toWebhook),
      listWebhooks: async (merchantId, offset, limit) => ({
        items: (s.listWebhooks.all(merchantId, limit, offset) as Row[]).map(toWebhook),
        total: num((s.countWebhooks.get(merchantId) as Row).n),
      }),
      activeWebhooks: async (merchantId) => (s.activeWebhooks.all(merchantId) as Row[]).map(toWebhook),
      updateWebhook: async (w) => void s.updateWebhook.run(webhookParams(w)),
      deleteWebhook: async (id) => {
        s.deleteAttempts.run(id);
        s.deleteDeliveries.run(id);
        s.deleteWebhook.run(id);
      },
      insertDelivery: async (d) => void s.insertDelivery.run(d),
      getDelivery: async (webhookId, eventId) => one(s.getDelivery.get(webhookId, eventId), toDelivery),
      updateDelivery: async (d) => void s.updateDelivery.run(d),
      dueDeliveries: async (now) => (s.dueDeliveries.all(now) as Row[]).map(toDelivery),
      nextQueueSeq: async () => num((s.maxQueueSeq.get() as Row).n) + 1,
      countPendingDeliveries: async () => num((s.countPendingDeliveries.get() as Row).n),
      listDeliveries: async (webhookId, limit) => (s.listDeliveries.all(webhookId, limit) as Row[]).map(toDelivery),
      insertAttempt: async (a) => void s.insertAttempt.run(a),
      listAttempts: async (webhookId, eventId) => (s.listAttempts.all(webhookId, eventId) as Row[]).map(toAttempt),
      dueAutoCaptures: async (now, limit) => (s.dueAutoCaptures.all(now, limit) as Row[]).map(toPayment),
    };
  }
}
