import { reaches } from '../../kernel/auth/credentials.js';
import { ApiError, ERR_CURRENCY_MISMATCH, ERR_DELIVERY_METHODS, ERR_PAYPAL_NOT_PENDING, ERR_PAYPAL_PAYMENT_DATA } from '../../kernel/errors.js';
import type { Credential } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { newPaymentData } from './authorisation.js';

export interface UpdateOrderInput {
  pspReference: string;
  paymentData: string;
  amount: Money;
  sessionId?: string;
  deliveryMethods?: Array<{ selected?: boolean }>;
  taxTotal?: { amount?: Money };
}

/**
 * POST /paypal/updateOrder: the shopper changed address or delivery in PayPal's window, so the
 * pending payment's amount changes (the `sdk` and `express` flows; not a redirect payment). paymentData must be the latest; a new one is handed out.
 */
export async function updatePayPalOrder(tx: Tx, now: Date, credential: Credential, input: UpdateOrderInput): Promise<{ paymentData: string }> {
  const payment = await tx.payments.getForUpdate(input.pspReference);
  const merchant = payment ? await tx.merchants.get(payment.merchantAccount) : undefined;
  if (!payment || !merchant || !reaches(credential, merchant) || payment.paymentMethodType !== 'paypal') throw new ApiError(ERR_PAYPAL_NOT_PENDING);
  // A redirect payment (`subtype: redirect`) is approved on PayPal's page, where its amount is fixed.
  if (payment.resultCode === 'RedirectShopper') {
    throw new ApiError(ERR_PAYPAL_NOT_PENDING, { message: 'The payment is not a pending PayPal payment: a PayPal redirect payment has no order to update' });
  }
  if (payment.resultCode !== 'Pending') throw new ApiError(ERR_PAYPAL_NOT_PENDING);
  if (payment.paymentData !== input.paymentData)
    throw new ApiError(ERR_PAYPAL_PAYMENT_DATA, { message: "Invalid paymentData: it is not the latest 'paymentData' of this payment" });
  if (input.sessionId !== undefined && payment.sessionId !== input.sessionId)
    throw new ApiError(ERR_PAYPAL_NOT_PENDING, { message: 'The payment does not belong to that session' });
  if (input.deliveryMethods && input.deliveryMethods.filter((m) => m.selected === true).length !== 1) throw new ApiError(ERR_DELIVERY_METHODS);
  for (const money of [input.amount, input.taxTotal?.amount]) {
    if (money && money.currency !== payment.currency)
      throw new ApiError(ERR_CURRENCY_MISMATCH, { message: `Currency ${money.currency} does not match the payment currency ${payment.currency}` });
  }
  const paymentData = newPaymentData();
  await tx.payments.update(
    { ...payment, authorisedValue: input.amount.value, originalValue: input.amount.value, paymentData, updatedAt: now.toISOString() },
    payment,
  );
  return { paymentData };
}
