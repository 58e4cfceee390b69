/** Payments and their modifications, orders, stored payment methods, payment links, sessions and donations. */

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
  /** What chargebacks took and did not give back; with what was refunded, never more than what was captured. */
  chargedBackValue: number;
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

/** A dispute of one of the sandbox's test scenarios (server/checkout/disputes/). */
export interface Dispute {
  /** The dispute's pspReference: every event of the dispute carries it. */
  pspReference: string;
  paymentPspReference: string;
  companyId: string;
  merchantAccount: string;
  /** Which test scenario the card holder name asked for. */
  scenario: string;
  reasonCode: string;
  currency: string;
  /** The disputed amount: what was open when the dispute was notified, then what the latest chargeback took. */
  value: number;
  /** How many of the scenario's events were sent. */
  step: number;
  /** When the next event falls due on the company's sandbox clock; null once the last was sent. */
  dueAt: string | null;
  defensePeriodEndsAt: string | null;
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
  /** `failed` once a CAPTURE_FAILED or REFUND_FAILED took a capture or refund back. */
  status: 'received' | 'failed';
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
