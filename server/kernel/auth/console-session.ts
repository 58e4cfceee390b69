import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { Store, Tx } from '../../store/tx.js';
import type { Credential } from '../../store/types.js';
import { ApiError, ERR_NOT_ALLOWED, ERR_UNAUTHORIZED } from '../errors.js';
import { credentialOfKeyHash } from './credentials.js';
import { isOwnOrigin } from './origins.js';

/**
 * The console's sign-in session (spec/console): a random token in an HttpOnly, SameSite=Strict
 * cookie. The database keeps only the token's keyed hash (the API keys' HMAC, under a prefix of
 * its own) and the keyed hash of the API key the session was opened with; the session authenticates
 * as that key would, so a deactivated credential or a revoked or expired key ends it at once on
 * every instance. The CSRF token is derived from the session token with the same keyed hash: never
 * stored, and only the holder of the cookie's value (the console's page, through the session
 * answer) can know it.
 */
export const CONSOLE_SESSION_COOKIE = 'console_session';
export const CONSOLE_CSRF_HEADER = 'X-Console-Csrf';
/** Fixed, not sliding: a sliding session would write on every request. */
export const CONSOLE_SESSION_SECONDS = 8 * 60 * 60;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const newConsoleSessionToken = (): string => randomBytes(32).toString('base64url');

export const consoleSessionHash = (tx: Tx, token: string): string => tx.credentials.hashKey(`console-session:${token}`);

export const consoleCsrfToken = (tx: Tx, token: string): string => Buffer.from(tx.credentials.hashKey(`console-csrf:${token}`), 'hex').toString('base64url');

/** The session token of the request's cookie, if it carries a well-formed one. */
export function consoleSessionToken(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === CONSOLE_SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return TOKEN.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** Whether the request would be authenticated by the console session cookie (it sends no API key, password or client key). */
export function carriesConsoleSession(req: Request): boolean {
  return req.get('x-api-key') === undefined && req.get('authorization') === undefined && consoleSessionToken(req) !== undefined;
}

export interface ConsoleSessionCaller {
  credential: Credential;
  tokenHash: string;
  csrfToken: string;
  expiresAt: string;
}

const ended = () => new ApiError(ERR_UNAUTHORIZED, { message: 'Unauthorized: the console session has ended or does not exist; sign in again' });

/** The live session of a token, authenticated as the API key it was opened with; 401 otherwise. */
export async function authenticateConsoleSession(
  store: Store,
  token: string,
  now: (companyId: string) => Date,
  observeClock: (companyId: string, offsetSeconds: number) => void,
): Promise<ConsoleSessionCaller> {
  return store.read(async (tx) => {
    const tokenHash = consoleSessionHash(tx, token);
    const session = await tx.console.getSession(tokenHash);
    // Sessions live in real time: the sandbox clock moves a company's rules, not its sign-ins.
    if (!session || Date.parse(session.expiresAt) <= Date.now()) throw ended();
    const credential = await credentialOfKeyHash(tx, session.keyHash, now, observeClock);
    if (!credential || credential.id !== session.credentialId) throw ended();
    return { credential, tokenHash, csrfToken: consoleCsrfToken(tx, token), expiresAt: session.expiresAt };
  });
}

/**
 * What a request carried by the session cookie must show besides it, checked before anything is
 * read or written: when the browser sends an Origin (or Sec-Fetch-Site), this server's own; and
 * on an unsafe method, the session's CSRF token in X-Console-Csrf. SameSite=Strict already keeps
 * the cookie off other sites' requests; this holds where a browser or a same-site page does not.
 */
export function checkConsoleRequestSource(req: Request, csrfToken: string, publicBaseUrl: string): void {
  const origin = req.get('origin');
  if (origin !== undefined && !isOwnOrigin(origin, `${req.protocol}://${req.get('host') ?? ''}`, publicBaseUrl)) {
    throw new ApiError(ERR_NOT_ALLOWED, { message: "Not allowed: a request carried by the console session must come from this server's own pages" });
  }
  if (req.get('sec-fetch-site') === 'cross-site') {
    throw new ApiError(ERR_NOT_ALLOWED, { message: "Not allowed: a request carried by the console session must come from this server's own pages" });
  }
  if (SAFE_METHODS.has(req.method)) return;
  const sent = Buffer.from(req.get(CONSOLE_CSRF_HEADER) ?? '');
  const expected = Buffer.from(csrfToken);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw new ApiError(ERR_NOT_ALLOWED, {
      message: `Not allowed: a request carried by the console session needs the session's CSRF token in ${CONSOLE_CSRF_HEADER}`,
    });
  }
}
