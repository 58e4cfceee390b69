import { command, operation } from '../../kernel/http/handler.js';
import type { StoredPaymentMethod } from '../../store/types.js';
import { lookUpBin, lookUpCard } from './card-details.domain.js';
import { listPaymentMethods } from './payment-methods.domain.js';

const BRAND_NAMES: Record<string, string> = {
  visa: 'VISA',
  mc: 'MasterCard',
  amex: 'American Express',
  maestro: 'Maestro',
  jcb: 'JCB',
  cup: 'UnionPay',
  diners: 'Diners Club',
  discover: 'Discover',
};

/** The shopper's stored cards as the payment methods operation (and a session's setup) lists them. */
export function storedMethodsAnswer(tokens: StoredPaymentMethod[]) {
  return tokens.map((t) => ({
    id: t.id,
    type: 'scheme',
    brand: t.brand,
    name: BRAND_NAMES[t.brand] ?? t.brand,
    lastFour: t.lastFour,
    expiryMonth: t.expiryMonth,
    expiryYear: t.expiryYear,
    ...(t.holderName && { holderName: t.holderName }),
    supportedShopperInteractions: t.recurringProcessingModel === 'CardOnFile' ? ['Ecommerce', 'ContAuth'] : ['ContAuth'],
    supportedRecurringProcessingModels: [t.recurringProcessingModel],
  }));
}

/** POST /paymentMethods */
export const paymentMethods = command('paymentMethods')(async ({ tx, body, caller }, deps) => {
  const { paymentMethods: methods, storedPaymentMethods } = await listPaymentMethods(tx, deps.clock.now(caller.credential.companyId), caller.credential, body);
  return { paymentMethods: methods, ...(storedPaymentMethods && { storedPaymentMethods: storedMethodsAnswer(storedPaymentMethods) }) };
});

/** POST /cardDetails */
export const cardDetails = command('cardDetails')(async ({ tx, body, caller }) => lookUpCard(tx, caller.credential, body));

/** POST /v3/bin/binLookup (client-side): the brands of the digits the shopper typed; reads nothing. */
export const binLookup = operation('binLookup')(({ body }) => lookUpBin(body));
