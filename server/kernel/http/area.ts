import type { Request } from 'express';
import type { Area } from '../errors.js';

export const CHECKOUT_BASE = '/checkout/v71';
export const MANAGEMENT_BASE = '/management/v3';

/** Which API area a request belongs to; it decides the error body. Anything else is answered as checkout. */
export function areaOf(req: Request): Area {
  return req.originalUrl.startsWith(`${MANAGEMENT_BASE}/`) || req.originalUrl === MANAGEMENT_BASE ? 'management' : 'checkout';
}
