import type { Payment } from '../../../store/types.js';
import { authorise } from '../authorisation.js';
import { readCard } from '../cards.js';
import { cardOfWalletToken } from '../wallet-tokens.js';
import { cardFlow, decideByTest, settleTestPending, testDecisionOf, withCard } from './card.js';
import { type PaymentMethodFlow, textOf } from './method.js';

/** The wallet a payment method type is (Google Pay's former name included). */
const WALLET_OF: Readonly<Record<string, string>> = { applepay: 'applepay', googlepay: 'googlepay', paywithgoogle: 'googlepay' };

/**
 * Apple Pay and Google Pay: the token names the card (wallet-tokens.ts), the wallet's
 * cryptogram stands for authentication, so the card is authorised or refused at once by the
 * card rules (Adyen's test table included: the token's holder name or the request's
 * RequestedTestAcquirerResponseCode). The response names the card's brand; the variant (`visa_applepay`) is in
 * additionalData and in the AUTHORISATION event.
 */
export const walletFlow: PaymentMethodFlow = {
  types: Object.keys(WALLET_OF),

  start(ctx, pending) {
    const type = String(ctx.input.paymentMethod.type);
    const method = ctx.input.paymentMethod as { applePayToken?: unknown; googlePayToken?: unknown; googlePayCardNetwork?: unknown };
    const token = textOf(method.applePayToken) || textOf(method.googlePayToken);
    const card = readCard(cardOfWalletToken(token, typeof method.googlePayCardNetwork === 'string' ? method.googlePayCardNetwork : undefined));
    const carded: Payment = { ...withCard(pending, card), paymentMethodType: type };
    const decision = testDecisionOf(card, ctx.now, ctx.input.additionalData);
    const payment = decision ? decideByTest(carded, decision, ctx.now) : authorise(carded, ctx.now);
    return Promise.resolve({ payment, eventData: { paymentMethodVariant: `${card.brand}_${WALLET_OF[type]}` } });
  },

  settle: settleTestPending,

  additionalData(payment, createdToken) {
    const card = cardFlow.additionalData!(payment, createdToken);
    return card && { ...card, paymentMethodVariant: `${payment.cardBrand}_${WALLET_OF[payment.paymentMethodType]}` };
  },

  responseMethod: (payment) => ({ type: payment.paymentMethodType, brand: payment.cardBrand }),
};
