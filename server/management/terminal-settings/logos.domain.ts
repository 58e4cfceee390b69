import type { components } from '../../../generated/management.js';
import { invalidField } from '../../kernel/errors.js';
import type { Tx } from '../../store/tx.js';
import { readPng } from './png.js';
import type { Chain } from './terminal-settings.domain.js';

export type LogoModel = components['schemas']['TerminalModel'];

/** The largest logo image a model takes, in pixels. */
interface LogoLimit {
  width: number;
  height: number;
}
const ANDROID: LogoLimit = { width: 720, height: 1440 };
const LARGE_SCREEN: LogoLimit = { width: 800, height: 800 };
const SMALL_SCREEN: LogoLimit = { width: 480, height: 480 };

/**
 * Our limits per model: Adyen shows its own only in its Customer Area, so these are chosen to fit
 * each model's screen (Castles Android terminals, Verifone terminals with a 4 to 7 inch screen, and
 * the smaller ones) and documented in docs/features-and-limitations.md.
 */
export const LOGO_LIMITS: Record<LogoModel, LogoLimit> = {
  S1E: ANDROID,
  S1EL: ANDROID,
  S1F2: ANDROID,
  S1L: ANDROID,
  S1U: ANDROID,
  S7T: ANDROID,
  V400m: LARGE_SCREEN,
  V400cPlus: LARGE_SCREEN,
  V240mPlus: LARGE_SCREEN,
  M400: LARGE_SCREEN,
  MX925: LARGE_SCREEN,
  V200cPlus: SMALL_SCREEN,
  P400Plus: SMALL_SCREEN,
  e280: SMALL_SCREEN,
  e285: SMALL_SCREEN,
  e285p: SMALL_SCREEN,
  E355: SMALL_SCREEN,
  UX300: SMALL_SCREEN,
  UX410: SMALL_SCREEN,
  VX675WIFIBT: SMALL_SCREEN,
  VX680: SMALL_SCREEN,
  VX690: SMALL_SCREEN,
  VX700: SMALL_SCREEN,
  VX820: SMALL_SCREEN,
};

export const isLogoModel = (model: string): model is LogoModel => Object.hasOwn(LOGO_LIMITS, model);

/** The largest image file: what 350 000 base64 characters (the schema's limit) decode to. */
export const MAX_LOGO_BYTES = 262_500;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The model a logo call is about: the query's, or at terminal level the terminal's own (422 when it takes none). */
export function modelOf(chain: Chain, model: LogoModel | undefined): LogoModel {
  if (chain.terminal) {
    if (!isLogoModel(chain.terminal.model)) throw invalidField('terminalId', chain.terminal.id, `model ${chain.terminal.model} takes no logo`);
    return chain.terminal.model;
  }
  if (model === undefined) throw invalidField('model', '', 'is required');
  return model;
}

/** The logo in force for a model along the chain: the nearest level's own, else none (the default logo). */
export async function logoInForce(tx: Tx, chain: Chain, model: LogoModel): Promise<string | undefined> {
  for (const { level, ownerId } of [...chain.levels].reverse()) {
    const data = await tx.terminals.getLogo(level, ownerId, model);
    if (data !== undefined) return data;
  }
  return undefined;
}

/** Refuses (422) anything but a base64 PNG image within the model's limits. */
export function checkLogo(data: string, model: LogoModel): void {
  if (!BASE64.test(data)) throw invalidField('data', `${data.length} characters`, 'is not base64');
  const file = Buffer.from(data, 'base64');
  if (file.length > MAX_LOGO_BYTES) throw invalidField('data', `${file.length} bytes`, `is larger than ${MAX_LOGO_BYTES} bytes`);
  const png = readPng(file);
  if (typeof png === 'string') throw invalidField('data', `${file.length} bytes`, png);
  const limit = LOGO_LIMITS[model];
  if (png.width > limit.width || png.height > limit.height) {
    throw invalidField('data', `${png.width}x${png.height} px`, `is larger than ${limit.width}x${limit.height} px, the largest logo a ${model} takes`);
  }
}

/**
 * Sets the chain level's own logo for the model, or with an empty (or absent) `data` removes it so
 * the level above shows through. Answers the logo now in force.
 */
export async function updateLogo(tx: Tx, now: Date, chain: Chain, model: LogoModel, data: string | undefined): Promise<string | undefined> {
  const own = data === undefined || data === '' ? undefined : data;
  if (own !== undefined) checkLogo(own, model);
  await tx.terminals.putLogo(chain.target.level, chain.target.ownerId, model, own, now.toISOString());
  return logoInForce(tx, chain, model);
}
