import type { CheckoutSession, Credential, StoredPaymentMethod } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { checkGiftCardBalance } from '../orders/gift-card-balance.domain.js';
import { cancelOrder, createOrder } from '../orders/orders.domain.js';
import { listPaymentMethods, type OfferedMethod, type PaymentMethodsQuery } from '../payment-methods/payment-methods.domain.js';
import { type Mac, openSession } from './sessions.domain.js';

/** The session fields the client-side calls read (the store keeps a session's fields untyped). */
interface SessionTerms {
  amount: Money;
  returnUrl: string;
  countryCode?: string;
  shopperLocale?: string;
  shopperReference?: string;
  storePaymentMethodMode?: string;
  channel?: string;
  store?: string;
  allowedPaymentMethods?: string[];
  blockedPaymentMethods?: string[];
  splitCardFundingSources?: boolean;
}

const termsOf = (session: CheckoutSession) => session.fields as Record<string, unknown> & SessionTerms;

/** What a session's setup answers: the session and the methods its merchant account offers for it. */
export interface SessionSetup {
  session: CheckoutSession;
  terms: SessionTerms;
  paymentMethods: OfferedMethod[];
  storedPaymentMethods?: StoredPaymentMethod[];
}

/**
 * Sets up a session in the browser: the methods are those the payment methods operation lists
 * for the session's merchant account, amount, country and filters; the shopper's stored cards
 * when the session names a shopper.
 */
export async function setUpSession(tx: Tx, now: Date, credential: Credential, id: string, sessionData: string, mac: Mac): Promise<SessionSetup> {
  const session = await openSession(tx, now, credential, id, sessionData, mac);
  const terms = termsOf(session);
  const query: PaymentMethodsQuery = {
    merchantAccount: session.merchantAccount,
    amount: terms.amount,
    channel: terms.channel ?? 'Web',
    ...(terms.countryCode && { countryCode: terms.countryCode }),
    ...(terms.store && { store: terms.store }),
    ...(terms.allowedPaymentMethods && { allowedPaymentMethods: terms.allowedPaymentMethods }),
    ...(terms.blockedPaymentMethods && { blockedPaymentMethods: terms.blockedPaymentMethods }),
    ...(terms.splitCardFundingSources && { splitCardFundingSources: true }),
    ...(terms.shopperReference && { shopperReference: terms.shopperReference }),
  };
  const methods = await listPaymentMethods(tx, now, credential, query);
  return { session, terms, ...methods };
}

/** A gift card's balance for the session's amount; none when the check failed (unknown card, wrong PIN, another currency). */
export async function sessionGiftCardBalance(
  tx: Tx,
  now: Date,
  credential: Credential,
  id: string,
  input: { sessionData: string; paymentMethod: Record<string, string | undefined> },
  mac: Mac,
): Promise<{ session: CheckoutSession; balance?: Money }> {
  const session = await openSession(tx, now, credential, id, input.sessionData, mac);
  const paymentMethod = Object.fromEntries(Object.entries(input.paymentMethod).filter((e): e is [string, string] => e[1] !== undefined));
  const check = await checkGiftCardBalance(tx, credential, { merchantAccount: session.merchantAccount, amount: termsOf(session).amount, paymentMethod });
  return check.resultCode === 'Failed' ? { session } : { session, balance: check.balance };
}

/** An order for the session's amount and reference, for a gift card to pay part of it. */
export async function createSessionOrder(tx: Tx, now: Date, credential: Credential, id: string, sessionData: string, mac: Mac) {
  const session = await openSession(tx, now, credential, id, sessionData, mac);
  const order = await createOrder(tx, now, credential, {
    merchantAccount: session.merchantAccount,
    reference: session.reference,
    amount: termsOf(session).amount,
  });
  return { session, order };
}

/** Cancels an order of the session's merchant account. */
export async function cancelSessionOrder(
  tx: Tx,
  now: Date,
  credential: Credential,
  id: string,
  input: { sessionData: string; order: { pspReference: string; orderData: string } },
  mac: Mac,
): Promise<CheckoutSession> {
  const session = await openSession(tx, now, credential, id, input.sessionData, mac);
  await cancelOrder(tx, now, credential, {
    merchantAccount: session.merchantAccount,
    order: { pspReference: input.order.pspReference, orderData: input.order.orderData },
  });
  return session;
}
