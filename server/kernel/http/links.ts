import type { Request } from 'express';

/** The external base address: configured, or the one the caller used. */
export function baseUrlOf(req: Request, configured: string): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** A path parameter as the validator matched it. */
export function pathParam(req: Request, name: string): string {
  const params = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams ?? {};
  const fromRoute = req.params[name];
  const value = params[name] ?? (typeof fromRoute === 'string' ? fromRoute : undefined);
  if (value === undefined) throw new Error(`path parameter ${name} missing: is the route in the spec?`);
  return value;
}
