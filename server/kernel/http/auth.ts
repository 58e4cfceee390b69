import type { RequestHandler } from 'express';
import { authenticate, type Presented } from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import type { Store } from '../../store/tx.js';
import { ApiError, ERR_UNAUTHORIZED } from '../errors.js';
import type { Caller } from './request-context.js';

const PRINTABLE = /^[\x21-\x7E]{1,1024}$/;

/** Reads `X-API-Key` or `Authorization: Basic base64(username:apiKey)`; anything else is no credential. */
export function presentedCredentials(headers: { apiKey: string | undefined; authorization: string | undefined }): Presented | undefined {
  if (headers.apiKey !== undefined) return PRINTABLE.test(headers.apiKey) ? { apiKey: headers.apiKey } : undefined;
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const username = decoded.slice(0, colon);
  const apiKey = decoded.slice(colon + 1);
  return PRINTABLE.test(apiKey) ? { apiKey, username } : undefined;
}

/** Authenticates every API request; a failure is 401 in the area's error shape. */
export function authentication(store: Store, clock: Clock): RequestHandler {
  return async (req, res, next) => {
    const presented = presentedCredentials({ apiKey: req.get('x-api-key'), authorization: req.get('authorization') });
    if (!presented) throw new ApiError(ERR_UNAUTHORIZED);
    // Instances sharing a PostgreSQL database learn another's clock advance here, before any rule
    // reads the time (on SQLite this process is the only one that can move it).
    if (store.engine === 'postgres') await store.read((tx) => clock.refresh(tx));
    const credential = await authenticate(store, presented, (companyId) => clock.now(companyId));
    const caller: Caller = { credential };
    res.locals.caller = caller;
    next();
  };
}
