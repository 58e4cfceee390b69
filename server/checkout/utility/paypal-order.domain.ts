import { reaches } from '../../kernel/auth/credentials.js';
import { ApiError, ERR_PAYPAL_NOT_PENDING, ERR_SESSION_NOT_FOUND } from '../../kernel/errors.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { type UpdateOrderInput, updatePayPalOrder } from '../payments/paypal.domain.js';

export type OrderUpdate = Omit<UpdateOrderInput, 'pspReference'> & { pspReference?: string | undefined };

/**
 * The pending PayPal payment an order update is for. The advanced flow names it by
 * `pspReference`; the sessions flow knows only its session (`sessionId`) and the latest
 * `paymentData`, so the session's pending PayPal payment with that paymentData is meant (or, to
 * refuse a stale paymentData clearly, its latest pending one).
 */
async function pendingPayPalPayment(tx: Tx, credential: Credential, update: OrderUpdate): Promise<string> {
  if (update.pspReference !== undefined) return update.pspReference;
  if (update.sessionId === undefined) {
    throw new ApiError(ERR_PAYPAL_NOT_PENDING, { message: "Name the pending PayPal payment: 'pspReference' (advanced flow) or 'sessionId' (sessions flow)" });
  }
  const session = await tx.sessions.get(update.sessionId);
  const merchant = session ? await tx.merchants.get(session.merchantAccount) : undefined;
  if (!session || !merchant || !reaches(credential, merchant)) throw new ApiError(ERR_SESSION_NOT_FOUND, { message: `Session ${update.sessionId} not found` });
  const pending = (await tx.payments.ofSession(session.id)).filter((p) => p.paymentMethodType === 'paypal' && p.resultCode === 'Pending');
  const payment = pending.find((p) => p.paymentData === update.paymentData) ?? pending.at(-1);
  if (!payment) throw new ApiError(ERR_PAYPAL_NOT_PENDING, { message: `Session ${session.id} has no pending PayPal payment` });
  return payment.pspReference;
}

/** POST /paypal/updateOrder and POST /wallet/updateOrder: in the advanced flow or the sessions flow. */
export async function updateWalletOrder(tx: Tx, now: Date, credential: Credential, update: OrderUpdate): Promise<{ paymentData: string }> {
  const pspReference = await pendingPayPalPayment(tx, credential, update);
  return updatePayPalOrder(tx, now, credential, { ...update, pspReference });
}
