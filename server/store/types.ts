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
  /** The subject DN of a client certificate, as set through the API (no certificate is issued). */
  subjectDN?: string | undefined;
}

export interface ApiKeyRecord {
  /** SHA-256 of the key, hex. The key itself is never stored. */
  keyHash: string;
  credentialId: string;
  createdAt: string;
  /** When a rotated-out key stops working; null while it is the current key. */
  expiresAt: string | null;
}

export type ResultCode =
  | 'Authorised'
  | 'Refused'
  | 'RedirectShopper'
  | 'Pending'
  | 'Cancelled'
  | 'Error'
  // Native 3D Secure 2, asynchronous methods and vouchers (payment methods, migration 0060).
  | 'IdentifyShopper'
  | 'ChallengeShopper'
  | 'Received'
  | 'PresentToShopper'
  | 'AuthenticationFinished'
  | 'AuthenticationNotRequired';

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
  /** The request's `paymentMethod.type` family: `scheme` for cards, `paypal`, `ideal`, `klarna`, … */
  paymentMethodType: string;
  /** For a payment waiting for the client (PayPal, 3D Secure 2, QR code): the current paymentData. */
  paymentData: string | null;
  sessionId: string | null;
  paymentLinkId: string | null;
  storedPaymentMethodId: string | null;
  createdAt: string;
  updatedAt: string;
  /** What the payment method's flow keeps for its later steps (see server/checkout/payments/methods/). */
  methodState: Record<string, unknown>;
  /** When the method's next clock-driven step falls due (settling, expiring); null when none. */
  settleAt: string | null;
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

/** The address of a store: the country is set once, when the store is made. */
export interface StoreAddress {
  country: string;
  city?: string;
  line1?: string;
  line2?: string;
  line3?: string;
  postalCode?: string;
  stateOrProvince?: string;
}

export type StoreStatus = 'active' | 'inactive' | 'closed';

/** What a store carries for payment methods, tax authorities and platforms; nothing the service acts on. */
export interface StoreDetails {
  businessLineIds?: string[];
  externalReferenceId?: string;
  localizedInformation?: { localShopperStatement: Array<{ script: 'ja-Hani' | 'ja-Kana'; value: string }> };
  splitConfiguration?: { balanceAccountId?: string; splitConfigurationId?: string };
  subMerchantData?: { email: string; id: string; mcc: string; name: string };
}

/** A physical store of a merchant account (named StoreLocation: `Store` is the storage interface). */
export interface StoreLocation {
  id: string;
  merchantId: string;
  /** Unique within the merchant account: terminal settings and logos of the store are addressed by it. */
  reference: string;
  description: string;
  shopperStatement: string;
  /** E.164. */
  phoneNumber: string;
  address: StoreAddress;
  status: StoreStatus;
  details: StoreDetails;
}

/** A payment terminal: in a store (`boarded`), or in its merchant account's inventory after the store closed. */
export interface Terminal {
  id: string;
  companyId: string;
  merchantId: string;
  storeId: string | null;
  model: string;
  /** The maker, for `brandModels` filters (`Castles.S1F2`). */
  brand: string;
  serialNumber: string;
  firmwareVersion: string;
  countryCode: string;
  status: 'boarded' | 'inventory';
}

/** Filters of the terminal list; every given one must match. */
export interface TerminalFilter {
  companyId: string;
  /** Only these merchant accounts (the credential's reach, narrowed by the query); undefined: all of the company's. */
  merchantIds?: string[];
  /** Identifier contains this text, any case. */
  idContains?: string;
  countries?: string[];
  storeIds?: string[];
  /** `brand.model` pairs. */
  brandModels?: Array<{ brand: string; model: string }>;
}

export type SettingsLevel = 'company' | 'merchant' | 'store' | 'terminal';
/**
 * Section name → what a level sets itself in it: field name → value for an object section, the
 * whole list for a list section (`gratuities`).
 */
export type SettingsSections = Record<string, Record<string, unknown> | unknown[]>;

export interface AllowedOrigin {
  id: string;
  credentialId: string;
  domain: string;
  createdAt: string;
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

/** A client key that was replaced: it keeps working until `expiresAt` (on the company's clock). */
export interface RetiredClientKey {
  clientKey: string;
  credentialId: string;
  expiresAt: string;
}

/** A Customer Area user of a company (merchantId null) or of one merchant account. Nothing secret. */
export interface User {
  id: string;
  companyId: string;
  merchantId: string | null;
  /** Equal to `email` (Adyen's rule). */
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  active: boolean;
  roles: string[];
  accountGroups: string[];
  /** Company users only: the merchant accounts they work with. */
  associatedMerchantAccounts: string[];
  timeZoneCode: string;
  loginMethod: string;
  createdAt: string;
}

/** A donation to a charity's campaign, charged as a payment of the merchant account. */
export interface Donation {
  id: string;
  companyId: string;
  merchantAccount: string;
  campaignId: string;
  donationAccount: string;
  /** The payment that charged the donation. */
  paymentPspReference: string;
  /** The payment whose donation token paid for it (a token is used once); null for a stored card. */
  originalPspReference: string | null;
  reference: string;
  currency: string;
  value: number;
  status: 'completed' | 'pending' | 'refused';
  createdAt: string;
}
