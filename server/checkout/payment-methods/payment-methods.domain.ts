import { requireMerchantAccount } from '../../kernel/auth/credentials.js';
import type { Credential, PaymentMethodSetting, StoredPaymentMethod } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { Money } from '../money.js';
import { SETTING_TYPE_NAMES } from './setting-names.js';

/** Card brands are configured one by one but offered together as the `scheme` method. */
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
  'elo',
  'uatp',
  // Card variants a merchant can also set up (payment method settings).
  'cartebancaire',
  'visadebit',
  'mcdebit',
  'vpay',
  'maestro_usa',
  'girocard',
  'hiper',
  'carnet',
];

const NAMES: Record<string, string> = {
  scheme: 'Cards',
  ideal: 'iDEAL',
  bcmc: 'Bancontact card',
  paypal: 'PayPal',
  klarna: 'Pay later with Klarna.',
  sepadirectdebit: 'SEPA Direct Debit',
  applepay: 'Apple Pay',
  googlepay: 'Google Pay',
  giftcard: 'Gift card',
  bcmc_mobile: 'Payconiq by Bancontact',
  boletobancario: 'Boleto Bancario',
  multibanco: 'Multibanco',
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

/** Gift card providers: each is offered as `giftcard` with its `brand`, as Adyen lists them. */
const GIFT_CARD_NAMES: Record<string, string> = { givex: 'Givex', svs: 'SVS', valuelink: 'ValueLink', todo_giftcard: 'Todo Giftcard' };

const checkoutType = (type: string) => (CARD_BRANDS.includes(type) ? 'scheme' : GIFT_CARD_NAMES[type] ? 'giftcard' : type);

/** The Apple Pay merchant identifier the sandbox offers (Apple's format; no Apple account is involved). */
export const sandboxApplePayMerchantId = (merchantAccount: string) => `merchant.com.sandbox.${merchantAccount.toLowerCase()}`;

const detailsOf = (setting: PaymentMethodSetting | undefined, key: string) => (setting?.details[key] ?? {}) as Record<string, unknown>;

/**
 * What Adyen's response carries for a method beyond its type and name: the wallets'
 * configuration (merchant identifiers the client libraries need), the gift card's provider,
 * and Bancontact's mobile app when the merchant enabled it. iDEAL 2.0 has no issuer list: the
 * shopper chooses the bank on the redirect page.
 */
function describe(type: string, setting: PaymentMethodSetting, merchantAccount: string, merchantName: string): OfferedMethod[] {
  const name = NAMES[type] ?? SETTING_TYPE_NAMES[type] ?? type;
  if (GIFT_CARD_NAMES[type]) return [{ type: 'giftcard', name: GIFT_CARD_NAMES[type], brand: type }];
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

/** Whether a setting applies to the transaction described by the query. */
export function fits(setting: PaymentMethodSetting, query: PaymentMethodsQuery): boolean {
  // Only settings that are enabled and allowed (verification passed) are offered.
  if (!setting.enabled || setting.verificationStatus !== 'valid') return false;
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

function allowed(type: string, query: PaymentMethodsQuery): boolean {
  const names = [type, checkoutType(type)];
  if (query.allowedPaymentMethods?.length && !names.some((n) => query.allowedPaymentMethods!.includes(n))) return false;
  return !names.some((n) => query.blockedPaymentMethods?.includes(n));
}

/** The methods to offer: enabled settings that fit, card brands grouped into `scheme`. */
export function offeredMethods(settings: PaymentMethodSetting[], query: PaymentMethodsQuery, merchantName = query.merchantAccount): OfferedMethod[] {
  const fitting = settings.filter((s) => fits(s, query) && allowed(s.type, query));
  const brands = CARD_BRANDS.filter((brand) => fitting.some((s) => s.type === brand));
  const others = [...new Set(fitting.map((s) => s.type).filter((t) => !CARD_BRANDS.includes(t)))];
  const methods: OfferedMethod[] = [];
  if (brands.length > 0) {
    if (query.splitCardFundingSources) {
      methods.push(
        { type: 'scheme', name: 'Credit Card', fundingSource: 'credit', brands },
        { type: 'scheme', name: 'Debit Card', fundingSource: 'debit', brands },
      );
    } else {
      methods.push({ type: 'scheme', name: NAMES.scheme!, brands });
    }
  }
  for (const type of others)
    methods.push(
      ...describe(
        type,
        fitting.find((s) => s.type === type)!,
        query.merchantAccount,
        merchantName,
      ),
    );
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
