import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.js';
import type { Caller } from './request-context.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Paths whose requests are not logged (probes, scrapes, documentation assets). */
const QUIET = /^\/(health(\/|$)|metrics$|docs\/assets\/)/;

/**
 * What one request line says: never a body or a header, only the operation, its outcome and
 * who asked (the credential's user name and the merchant account of the path or the body).
 */
function summary(req: Request, res: Response, ms: number): Record<string, unknown> {
  const caller = res.locals.caller as Caller | undefined;
  const body = req.body as { merchantAccount?: unknown } | undefined;
  const merchantAccount =
    (res.locals.merchantAccount as string | undefined) ?? (body && typeof body.merchantAccount === 'string' ? body.merchantAccount : undefined);
  return {
    method: req.method,
    path: req.originalUrl.split('?')[0],
    operationId: res.locals.operationId as string | undefined,
    status: res.statusCode,
    ms,
    merchantAccount,
    credential: caller?.credential.username,
    replayed: res.locals.idempotentReplay === true ? true : undefined,
  };
}

/**
 * Request ids and the request log. Every request gets an id (a random prefix per process and a
 * counter), kept in `res.locals.requestId` (management errors' `requestId`) and sent back as
 * `X-Request-Id`; handlers pass it on to what they cause (the events a transaction records, outbound calls). When the
 * level includes `info`, pino-http writes one line per request as it finishes.
 */
export function requestLog(logger: Logger, idPrefix: string): RequestHandler {
  let count = 0;
  const http = logger.isLevelEnabled('info')
    ? pinoHttp({
        logger: logger.pino,
        genReqId: (_req, res) => (res as unknown as Response).locals.requestId as string,
        quietReqLogger: true,
        quietResLogger: true,
        customAttributeKeys: { reqId: 'requestId' },
        autoLogging: { ignore: (req) => QUIET.test((req as Request).path) },
        customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
        customSuccessMessage: () => 'request',
        customErrorMessage: () => 'request',
        customSuccessObject: (req, res, value: { responseTime: number }) => summary(req as Request, res as Response, value.responseTime),
        customErrorObject: (req, res, _error, value: { responseTime: number }) => summary(req as Request, res as Response, value.responseTime),
      })
    : undefined;
  return (req, res, next) => {
    const requestId = `${idPrefix}${(++count).toString(36).toUpperCase().padStart(8, '0')}`;
    res.locals.requestId = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    if (http) http(req as IncomingMessage, res as ServerResponse, next);
    else next();
  };
}
