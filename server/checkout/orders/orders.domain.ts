import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import {
  ApiError,
  ERR_AMOUNT_INVALID,
  ERR_CURRENCY_MISMATCH,
  ERR_EXPIRES_AT_INVALID,
  ERR_ORDER_AMOUNT_EXCEEDED,
  ERR_ORDER_CLOSED,
  ERR_ORDER_EXPIRED,
  ERR_ORDER_NOT_FOUND,
} from '../../kernel/errors.js';
import { recordEvent } from '../../kernel/events/outbox.js';
import type { Credential, Order, Payment } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';
import type { Clock } from '../../kernel/clock.js';
import { openAmount } from '../../kernel/open-amount.js';
import type { Money } from '../money.js';
import { recordModification } from '../modifications/modification-record.js';
import { newOrderData, newPspReference } from '../references.js';

/** Orders expire one day after creation unless the request says otherwise. */
export const DEFAULT_ORDER_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface CreateOrderInput {
  merchantAccount: string;
  reference: string;
  amount: Money;
  expiresAt?: string;
}

/** POST /orders: opens an order that partial payments pay for together. */
export async function createOrder(tx: Tx, now: Date, credential: Credential, input: CreateOrderInput): Promise<Order> {
  await requireMerchantAccount(tx, credential, input.merchantAccount);
  if (input.amount.value <= 0) throw new ApiError(ERR_AMOUNT_INVALID, { message: "Field 'amount.value' must be greater than 0" });
  const expiresAt = input.expiresAt === undefined ? new Date(now.getTime() + DEFAULT_ORDER_LIFETIME_MS) : new Date(input.expiresAt);
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now.getTime()) throw new ApiError(ERR_EXPIRES_AT_INVALID);
  const order: Order = {
    pspReference: newPspReference(),
    companyId: credential.companyId,
    merchantAccount: input.merchantAccount,
    reference: input.reference,
    currency: input.amount.currency,
    value: input.amount.value,
    remainingValue: input.amount.value,
    orderData: newOrderData(),
    expiresAt: expiresAt.toISOString(),
    status: 'open',
    createdAt: now.toISOString(),
  };
  await tx.orders.insert(order);
  await reportOrder(tx, now, order, 'ORDER_OPENED', true);
  return order;
}

/**
 * ORDER_OPENED when an order is created; ORDER_CLOSED when it is paid in full (success) or
 * cancelled or expired (not); OFFER_CLOSED as well when it expired.
 */
async function reportOrder(
  tx: Tx,
  now: Date,
  order: Order,
  eventCode: 'ORDER_OPENED' | 'ORDER_CLOSED' | 'OFFER_CLOSED',
  success: boolean,
  reason = eventCode === 'ORDER_CLOSED' && !success ? 'Order cancelled' : '',
): Promise<void> {
  await recordEvent(tx, now, {
    companyId: order.companyId,
    merchantAccount: order.merchantAccount,
    eventCode,
    pspReference: order.pspReference,
    merchantReference: order.reference,
    currency: order.currency,
    value: order.value,
    success,
    reason,
    additionalData: { 'order.remainingAmount': String(order.remainingValue) },
  });
}

/** The order a request names, if pspReference and orderData both match an order of the merchant account. */
async function findOrder(tx: Tx, merchantAccount: string, ref: { pspReference: string; orderData: string }): Promise<Order> {
  const order = await tx.orders.getForUpdate(ref.pspReference);
  if (!order || order.merchantAccount !== merchantAccount || order.orderData !== ref.orderData) throw new ApiError(ERR_ORDER_NOT_FOUND);
  return order;
}

/** Checks that a payment of `amount` may be made towards the order now; returns the order to charge. */
export async function orderForPayment(
  tx: Tx,
  now: Date,
  merchantAccount: string,
  ref: { pspReference: string; orderData: string },
  amount: Money,
): Promise<Order> {
  const order = await findOrder(tx, merchantAccount, ref);
  assertPayable(order, now, amount);
  return order;
}

function assertPayable(order: Order, now: Date, amount: Money): void {
  // An order the dispatcher closed at its expiry is reported as expired, like one it has not reached yet.
  if (order.status === 'completed') throw new ApiError(ERR_ORDER_CLOSED);
  if (Date.parse(order.expiresAt) <= now.getTime()) throw new ApiError(ERR_ORDER_EXPIRED);
  if (order.status !== 'open') throw new ApiError(ERR_ORDER_CLOSED);
  if (amount.currency !== order.currency)
    throw new ApiError(ERR_CURRENCY_MISMATCH, { message: `Currency ${amount.currency} does not match the order currency ${order.currency}` });
  if (amount.value > order.remainingValue) {
    throw new ApiError(ERR_ORDER_AMOUNT_EXCEEDED, {
      message: `Payment amount ${amount.value} exceeds the remaining amount ${order.remainingValue} of the order`,
    });
  }
}

/** Books an authorised payment against its order; the order completes when nothing remains. */
export async function chargeOrder(tx: Tx, now: Date, orderPspReference: string, amount: Money): Promise<Order> {
  const order = await tx.orders.getForUpdate(orderPspReference);
  if (!order) throw new ApiError(ERR_ORDER_NOT_FOUND);
  assertPayable(order, now, amount);
  const charged: Order = { ...order, remainingValue: order.remainingValue - amount.value };
  if (charged.remainingValue === 0) charged.status = 'completed';
  await tx.orders.update(charged);
  if (charged.status === 'completed') await reportOrder(tx, now, charged, 'ORDER_CLOSED', true);
  return charged;
}

export interface CancelOrderInput {
  merchantAccount: string;
  order: { pspReference: string; orderData: string };
}

/**
 * POST /orders/cancel: closes an open order. Its authorised partial payments are cancelled,
 * and what was captured of them is refunded, so the shopper gets everything back.
 */
export async function cancelOrder(tx: Tx, now: Date, credential: Credential, input: CancelOrderInput): Promise<{ pspReference: string }> {
  await requireMerchantAccount(tx, credential, input.merchantAccount);
  const order = await findOrder(tx, input.merchantAccount, input.order);
  if (order.status !== 'open') throw new ApiError(ERR_ORDER_CLOSED);
  await closeUnpaid(tx, now, order, { 'order.cancelled': 'true' });
  await reportOrder(tx, now, order, 'ORDER_CLOSED', false);
  return { pspReference: newPspReference() };
}

/** Closes an order that was not paid in full: its authorised partial payments are given back. */
async function closeUnpaid(tx: Tx, now: Date, order: Order, additionalData: Record<string, string>): Promise<void> {
  await tx.orders.update({ ...order, status: 'cancelled' });
  // Locked: a capture or refund of one of them that commits meanwhile is seen, not written over.
  for (const payment of await tx.payments.ofOrderForUpdate(order.pspReference)) {
    await unwind(tx, now, payment, additionalData);
  }
}

/**
 * The dispatcher's due work for orders: an open order whose expiry passed on its company's
 * clock is closed unpaid (its partial payments cancelled or refunded), reported as ORDER_CLOSED
 * (not successful, "Order expired") and OFFER_CLOSED. Each is read again locked, so two
 * instances never close one twice.
 */
export async function closeExpiredOrders(store: Store, clock: Clock): Promise<void> {
  const horizon = clock.latest().toISOString();
  const isDue = (o: Order) => o.status === 'open' && o.expiresAt <= clock.now(o.companyId).toISOString();
  if (!(await store.read((tx) => tx.orders.dueExpiries(horizon, 100))).some(isDue)) return;
  await store.transaction(async (tx) => {
    for (const due of (await tx.orders.dueExpiries(horizon, 100)).filter(isDue)) {
      const order = await tx.orders.getForUpdate(due.pspReference);
      if (!order || !isDue(order)) continue;
      const now = clock.now(order.companyId);
      await closeUnpaid(tx, now, order, { 'order.expired': 'true' });
      await reportOrder(tx, now, order, 'ORDER_CLOSED', false, 'Order expired');
      await reportOrder(tx, now, order, 'OFFER_CLOSED', true);
    }
  });
}

async function unwind(tx: Tx, now: Date, payment: Payment, additionalData: Record<string, string>): Promise<void> {
  if (payment.resultCode !== 'Authorised' || payment.cancelled) return;
  if (payment.capturedValue === 0) {
    await tx.payments.update({ ...payment, cancelled: true, captureClosed: true, updatedAt: now.toISOString() }, payment);
    const authorised = { currency: payment.currency, value: payment.authorisedValue };
    await recordModification(tx, now, payment, {
      kind: 'cancel',
      amount: null,
      reported: authorised,
      reports: [{ eventCode: 'CANCELLATION', success: true }],
      additionalData,
    });
    return;
  }
  // What a chargeback took is not refunded again.
  const open = openAmount(payment);
  await tx.payments.update({ ...payment, refundedValue: payment.refundedValue + open, captureClosed: true, updatedAt: now.toISOString() }, payment);
  if (open > 0) {
    const refund = { currency: payment.currency, value: open };
    await recordModification(tx, now, payment, {
      kind: 'refund',
      amount: refund,
      reported: refund,
      reports: [{ eventCode: 'REFUND', success: true }],
      additionalData,
    });
  }
}
