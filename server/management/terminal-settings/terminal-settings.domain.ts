import { ApiError, ERR_NOT_ALLOWED, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { Credential, SettingsLevel, SettingsSections } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleCompany, visibleMerchant } from '../accounts/accounts.domain.js';

/** The settings every terminal starts with, below the company level. */
export const DEFAULT_SETTINGS: SettingsSections = {
  localization: { language: 'en', timezone: 'Europe/Amsterdam' },
  receiptOptions: { promptBeforePrinting: false },
  signature: { askSignatureOnScreen: true, skipSignature: false },
  hardware: { restartHour: 3, resetTotalsHour: 6 },
  timeouts: { fromActiveToSleep: 30 },
  moto: { enableMoto: false },
};

export const SENSITIVE_SECTIONS = ['passcodes'];

/** A level and the levels above it, nearest last (the order values override in). */
export interface Chain {
  target: { level: SettingsLevel; ownerId: string };
  levels: Array<{ level: SettingsLevel; ownerId: string }>;
}

export type LevelRef =
  | { level: 'company'; companyId: string }
  | { level: 'merchant'; merchantId: string }
  | { level: 'store'; storeId: string }
  | { level: 'storeByReference'; merchantId: string; reference: string }
  | { level: 'terminal'; terminalId: string };

const notFound = (what: string) => new ApiError(ERR_NOT_FOUND_ENTITY, { message: `${what} not found` });

/** Resolves a level and checks that the caller reaches it; another company's objects are not found. */
export async function chainOf(tx: Tx, credential: Credential, ref: LevelRef): Promise<Chain> {
  if (ref.level === 'company') {
    const company = await visibleCompany(tx, credential, ref.companyId);
    return { target: { level: 'company', ownerId: company.id }, levels: [{ level: 'company', ownerId: company.id }] };
  }
  let storeId: string | undefined;
  let terminalId: string | undefined;
  let merchantId: string;
  if (ref.level === 'merchant') merchantId = ref.merchantId;
  else if (ref.level === 'storeByReference') {
    const store = await tx.terminals.storeByReference(ref.merchantId, ref.reference);
    if (!store) throw notFound(`Store ${ref.reference}`);
    ({ merchantId } = store);
    storeId = store.id;
  } else {
    if (ref.level === 'terminal') {
      const terminal = await tx.terminals.getTerminal(ref.terminalId);
      if (!terminal) throw notFound(`Terminal ${ref.terminalId}`);
      terminalId = terminal.id;
      storeId = terminal.storeId;
    } else storeId = ref.storeId;
    const store = await tx.terminals.getStore(storeId);
    if (!store) throw notFound(`Store ${storeId}`);
    merchantId = store.merchantId;
  }
  let merchant;
  try {
    merchant = await visibleMerchant(tx, credential, merchantId);
  } catch (error) {
    // A store or terminal of another company is as unknown as a made-up one.
    if (ref.level !== 'merchant' && error instanceof ApiError && error.status === 404)
      throw notFound(ref.level === 'terminal' ? `Terminal ${ref.terminalId}` : 'Store');
    throw error;
  }
  const levels: Chain['levels'] = [
    { level: 'company', ownerId: merchant.companyId },
    { level: 'merchant', ownerId: merchant.id },
    ...(storeId ? [{ level: 'store' as const, ownerId: storeId }] : []),
    ...(terminalId ? [{ level: 'terminal' as const, ownerId: terminalId }] : []),
  ];
  return { target: levels.at(-1)!, levels };
}

/** The settings in force: each field from the nearest level that sets it, over the defaults. */
export async function effectiveSettings(tx: Tx, chain: Chain, showSensitive: boolean): Promise<SettingsSections> {
  const result: SettingsSections = structuredClone(DEFAULT_SETTINGS);
  for (const { level, ownerId } of chain.levels) {
    const own = (await tx.terminals.getSettings(level, ownerId)) ?? {};
    for (const [section, fields] of Object.entries(own)) result[section] = { ...result[section], ...fields };
  }
  if (!showSensitive) for (const section of SENSITIVE_SECTIONS) delete result[section];
  return result;
}

const isEmpty = (v: unknown) =>
  v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/**
 * Applies an update at the chain's level: a section that is included replaces this level's
 * values of it, dropping empty ones so they inherit; sections not included stay.
 */
export async function updateSettings(tx: Tx, now: Date, chain: Chain, update: SettingsSections, canSensitive: boolean): Promise<SettingsSections> {
  if (!canSensitive && SENSITIVE_SECTIONS.some((s) => s in update)) {
    throw new ApiError(ERR_NOT_ALLOWED, {
      message: 'Not allowed: changing passcodes needs the role Management API - Terminal settings Advanced read and write',
    });
  }
  const { level, ownerId } = chain.target;
  const own = { ...((await tx.terminals.getSettings(level, ownerId)) ?? {}) };
  for (const [section, fields] of Object.entries(update)) {
    const kept = Object.fromEntries(Object.entries(fields ?? {}).filter(([, v]) => !isEmpty(v)));
    if (Object.keys(kept).length === 0) delete own[section];
    else own[section] = kept;
  }
  await tx.terminals.putSettings(level, ownerId, own, now.toISOString());
  return effectiveSettings(tx, chain, canSensitive);
}
