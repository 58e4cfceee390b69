import { ROLES } from '../../kernel/auth/roles.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import type { Credential, SettingsSections } from '../../store/types.js';
import { chainOf, effectiveSettings, type LevelRef, updateSettings } from './terminal-settings.domain.js';

const advanced = (roles: string[]) => roles.includes(ROLES.terminalSettingsAdvancedReadWrite);

/** GET …/terminalSettings at any level: the settings in force there. */
const read = (deps: HandlerDeps, credential: Credential, ref: LevelRef) =>
  deps.store.read(async (tx) => effectiveSettings(tx, await chainOf(tx, credential, ref), advanced(credential.roles)));

/** PATCH …/terminalSettings at any level. */
const update = (deps: HandlerDeps, credential: Credential, ref: LevelRef, body: SettingsSections) =>
  deps.store.transaction(async (tx) =>
    updateSettings(tx, deps.clock.now(credential.companyId), await chainOf(tx, credential, ref), body, advanced(credential.roles)),
  );

export const getCompanyTerminalSettings = operation('getCompanyTerminalSettings')(async ({ path, caller: { credential } }, deps) =>
  read(deps, credential, { level: 'company', companyId: path.companyId }),
);
export const updateCompanyTerminalSettings = operation('updateCompanyTerminalSettings')(async ({ body, path, caller: { credential } }, deps) =>
  update(deps, credential, { level: 'company', companyId: path.companyId }, body),
);
export const getMerchantTerminalSettings = operation('getMerchantTerminalSettings')(async ({ path, caller: { credential } }, deps) =>
  read(deps, credential, { level: 'merchant', merchantId: path.merchantId }),
);
export const updateMerchantTerminalSettings = operation('updateMerchantTerminalSettings')(async ({ body, path, caller: { credential } }, deps) =>
  update(deps, credential, { level: 'merchant', merchantId: path.merchantId }, body),
);
export const getStoreTerminalSettingsByReference = operation('getStoreTerminalSettingsByReference')(async ({ path, caller: { credential } }, deps) =>
  read(deps, credential, { level: 'storeByReference', merchantId: path.merchantId, reference: path.reference }),
);
export const updateStoreTerminalSettingsByReference = operation('updateStoreTerminalSettingsByReference')(
  async ({ body, path, caller: { credential } }, deps) =>
    update(deps, credential, { level: 'storeByReference', merchantId: path.merchantId, reference: path.reference }, body),
);
export const getStoreTerminalSettings = operation('getStoreTerminalSettings')(async ({ path, caller: { credential } }, deps) =>
  read(deps, credential, { level: 'store', storeId: path.storeId }),
);
export const updateStoreTerminalSettings = operation('updateStoreTerminalSettings')(async ({ body, path, caller: { credential } }, deps) =>
  update(deps, credential, { level: 'store', storeId: path.storeId }, body),
);
export const getTerminalTerminalSettings = operation('getTerminalTerminalSettings')(async ({ path, caller: { credential } }, deps) =>
  read(deps, credential, { level: 'terminal', terminalId: path.terminalId }),
);
export const updateTerminalTerminalSettings = operation('updateTerminalTerminalSettings')(async ({ body, path, caller: { credential } }, deps) =>
  update(deps, credential, { level: 'terminal', terminalId: path.terminalId }, body),
);
