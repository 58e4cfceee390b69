/** Companies, merchant accounts, API credentials and their keys and origins, users, idempotency records. */

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

export interface AllowedOrigin {
  id: string;
  credentialId: string;
  domain: string;
  createdAt: string;
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
