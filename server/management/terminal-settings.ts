import type { Request } from 'express';
import { ROLES } from '../auth/roles.js';
import { pathParam } from '../http/links.js';
import { callerOf } from '../http/request-context.js';
import type { HandlerFactory } from '../http/types.js';
import type { SettingsSections } from '../store/types.js';
import { chainOf, effectiveSettings, type LevelRef, updateSettings } from './terminal-settings.domain.js';

const refs: Record<string, (req: Request) => LevelRef> = {
  company: (req) => ({ level: 'company', companyId: pathParam(req, 'companyId') }),
  merchant: (req) => ({ level: 'merchant', merchantId: pathParam(req, 'merchantId') }),
  storeByReference: (req) => ({ level: 'storeByReference', merchantId: pathParam(req, 'merchantId'), reference: pathParam(req, 'reference') }),
  store: (req) => ({ level: 'store', storeId: pathParam(req, 'storeId') }),
  terminal: (req) => ({ level: 'terminal', terminalId: pathParam(req, 'terminalId') }),
};

const advanced = (roles: string[]) => roles.includes(ROLES.terminalSettingsAdvancedReadWrite);

/** GET …/terminalSettings at any level: the settings in force there. */
const read =
  (level: keyof typeof refs): HandlerFactory =>
  (deps) =>
  async (req, res) => {
    const { credential } = callerOf(res);
    res.json(await deps.store.read(async (tx) => effectiveSettings(tx, await chainOf(tx, credential, refs[level]!(req)), advanced(credential.roles))));
  };

/** PATCH …/terminalSettings at any level. */
const update =
  (level: keyof typeof refs): HandlerFactory =>
  (deps) =>
  async (req, res) => {
    const { credential } = callerOf(res);
    const body = req.body as SettingsSections;
    res.json(await deps.store.transaction(async (tx) => updateSettings(tx, deps.clock.now(credential.companyId), await chainOf(tx, credential, refs[level]!(req)), body, advanced(credential.roles))));
  };

export const getCompanyTerminalSettings = read('company');
export const updateCompanyTerminalSettings = update('company');
export const getMerchantTerminalSettings = read('merchant');
export const updateMerchantTerminalSettings = update('merchant');
export const getStoreTerminalSettingsByReference = read('storeByReference');
export const updateStoreTerminalSettingsByReference = update('storeByReference');
export const getStoreTerminalSettings = read('store');
export const updateStoreTerminalSettings = update('store');
export const getTerminalTerminalSettings = read('terminal');
export const updateTerminalTerminalSettings = update('terminal');
