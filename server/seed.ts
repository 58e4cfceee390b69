import { CHECKOUT_ROLES, ALL_ROLES } from './kernel/auth/roles.js';
import { newApiKey, newClientKey } from './kernel/auth/credentials.js';
import { newPspReference } from './checkout/references.js';
import type { Merchant, PaymentMethodSetting, StoreAddress, StoreLocation, Terminal } from './store/types.js';
import { brandOf, firmwareOf } from './management/terminals/terminals.domain.js';
import type { Store, Tx } from './store/tx.js';

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
  /** On a later start: the seeded credentials to which a key from the environment was added (or made current again) now. */
  appliedKeys: Array<'company' | 'merchant'>;
}

/**
 * Makes a key given in the environment a current key of a seeded credential on a database that
 * already exists: added when the credential does not have it, made current again when it was
 * rotated out. The credential's other keys (a key generated at the first start, keys issued
 * through the API) are left as they are: they keep working until rotated out through the API.
 * A key that already belongs to another credential stops the start, naming the variable.
 */
async function applyDemoKey(tx: Tx, now: Date, credentialId: string, variable: string, key: string): Promise<boolean> {
  if (!(await tx.credentials.get(credentialId))) return false;
  const keyHash = tx.credentials.hashKey(key);
  const stored = await tx.credentials.getKey(keyHash);
  if (stored && stored.credentialId !== credentialId) {
    throw new Error(`${variable} is already the API key of credential ${stored.credentialId}: give each seeded credential its own key`);
  }
  if (stored?.expiresAt === null) return false;
  if (stored) await tx.credentials.updateKey({ ...stored, expiresAt: null });
  else await tx.credentials.insertKey({ keyHash, credentialId, createdAt: now.toISOString(), expiresAt: null });
  return true;
}

/**
 * On first start with an empty database: a demo company, two merchant accounts, a company
 * credential with every role and a merchant credential limited to the first merchant account
 * with checkout roles only. Keys come from the environment or are generated. On every later
 * start, keys given in the environment are applied to the seeded credentials (applyDemoKey).
 */
export async function seedDemoData(store: Store, now: Date, keys: { company?: string | undefined; merchant?: string | undefined }): Promise<SeedResult> {
  return store.transaction(async (tx) => {
    if ((await tx.companies.count()) > 0) {
      const appliedKeys: SeedResult['appliedKeys'] = [];
      if (keys.company && (await applyDemoKey(tx, now, DEMO.companyCredentialId, 'DEMO_COMPANY_API_KEY', keys.company))) appliedKeys.push('company');
      if (keys.merchant && (await applyDemoKey(tx, now, DEMO.merchantCredentialId, 'DEMO_MERCHANT_API_KEY', keys.merchant))) appliedKeys.push('merchant');
      return { seeded: false, generatedKeys: {}, appliedKeys };
    }
    const createdAt = now.toISOString();
    await tx.companies.insert({ id: DEMO.companyId, name: 'DemoCompany', createdAt });
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
    await tx.merchants.insert(merchant(DEMO.merchantEcom, 'Demo Merchant ECOM', { description: 'Online shop of the demo company' }));
    await tx.merchants.insert(
      merchant(DEMO.merchantPos, 'Demo Merchant POS', {
        description: 'Stores of the demo company; allows several partial captures',
        multiplePartialCaptures: true,
        defaultShopperInteraction: 'POS',
        shopWebAddress: 'https://stores.example.com',
      }),
    );
    for (const merchantId of [DEMO.merchantEcom, DEMO.merchantPos]) {
      for (const setting of defaultPaymentMethodSettings(merchantId, createdAt)) await tx.paymentMethodSettings.insert(setting);
    }
    const store = (
      id: string,
      reference: string,
      description: string,
      shopperStatement: string,
      phoneNumber: string,
      address: StoreAddress,
    ): StoreLocation => ({
      id,
      merchantId: DEMO.merchantPos,
      reference,
      description,
      shopperStatement,
      phoneNumber,
      address,
      status: 'active',
      details: {},
    });
    await tx.stores.insert(
      store(DEMO.storeAmsterdam, 'AMS01', 'Amsterdam flagship', 'Demo Amsterdam', '+31201234567', {
        country: 'NL',
        city: 'Amsterdam',
        line1: 'Damrak 1',
        postalCode: '1012 LG',
      }),
    );
    await tx.stores.insert(
      store(DEMO.storeRotterdam, 'RTM02', 'Rotterdam', 'Demo Rotterdam', '+31101234567', {
        country: 'NL',
        city: 'Rotterdam',
        line1: 'Coolsingel 40',
        postalCode: '3011 AD',
      }),
    );
    // Terminals are not made through the API (a sandbox has no devices to board): these two are the
    // demo's; POST /sandbox/terminals boards more (see docs/sandbox-test-data.md).
    const terminal = (id: string, storeId: string, model: string): Terminal => ({
      id,
      companyId: DEMO.companyId,
      merchantId: DEMO.merchantPos,
      storeId,
      model,
      brand: brandOf(model),
      serialNumber: id.slice(id.indexOf('-') + 1),
      firmwareVersion: firmwareOf(model),
      countryCode: 'NL',
      status: 'boarded',
    });
    await tx.terminals.insertTerminal(terminal(DEMO.terminalAmsterdam, DEMO.storeAmsterdam, 'S1F2'));
    await tx.terminals.insertTerminal(terminal(DEMO.terminalRotterdam, DEMO.storeRotterdam, 'V400m'));
    await tx.terminals.putSettings('company', DEMO.companyId, { receiptOptions: { headerLine1: 'Demo Company' } }, createdAt);
    const companyKey = keys.company ?? newApiKey();
    const merchantKey = keys.merchant ?? newApiKey();
    const base = { allowedIpAddresses: [], associatedMerchantAccounts: [], active: true, createdAt };
    await tx.credentials.insert({
      ...base,
      id: DEMO.companyCredentialId,
      companyId: DEMO.companyId,
      merchantId: null,
      username: DEMO.companyUsername,
      description: 'Demo company credential with every role',
      roles: [...ALL_ROLES],
      clientKey: newClientKey(),
    });
    await tx.credentials.insert({
      ...base,
      id: DEMO.merchantCredentialId,
      companyId: DEMO.companyId,
      merchantId: DEMO.merchantEcom,
      username: DEMO.merchantUsername,
      description: 'Demo merchant credential, checkout only',
      roles: [...CHECKOUT_ROLES],
      clientKey: newClientKey(),
    });
    await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(companyKey), credentialId: DEMO.companyCredentialId, createdAt, expiresAt: null });
    await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(merchantKey), credentialId: DEMO.merchantCredentialId, createdAt, expiresAt: null });
    return {
      seeded: true,
      generatedKeys: { ...(keys.company ? {} : { company: companyKey }), ...(keys.merchant ? {} : { merchant: merchantKey }) },
      appliedKeys: [],
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
  // A millisecond apart, as if made one after the other: lists order settings by creation time.
  const inOrder = (settings: PaymentMethodSetting[]) =>
    settings.map((s, i) => ({
      ...s,
      createdAt: new Date(Date.parse(createdAt) + i).toISOString(),
      updatedAt: new Date(Date.parse(createdAt) + i).toISOString(),
    }));
  return inOrder([
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
  ]);
}
