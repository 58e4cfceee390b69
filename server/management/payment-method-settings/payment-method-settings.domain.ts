import { randomBytes } from 'node:crypto';
import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError, ERR_NOT_FOUND_ENTITY, invalidField } from '../../kernel/errors.js';
import type { Credential, PaymentMethodSetting } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';
import { checkObjectsMatch, mergeObjects, objectsOf, sealSecrets } from './per-type.js';

export interface SetupInput {
  type: string;
  countries?: string[];
  currencies?: string[];
  customRoutingFlags?: string[];
  storeIds?: string[];
  businessLineId?: string;
  reference?: string;
  shopperInteraction?: string;
  /** Per-type objects (`klarna`, `givex`, …): see per-type.ts. */
  [perType: string]: unknown;
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
  /** Per-type objects (`bcmc`, `visa`, …): see per-type.ts. */
  [perType: string]: unknown;
}

const invalid = invalidField;

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

/**
 * POST: a new setting, enabled; the same type for the same stores twice is refused, and so is a
 * per-type object of another type. Secrets of the per-type object are stored encrypted.
 */
export async function requestPaymentMethod(
  tx: Tx,
  now: Date,
  vault: CardVault,
  credential: Credential,
  merchantId: string,
  input: SetupInput,
): Promise<PaymentMethodSetting> {
  const merchant = await visibleMerchant(tx, credential, merchantId);
  const objects = objectsOf(input);
  checkObjectsMatch(input.type, objects);
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
    details: sealSecrets(objects, vault),
    businessLineId: input.businessLineId ?? null,
    verificationStatus: 'valid',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await tx.paymentMethodSettings.insert(setting);
  return setting;
}

export const getSetting = settingOf;

/**
 * PATCH: given fields change; `store`/`storeId` ties the method to one store, `stores`/`storeIds`
 * to a list. A per-type object must belong to the setting's type; it is merged into the stored one.
 */
export async function updatePaymentMethod(
  tx: Tx,
  now: Date,
  vault: CardVault,
  credential: Credential,
  merchantId: string,
  id: string,
  input: UpdateInput,
): Promise<PaymentMethodSetting> {
  const setting = await settingOf(tx, credential, merchantId, id);
  const objects = objectsOf(input);
  checkObjectsMatch(setting.type, objects);
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
    details: mergeObjects(setting.details, sealSecrets(objects, vault)),
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
