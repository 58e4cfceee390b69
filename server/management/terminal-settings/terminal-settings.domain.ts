import type { CardVault } from '../../kernel/crypto/card-vault.js';
import { ApiError, ERR_NOT_ALLOWED, ERR_NOT_FOUND_ENTITY, invalidField } from '../../kernel/errors.js';
import type { Credential, SettingsLevel, SettingsSections, Terminal } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleCompany, visibleMerchant } from '../accounts/accounts.domain.js';
import { MASK, presentSecrets, sealSecrets } from './secrets.js';

/** The settings every terminal starts with, below the company level. */
export const DEFAULT_SETTINGS: SettingsSections = {
  localization: { language: 'en', timezone: 'Europe/Amsterdam' },
  receiptOptions: { promptBeforePrinting: false },
  signature: { askSignatureOnScreen: true, skipSignature: false },
  hardware: { restartHour: 3, resetTotalsHour: 6 },
  timeouts: { fromActiveToSleep: 30 },
  moto: { enableMoto: false },
};

/**
 * Sections Adyen calls sensitive (its passcode and Wi-Fi profile guides name the role): shown to
 * and changed by Management API - Terminal settings Advanced read and write only.
 */
export const SENSITIVE_SECTIONS = ['passcodes', 'wifiProfiles'];

/** Sections that are a list: a level replaces the whole list (object sections merge field by field). */
const LIST_SECTIONS = ['gratuities'];

/** A level and the levels above it, nearest last (the order values override in). */
export interface Chain {
  target: { level: SettingsLevel; ownerId: string };
  levels: Array<{ level: SettingsLevel; ownerId: string }>;
  /** The terminal, when the chain ends at one. */
  terminal?: Terminal;
}

export type LevelRef =
  | { level: 'company'; companyId: string }
  | { level: 'merchant'; merchantId: string }
  | { level: 'store'; storeId: string }
  | { level: 'storeByReference'; merchantId: string; reference: string }
  | { level: 'terminal'; terminalId: string };

const notFound = (what: string) => new ApiError(ERR_NOT_FOUND_ENTITY, { message: `${what} not found` });

/** The merchant account, store and terminal a level below the company names; a missing one is not found. */
async function ownersOf(tx: Tx, ref: Exclude<LevelRef, { level: 'company' }>): Promise<{ merchantId: string; storeId?: string; terminal?: Terminal }> {
  switch (ref.level) {
    case 'merchant':
      return { merchantId: ref.merchantId };
    case 'storeByReference': {
      const store = await tx.stores.byReference(ref.merchantId, ref.reference);
      if (!store) throw notFound(`Store ${ref.reference}`);
      return { merchantId: store.merchantId, storeId: store.id };
    }
    case 'store': {
      const store = await tx.stores.get(ref.storeId);
      if (!store) throw notFound(`Store ${ref.storeId}`);
      return { merchantId: store.merchantId, storeId: store.id };
    }
    case 'terminal': {
      // A terminal in its merchant account's inventory (its store closed) inherits from the merchant account.
      const terminal = await tx.terminals.getTerminal(ref.terminalId);
      if (!terminal) throw notFound(`Terminal ${ref.terminalId}`);
      return { merchantId: terminal.merchantId, ...(terminal.storeId !== null && { storeId: terminal.storeId }), terminal };
    }
  }
}

/** Resolves a level and checks that the caller reaches it; another company's objects are not found. */
export async function chainOf(tx: Tx, credential: Credential, ref: LevelRef): Promise<Chain> {
  if (ref.level === 'company') {
    const company = await visibleCompany(tx, credential, ref.companyId);
    return { target: { level: 'company', ownerId: company.id }, levels: [{ level: 'company', ownerId: company.id }] };
  }
  const { merchantId, storeId, terminal } = await ownersOf(tx, ref);
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
    ...(terminal ? [{ level: 'terminal' as const, ownerId: terminal.id }] : []),
  ];
  return { target: levels.at(-1)!, levels, ...(terminal && { terminal }) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The settings in force along the chain, as stored (secrets sealed): each field from the nearest level that sets it. */
async function merged(tx: Tx, chain: Chain, own?: { at: Chain['target']; sections: SettingsSections }): Promise<SettingsSections> {
  const result: SettingsSections = structuredClone(DEFAULT_SETTINGS);
  for (const { level, ownerId } of chain.levels) {
    const sections = own && own.at.level === level ? own.sections : ((await tx.terminals.getSettings(level, ownerId)) ?? {});
    for (const [section, value] of Object.entries(sections)) {
      const above = result[section];
      result[section] = Array.isArray(value) || !isRecord(above) ? value : { ...above, ...value };
    }
  }
  return result;
}

/**
 * The settings in force at the chain's level, as answered: sensitive sections only for the
 * advanced role, passcodes readable, other secrets masked, and the SIM card status at terminal
 * level only (Adyen shows and takes it there only).
 */
export async function effectiveSettings(tx: Tx, chain: Chain, showSensitive: boolean, vault: CardVault): Promise<SettingsSections> {
  return present(await merged(tx, chain), chain, showSensitive, vault);
}

function present(sections: SettingsSections, chain: Chain, showSensitive: boolean, vault: CardVault): SettingsSections {
  const shown = { ...sections };
  if (!showSensitive) for (const section of SENSITIVE_SECTIONS) delete shown[section];
  let connectivity = shown.connectivity;
  // Earlier versions took the IP address URL as a plain string; Adyen's is a list of addresses.
  if (isRecord(connectivity) && typeof connectivity.terminalIPAddressURL === 'string') {
    connectivity = { ...connectivity, terminalIPAddressURL: { eventPublicUrls: [{ url: connectivity.terminalIPAddressURL }] } };
    shown.connectivity = connectivity;
  }
  if (chain.target.level !== 'terminal' && isRecord(connectivity) && 'simcardStatus' in connectivity) {
    const { simcardStatus: _terminalOnly, ...rest } = connectivity;
    if (Object.keys(rest).length > 0) shown.connectivity = rest;
    else delete shown.connectivity;
  }
  return presentSecrets(shown, vault);
}

/** Empty values (null, '', [], {}) restore the inherited value: they are not stored. */
const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);

/** What a section of an update leaves at this level: its non-empty fields (a list section: the list), or nothing. */
function keptOf(section: string, value: unknown): Record<string, unknown> | unknown[] | undefined {
  if (isEmpty(value)) return undefined;
  if (LIST_SECTIONS.includes(section)) return value as unknown[];
  const kept = Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => !isEmpty(v)));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/**
 * Applies an update at the chain's level: a section that is included replaces this level's values
 * of it, dropping empty ones so they inherit; a null or empty section inherits entirely; sections
 * not included stay. Answers with the settings now in force.
 */
export async function updateSettings(
  tx: Tx,
  now: Date,
  vault: CardVault,
  chain: Chain,
  update: Record<string, unknown>,
  canSensitive: boolean,
): Promise<SettingsSections> {
  const sensitive = SENSITIVE_SECTIONS.filter((s) => s in update);
  if (!canSensitive && sensitive.length > 0) {
    throw new ApiError(ERR_NOT_ALLOWED, {
      message: `Not allowed: changing ${sensitive.join(' and ')} needs the role Management API - Terminal settings Advanced read and write`,
    });
  }
  const { level, ownerId } = chain.target;
  const stored = (await tx.terminals.getSettings(level, ownerId)) ?? {};
  const changed: SettingsSections = {};
  for (const [section, value] of Object.entries(update)) {
    const kept = keptOf(section, value);
    if (kept !== undefined) changed[section] = kept;
  }
  checkLevelRules(level, changed);
  const own: SettingsSections = { ...stored, ...sealSecrets(changed, stored, vault) };
  for (const section of Object.keys(update)) if (!(section in changed)) delete own[section];
  const inForce = await merged(tx, chain, { at: chain.target, sections: own });
  checkInForce(Object.keys(update), inForce);
  await tx.terminals.putSettings(level, ownerId, own, now.toISOString());
  return present(inForce, chain, canSensitive, vault);
}

/** Rules on what one level sets, beyond the schema. */
function checkLevelRules(level: SettingsLevel, changed: SettingsSections): void {
  const get = (section: string) => (isRecord(changed[section]) ? changed[section] : undefined);
  if (level !== 'terminal' && get('connectivity')?.simcardStatus !== undefined) {
    throw invalidField('connectivity.simcardStatus', String(get('connectivity')?.simcardStatus), 'can be set at terminal level only');
  }
  const timezone = get('localization')?.timezone;
  if (typeof timezone === 'string' && !isTimeZone(timezone)) throw invalidField('localization.timezone', timezone, 'is not a time zone of the tz database');
  const gratuities = Array.isArray(changed.gratuities) ? (changed.gratuities as Array<Record<string, unknown>>) : [];
  gratuities.forEach((g, i) => {
    const entries = Array.isArray(g.predefinedTipEntries) ? g.predefinedTipEntries.length : 0;
    if (g.allowCustomAmount === true && entries > 3)
      throw invalidField(`gratuities.${i}.predefinedTipEntries`, String(entries), 'at most three options besides a custom tip');
    if (gratuities.findIndex((other) => other.currency === g.currency) !== i)
      throw invalidField(`gratuities.${i}.currency`, String(g.currency), 'appears twice: one entry per currency');
  });
  const passphrase = (get('nexo')?.encryptionKey as Record<string, unknown> | undefined)?.passphrase;
  if (typeof passphrase === 'string' && passphrase !== MASK && !strongPassphrase(passphrase)) {
    throw invalidField(
      'nexo.encryptionKey.passphrase',
      MASK,
      'needs at least 12 characters with an upper-case letter, a lower-case letter, a digit and one of ~!@#$%^& ()_+=}{][;:?.,><',
    );
  }
  const surcharges = (get('surcharge')?.configurations ?? []) as Array<{ currencies: Array<{ percentage?: number }> }>;
  surcharges.forEach((c, i) =>
    c.currencies.forEach((cur, j) => {
      if (cur.percentage !== undefined && Math.abs(cur.percentage * 100 - Math.round(cur.percentage * 100)) > 1e-9)
        throw invalidField(`surcharge.configurations.${i}.currencies.${j}.percentage`, String(cur.percentage), 'has at most two decimals');
    }),
  );
  const profiles = (get('wifiProfiles')?.profiles ?? []) as Array<Record<string, unknown>>;
  profiles.forEach((p, i) => {
    if ((p.authType === 'wpa-psk' || p.authType === 'wpa2-psk') && p.psk === undefined)
      throw invalidField(`wifiProfiles.profiles.${i}.psk`, '', `is required for authType ${String(p.authType)}`);
    if ((p.authType === 'wpa-eap' || p.authType === 'wpa2-eap') && p.eap === undefined)
      throw invalidField(`wifiProfiles.profiles.${i}.eap`, '', `is required for authType ${String(p.authType)}`);
  });
  if (profiles.filter((p) => p.defaultProfile === true).length > 1) throw invalidField('wifiProfiles.profiles', '', 'only one profile can be the default');
}

/** Rules on the settings in force after an update, for the sections it included (a field may come from above). */
function checkInForce(included: string[], inForce: SettingsSections): void {
  const kiosk = isRecord(inForce.kioskMode) ? inForce.kioskMode : undefined;
  if (included.includes('kioskMode') && typeof kiosk?.kioskAppOnStartup === 'string') {
    const allowed = Array.isArray(kiosk.allowedAppsInKioskMode) ? kiosk.allowedAppsInKioskMode : [];
    if (!allowed.includes(kiosk.kioskAppOnStartup))
      throw invalidField('kioskMode.kioskAppOnStartup', kiosk.kioskAppOnStartup, 'must be one of allowedAppsInKioskMode (in force at this level)');
  }
  const saf = isRecord(inForce.storeAndForward) ? inForce.storeAndForward : undefined;
  if (included.includes('storeAndForward') && saf) {
    const missing = ['maxAmount', 'maxPayments', 'supportedCardTypes'].filter((f) => saf[f] === undefined);
    if (missing.length > 0) throw invalidField(`storeAndForward.${missing[0]}`, '', 'is required, here or inherited from a level above');
  }
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Adyen's rule for the shared key passphrase. */
const strongPassphrase = (p: string) =>
  p.length >= 12 &&
  /[A-Z]/.test(p) &&
  /[a-z]/.test(p) &&
  /[0-9]/.test(p) &&
  /[~!@#$%^& ()_+=}{\][;:?.,><]/.test(p) &&
  /^[A-Za-z0-9~!@#$%^& ()_+=}{\][;:?.,><]+$/.test(p);
