import type { Request } from 'express';
import BASE_PATHS from '../../base-paths.json' with { type: 'json' };
import type { Area } from '../errors.js';

export const CHECKOUT_BASE = BASE_PATHS.checkout;
export const MANAGEMENT_BASE = BASE_PATHS.management;
export const CLIENTSIDE_BASE = BASE_PATHS.clientside;
export const CONSOLE_BASE = BASE_PATHS.console;

const under = (url: string, base: string) => url.startsWith(`${base}/`) || url === base || url.startsWith(`${base}?`);

/** Which API area a request belongs to; it decides the error body. Anything else is answered as checkout. */
export function areaOf(req: Request): Area {
  if (under(req.originalUrl, MANAGEMENT_BASE)) return 'management';
  if (under(req.originalUrl, CONSOLE_BASE)) return 'console';
  return under(req.originalUrl, CLIENTSIDE_BASE) ? 'clientside' : 'checkout';
}

/** The base path of an area. */
export function baseOf(area: Area): string {
  return BASE_PATHS[area];
}
