import type { Payment } from '../../../store/types.js';
import { authorise, isFinal, refuse } from '../authorisation.js';
import { TEST_REFUSALS } from '../test-results.js';
import { giftCardBalance, readGiftCard } from '../gift-cards.js';
import type { PaymentMethodFlow } from './method.js';

/**
 * Gift cards (`type: giftcard` with the provider in `brand`): authorised at once when the
 * sandbox card is known, its PIN is right and its balance covers the amount; refused
 * otherwise. Inside an order a gift card pays part, and another method pays the rest.
 */
export const giftCardFlow: PaymentMethodFlow = {
  types: ['giftcard'],

  async start(ctx, pending) {
    const reading = readGiftCard(ctx.input.paymentMethod);
    const number = reading.known ? reading.card.number : reading.number;
    const carded: Payment = {
      ...pending,
      paymentMethodType: 'giftcard',
      cardBrand: reading.known ? reading.card.brand : reading.brand,
      cardBin: number.slice(0, 6),
      cardLastFour: number.slice(-4),
    };
    if (!reading.known) return { payment: refuse(carded, reading.reason === 'pin' ? TEST_REFUSALS.CVC_DECLINED! : TEST_REFUSALS.REFUSED!, ctx.now) };
    const balance = await giftCardBalance(ctx.tx, ctx.merchant.companyId, reading.card);
    if (balance.currency !== carded.currency || balance.value < carded.authorisedValue) {
      return { payment: refuse(carded, TEST_REFUSALS.NOT_ENOUGH_BALANCE!, ctx.now) };
    }
    return { payment: authorise(carded, ctx.now) };
  },

  additionalData(payment) {
    if (!isFinal(payment)) return undefined;
    return {
      paymentMethod: payment.cardBrand,
      cardSummary: payment.cardLastFour,
      refusalReasonRaw: payment.resultCode === 'Authorised' ? 'AUTHORISED' : (payment.refusalReason ?? ''),
      ...(payment.authCode && payment.resultCode === 'Authorised' ? { authCode: payment.authCode } : {}),
    };
  },

  responseMethod: (payment) => ({ type: 'giftcard', brand: payment.cardBrand }),
};
