import { randomBytes } from 'node:crypto';
import type { components } from '../../../generated/checkout.js';
import { requireMerchantAccount, reaches } from '../../kernel/auth/credentials.js';
import type { RedirectSigner } from '../../kernel/crypto/redirect-signer.js';
import {
  ApiError,
  ERR_EXPIRES_AT_INVALID,
  ERR_INVALID_DETAILS,
  ERR_EXPIRES_AT_TOO_LATE,
  ERR_ORDER_NOT_FOUND,
  ERR_SESSION_COMPLETED,
  ERR_SESSION_DATA,
  ERR_SESSION_EXPIRED,
  ERR_SESSION_NOT_FOUND,
  ERR_SESSION_RESULT,
} from '../../kernel/errors.js';
import type { CheckoutSession, Credential, Payment } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import type { PaymentContext, PaymentInput, PaymentOutcome } from '../payments/authorisation.js';
import { type DetailsInput, makePayment, submitPaymentDetails } from '../payments/payments.domain.js';
import { keptFields } from '../kept-fields.js';
import { checkGiftCardBalance } from '../orders/gift-card-balance.domain.js';

const HOUR_MS = 60 * 60 * 1000;
export const DEFAULT_SESSION_LIFETIME_MS = HOUR_MS;
export const MAX_SESSION_LIFETIME_MS = 24 * HOUR_MS;

export interface SessionInput {
  merchantAccount: string;
  reference: string;
  returnUrl: string;
  amount: Money;
  expiresAt?: string;
  telephoneNumber?: string;
  fundRecipient?: { paymentMethod?: unknown };
  [field: string]: unknown;
}

/** Signs what a session hands to the client, so that it cannot be made up for another session. */
export type Mac = (text: string) => string;

const seal = (kind: string, id: string, mac: Mac) => {
  const payload = Buffer.from(JSON.stringify({ kind, id })).toString('base64url');
  return `${payload}.${mac(`${kind}|${payload}`)}`;
};
const opened = (kind: string, token: string, mac: Mac): string | undefined => {
  const [payload, signature, extra] = token.replace(/^Ab02b4c0!/, '').split('.');
  if (!payload || !signature || extra !== undefined || mac(`${kind}|${payload}`) !== signature) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { kind?: string; id?: string };
    return parsed.kind === kind ? parsed.id : undefined;
  } catch {
    return undefined;
  }
};

/**
 * POST /sessions: expires after an hour unless asked otherwise, never later than 24 hours. Every
 * request field is kept (the session answers them back, as Adyen's does); a telephone number
 * that could not be submitted for authentication and a fund recipient's card are not (kept-fields.ts).
 */
export async function createSession(tx: Tx, now: Date, credential: Credential, request: SessionInput, mac: Mac): Promise<CheckoutSession> {
  const input = keptFields(request);
  const merchant = await requireMerchantAccount(tx, credential, input.merchantAccount);
  const expiresAt = input.expiresAt === undefined ? new Date(now.getTime() + DEFAULT_SESSION_LIFETIME_MS) : new Date(input.expiresAt);
  if (expiresAt.getTime() <= now.getTime()) throw new ApiError(ERR_EXPIRES_AT_INVALID);
  if (expiresAt.getTime() > now.getTime() + MAX_SESSION_LIFETIME_MS) {
    throw new ApiError(ERR_EXPIRES_AT_TOO_LATE, { message: 'expiresAt is greater than the allowed date: at most 24 hours after creation' });
  }
  const id = `CS${randomBytes(8).toString('hex').toUpperCase()}`;
  const { expiresAt: _e, ...fields } = input;
  const session: CheckoutSession = {
    id,
    companyId: merchant.companyId,
    merchantAccount: merchant.id,
    reference: input.reference,
    fields: { mode: 'embedded', ...fields },
    sessionData: `Ab02b4c0!${seal('session', id, mac)}`,
    expiresAt: expiresAt.toISOString(),
    createdAt: now.toISOString(),
  };
  await tx.sessions.insert(session);
  return session;
}

async function visibleSession(tx: Tx, credential: Credential, id: string): Promise<CheckoutSession> {
  const session = await tx.sessions.get(id);
  const merchant = session ? await tx.merchants.get(session.merchantAccount) : undefined;
  if (!session || !merchant || !reaches(credential, merchant)) throw new ApiError(ERR_SESSION_NOT_FOUND, { message: `Session ${id} not found` });
  return session;
}

/**
 * What the client sends to pay in a session: the session data and the component's state data.
 * The shopper details a component collects (Boleto's payer, a card's billing address) take the
 * place of the session's; the rest of the state data is accepted with no effect.
 */
export type SessionPaymentInput = Pick<
  components['schemas']['SessionPaymentRequest'],
  'sessionData' | 'paymentMethod' | 'storePaymentMethod' | 'shopperEmail' | 'shopperName' | 'socialSecurityNumber' | 'billingAddress' | 'order'
>;

/** What a client-side session call did: the session, the payment as it stands, the result to read it with. */
export interface SessionStep {
  session: CheckoutSession;
  outcome: PaymentOutcome;
  sessionResult: string;
}

/**
 * The session a client-side call names, when the credential reaches it and the session data is its
 * own, read locked: a session's payments and their steps run one at a time, so two payments sent
 * at once on two instances cannot both find the session unpaid.
 */
async function sessionOfData(tx: Tx, credential: Credential, id: string, sessionData: string, mac: Mac): Promise<CheckoutSession> {
  const session = await visibleSession(tx, credential, id);
  if (opened('session', sessionData, mac) !== id) throw new ApiError(ERR_SESSION_DATA);
  // Locked once the caller is known to reach it.
  return (await tx.sessions.getForUpdate(id)) ?? session;
}

/**
 * The session a client-side call names with its session data (setup, gift card balance, orders):
 * the caller reaches it, the data is its own, and it has not expired.
 */
export async function openSession(tx: Tx, now: Date, credential: Credential, id: string, sessionData: string, mac: Mac): Promise<CheckoutSession> {
  const session = await visibleSession(tx, credential, id);
  if (opened('session', sessionData, mac) !== id) throw new ApiError(ERR_SESSION_DATA);
  if (Date.parse(session.expiresAt) <= now.getTime()) throw new ApiError(ERR_SESSION_EXPIRED);
  return session;
}

/** POST /sessions/{id}/payments: a payment with the session's amount and reference, while the session is open. */
export async function payInSession(ctx: PaymentContext, credential: Credential, id: string, input: SessionPaymentInput, mac: Mac): Promise<SessionStep> {
  const session = await sessionOfData(ctx.tx, credential, id, input.sessionData, mac);
  if (Date.parse(session.expiresAt) <= ctx.now.getTime()) throw new ApiError(ERR_SESSION_EXPIRED);
  const earlier = await ctx.tx.payments.ofSession(id);
  if (await paidInFull(ctx.tx, earlier)) throw new ApiError(ERR_SESSION_COMPLETED);
  const f = session.fields as Record<string, unknown> & {
    amount: Money;
    returnUrl: string;
    shopperReference?: string;
    storePaymentMethodMode?: string;
    storePaymentMethod?: boolean;
    recurringProcessingModel?: PaymentInput['recurringProcessingModel'];
    shopperEmail?: string;
    captureDelayHours?: number;
  };
  // storePaymentMethodMode decides; without it the session's storePaymentMethod does, as on /payments.
  const mode = f.storePaymentMethodMode ?? (f.storePaymentMethod === true ? 'enabled' : 'disabled');
  const store = mode === 'enabled' || (mode === 'askForConsent' && input.storePaymentMethod === true);
  const order = input.order && (await orderOfSession(ctx, credential, session, input.order, input.paymentMethod));
  const outcome = await makePayment(ctx, credential, {
    merchantAccount: session.merchantAccount,
    reference: session.reference,
    returnUrl: f.returnUrl,
    amount: order?.amount ?? f.amount,
    paymentMethod: input.paymentMethod,
    sessionId: id,
    ...(order && { order: order.ref }),
    ...(f.shopperReference && { shopperReference: f.shopperReference }),
    ...(f.shopperEmail && { shopperEmail: f.shopperEmail }),
    ...(f.captureDelayHours !== undefined && { captureDelayHours: f.captureDelayHours }),
    ...(store && { storePaymentMethod: true }),
    ...(f.recurringProcessingModel && { recurringProcessingModel: f.recurringProcessingModel }),
    ...methodFields(f),
    ...collectedFields(input),
  });
  return { session, outcome, sessionResult: seal('result', id, mac) };
}

/**
 * Whether the session's payments have paid it: one authorised on its own, or the last of an
 * order (the order is then completed). A partial payment leaves the session open for the rest.
 */
async function paidInFull(tx: Tx, payments: Payment[]): Promise<boolean> {
  for (const payment of payments.filter((p) => p.resultCode === 'Authorised')) {
    if (!payment.orderPspReference) return true;
    if ((await tx.orders.getForUpdate(payment.orderPspReference))?.status === 'completed') return true;
  }
  return false;
}

/**
 * The order a session payment names: one of the session's merchant account and reference (the
 * session's orders operation made it), with what this payment pays towards it: what the order
 * still needs, or, for a gift card, as much of it as the card's balance covers. The payment
 * itself then checks the order's data and that it is still open.
 */
async function orderOfSession(
  ctx: PaymentContext,
  credential: Credential,
  session: CheckoutSession,
  ref: { pspReference: string; orderData: string },
  paymentMethod: SessionPaymentInput['paymentMethod'],
): Promise<{ ref: { pspReference: string; orderData: string }; amount: Money }> {
  const order = await ctx.tx.orders.getForUpdate(ref.pspReference);
  if (!order || order.merchantAccount !== session.merchantAccount || order.reference !== session.reference) throw new ApiError(ERR_ORDER_NOT_FOUND);
  const remaining: Money = { currency: order.currency, value: order.remainingValue };
  const method = paymentMethod as Record<string, unknown>;
  if (method.type !== 'giftcard') return { ref: { pspReference: ref.pspReference, orderData: ref.orderData }, amount: remaining };
  const card = Object.fromEntries(Object.entries(method).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const check = await checkGiftCardBalance(ctx.tx, credential, { merchantAccount: session.merchantAccount, amount: remaining, paymentMethod: card });
  const covered = check.resultCode === 'Failed' ? remaining.value : Math.min(check.balance.value, remaining.value);
  return { ref: { pspReference: ref.pspReference, orderData: ref.orderData }, amount: { currency: remaining.currency, value: covered } };
}

/** The shopper details the client's component collected, which take the place of the session's. */
function collectedFields(input: SessionPaymentInput): Partial<PaymentInput> {
  const fields: Partial<PaymentInput> = {};
  if (input.shopperEmail !== undefined) fields.shopperEmail = input.shopperEmail;
  if (input.shopperName !== undefined) fields.shopperName = input.shopperName;
  if (input.socialSecurityNumber !== undefined) fields.socialSecurityNumber = input.socialSecurityNumber;
  if (input.billingAddress !== undefined) fields.billingAddress = input.billingAddress;
  return fields;
}

export interface SessionDetailsInput extends DetailsInput {
  sessionData: string;
}

/**
 * POST /sessions/{id}/paymentDetails: the next step of one of the session's payments, as
 * /payments/details takes it. Answered also after the session expired, so that a step started
 * in time can finish. The step names its payment (a redirect result, the action's paymentData or
 * authorisation token); one of another session is refused, and the transaction takes back what
 * the step wrote, so the step stays usable in its own session.
 */
export async function submitDetailsInSession(
  ctx: PaymentContext,
  credential: Credential,
  signer: RedirectSigner,
  id: string,
  input: SessionDetailsInput,
  mac: Mac,
): Promise<SessionStep> {
  const session = await sessionOfData(ctx.tx, credential, id, input.sessionData, mac);
  const outcome = await submitPaymentDetails(ctx, credential, signer, {
    details: input.details,
    ...(input.paymentData !== undefined && { paymentData: input.paymentData }),
  });
  if (outcome.payment.sessionId !== id) {
    throw new ApiError(ERR_INVALID_DETAILS, { message: `Invalid payment method details: they are for a payment that is not one of session ${id}` });
  }
  return { session, outcome, sessionResult: seal('result', id, mac) };
}

/** The session fields some payment methods need (Klarna's items, Boleto's payer, 3D Secure's choices), as the payment takes them. */
function methodFields(f: Record<string, unknown>): Partial<PaymentInput> {
  const fields: Partial<PaymentInput> = {};
  if (Array.isArray(f.lineItems)) fields.lineItems = f.lineItems as PaymentInput['lineItems'];
  if (typeof f.countryCode === 'string') fields.countryCode = f.countryCode;
  if (typeof f.shopperLocale === 'string') fields.shopperLocale = f.shopperLocale;
  if (typeof f.socialSecurityNumber === 'string') fields.socialSecurityNumber = f.socialSecurityNumber;
  if (f.shopperName && typeof f.shopperName === 'object') fields.shopperName = f.shopperName as PaymentInput['shopperName'];
  if (f.billingAddress && typeof f.billingAddress === 'object') fields.billingAddress = f.billingAddress as PaymentInput['billingAddress'];
  if (f.authenticationData && typeof f.authenticationData === 'object') fields.authenticationData = f.authenticationData;
  return fields;
}

export type SessionStatus = 'active' | 'canceled' | 'completed' | 'expired' | 'paymentPending' | 'refused';

/** A payment still waiting for the shopper, the client or the bank (a redirect, 3D Secure 2, a QR code, a voucher, a debit). */
const WAITING: readonly Payment['resultCode'][] = ['RedirectShopper', 'Pending', 'IdentifyShopper', 'ChallengeShopper', 'Received', 'PresentToShopper'];

/** The state a session's payments put it in (`paid`: they paid it in full, see paidInFull). */
export function sessionStatus(session: CheckoutSession, payments: Payment[], now: Date, paid: boolean): SessionStatus {
  if (paid) return 'completed';
  const last = payments.at(-1);
  if (last && WAITING.includes(last.resultCode)) return 'paymentPending';
  if (last?.resultCode === 'Cancelled') return 'canceled';
  if (Date.parse(session.expiresAt) <= now.getTime()) return 'expired';
  if (last?.resultCode === 'Refused') return 'refused';
  return 'active';
}

/** GET /sessions/{id}?sessionResult=… */
export async function sessionResult(tx: Tx, now: Date, credential: Credential, id: string, result: string, mac: Mac) {
  const session = await visibleSession(tx, credential, id);
  if (opened('result', result, mac) !== id)
    throw new ApiError(ERR_SESSION_RESULT, { message: "Invalid field 'sessionResult': it does not belong to this session" });
  const payments = await tx.payments.ofSession(id);
  return { session, payments, status: sessionStatus(session, payments, now, await paidInFull(tx, payments)) };
}
