import type { components } from '../../../generated/management.js';
import { ROLES } from '../../kernel/auth/roles.js';
import { type HandlerDeps, operation } from '../../kernel/http/handler.js';
import type { Credential } from '../../store/types.js';
import { type LogoModel, logoInForce, modelOf, updateLogo } from './logos.domain.js';
import { chainOf, effectiveSettings, type LevelRef, updateSettings } from './terminal-settings.domain.js';

type TerminalSettings = components['schemas']['TerminalSettings'];
type TerminalSettingsUpdate = components['schemas']['TerminalSettingsUpdate'];
type Logo = components['schemas']['Logo'];

const advanced = (roles: string[]) => roles.includes(ROLES.terminalSettingsAdvancedReadWrite);

/** GET …/terminalSettings at any level: the settings in force there. */
const read = (deps: HandlerDeps, credential: Credential, ref: LevelRef) =>
  deps.store.read(async (tx) => effectiveSettings(tx, await chainOf(tx, credential, ref), advanced(credential.roles), deps.vault) as TerminalSettings);

/** PATCH …/terminalSettings at any level. */
const update = (deps: HandlerDeps, credential: Credential, ref: LevelRef, body: TerminalSettingsUpdate) =>
  deps.store.transaction(
    async (tx) =>
      updateSettings(
        tx,
        deps.clock.now(credential.companyId),
        deps.vault,
        await chainOf(tx, credential, ref),
        body,
        advanced(credential.roles),
      ) as TerminalSettings,
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

// Terminal logos: one model per call; at terminal level, the terminal's own model.

const logoView = (data: string | undefined): Logo => (data === undefined ? {} : { data });

/** GET …/terminalLogos at any level: the logo in force there. */
const readLogo = (deps: HandlerDeps, credential: Credential, ref: LevelRef, model?: LogoModel) =>
  deps.store.read(async (tx) => {
    const chain = await chainOf(tx, credential, ref);
    return logoView(await logoInForce(tx, chain, modelOf(chain, model)));
  });

/** PATCH …/terminalLogos at any level. */
const writeLogo = (deps: HandlerDeps, credential: Credential, ref: LevelRef, body: Logo, model?: LogoModel) =>
  deps.store.transaction(async (tx) => {
    const chain = await chainOf(tx, credential, ref);
    return logoView(await updateLogo(tx, deps.clock.now(credential.companyId), chain, modelOf(chain, model), body.data));
  });

export const getCompanyTerminalLogo = operation('getCompanyTerminalLogo')(async ({ path, query, caller: { credential } }, deps) =>
  readLogo(deps, credential, { level: 'company', companyId: path.companyId }, query.model),
);
export const updateCompanyTerminalLogo = operation('updateCompanyTerminalLogo')(async ({ body, path, query, caller: { credential } }, deps) =>
  writeLogo(deps, credential, { level: 'company', companyId: path.companyId }, body, query.model),
);
export const getMerchantTerminalLogo = operation('getMerchantTerminalLogo')(async ({ path, query, caller: { credential } }, deps) =>
  readLogo(deps, credential, { level: 'merchant', merchantId: path.merchantId }, query.model),
);
export const updateMerchantTerminalLogo = operation('updateMerchantTerminalLogo')(async ({ body, path, query, caller: { credential } }, deps) =>
  writeLogo(deps, credential, { level: 'merchant', merchantId: path.merchantId }, body, query.model),
);
export const getStoreTerminalLogoByReference = operation('getStoreTerminalLogoByReference')(async ({ path, query, caller: { credential } }, deps) =>
  readLogo(deps, credential, { level: 'storeByReference', merchantId: path.merchantId, reference: path.reference }, query.model),
);
export const updateStoreTerminalLogoByReference = operation('updateStoreTerminalLogoByReference')(async ({ body, path, query, caller: { credential } }, deps) =>
  writeLogo(deps, credential, { level: 'storeByReference', merchantId: path.merchantId, reference: path.reference }, body, query.model),
);
export const getStoreTerminalLogo = operation('getStoreTerminalLogo')(async ({ path, query, caller: { credential } }, deps) =>
  readLogo(deps, credential, { level: 'store', storeId: path.storeId }, query.model),
);
export const updateStoreTerminalLogo = operation('updateStoreTerminalLogo')(async ({ body, path, query, caller: { credential } }, deps) =>
  writeLogo(deps, credential, { level: 'store', storeId: path.storeId }, body, query.model),
);
export const getTerminalTerminalLogo = operation('getTerminalTerminalLogo')(async ({ path, caller: { credential } }, deps) =>
  readLogo(deps, credential, { level: 'terminal', terminalId: path.terminalId }),
);
export const updateTerminalTerminalLogo = operation('updateTerminalTerminalLogo')(async ({ body, path, caller: { credential } }, deps) =>
  writeLogo(deps, credential, { level: 'terminal', terminalId: path.terminalId }, body),
);
