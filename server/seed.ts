import { CHECKOUT_ROLES, ALL_ROLES } from './kernel/auth/roles.js';
import { newApiKey, newClientKey } from './kernel/auth/credentials.js';
import { newPspReference } from './checkout/references.js';
import type { Merchant, PaymentMethodSetting, Store } from './store/types.js';

export const DEMO = {
  companyId: 'DemoCompany',
  merchantEcom: 'DemoMerchantECOM',
  merchantPos: 'DemoMerchantPOS',
  companyCredentialId: 'S2-DEMOCOMPANY01',
  companyUsername: 'ws@Company.DemoCompany',
  merchantCredentialId: 'S2-DEMOMERCHANT1',
  merchantUsername: 'ws_100001@Company.DemoCompany',
  storeAmsterdam: 'ST322LJ223223K5F4SQNR9XL5',
  storeRotterdam: 'ST322LJ223223K5F4SQNR9XL6',
  terminalAmsterdam: 'S1F2-000150183300032',
  terminalRotterdam: 'V400m-324688179',
} as const;

export interface SeedResult {
  /** True when the database was empty and the demo data was written now. */
  seeded: boolean;
  /** Keys generated now (not given in the environment): shown once, never stored. */
  generatedKeys: { company?: string; merchant?: string };
}

/**
 * On first start with an empty database: a demo company, two merchant accounts, a company
 * credential with every role and a merchant credential limited to the first merchant account
 * with checkout roles only. Keys come from the environment or are generated.
 */
export async function seedDemoData(store: Store, now: Date, keys: { company?: string | undefined; merchant?: string | undefined }): Promise<SeedResult> {
  return store.transaction(async (tx) => {
    if ((await tx.countCompanies()) > 0) return { seeded: false, generatedKeys: {} };
    const createdAt = now.toISOString();
    await tx.insertCompany({ id: DEMO.companyId, name: 'DemoCompany', createdAt });
    const merchant = (id: string, name: string, overrides: Partial<Merchant>): Merchant => ({
      id,
      companyId: DEMO.companyId,
      name,
      description: name,
      reference: id,
      status: 'Active',
      captureDelay: 'manual',
      multiplePartialCaptures: false,
      defaultShopperInteraction: 'Ecommerce',
      primarySettlementCurrency: 'EUR',
      shopWebAddress: 'https://shop.example.com',
      merchantCity: 'Amsterdam',
      pricingPlan: 'Standard',
      createdAt,
      ...overrides,
    });
    await tx.insertMerchant(merchant(DEMO.merchantEcom, 'Demo Merchant ECOM', { description: 'Online shop of the demo company' }));
    await tx.insertMerchant(
      merchant(DEMO.merchantPos, 'Demo Merchant POS', {
        description: 'Stores of the demo company; allows several partial captures',
        multiplePartialCaptures: true,
        defaultShopperInteraction: 'POS',
        shopWebAddress: 'https://stores.example.com',
      }),
    );
    for (const merchantId of [DEMO.merchantEcom, DEMO.merchantPos]) {
      for (const setting of defaultPaymentMethodSettings(merchantId, createdAt)) await tx.insertPaymentMethodSetting(setting);
    }
    await tx.insertStore({ id: DEMO.storeAmsterdam, merchantId: DEMO.merchantPos, reference: 'AMS01', description: 'Amsterdam flagship' });
    await tx.insertStore({ id: DEMO.storeRotterdam, merchantId: DEMO.merchantPos, reference: 'RTM02', description: 'Rotterdam' });
    await tx.insertTerminal({ id: DEMO.terminalAmsterdam, storeId: DEMO.storeAmsterdam, model: 'S1F2' });
    await tx.insertTerminal({ id: DEMO.terminalRotterdam, storeId: DEMO.storeRotterdam, model: 'V400m' });
    await tx.putTerminalSettings('company', DEMO.companyId, { receiptOptions: { headerLine1: 'Demo Company' } }, createdAt);
    const companyKey = keys.company ?? newApiKey();
    const merchantKey = keys.merchant ?? newApiKey();
    const base = { allowedIpAddresses: [], associatedMerchantAccounts: [], active: true, createdAt };
    await tx.insertCredential({
      ...base,
      id: DEMO.companyCredentialId,
      companyId: DEMO.companyId,
      merchantId: null,
      username: DEMO.companyUsername,
      description: 'Demo company credential with every role',
      roles: [...ALL_ROLES],
      clientKey: newClientKey(),
    });
    await tx.insertCredential({
      ...base,
      id: DEMO.merchantCredentialId,
      companyId: DEMO.companyId,
      merchantId: DEMO.merchantEcom,
      username: DEMO.merchantUsername,
      description: 'Demo merchant credential, checkout only',
      roles: [...CHECKOUT_ROLES],
      clientKey: newClientKey(),
    });
    await tx.insertApiKey({ keyHash: tx.hashApiKey(companyKey), credentialId: DEMO.companyCredentialId, createdAt, expiresAt: null });
    await tx.insertApiKey({ keyHash: tx.hashApiKey(merchantKey), credentialId: DEMO.merchantCredentialId, createdAt, expiresAt: null });
    return {
      seeded: true,
      generatedKeys: { ...(keys.company ? {} : { company: companyKey }), ...(keys.merchant ? {} : { merchant: merchantKey }) },
    };
  });
}

const SEPA = ['AT', 'BE', 'DE', 'ES', 'FI', 'FR', 'IE', 'IT', 'LU', 'NL', 'PT'];

/**
 * The payment methods a new demo merchant account has: card brands everywhere, local methods
 * where they exist, wallets on the channels that have them, and one method tied to a store.
 */
export function defaultPaymentMethodSettings(merchantId: string, createdAt: string): PaymentMethodSetting[] {
  const setting = (type: string, overrides: Partial<PaymentMethodSetting> = {}): PaymentMethodSetting => ({
    id: `PM${newPspReference()}${newPspReference().slice(0, 9)}`,
    merchantId,
    type,
    enabled: true,
    countries: [],
    currencies: [],
    customRoutingFlags: [],
    storeIds: [],
    channels: [],
    shopperInteraction: 'eCommerce',
    reference: null,
    minAmount: null,
    maxAmount: null,
    details: {},
    businessLineId: null,
    verificationStatus: 'valid',
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  });
  return [
    setting('visa'),
    setting('mc'),
    setting('amex'),
    setting('maestro'),
    setting('jcb'),
    setting('cup'),
    setting('diners', { enabled: false }),
    setting('ideal', { countries: ['NL'], currencies: ['EUR'] }),
    setting('bcmc', { countries: ['BE'], currencies: ['EUR'] }),
    setting('paypal', { currencies: ['EUR', 'USD', 'GBP'] }),
    setting('klarna', { countries: ['NL', 'DE', 'SE', 'AT'], currencies: ['EUR', 'SEK'], minAmount: 100, maxAmount: 1_000_000 }),
    setting('sepadirectdebit', { countries: SEPA, currencies: ['EUR'] }),
    setting('applepay', { channels: ['iOS', 'Web'], details: { applePay: { domains: ['shop.example.com'] } } }),
    setting('googlepay', { channels: ['Android', 'Web'] }),
    setting('giftcard', { storeIds: ['AMS01'], shopperInteraction: 'pos' }),
  ];
}
