import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/management.js';
import { ApiError, ERR_FIELD_INVALID, ERR_NOT_FOUND_ENTITY, invalidField } from '../../kernel/errors.js';
import type { Credential, Page, StoreDetails, StoreLocation, StoreStatus } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';

export type NewStore = components['schemas']['StoreCreationRequest'];
export type StoreChanges = components['schemas']['UpdateStoreRequest'];

/** The merchant accounts a credential reaches, or undefined for every one of its company. */
export function reachOf(credential: Credential): string[] | undefined {
  if (credential.merchantId !== null) return [credential.merchantId];
  return credential.associatedMerchantAccounts.length > 0 ? credential.associatedMerchantAccounts : undefined;
}

/** Countries whose stores need a state or province (Adyen's list). */
const NEEDS_STATE = ['AU', 'BR', 'CA', 'IN', 'MX', 'NZ', 'US'];

/** The moves a store's status may make: active ⇄ inactive, and inactive → closed (final). */
const NEXT_STATUS: Record<StoreStatus, StoreStatus[]> = { active: ['inactive'], inactive: ['active', 'closed'], closed: [] };

const ID_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A store identifier in Adyen's shape: `ST` and 23 letters and digits. */
const newStoreId = () => `ST${Array.from({ length: 23 }, () => ID_CHARACTERS[randomInt(ID_CHARACTERS.length)]).join('')}`;

/**
 * A phone number as E.164 (`+` and up to 15 digits): spaces, dashes, dots and parentheses are
 * dropped and a leading `00` becomes `+`, as Adyen converts what it can; anything else is refused.
 */
export function e164(phone: string): string {
  const compact = phone.replace(/[\s\-.()]/g, '').replace(/^00/, '+');
  if (!/^\+[1-9][0-9]{6,14}$/.test(compact)) throw invalidField('phoneNumber', phone, 'is not a phone number in E.164 format, for example +31201234567');
  return compact;
}

function checkShopperStatement(statement: string): void {
  if (/^[0-9]+$/.test(statement)) throw invalidField('shopperStatement', statement, 'cannot be only digits');
}

function checkAddress(address: StoreLocation['address']): void {
  if (NEEDS_STATE.includes(address.country) && !address.stateOrProvince)
    throw invalidField('address.stateOrProvince', '', `is required for a store in ${address.country}`);
}

async function checkSplitConfiguration(tx: Tx, merchantId: string, split: StoreDetails['splitConfiguration']): Promise<void> {
  const id = split?.splitConfigurationId;
  if (id === undefined) return;
  const config = await tx.splits.get(id);
  if (!config || config.merchantId !== merchantId)
    throw invalidField('splitConfiguration.splitConfigurationId', id, 'is not a split configuration of this merchant account');
}

/** The fields of a request that the service keeps but does not act on. */
function detailsOf(input: NewStore | StoreChanges, previous: StoreDetails = {}): StoreDetails {
  const details: StoreDetails = { ...previous };
  if (input.businessLineIds !== undefined) details.businessLineIds = input.businessLineIds;
  if (input.externalReferenceId !== undefined) details.externalReferenceId = input.externalReferenceId;
  if (input.splitConfiguration !== undefined) details.splitConfiguration = input.splitConfiguration;
  if (input.subMerchantData !== undefined) details.subMerchantData = input.subMerchantData;
  if ('localizedInformation' in input && input.localizedInformation !== undefined) details.localizedInformation = input.localizedInformation;
  return details;
}

/** POST /stores and POST /merchants/{merchantId}/stores: a new active store; its reference defaults to its id. */
export async function createStore(tx: Tx, credential: Credential, merchantId: string, input: NewStore): Promise<StoreLocation> {
  await visibleMerchant(tx, credential, merchantId);
  checkShopperStatement(input.shopperStatement);
  checkAddress(input.address);
  const phoneNumber = e164(input.phoneNumber);
  await checkSplitConfiguration(tx, merchantId, input.splitConfiguration);
  let id = newStoreId();
  while (await tx.stores.get(id)) id = newStoreId();
  const reference = input.reference ?? id;
  if (await tx.stores.byReference(merchantId, reference))
    throw invalidField('reference', reference, 'is already the reference of another store of this merchant account');
  const store: StoreLocation = {
    id,
    merchantId,
    reference,
    description: input.description,
    shopperStatement: input.shopperStatement,
    phoneNumber,
    address: input.address,
    status: 'active',
    details: detailsOf(input),
  };
  await tx.stores.insert(store);
  return store;
}

/**
 * A store the credential reaches; with `merchantId` (the merchant-level paths) it must be that
 * merchant account's. Another company's store, or another merchant account's, is not found.
 */
export async function storeOf(tx: Tx, credential: Credential, storeId: string, merchantId?: string, forUpdate = false): Promise<StoreLocation> {
  const store = forUpdate ? await tx.stores.getForUpdate(storeId) : await tx.stores.get(storeId);
  const notFound = new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Store ${storeId} not found` });
  if (!store || (merchantId !== undefined && store.merchantId !== merchantId)) throw notFound;
  try {
    await visibleMerchant(tx, credential, store.merchantId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound;
    throw error;
  }
  return store;
}

/** GET /stores and GET /merchants/{merchantId}/stores: the stores of the merchant accounts the credential reaches. */
export async function listStores(
  tx: Tx,
  credential: Credential,
  query: { merchantId?: string | undefined; reference?: string | undefined },
  page: PageRequest,
): Promise<Page<StoreLocation>> {
  let merchantIds = reachOf(credential);
  if (query.merchantId !== undefined) {
    await visibleMerchant(tx, credential, query.merchantId);
    merchantIds = [query.merchantId];
  }
  return tx.stores.list(
    { companyId: credential.companyId, ...(merchantIds && { merchantIds }), ...(query.reference !== undefined && { reference: query.reference }) },
    (page.pageNumber - 1) * page.pageSize,
    page.pageSize,
  );
}

/**
 * PATCH /stores/{storeId} and PATCH /merchants/{merchantId}/stores/{storeId}: fields left out keep
 * their value. The status moves only along NEXT_STATUS; a closed store does not change any more,
 * and closing one moves its terminals to the merchant account's inventory.
 */
export async function updateStore(
  tx: Tx,
  credential: Credential,
  storeId: string,
  merchantId: string | undefined,
  changes: StoreChanges,
): Promise<StoreLocation> {
  const store = await storeOf(tx, credential, storeId, merchantId, true);
  if (store.status === 'closed') throw new ApiError(ERR_FIELD_INVALID, { message: `Store ${storeId} is closed: a closed store cannot change` });
  const status = changes.status ?? store.status;
  if (status !== store.status && !NEXT_STATUS[store.status].includes(status)) {
    throw invalidField('status', status, `cannot follow ${store.status}: a store goes from active to inactive, and from inactive to active or closed`);
  }
  const address = { ...store.address };
  for (const [field, value] of Object.entries(changes.address ?? {})) {
    // An empty line clears it; the country is not in UpdatableAddress (the schema refuses it).
    if (value === '') delete address[field as keyof typeof address];
    else address[field as keyof typeof address] = value;
  }
  checkAddress(address);
  await checkSplitConfiguration(tx, store.merchantId, changes.splitConfiguration);
  const updated: StoreLocation = {
    ...store,
    ...(changes.description !== undefined && { description: changes.description }),
    ...(changes.phoneNumber !== undefined && { phoneNumber: e164(changes.phoneNumber) }),
    address,
    status,
    details: detailsOf(changes, store.details),
  };
  await tx.stores.update(updated);
  if (status === 'closed') await tx.terminals.storeTerminalsToInventory(store.id);
  return updated;
}
