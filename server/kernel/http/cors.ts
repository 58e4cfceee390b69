import cors from 'cors';
import type { RequestHandler, Response } from 'express';
import { isOwnOrigin, originAllowed } from '../auth/origins.js';
import type { Store } from '../../store/tx.js';
import { ApiError, ERR_NOT_ALLOWED } from '../errors.js';
import { callerOf } from './request-context.js';

const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-API-Key', 'X-Client-Key'];
const ALLOWED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];

const preflight = cors({ origin: true, methods: ALLOWED_METHODS, allowedHeaders: ALLOWED_HEADERS, maxAge: 600, optionsSuccessStatus: 204 });

/**
 * Answers CORS preflights, for any origin. They carry no credentials, so they cannot be checked
 * against a credential's allowed origins; the real request is (below).
 */
export const corsPreflight: RequestHandler = (req, res, next) => {
  if (req.method !== 'OPTIONS' || !req.get('origin') || !req.get('access-control-request-method')) return next();
  preflight(req, res, next);
};

/** What a page may read of an answer besides the CORS-safelisted headers. */
const EXPOSED_HEADERS = 'Idempotency-Key, X-Request-Id';

/**
 * Lets the page on `origin` read the answer, whatever it is: the success, or the refusal in the
 * area's error body. The answer differs by Origin, so caches are told so.
 */
function grant(res: Response, origin: string): void {
  res.set('Access-Control-Allow-Origin', origin);
  res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  res.vary('Origin');
}

/**
 * A cross-origin browser request is served to the origins its credential allows: any origin when
 * the credential's list is empty (an empty list means any domain may use the credential), else
 * only the origins on it. Either way the answer carries the CORS headers, so that the page can read
 * it; an origin that is not on a non-empty list is refused with 403 in the area's error body, and
 * the page can read that refusal too (it says only that this origin may not use the credential).
 * Requests without an Origin are server-to-server; a page of this server itself (the API
 * reference's "Try it") is same-origin. A client key is for browsers only: it needs an Origin, and
 * its credential's list is applied to any origin, this server's own included.
 * The list is read from the database on every request (a change on one instance holds on all).
 */
export function corsCheck(store: Store, publicBaseUrl: string): RequestHandler {
  return async (req, res, next) => {
    const origin = req.get('origin');
    const { credential, clientKey } = callerOf(res);
    if (clientKey && !origin) {
      throw new ApiError(ERR_NOT_ALLOWED, { message: 'Not allowed: a client key is used from a web page, with the Origin of that page' });
    }
    if (!origin || (!clientKey && isOwnOrigin(origin, `${req.protocol}://${req.get('host') ?? ''}`, publicBaseUrl))) return next();
    const origins = await store.read((tx) => tx.credentials.origins(credential.id));
    grant(res, origin);
    if (!originAllowed(origins, origin))
      throw new ApiError(ERR_NOT_ALLOWED, { message: `Not allowed: the origin ${origin} is not an allowed origin of this credential` });
    next();
  };
}
