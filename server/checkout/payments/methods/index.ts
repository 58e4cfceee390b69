import { ApiError, ERR_METHOD_NOT_SUPPORTED } from '../../../kernel/errors.js';
import { cardFlow } from './card.js';
import { giftCardFlow } from './giftcard.js';
import { idealFlow } from './ideal.js';
import { klarnaFlow } from './klarna.js';
import { sepaFlow } from './sepa.js';
import { bcmcMobileFlow } from './bcmc-mobile.js';
import { voucherFlow } from './voucher.js';
import { walletFlow } from './wallet.js';
import type { PaymentMethodFlow } from './method.js';
import { payPalFlow } from './paypal.js';

/** Every payment method the server can take, one flow each. */
const FLOWS: PaymentMethodFlow[] = [cardFlow, payPalFlow, giftCardFlow, idealFlow, klarnaFlow, sepaFlow, bcmcMobileFlow, walletFlow, voucherFlow];

const BY_TYPE = new Map(FLOWS.flatMap((flow) => flow.types.map((type) => [type, flow] as const)));

/**
 * Whether this service can pay a `paymentMethod.type` (a flow takes it). /paymentMethods offers a
 * method of its own only when it can: an offered method is always payable.
 */
export const canPay = (type: string): boolean => BY_TYPE.has(type);

/** The flow of a request's `paymentMethod.type` (a card when absent, as Adyen defaults it). */
export function flowOfType(type: string | undefined): PaymentMethodFlow {
  const flow = BY_TYPE.get(type ?? 'scheme');
  if (!flow) {
    throw new ApiError(ERR_METHOD_NOT_SUPPORTED, { message: `Payment details are not supported: this sandbox cannot pay with '${type}'` });
  }
  return flow;
}

/** The flow a stored payment belongs to. */
export function flowOfPayment(paymentMethodType: string): PaymentMethodFlow {
  return BY_TYPE.get(paymentMethodType) ?? cardFlow;
}
