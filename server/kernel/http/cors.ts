import cors from 'cors';
import type { RequestHandler } from 'express';
import { originAllowed } from '../auth/origins.js';
import type { Store } from '../../store/tx.js';
import { ApiError, ERR_NOT_ALLOWED } from '../errors.js';
import { callerOf } from './request-context.js';

const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-API-Key', 'X-Client-Key'];
const ALLOWED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];

const preflight = cors({ origin: true, methods: ALLOWED_METHODS, allowedHeaders: ALLOWED_HEADERS, maxAge: 600, optionsSuccessStatus: 204 });

/**
 * Answers CORS preflights. They carry no credentials, so they cannot be checked against a
 * credential's allowed origins; the real request is (below), and a refused origin gets no
 * Access-Control-Allow-Origin, so the browser withholds the answer.
 */
export const corsPreflight: RequestHandler = (req, res, next) => {
  if (req.method !== 'OPTIONS' || !req.get('origin') || !req.get('access-control-request-method')) return next();
  preflight(req, res, next);
};

const actual = cors({ origin: true, exposedHeaders: ['Idempotency-Key', 'X-Request-Id'] });

/**
 * A cross-origin browser request is served only to origins on the credential's allowed list (a
 * credential without one is for servers: no page may use it cross-origin), and then with the
 * CORS headers, so that its errors are readable too. Requests without an Origin are
 * server-to-server; a page of this server itself (the API reference's "Try it") is same-origin.
 * A client key is for browsers only: it needs an Origin on the list, even this server's own.
 * The list is read from the database on every request (a change on one instance holds on all).
 */
export function corsCheck(store: Store, publicBaseUrl: string): RequestHandler {
  return async (req, res, next) => {
    const origin = req.get('origin');
    const { credential, clientKey } = callerOf(res);
    if (clientKey && !origin) {
      throw new ApiError(ERR_NOT_ALLOWED, { message: 'Not allowed: a client key is used from a web page on one of the allowed origins of its credential' });
    }
    if (!origin || (!clientKey && sameOrigin(origin, `${req.protocol}://${req.get('host') ?? ''}`, publicBaseUrl))) return next();
    const origins = await store.read((tx) => tx.credentials.origins(credential.id));
    if (!originAllowed(origins, origin))
      throw new ApiError(ERR_NOT_ALLOWED, { message: `Not allowed: the origin ${origin} is not an allowed origin of this credential` });
    actual(req, res, next);
  };
}

/** Whether the Origin is this server's own address (as asked for, or as configured). */
function sameOrigin(origin: string, requested: string, publicBaseUrl: string): boolean {
  const own = [requested, publicBaseUrl].filter(Boolean).map((base) => {
    try {
      return new URL(base).origin;
    } catch {
      return undefined;
    }
  });
  return own.includes(origin);
}
