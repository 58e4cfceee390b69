import type { Request, RequestHandler } from 'express';
import { authenticate, authenticateClientKey, type Presented } from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import type { Store } from '../../store/tx.js';
import { ApiError, ERR_UNAUTHORIZED } from '../errors.js';
import type { Caller } from './request-context.js';
import { authenticateConsoleSession, checkConsoleRequestSource, consoleSessionToken } from '../auth/console-session.js';

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
 * The client key a browser sent: in the `X-Client-Key` header, or as a query parameter: `clientKey`
 * is how Adyen's web Drop-in and Components send it (`?clientKey=` on the session calls), and its
 * BIN lookup names it `token`; the client-side area reads both.
 */
export function presentedClientKey(req: Request, queryNames: readonly string[] = ['clientKey']): string | undefined {
  const header = req.get('x-client-key');
  const query = queryNames.map((name) => req.query[name]).find((value): value is string => typeof value === 'string');
  const key = header ?? query;
  return key !== undefined && CLIENT_KEY.test(key) ? key : undefined;
}

/** The credential of a client key, read after the clocks other instances may have moved (the key's row does not bring its company's clock). */
async function clientKeyCaller(store: Store, clock: Clock, clientKey: string): Promise<Caller> {
  if (store.sharedBetweenProcesses) await store.read((tx) => clock.refresh(tx));
  return { credential: await authenticateClientKey(store, clientKey, (companyId) => clock.now(companyId)), clientKey: true };
}

/**
 * Authenticates a client-side request (the area Adyen's web library calls): by client key only,
 * as Adyen's client-side endpoints do; an API key is never read there. A failure is 401.
 */
export function clientKeyAuthentication(store: Store, clock: Clock): RequestHandler {
  return async (req, res, next) => {
    const clientKey = presentedClientKey(req, ['clientKey', 'token']);
    if (!clientKey) throw new ApiError(ERR_UNAUTHORIZED);
    res.locals.caller = await clientKeyCaller(store, clock, clientKey);
    next();
  };
}

/**
 * The credential of a console session (the console's cookie, when no API key, password or client
 * key is sent), read as its API key would be: with its company's clock.
 */
async function consoleSessionCaller(store: Store, clock: Clock, token: string): Promise<Caller> {
  let observed = false;
  const session = await authenticateConsoleSession(
    store,
    token,
    (companyId) => clock.now(companyId),
    (companyId, offsetSeconds) => {
      observed = true;
      clock.observe(companyId, offsetSeconds);
    },
  );
  if (store.sharedBetweenProcesses && !observed) await store.read((tx) => clock.refresh(tx));
  return { credential: session.credential, consoleSession: { tokenHash: session.tokenHash, csrfToken: session.csrfToken, expiresAt: session.expiresAt } };
}

/**
 * Authenticates every API request; a failure is 401 in the area's error shape. An API key (or
 * the password) wins over a client key; a client-key caller is marked as such, and the pipeline
 * lets it reach only client-side operations, from the credential's allowed origins. Without any of
 * them, the console's session cookie authenticates as the API key the session was opened with,
 * from this server's own pages only, and with its CSRF token on unsafe methods.
 */
export function authentication(store: Store, clock: Clock, publicBaseUrl = ''): RequestHandler {
  return async (req, res, next) => {
    const presented = presentedCredentials({ apiKey: req.get('x-api-key'), authorization: req.get('authorization') });
    const clientKey = presented ? undefined : presentedClientKey(req);
    const sessionToken =
      presented || clientKey || req.get('x-api-key') !== undefined || req.get('authorization') !== undefined ? undefined : consoleSessionToken(req);
    if (sessionToken) {
      res.locals.caller = await consoleSessionCaller(store, clock, sessionToken);
      checkConsoleRequestSource(req, (res.locals.caller as Caller).consoleSession!.csrfToken, publicBaseUrl);
      return next();
    }
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
    const caller: Caller = presented ? { credential: await authenticate(store, presented, now, observe) } : await clientKeyCaller(store, clock, clientKey!);
    // A password (Basic authentication without a key) is found without the clock.
    if (shared && presented && !observed) await store.read((tx) => clock.refresh(tx));
    res.locals.caller = caller;
    next();
  };
}
