import type { Response } from 'express';
import type { Credential } from '../../store/types.js';

/** What the authentication middleware learned about the caller, kept in `res.locals`. */
export interface Caller {
  credential: Credential;
  /** Authenticated with the credential's client key (a browser): only client-side operations, only from its allowed origins. */
  clientKey?: true;
}

/** The request's id (kernel/http/request-log.ts gives every request one). */
export function requestIdOf(res: Response): string {
  return (res.locals.requestId as string | undefined) ?? 'unknown';
}

export function callerOf(res: Response): Caller {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw new Error('callerOf() used on a route without authentication');
  return caller;
}
