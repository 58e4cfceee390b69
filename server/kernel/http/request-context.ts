import type { Response } from 'express';
import type { TxContext } from '../../store/tx.js';
import type { Credential, Merchant } from '../../store/types.js';

/** What the authentication middleware learned about the caller, kept in `res.locals`. */
export interface Caller {
  credential: Credential;
  /** Authenticated with the credential's client key (a browser): only client-side operations, only from its allowed origins. */
  clientKey?: true;
  /** Authenticated by the console's session cookie: the session (to sign it out) and its CSRF token. */
  consoleSession?: { tokenHash: string; csrfToken: string; expiresAt: string };
}

/** The request's id (kernel/http/request-log.ts gives every request one). */
export function requestIdOf(res: Response): string {
  return (res.locals.requestId as string | undefined) ?? 'unknown';
}

/** What the request's transaction knows of it: its id, and the merchant account its scope check read. */
export function txContextOf(res: Response): TxContext {
  return { requestId: requestIdOf(res), merchant: (res.locals.scopedMerchant as Merchant | null | undefined) ?? null };
}

/** Keeps the merchant account the request's scope check read, for txContextOf. */
export function keepScopedMerchant(res: Response, merchant: Merchant | null): void {
  res.locals.scopedMerchant = merchant;
}

export function callerOf(res: Response): Caller {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw new Error('callerOf() used on a route without authentication');
  return caller;
}
