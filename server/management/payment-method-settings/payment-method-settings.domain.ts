import { randomBytes } from 'node:crypto';
import { ApiError, ERR_NOT_FOUND_ENTITY, invalidField } from '../../kernel/errors.js';
import type { Credential, PaymentMethodSetting } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';

const DETAIL_KEYS = ['applePay', 'googlePay', 'paypal'] as const;

export interface SetupInput {
  type: string;
  countries?: string[];
  currencies?: string[];
  customRoutingFlags?: string[];
  storeIds?: string[];
  businessLineId?: string;
  reference?: string;
  shopperInteraction?: string;
  applePay?: unknown;
  googlePay?: unknown;
  paypal?: unknown;
}

export interface UpdateInput {
  enabled?: boolean;
  countries?: string[];
  currencies?: string[];
  customRoutingFlags?: string[];
  store?: string;
  storeId?: string;
  stores?: string[];
  storeIds?: string[];
  applePay?: unknown;
  googlePay?: unknown;
  paypal?: unknown;
}

const invalid = invalidField;

const details = (input: Partial<Record<(typeof DETAIL_KEYS)[number], unknown>>) =>
  Object.fromEntries(DETAIL_KEYS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));

const sameStores = (a: string[], b: string[]) => [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

async function settingOf(tx: Tx, credential: Credential, merchantId: string, id: string): Promise<PaymentMethodSetting> {
  await visibleMerchant(tx, credential, merchantId);
  const setting = await tx.paymentMethodSettings.get(id);
  if (!setting || setting.merchantId !== merchantId) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Payment method ${id} not found` });
  return setting;
}

export async function listSettings(
  tx: Tx,
  credential: Credential,
  merchantId: string,
  filter: { storeId?: string; businessLineId?: string },
  page: PageRequest,
) {
  await visibleMerchant(tx, credential, merchantId);
  const all = (await tx.paymentMethodSettings.list(merchantId)).filter(
    (s) =>
      (filter.storeId === undefined || s.storeIds.includes(filter.storeId)) &&
      (filter.businessLineId === undefined || s.businessLineId === filter.businessLineId),
  );
  const start = (page.pageNumber - 1) * page.pageSize;
  return { items: all.slice(start, start + page.pageSize), total: all.length };
}

/** POST: a new setting, enabled; the same type for the same stores twice is refused. */
export async function requestPaymentMethod(tx: Tx, now: Date, credential: Credential, merchantId: string, input: SetupInput): Promise<PaymentMethodSetting> {
  const merchant = await visibleMerchant(tx, credential, merchantId);
  const storeIds = input.storeIds ?? [];
  const existing = await tx.paymentMethodSettings.list(merchant.id);
  if (existing.some((s) => s.type === input.type && sameStores(s.storeIds, storeIds))) throw invalid('type', input.type, 'is already set up for these stores');
  const setting: PaymentMethodSetting = {
    id: `PM${randomBytes(12).toString('hex').toUpperCase().slice(0, 23)}`,
    merchantId: merchant.id,
    type: input.type,
    enabled: true,
    countries: input.countries ?? [],
    currencies: input.currencies ?? [],
    customRoutingFlags: input.customRoutingFlags ?? [],
    storeIds,
    channels: [],
    shopperInteraction: input.shopperInteraction ?? null,
    reference: input.reference ?? null,
    minAmount: null,
    maxAmount: null,
    details: details(input),
    businessLineId: input.businessLineId ?? null,
    verificationStatus: 'valid',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.paymentMethodSettings.insert(setting);
  return setting;
}

export const getSetting = settingOf;

/** PATCH: given fields change; `store`/`storeId` ties the method to one store, `stores`/`storeIds` to a list. */
export async function updatePaymentMethod(
  tx: Tx,
  now: Date,
  credential: Credential,
  merchantId: string,
  id: string,
  input: UpdateInput,
): Promise<PaymentMethodSetting> {
  const setting = await settingOf(tx, credential, merchantId, id);
  const single = input.store ?? input.storeId;
  const list = input.stores ?? input.storeIds;
  const storeIds = single !== undefined ? [single] : (list ?? setting.storeIds);
  const updated: PaymentMethodSetting = {
    ...setting,
    enabled: input.enabled ?? setting.enabled,
    countries: input.countries ?? setting.countries,
    currencies: input.currencies ?? setting.currencies,
    customRoutingFlags: input.customRoutingFlags ?? setting.customRoutingFlags,
    storeIds,
    details: { ...setting.details, ...details(input) },
    updatedAt: now.toISOString(),
  };
  await tx.paymentMethodSettings.update(updated);
  return updated;
}

/** POST addApplePayDomains: adds domains to an Apple Pay setting. */
export async function addApplePayDomains(tx: Tx, now: Date, credential: Credential, merchantId: string, id: string, domains: string[]): Promise<void> {
  const setting = await settingOf(tx, credential, merchantId, id);
  if (setting.type !== 'applepay') throw invalid('paymentMethodId', id, `is a ${setting.type} setting, not Apple Pay`);
  const current = ((setting.details.applePay as { domains?: string[] } | undefined)?.domains ?? []).slice();
  for (const domain of domains) if (!current.includes(domain)) current.push(domain);
  await tx.paymentMethodSettings.update({ ...setting, details: { ...setting.details, applePay: { domains: current } }, updatedAt: now.toISOString() });
}

export async function applePayDomains(tx: Tx, credential: Credential, merchantId: string, id: string): Promise<string[]> {
  const setting = await settingOf(tx, credential, merchantId, id);
  if (setting.type !== 'applepay') throw invalid('paymentMethodId', id, `is a ${setting.type} setting, not Apple Pay`);
  return (setting.details.applePay as { domains?: string[] } | undefined)?.domains ?? [];
}
