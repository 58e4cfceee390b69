import type { AllowedOrigin } from '../../store/types.js';

/**
 * An origin as browsers send it: http(s) scheme, host and optional port, no path, query,
 * fragment or user info. Used for allowed origins (management) and origin keys (checkout).
 */
export function parseOrigin(value: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'is not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must use http or https' };
  if (url.username || url.password) return { problem: 'must not contain user info' };
  if (url.origin !== value.replace(/\/$/, '') || url.search || url.hash) return { problem: 'must be scheme://host[:port] without a path' };
  return { origin: url.origin };
}

/**
 * Whether a browser origin may use a credential: any origin when its list of allowed origins is
 * empty (an empty list means any domain may use the credential), else only the origins on it.
 */
export function originAllowed(origins: AllowedOrigin[], origin: string): boolean {
  return origins.length === 0 || origins.some((o) => o.domain === origin);
}

/** Whether the Origin is this server's own address (as asked for, or as configured). */
export function isOwnOrigin(origin: string, requested: string, publicBaseUrl: string): boolean {
  const own = [requested, publicBaseUrl].filter(Boolean).map((base) => {
    try {
      return new URL(base).origin;
    } catch {
      return undefined;
    }
  });
  return own.includes(origin);
}
