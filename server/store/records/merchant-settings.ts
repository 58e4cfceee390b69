/** What merchant accounts and companies configure: payment methods, payouts, splits, Android apps and certificates, stores, terminals and their settings. */

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

/** What a page of the app list shows of each app: read without the columns it does not need. */
export type AndroidAppListing = Pick<AndroidApp, 'id' | 'status' | 'packageName' | 'versionCode' | 'versionName' | 'label' | 'description' | 'errorCode'>;

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
