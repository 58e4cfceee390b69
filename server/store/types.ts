/**
 * The storage interface: plain records in, plain records out. Domain code depends on this
 * file only; adapters (sqlite/) implement it. Every method runs inside a transaction.
 */

export interface Company {
  id: string;
  name: string;
  createdAt: string;
  /** How far this company's sandbox clock runs ahead of real time (sandbox mode only). */
  clockOffsetSeconds: number;
}

export type CaptureDelay = 'immediate' | 'manual' | number;

export interface Merchant {
  id: string;
  companyId: string;
  name: string;
  description: string;
  reference: string;
  status: 'PreActive' | 'Active' | 'InactiveWithModifications' | 'Inactive' | 'Closed';
  /** When payments are captured without a capture request: at once, never, or after N days. */
  captureDelay: CaptureDelay;
  /** Whether several partial captures may be made on one payment. */
  multiplePartialCaptures: boolean;
  defaultShopperInteraction: string;
  primarySettlementCurrency: string;
  shopWebAddress: string;
  merchantCity: string;
  pricingPlan: string;
  createdAt: string;
}

export interface Credential {
  id: string;
  companyId: string;
  /** Set for a merchant-level credential: it reaches only this merchant account. */
  merchantId: string | null;
  username: string;
  description: string;
  active: boolean;
  roles: string[];
  allowedIpAddresses: string[];
  /** For a company-level credential: the merchant accounts it is limited to; empty means all of the company. */
  associatedMerchantAccounts: string[];
  clientKey: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  /** SHA-256 of the key, hex. The key itself is never stored. */
  keyHash: string;
  credentialId: string;
  createdAt: string;
  /** When a rotated-out key stops working; null while it is the current key. */
  expiresAt: string | null;
}

export type ResultCode = 'Authorised' | 'Refused' | 'RedirectShopper' | 'Pending' | 'Cancelled' | 'Error';

export interface Payment {
  pspReference: string;
  companyId: string;
  merchantAccount: string;
  reference: string;
  currency: string;
  /** The amount currently authorised (changed by amount updates). */
  authorisedValue: number;
  /** The amount of the payment request. */
  originalValue: number;
  capturedValue: number;
  refundedValue: number;
  resultCode: ResultCode;
  refusalReason: string | null;
  refusalReasonCode: string | null;
  authCode: string | null;
  cancelled: boolean;
  /** No more of the authorisation can be captured (fully captured, or rest cancelled by a partial capture). */
  captureClosed: boolean;
  /** Whether the payment was captured without a capture request (at authorisation or after a delay). */
  autoCaptured: boolean;
  /** Hours from authorisation to automatic capture; null for manual capture. */
  captureDelayHours: number | null;
  /** When the payment is captured automatically; null for manual capture or before authorisation. */
  autoCaptureAt: string | null;
  multiplePartialCaptures: boolean;
  cardBrand: string;
  cardBin: string;
  cardLastFour: string;
  expiryMonth: string;
  expiryYear: string;
  holderName: string | null;
  shopperReference: string | null;
  returnUrl: string;
  orderPspReference: string | null;
  /** Whether the redirect result of a RedirectShopper payment has been used. */
  detailsSubmitted: boolean;
  /** `scheme` for cards, or `paypal`. */
  paymentMethodType: string;
  /** For a pending PayPal payment: the current paymentData; it changes with every order update. */
  paymentData: string | null;
  sessionId: string | null;
  paymentLinkId: string | null;
  storedPaymentMethodId: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ModificationKind = 'capture' | 'refund' | 'cancel' | 'technicalCancel' | 'reversal' | 'amountUpdate';

export interface Modification {
  pspReference: string;
  paymentPspReference: string;
  merchantAccount: string;
  kind: ModificationKind;
  currency: string | null;
  value: number | null;
  reference: string | null;
  status: 'received';
  /** For a reversal: what it did. */
  action: 'cancel' | 'refund' | null;
  createdAt: string;
}

export interface Order {
  pspReference: string;
  companyId: string;
  merchantAccount: string;
  reference: string;
  currency: string;
  value: number;
  remainingValue: number;
  orderData: string;
  expiresAt: string;
  status: 'open' | 'completed' | 'cancelled';
  createdAt: string;
}

export type RecurringProcessingModel = 'CardOnFile' | 'Subscription' | 'UnscheduledCardOnFile';

export interface StoredPaymentMethod {
  id: string;
  companyId: string;
  merchantAccount: string;
  shopperReference: string;
  shopperEmail: string | null;
  brand: string;
  cardBin: string;
  lastFour: string;
  expiryMonth: string;
  expiryYear: string;
  holderName: string | null;
  recurringProcessingModel: RecurringProcessingModel;
  /** The card number, encrypted with the configured key (see server/crypto/card-vault.ts). */
  encryptedNumber: string;
  createdAt: string;
}

export type PaymentLinkStatus = 'active' | 'completed' | 'expired' | 'paid' | 'paymentPending';

export interface PaymentLink {
  id: string;
  companyId: string;
  merchantAccount: string;
  reference: string;
  /** The request fields as stored (wire names), echoed in responses. */
  fields: Record<string, unknown>;
  status: PaymentLinkStatus;
  reusable: boolean;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface CheckoutSession {
  id: string;
  companyId: string;
  merchantAccount: string;
  reference: string;
  fields: Record<string, unknown>;
  sessionData: string;
  expiresAt: string;
  createdAt: string;
}

export interface PaymentMethodSetting {
  id: string;
  merchantId: string;
  /** A management type: a card brand (`visa`, `mc`, …) or a method (`ideal`, `paypal`, …). */
  type: string;
  enabled: boolean;
  /** Empty means every country (currency) of the method. */
  countries: string[];
  currencies: string[];
  customRoutingFlags: string[];
  /** Empty means not tied to a store. */
  storeIds: string[];
  /** Empty means every channel. */
  channels: string[];
  shopperInteraction: string | null;
  reference: string | null;
  minAmount: number | null;
  maxAmount: number | null;
  /** Per-type details (wire names), e.g. `{ applePay: { domains: [...] } }`. */
  details: Record<string, unknown>;
  businessLineId: string | null;
  verificationStatus: 'valid' | 'pending' | 'invalid' | 'rejected';
  createdAt: string;
  updatedAt: string;
}

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
}

export interface PayoutSetting {
  id: string;
  merchantId: string;
  transferInstrumentId: string;
  enabled: boolean;
  enabledFromDate: string | null;
  priority: 'first' | 'normal' | 'urgent';
  verificationStatus: 'invalid' | 'pending' | 'rejected' | 'valid';
  createdAt: string;
  updatedAt: string;
}

/** A split configuration profile; `rules` keep the wire shape (with ids), read and written whole. */
export interface SplitConfigurationRecord {
  id: string;
  merchantId: string;
  description: string;
  rules: Array<
    Record<string, unknown> & {
      ruleId: string;
      currency: string;
      fundingSource: string;
      paymentMethod: string;
      shopperInteraction: string;
      cardRegion?: string;
      splitLogic: Record<string, unknown> & { splitLogicId: string };
    }
  >;
  createdAt: string;
  updatedAt: string;
}

export interface AndroidApp {
  id: string;
  companyId: string;
  status: 'archived' | 'error' | 'invalid' | 'processing' | 'ready';
  packageName: string | null;
  versionCode: number | null;
  versionName: string | null;
  label: string | null;
  description: string | null;
  errorCode: string | null;
  /** Where the uploaded APK lies on disk. */
  filePath: string;
  fileSize: number;
  createdAt: string;
  updatedAt: string;
}

export interface AndroidCertificate {
  id: string;
  companyId: string;
  name: string;
  extension: string;
  description: string | null;
  status: 'ready';
  notBefore: string;
  notAfter: string;
  createdAt: string;
}

/** A physical store of a merchant account (named StoreLocation: `Store` is the storage interface). */
export interface StoreLocation {
  id: string;
  merchantId: string;
  reference: string;
  description: string;
}

export interface Terminal {
  id: string;
  storeId: string;
  model: string;
}

export type SettingsLevel = 'company' | 'merchant' | 'store' | 'terminal';
/** Section name → field name → value: only the values a level sets itself. */
export type SettingsSections = Record<string, Record<string, unknown>>;

export interface AllowedOrigin {
  id: string;
  credentialId: string;
  domain: string;
  createdAt: string;
}

export interface Webhook {
  id: string;
  companyId: string;
  merchantId: string;
  type: 'standard';
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

export interface DeliveryAttempt {
  webhookId: string;
  eventId: number;
  attemptedAt: string;
  outcome: 'accepted' | 'rejected' | 'error';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface IdempotencyRecord {
  /** The credential that made the first request: only it can replay (or collide with) the key. */
  credentialId: string;
  companyId: string;
  key: string;
  /** SHA-256 of method, path and canonical body: a reuse with another request is refused. */
  fingerprint: string;
  statusCode: number;
  body: string;
  createdAt: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** The operations available inside a transaction. */
export interface Tx {
  getSetting(key: string): Promise<string | undefined>;
  putSetting(key: string, value: string): Promise<void>;
  deleteSetting(key: string): Promise<void>;

  insertCompany(company: Omit<Company, 'clockOffsetSeconds'>): Promise<void>;
  getCompany(id: string): Promise<Company | undefined>;
  countCompanies(): Promise<number>;
  insertMerchant(merchant: Merchant): Promise<void>;
  getMerchant(id: string): Promise<Merchant | undefined>;
  /** Merchants of a company, by id; `only` limits them to the given ids. */
  listMerchants(companyId: string, offset: number, limit: number, only?: string[]): Promise<Page<Merchant>>;

  insertCredential(credential: Credential): Promise<void>;
  getCredential(id: string): Promise<Credential | undefined>;
  /** Company-level credentials (merchantId null) or those of one merchant account. */
  listCredentials(companyId: string, merchantId: string | null, offset: number, limit: number): Promise<Page<Credential>>;
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(credentialId: string): Promise<ApiKeyRecord[]>;
  updateApiKey(key: ApiKeyRecord): Promise<void>;
  /** Moves a key to a new hash (the legacy unkeyed hash to the keyed one); nothing else about it changes. */
  rekeyApiKey(oldHash: string, newHash: string): Promise<void>;
  /**
   * The keyed hash an API key is stored and looked up under (HMAC-SHA256 with a key derived from
   * the server secret the store was opened with; see auth/credentials.domain.ts apiKeyHasher).
   */
  hashApiKey(apiKey: string): string;
  insertAllowedOrigin(origin: AllowedOrigin): Promise<void>;
  listAllowedOrigins(credentialId: string): Promise<AllowedOrigin[]>;
  getAllowedOrigin(id: string): Promise<AllowedOrigin | undefined>;
  deleteAllowedOrigin(id: string): Promise<void>;

  insertPayment(payment: Payment): Promise<void>;
  /** Reads a payment for a change: adapters with concurrent writers lock the row. */
  getPaymentForUpdate(pspReference: string): Promise<Payment | undefined>;
  getPayment(pspReference: string): Promise<Payment | undefined>;
  /** The most recent payment of the merchant account with that merchant reference. */
  findLatestPaymentByReference(merchantAccount: string, reference: string): Promise<Payment | undefined>;
  listPaymentsOfOrder(orderPspReference: string): Promise<Payment[]>;
  findPaymentByPaymentData(paymentData: string): Promise<Payment | undefined>;
  updatePayment(payment: Payment): Promise<void>;
  insertModification(modification: Modification): Promise<void>;
  listModifications(paymentPspReference: string): Promise<Modification[]>;

  insertOrder(order: Order): Promise<void>;
  getOrderForUpdate(pspReference: string): Promise<Order | undefined>;
  updateOrder(order: Order): Promise<void>;

  insertStoredPaymentMethod(token: StoredPaymentMethod): Promise<void>;
  getStoredPaymentMethod(id: string): Promise<StoredPaymentMethod | undefined>;
  listStoredPaymentMethods(merchantAccount: string, shopperReference: string): Promise<StoredPaymentMethod[]>;
  deleteStoredPaymentMethod(id: string): Promise<void>;

  insertPaymentLink(link: PaymentLink): Promise<void>;
  getPaymentLink(id: string): Promise<PaymentLink | undefined>;
  updatePaymentLink(link: PaymentLink): Promise<void>;

  insertSession(session: CheckoutSession): Promise<void>;
  getSession(id: string): Promise<CheckoutSession | undefined>;
  listPaymentsOfSession(sessionId: string): Promise<Payment[]>;

  insertPaymentMethodSetting(setting: PaymentMethodSetting): Promise<void>;
  getPaymentMethodSetting(id: string): Promise<PaymentMethodSetting | undefined>;
  listPaymentMethodSettings(merchantId: string): Promise<PaymentMethodSetting[]>;
  updatePaymentMethodSetting(setting: PaymentMethodSetting): Promise<void>;

  insertPayoutSetting(setting: PayoutSetting): Promise<void>;
  getPayoutSetting(id: string): Promise<PayoutSetting | undefined>;
  listPayoutSettings(merchantId: string): Promise<PayoutSetting[]>;
  updatePayoutSetting(setting: PayoutSetting): Promise<void>;
  deletePayoutSetting(id: string): Promise<void>;

  insertSplitConfiguration(config: SplitConfigurationRecord): Promise<void>;
  getSplitConfiguration(id: string): Promise<SplitConfigurationRecord | undefined>;
  listSplitConfigurations(merchantId: string): Promise<SplitConfigurationRecord[]>;
  updateSplitConfiguration(config: SplitConfigurationRecord): Promise<void>;
  deleteSplitConfiguration(id: string): Promise<void>;

  insertAndroidApp(app: AndroidApp): Promise<void>;
  getAndroidApp(id: string): Promise<AndroidApp | undefined>;
  listAndroidApps(companyId: string, filter: { packageName?: string; versionCode?: number }, offset: number, limit: number): Promise<AndroidApp[]>;
  updateAndroidApp(app: AndroidApp): Promise<void>;
  listProcessingAndroidApps(): Promise<AndroidApp[]>;
  insertAndroidCertificate(certificate: AndroidCertificate): Promise<void>;
  listAndroidCertificates(companyId: string, filter: { name?: string }, offset: number, limit: number): Promise<AndroidCertificate[]>;

  insertStore(store: StoreLocation): Promise<void>;
  getStore(id: string): Promise<StoreLocation | undefined>;
  getStoreByReference(merchantId: string, reference: string): Promise<StoreLocation | undefined>;
  insertTerminal(terminal: Terminal): Promise<void>;
  getTerminal(id: string): Promise<Terminal | undefined>;
  getTerminalSettings(level: SettingsLevel, ownerId: string): Promise<SettingsSections | undefined>;
  putTerminalSettings(level: SettingsLevel, ownerId: string, sections: SettingsSections, updatedAt: string): Promise<void>;

  insertEvent(event: OutboxEvent): Promise<number>;
  getEvent(id: number): Promise<OutboxEvent | undefined>;
  listEvents(merchantAccount: string, afterId: number, limit: number): Promise<OutboxEvent[]>;

  insertWebhook(webhook: Webhook): Promise<void>;
  getWebhook(id: string): Promise<Webhook | undefined>;
  listWebhooks(merchantId: string, offset: number, limit: number): Promise<Page<Webhook>>;
  /** The webhooks that receive the merchant account's events now. */
  activeWebhooks(merchantId: string): Promise<Webhook[]>;
  updateWebhook(webhook: Webhook): Promise<void>;
  deleteWebhook(id: string): Promise<void>;
  insertDelivery(delivery: Delivery): Promise<void>;
  getDelivery(webhookId: string, eventId: number): Promise<Delivery | undefined>;
  updateDelivery(delivery: Delivery): Promise<void>;
  /** Per webhook, the first pending delivery in queue order, when it is due by `now`. */
  dueDeliveries(now: string): Promise<Delivery[]>;
  nextQueueSeq(): Promise<number>;
  /** How many deliveries wait to be sent (the outbox backlog). */
  countPendingDeliveries(): Promise<number>;
  listDeliveries(webhookId: string, limit: number): Promise<Delivery[]>;
  insertAttempt(attempt: DeliveryAttempt): Promise<void>;
  listAttempts(webhookId: string, eventId: number): Promise<DeliveryAttempt[]>;
  /** Authorised payments whose automatic capture fell due by `now` and has not been applied. */
  dueAutoCaptures(now: string, limit: number): Promise<Payment[]>;

  getIdempotencyRecord(credentialId: string, key: string): Promise<IdempotencyRecord | undefined>;
  insertIdempotencyRecord(record: IdempotencyRecord): Promise<void>;
  deleteIdempotencyRecord(credentialId: string, key: string): Promise<void>;
  /** Deletes the company's records created before `before`; returns how many. */
  purgeIdempotencyRecords(companyId: string, before: string): Promise<number>;
  setCompanyClockOffset(companyId: string, offsetSeconds: number): Promise<void>;
  /** Every company's sandbox clock offset (companies are few). */
  listCompanyClockOffsets(): Promise<Array<{ companyId: string; offsetSeconds: number }>>;
}

export interface Store {
  /**
   * Runs `work` in one transaction: everything it wrote is committed (durably) before the
   * returned promise resolves, or nothing is if it throws. Transactions never interleave.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `work` against committed data only, without waiting for writes (a read-only view: write
   * methods fail). For reads that change nothing; anything that may write uses `transaction`.
   */
  read<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
