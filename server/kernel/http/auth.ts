import type { Request, RequestHandler } from 'express';
import { authenticate, authenticateClientKey, type Presented } from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import type { Store } from '../../store/tx.js';
import { ApiError, ERR_UNAUTHORIZED } from '../errors.js';
import type { Caller } from './request-context.js';

const PRINTABLE = /^[\x21-\x7E]{1,1024}$/;
const CLIENT_KEY = /^[\x21-\x7E]{1,256}$/;

/** Reads `X-API-Key` or `Authorization: Basic base64(username:apiKey or password)`; anything else is no credential. */
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

/**
 * The client key a browser sent: in the `X-Client-Key` header, or as the `clientKey` query
 * parameter, which is how Adyen's web Drop-in and Components send it (`?clientKey=` on the
 * session calls). Only asked when no API key came.
 */
export function presentedClientKey(req: Request): string | undefined {
  const header = req.get('x-client-key');
  const query = req.query.clientKey;
  const key = header ?? (typeof query === 'string' ? query : undefined);
  return key !== undefined && CLIENT_KEY.test(key) ? key : undefined;
}

/**
 * Authenticates every API request; a failure is 401 in the area's error shape. An API key (or
 * the password) wins over a client key; a client-key caller is marked as such, and the pipeline
 * lets it reach only client-side operations, from the credential's allowed origins.
 */
export function authentication(store: Store, clock: Clock): RequestHandler {
  return async (req, res, next) => {
    const presented = presentedCredentials({ apiKey: req.get('x-api-key'), authorization: req.get('authorization') });
    const clientKey = presented ? undefined : presentedClientKey(req);
    if (!presented && !clientKey) throw new ApiError(ERR_UNAUTHORIZED);
    // Instances sharing a store learn another's clock advance here, before any rule reads the time
    // (a store of this process alone has no one else to move it): an API key's row brings its
    // company's clock along; the other ways in read the clocks first.
    const shared = store.sharedBetweenProcesses;
    let observed = false;
    const observe = (companyId: string, offsetSeconds: number) => {
      observed = true;
      clock.observe(companyId, offsetSeconds);
    };
    const now = (companyId: string) => clock.now(companyId);
    if (shared && !presented) await store.read((tx) => clock.refresh(tx));
    const caller: Caller = presented
      ? { credential: await authenticate(store, presented, now, observe) }
      : { credential: await authenticateClientKey(store, clientKey!, now), clientKey: true };
    // A password (Basic authentication without a key) is found without the clock.
    if (shared && presented && !observed) await store.read((tx) => clock.refresh(tx));
    res.locals.caller = caller;
    next();
  };
}
