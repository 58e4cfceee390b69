import type { components } from '../../../../generated/checkout.js';
import type { RedirectSigner } from '../../../kernel/crypto/redirect-signer.js';
import type { Merchant, Payment, StoredPaymentMethod } from '../../../store/types.js';
import type { Tx } from '../../../store/tx.js';
import { isFinal, type PaymentContext, type PaymentInput, type PaymentMethodInput } from '../authorisation.js';
import type { RedirectAnswer } from '../redirect-result.js';

/** The `details` of a /payments/details request (every key Adyen defines; each flow reads its own). */
export type CompletionDetails = components['schemas']['PaymentCompletionDetails'];

/** The action of a payment response (what the shopper or the client does next). */
export type PaymentAction = NonNullable<components['schemas']['PaymentResponse']['action']>;

/** A `paymentMethod.type` of the spec. */
type MethodType = NonNullable<PaymentMethodInput['type']>;

/** The spec's schemas of the `paymentMethod` of the given types (the card's schema for `scheme`). */
export type MethodOf<T extends MethodType> = MembersOfType<PaymentMethodInput, T>;
type MembersOfType<M, T> = M extends { type?: infer U } ? ([Extract<U, T>] extends [never] ? never : M) : never;

export interface StartContext extends PaymentContext {
  merchant: Merchant;
  input: PaymentInput;
}

export interface CompleteContext extends PaymentContext {
  signer: RedirectSigner;
}

/** What starting a payment decided: the payment (not yet written) and a token it created. */
export interface Started {
  payment: Payment;
  token?: StoredPaymentMethod;
  /** Method fields for the AUTHORISATION event (a wallet's variant, for example). */
  eventData?: Record<string, string>;
}

/** What a /payments/details step decided, with the details that identified the payment. */
export interface Completion {
  details: CompletionDetails;
  paymentData?: string;
  /** The outcome a signed redirectResult carried (redirect methods), already verified. */
  redirectOutcome?: RedirectAnswer;
}

/**
 * One payment method's flow (methods/<method>.ts): how a payment starts (its resultCode, action
 * and the state it keeps in `methodState`), how /payments/details finishes it, and what the
 * sandbox clock does to it. The shared meaning of a result (the AUTHORISATION event, automatic
 * capture, the order) lives in authorisation.ts; a flow only decides.
 */
export interface PaymentMethodFlow {
  /** The `paymentMethod.type` values this flow takes. */
  readonly types: readonly string[];
  /** Decides the first step of a payment from the request. */
  start(ctx: StartContext, pending: Payment): Promise<Started>;
  /** Decides the next step from /payments/details; a flow without one refuses details. */
  complete?(ctx: CompleteContext, payment: Payment, completion: Completion): Promise<Payment>;
  /** The clock-driven step that fell due at `payment.settleAt` (settling, expiring). */
  settle?(ctx: { tx: Tx; now: Date }, payment: Payment): Promise<Payment>;
  /** The action of a payment that waits for the shopper or the client. */
  action?(payment: Payment, baseUrl: string): PaymentAction | undefined;
  /** Method fields of the response's additionalData. */
  additionalData?(payment: Payment, createdToken: boolean): Record<string, string> | undefined;
  /** The payment method the response names (`{type, brand}`). */
  responseMethod?(payment: Payment): { type: string; brand?: string };
  /** Further response fields of the method (3D Secure 2's result, for example). */
  responseFields?(payment: Payment): ResponseFields | undefined;
}

export type ResponseFields = Pick<components['schemas']['PaymentResponse'], 'threeDS2Result' | 'threeDSPaymentData'>;

/** A request or state field as text ('' when absent or not a string). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * How a method without a card shows in a response: its type as the payment method, and in
 * additionalData once the result is final.
 */
export const plainMethodResponse: Pick<PaymentMethodFlow, 'additionalData' | 'responseMethod'> = {
  additionalData: (payment) =>
    isFinal(payment) ? { paymentMethod: payment.paymentMethodType, ...(payment.authCode && { authCode: payment.authCode }) } : undefined,
  responseMethod: (payment) => ({ type: payment.paymentMethodType }),
};
