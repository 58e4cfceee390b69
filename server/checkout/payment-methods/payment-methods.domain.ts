import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import type { Credential, PaymentMethodSetting, StoredPaymentMethod } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { TEST_GIFT_CARDS } from '../payments/gift-cards.js';
import { canPay } from '../payments/methods/index.js';
import { IDEAL_TEST_ISSUERS } from '../payments/methods/ideal.js';

/**
 * Card brands are configured one by one but offered together as the `scheme` method, listed in
 * its `brands`. Only brands this service can pay are offered: the brands its card reader
 * recognises by their leading digits (cards.ts), and variants paid on one of those networks
 * (Cartes Bancaires co-badged with Visa or Mastercard, Visa and Mastercard debit, V PAY,
 * Maestro USA). Card types whose cards it cannot recognise (girocard, eftpos, Interac, the US
 * debit networks, Brazil's domestic and meal-voucher cards, …) are not offered.
 */
export const CARD_BRANDS = [
  'visa',
  'mc',
  'amex',
  'maestro',
  'jcb',
  'cup',
  'diners',
  'discover',
  'dankort',
  'mir',
  'hipercard',
  'uatp',
  'cartebancaire',
  'visadebit',
  'mcdebit',
  'vpay',
  'maestro_usa',
];

/** Gift card providers with sandbox test cards (gift-cards.ts): each is offered as `giftcard` with its `brand`. */
const GIFT_CARD_NAMES: Readonly<Record<string, string>> = { givex: 'Givex', svs: 'SVS', valuelink: 'ValueLink' };
const SANDBOX_GIFT_CARD_BRANDS = [...new Set(TEST_GIFT_CARDS.map((card) => card.brand))].filter((brand) => GIFT_CARD_NAMES[brand]);

const NAMES: Readonly<Record<string, string>> = {
  scheme: 'Cards',
  ideal: 'iDEAL',
  bcmc: 'Bancontact card',
  bcmc_mobile: 'Payconiq by Bancontact',
  paypal: 'PayPal',
  klarna: 'Pay later with Klarna.',
  klarna_account: 'Pay over time with Klarna.',
  klarna_paynow: 'Pay now with Klarna.',
  klarna_b2b: 'Klarna for business',
  sepadirectdebit: 'SEPA Direct Debit',
  applepay: 'Apple Pay',
  googlepay: 'Google Pay',
  multibanco: 'Multibanco',
  boletobancario: 'Boleto Bancario',
};

export interface PaymentMethodsQuery {
  merchantAccount: string;
  amount?: Money;
  countryCode?: string;
  channel?: string;
  allowedPaymentMethods?: string[];
  blockedPaymentMethods?: string[];
  store?: string;
  storeFiltrationMode?: 'exclusive' | 'inclusive' | 'skipFilter';
  splitCardFundingSources?: boolean;
  shopperReference?: string;
}

export interface OfferedMethod {
  type: string;
  name: string;
  brand?: string;
  brands?: string[];
  fundingSource?: 'credit' | 'debit';
  configuration?: Record<string, string>;
  issuers?: Array<{ id: string; name: string; disabled?: boolean }>;
}

/**
 * What one setting offers online: a card brand (grouped into `scheme`), gift card brands, or a
 * method of its own. Nothing for a type this service cannot pay (no flow takes it, no test card
 * exists for it): /paymentMethods offers only what POST /payments can pay. The service's own
 * `giftcard` setting (a gift card without a provider) stands for every sandbox gift card brand.
 */
type Offer = { kind: 'brand'; brand: string } | { kind: 'giftcard'; brand: string } | { kind: 'method'; type: string };

function offersOf(type: string): Offer[] {
  if (CARD_BRANDS.includes(type)) return [{ kind: 'brand', brand: type }];
  if (type === 'giftcard') return SANDBOX_GIFT_CARD_BRANDS.map((brand) => ({ kind: 'giftcard', brand }));
  if (SANDBOX_GIFT_CARD_BRANDS.includes(type)) return [{ kind: 'giftcard', brand: type }];
  return canPay(type) ? [{ kind: 'method', type }] : [];
}

/** The Apple Pay merchant identifier the sandbox offers (Apple's format; no Apple account is involved). */
export const sandboxApplePayMerchantId = (merchantAccount: string) => `merchant.com.sandbox.${merchantAccount.toLowerCase()}`;

const detailsOf = (setting: PaymentMethodSetting | undefined, key: string) => (setting?.details[key] ?? {}) as Record<string, unknown>;

/**
 * What Adyen's response carries for a method beyond its type and name: the wallets'
 * configuration (merchant identifiers the client libraries need), and Bancontact's mobile app
 * when the merchant enabled it (`bcmc.enableBcmcMobile`), and iDEAL's test banks (`issuers`:
 * optional since iDEAL 2.0, where the shopper may choose the bank after the redirect).
 */
function describe(type: string, setting: PaymentMethodSetting, merchantAccount: string, merchantName: string): OfferedMethod[] {
  const name = NAMES[type] ?? type;
  switch (type) {
    case 'applepay':
      return [{ type, name, configuration: { merchantId: sandboxApplePayMerchantId(merchantAccount), merchantName } }];
    case 'googlepay': {
      const googlePay = detailsOf(setting, 'googlePay');
      const merchantId = typeof googlePay.merchantId === 'string' ? googlePay.merchantId : '';
      return [{ type, name, configuration: { merchantId, gatewayMerchantId: merchantAccount } }];
    }
    case 'paypal': {
      const paypal = detailsOf(setting, 'paypal');
      const configuration: Record<string, string> = { intent: paypal.directCapture === true ? 'capture' : 'authorize' };
      if (typeof paypal.payerId === 'string') configuration.merchantId = paypal.payerId;
      return [{ type, name, configuration }];
    }
    case 'ideal':
      return [{ type, name, issuers: IDEAL_TEST_ISSUERS.map(({ id, name: issuerName }) => ({ id, name: issuerName })) }];
    case 'bcmc':
      return detailsOf(setting, 'bcmc').enableBcmcMobile === true
        ? [
            { type, name },
            { type: 'bcmc_mobile', name: NAMES.bcmc_mobile! },
          ]
        : [{ type, name }];
    default:
      return [{ type, name }];
  }
}

/**
 * Whether a setting is for online payments: /paymentMethods serves e-commerce checkouts, so a
 * setting made for the point of sale (or for MOTO or ContAuth only) is not offered there.
 */
const isOnline = (setting: PaymentMethodSetting) => setting.shopperInteraction === null || setting.shopperInteraction === 'eCommerce';

/** Whether a setting applies to the online transaction described by the query. */
export function fits(setting: PaymentMethodSetting, query: PaymentMethodsQuery): boolean {
  // Only settings that are enabled and allowed (verification passed) are offered.
  if (!setting.enabled || setting.verificationStatus !== 'valid' || !isOnline(setting)) return false;
  const { amount, countryCode, channel } = query;
  if (amount && setting.currencies.length > 0 && !setting.currencies.includes(amount.currency)) return false;
  if (amount && setting.minAmount !== null && amount.value < setting.minAmount) return false;
  if (amount && setting.maxAmount !== null && amount.value > setting.maxAmount) return false;
  if (countryCode && setting.countries.length > 0 && !setting.countries.includes(countryCode)) return false;
  if (channel && setting.channels.length > 0 && !setting.channels.includes(channel)) return false;
  const mode = query.store ? (query.storeFiltrationMode ?? 'inclusive') : (query.storeFiltrationMode ?? 'noStore');
  if (mode === 'skipFilter') return true;
  const tied = setting.storeIds.length > 0;
  if (mode === 'noStore') return !tied;
  const ofStore = query.store !== undefined && setting.storeIds.includes(query.store);
  return mode === 'exclusive' ? ofStore : ofStore || !tied;
}

function allowed(names: string[], query: PaymentMethodsQuery): boolean {
  if (query.allowedPaymentMethods?.length && !names.some((n) => query.allowedPaymentMethods!.includes(n))) return false;
  return !names.some((n) => query.blockedPaymentMethods?.includes(n));
}

/**
 * The methods to offer: what the enabled online settings that fit can pay, card brands grouped
 * into `scheme`, gift cards one entry per brand, every other method once (its first setting
 * decides its configuration). An allowed or blocked list may name a setting's type, a brand or
 * what checkout calls the method (`scheme`, `giftcard`).
 */
export function offeredMethods(settings: PaymentMethodSetting[], query: PaymentMethodsQuery, merchantName = query.merchantAccount): OfferedMethod[] {
  const brands = new Set<string>();
  const others = new Map<string, OfferedMethod>();
  for (const setting of settings.filter((s) => fits(s, query))) {
    for (const offer of offersOf(setting.type)) {
      if (offer.kind === 'brand') {
        if (allowed([offer.brand, 'scheme'], query)) brands.add(offer.brand);
      } else if (offer.kind === 'giftcard') {
        const key = `giftcard/${offer.brand}`;
        if (!others.has(key) && allowed([setting.type, offer.brand, 'giftcard'], query))
          others.set(key, { type: 'giftcard', name: GIFT_CARD_NAMES[offer.brand]!, brand: offer.brand });
      } else {
        for (const entry of describe(offer.type, setting, query.merchantAccount, merchantName))
          if (!others.has(entry.type) && allowed([entry.type], query)) others.set(entry.type, entry);
      }
    }
  }
  const methods: OfferedMethod[] = [];
  const schemeBrands = CARD_BRANDS.filter((brand) => brands.has(brand));
  if (schemeBrands.length > 0) {
    if (query.splitCardFundingSources) {
      methods.push(
        { type: 'scheme', name: 'Credit Card', fundingSource: 'credit', brands: schemeBrands },
        { type: 'scheme', name: 'Debit Card', fundingSource: 'debit', brands: schemeBrands },
      );
    } else {
      methods.push({ type: 'scheme', name: NAMES.scheme!, brands: schemeBrands });
    }
  }
  methods.push(...others.values());
  return methods;
}

/** The card brands a merchant account accepts (optionally in a country). */
export async function acceptedCardBrands(tx: Tx, merchantId: string, countryCode?: string): Promise<string[]> {
  const settings = await tx.paymentMethodSettings.list(merchantId);
  const query: PaymentMethodsQuery = { merchantAccount: merchantId, storeFiltrationMode: 'skipFilter', ...(countryCode && { countryCode }) };
  return CARD_BRANDS.filter((brand) => settings.some((s) => s.type === brand && fits(s, query)));
}

/** POST /paymentMethods */
export async function listPaymentMethods(
  tx: Tx,
  now: Date,
  credential: Credential,
  query: PaymentMethodsQuery,
): Promise<{ paymentMethods: OfferedMethod[]; storedPaymentMethods?: StoredPaymentMethod[] }> {
  const merchant = await requireMerchantAccount(tx, credential, query.merchantAccount);
  const paymentMethods = offeredMethods(await tx.paymentMethodSettings.list(merchant.id), query, merchant.name);
  if (!query.shopperReference) return { paymentMethods };
  const tokens = await tx.storedMethods.list(merchant.id, query.shopperReference);
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  const current = tokens.filter((t) => Number(t.expiryYear) * 12 + Number(t.expiryMonth) >= month);
  return { paymentMethods, storedPaymentMethods: current };
}
