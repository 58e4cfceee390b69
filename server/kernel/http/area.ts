import type { Request } from 'express';
import BASE_PATHS from '../../base-paths.json' with { type: 'json' };
import type { Area } from '../errors.js';

export const CHECKOUT_BASE = BASE_PATHS.checkout;
export const MANAGEMENT_BASE = BASE_PATHS.management;

/** Which API area a request belongs to; it decides the error body. Anything else is answered as checkout. */
export function areaOf(req: Request): Area {
  return req.originalUrl.startsWith(`${MANAGEMENT_BASE}/`) || req.originalUrl === MANAGEMENT_BASE ? 'management' : 'checkout';
}
