import { randomInt } from 'node:crypto';
import type { components } from '../../../generated/management.js';
import { ApiError, ERR_SANDBOX_ONLY, invalidField } from '../../kernel/errors.js';
import type { Credential, Page, Terminal, TerminalFilter } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';
import { reachOf } from '../stores/stores.domain.js';

type TerminalModel = components['schemas']['TerminalModel'];

export interface TerminalQuery {
  searchQuery?: string | undefined;
  otpQuery?: string | undefined;
  countries?: string | undefined;
  merchantIds?: string | undefined;
  storeIds?: string | undefined;
  brandModels?: string | undefined;
}

/** Castles makes Adyen's Android terminals; the other models are Verifone's. */
export const brandOf = (model: string) => (model.startsWith('S1') || model === 'S7T' ? 'Castles' : 'Verifone');

export const firmwareOf = (model: string) => (brandOf(model) === 'Castles' ? 'Castles_Android 1.102.6' : 'Verifone_VOS 1.102.6');

/** A comma-separated query value as its parts (blank parts dropped). */
const listOf = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/**
 * The filter of GET /terminals: always the merchant accounts the credential reaches (others are
 * never listed, named or not). `searchQuery` and `otpQuery` each stand alone, as Adyen documents.
 */
export function terminalFilterOf(credential: Credential, query: TerminalQuery): TerminalFilter | undefined {
  const reach = reachOf(credential);
  const base: TerminalFilter = { companyId: credential.companyId, ...(reach && { merchantIds: reach }) };
  if (query.searchQuery !== undefined) return { ...base, idContains: query.searchQuery };
  // Boarding one-time passwords belong to physical devices: no sandbox terminal has one.
  if (query.otpQuery !== undefined) return undefined;
  const filter: TerminalFilter = { ...base };
  if (query.merchantIds !== undefined) {
    const asked = listOf(query.merchantIds);
    filter.merchantIds = reach ? asked.filter((id) => reach.includes(id)) : asked;
  }
  if (query.countries !== undefined) filter.countries = listOf(query.countries);
  if (query.storeIds !== undefined) filter.storeIds = listOf(query.storeIds);
  if (query.brandModels !== undefined) {
    filter.brandModels = listOf(query.brandModels).map((pair) => {
      const dot = pair.indexOf('.');
      if (dot <= 0 || dot === pair.length - 1) throw invalidField('brandModels', pair, 'is not <brand>.<model>, for example Castles.S1F2');
      return { brand: pair.slice(0, dot), model: pair.slice(dot + 1) };
    });
  }
  return filter;
}

/** GET /terminals: a page of the terminals the credential reaches that match the query. */
export async function listTerminals(tx: Tx, credential: Credential, query: TerminalQuery, page: PageRequest): Promise<Page<Terminal>> {
  const filter = terminalFilterOf(credential, query);
  if (!filter) return { items: [], total: 0 };
  return tx.terminals.listTerminals(filter, (page.pageNumber - 1) * page.pageSize, page.pageSize);
}

/** A serial number in the shape of the model's maker: 15 digits for Castles, 9 for Verifone. */
const serialOf = (model: string) => Array.from({ length: brandOf(model) === 'Castles' ? 15 : 9 }, () => randomInt(10)).join('');

/**
 * POST /sandbox/terminals: a simulated terminal boarded to an active store of a merchant account
 * the credential reaches. A store that does not exist, or is another company's, is an invalid
 * `storeId` (422, naming nothing); one of the credential's company that it does not reach is 403.
 */
export async function boardSandboxTerminal(tx: Tx, credential: Credential, input: { storeId: string; model: TerminalModel }): Promise<Terminal> {
  const store = await tx.stores.get(input.storeId);
  const merchant = store && (await tx.merchants.get(store.merchantId));
  if (!store || !merchant || merchant.companyId !== credential.companyId) throw invalidField('storeId', input.storeId, 'is not a store of this company');
  await visibleMerchant(tx, credential, merchant.id);
  if (store.status !== 'active') throw invalidField('storeId', input.storeId, `the store is ${store.status}: terminals are boarded to active stores`);
  let serialNumber = serialOf(input.model);
  while (await tx.terminals.getTerminal(`${input.model}-${serialNumber}`)) serialNumber = serialOf(input.model);
  const terminal: Terminal = {
    id: `${input.model}-${serialNumber}`,
    companyId: merchant.companyId,
    merchantId: merchant.id,
    storeId: store.id,
    model: input.model,
    brand: brandOf(input.model),
    serialNumber,
    firmwareVersion: firmwareOf(input.model),
    countryCode: store.address.country,
    status: 'boarded',
  };
  await tx.terminals.insertTerminal(terminal);
  return terminal;
}

/** Sandbox operations answer 404 in production mode. */
export function assertSandbox(mode: 'sandbox' | 'production'): void {
  if (mode !== 'sandbox') throw new ApiError(ERR_SANDBOX_ONLY);
}
