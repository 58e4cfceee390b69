import type { ErrorRequestHandler, Request } from 'express';
import type { Logger } from '../logger.js';
import { carriesConsoleSession } from '../auth/console-session.js';
import { areaOf, CHECKOUT_BASE } from './area.js';
import {
  ApiError,
  ERR_BAD_HEADER,
  ERR_BODY_TOO_LARGE,
  ERR_FIELD_INVALID,
  ERR_FIELD_REQUIRED,
  ERR_INTERNAL,
  ERR_UNAVAILABLE,
  ERR_MALFORMED_JSON,
  ERR_METHOD_NOT_ALLOWED,
  ERR_NOT_FOUND_ROUTE,
  ERR_UNSUPPORTED_MEDIA_TYPE,
  ERR_UPLOAD_TOO_LARGE,
  CHECKOUT_PROBLEM_PATHS,
  type InvalidField,
  toCheckoutError,
  toCheckoutProblem,
  toManagementError,
} from '../errors.js';
import { requestIdOf } from './request-context.js';
import { StoreUnavailableError } from '../../store/unavailable.js';

interface ValidatorIssue {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** Turns a field path from the validator (`/body/amount/value`, `.query.pageSize`) into `amount.value`. */
function fieldName(path: string | undefined): { location: string; name: string } {
  const parts = (path ?? '').split(/[/.]/).filter((p) => p.length > 0);
  const location = parts.shift() ?? 'body';
  return { location, name: parts.join('.') || location };
}

function valueAt(req: Request, location: string, name: string): string {
  const source: unknown = location === 'query' ? req.query : location === 'headers' ? req.headers : location === 'path' ? req.params : req.body;
  let node: unknown = source;
  for (const key of name.split('.')) {
    if (node === null || typeof node !== 'object') return '';
    node = (node as Record<string, unknown>)[key];
  }
  if (node === undefined || node === null) return '';
  const text = typeof node === 'string' ? node : JSON.stringify(node);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

const isUnionSummary = (issue: ValidatorIssue) => /^(anyOf|oneOf)\b/.test(issue.errorCode ?? '');
const isTypeChoice = (issue: ValidatorIssue) => /[/.]type$/.test(issue.path ?? '') && /^(enum|required)\b/.test(issue.errorCode ?? '');

/**
 * The issues the caller meant. A union whose members are chosen by `type` (the checkout
 * payment method: spec CheckoutPaymentMethod) reports one issue per member; every member the
 * body's `type` did not choose fails on `type` alone, so those are dropped and the chosen
 * member's issues remain. When no member was chosen, the `type` itself is what is wrong.
 */
function meantIssues(issues: ValidatorIssue[]): ValidatorIssue[] {
  if (!issues.some(isUnionSummary)) return issues;
  const chosen = issues.filter((issue) => !isUnionSummary(issue) && !isTypeChoice(issue));
  if (chosen.length > 0) return chosen;
  const typeIssue = issues.find(isTypeChoice);
  return typeIssue ? [{ ...typeIssue, errorCode: 'enum', message: 'is not a type this field takes' }] : issues;
}

/** A request the validator refused: one clear message naming the first field, and every field for management. */
function fromValidation(req: Request, all: ValidatorIssue[]): ApiError {
  const issues = meantIssues(all);
  const fields: InvalidField[] = [];
  let required = false;
  let header = false;
  // A field that also takes null (`anyOf` with null: terminal settings updates) fails both branches;
  // the null branch and the `anyOf` summary add nothing to the other branch's own failure.
  const telling = issues.filter((i) => !(i.errorCode?.startsWith('anyOf') || (i.errorCode?.startsWith('type') && i.message === 'must be null')));
  for (const issue of telling.length > 0 ? telling : issues) {
    const { location, name } = fieldName(issue.path);
    const isRequired = issue.errorCode?.startsWith('required') ?? false;
    const extra = issue.errorCode?.startsWith('additionalProperties') ?? false;
    let message = issue.message ?? 'is not valid';
    let field = name;
    if (extra) {
      const match = /additional propert(?:y|ies)(?:\s*'([^']+)')?/.exec(message);
      const prop = match?.[1];
      if (prop) field = name === location ? prop : `${name}.${prop}`;
      message = 'is not a known field';
    }
    if (fields.length === 0) {
      required = isRequired;
      header = location === 'headers';
    }
    fields.push({ name: field, value: isRequired ? '' : valueAt(req, location, field), message });
  }
  const first = fields[0] ?? { name: 'body', value: '', message: 'is not valid' };
  if (header) return new ApiError(ERR_BAD_HEADER, { message: `Header '${first.name}' ${first.message}`, invalidFields: fields });
  const message = required ? `Required field '${first.name}' is not provided` : `Invalid field '${first.name}': ${first.message}`;
  return new ApiError(required ? ERR_FIELD_REQUIRED : ERR_FIELD_INVALID, { message, invalidFields: fields });
}

/** Maps anything thrown while handling a request to an ApiError, never exposing internals. */
export function toApiError(err: unknown, req: Request, bodyLimit: number): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  const e = err as { type?: string; status?: number; statusCode?: number; errors?: ValidatorIssue[]; message?: string; path?: string };
  // body-parser
  switch (e.type) {
    case 'entity.parse.failed':
      return {
        error: new ApiError(ERR_MALFORMED_JSON, { message: `Unexpected input: the body is not valid JSON (${e.message ?? 'parse error'})` }),
        unexpected: false,
      };
    case 'entity.too.large':
      return { error: new ApiError(ERR_BODY_TOO_LARGE, { message: `Request larger than allowed maximum of ${bodyLimit} bytes` }), unexpected: false };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { error: new ApiError(ERR_UNSUPPORTED_MEDIA_TYPE, { message: e.message ?? ERR_UNSUPPORTED_MEDIA_TYPE.message }), unexpected: false };
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return { error: new ApiError(ERR_MALFORMED_JSON, { message: 'Unexpected input: the body could not be read' }), unexpected: false };
    default:
      break;
  }
  // multer (uploads)
  const code = (err as { code?: string }).code;
  if ((err as { name?: string }).name === 'MulterError' || code === 'LIMIT_FILE_SIZE') {
    if (code === 'LIMIT_FILE_SIZE') return { error: new ApiError(ERR_UPLOAD_TOO_LARGE, { message: `The upload is larger than allowed` }), unexpected: false };
    return { error: new ApiError(ERR_MALFORMED_JSON, { message: `The upload could not be read (${code ?? 'multipart error'})` }), unexpected: false };
  }
  // express-openapi-validator
  const status = e.status ?? e.statusCode;
  if (Array.isArray(e.errors) && status !== undefined) {
    if (status === 400) return { error: fromValidation(req, e.errors), unexpected: false };
    if (status === 404)
      return { error: new ApiError(ERR_NOT_FOUND_ROUTE, { message: `Not Found: no operation at ${req.method} ${req.path}` }), unexpected: false };
    if (status === 405)
      return { error: new ApiError(ERR_METHOD_NOT_ALLOWED, { message: `Method ${req.method} is not allowed at ${req.path}` }), unexpected: false };
    if (status === 415) return { error: new ApiError(ERR_UNSUPPORTED_MEDIA_TYPE), unexpected: false };
    if (status === 413)
      return { error: new ApiError(ERR_BODY_TOO_LARGE, { message: `Request larger than allowed maximum of ${bodyLimit} bytes` }), unexpected: false };
  }
  // The database is away (PostgreSQL down or restarting): the request changed nothing and may be sent again.
  if (err instanceof StoreUnavailableError) return { error: new ApiError(ERR_UNAVAILABLE, { retryAfter: 1 }), unexpected: false };
  return { error: new ApiError(ERR_INTERNAL), unexpected: true };
}

/** The public error body: management's problem details, checkout's ServiceError, or problem details on the checkout paths that document them. */
function errorBody(req: Request, error: ApiError, requestId: string) {
  const area = areaOf(req);
  if (area === 'management' || area === 'console') return toManagementError(error, requestId);
  const url = req.originalUrl.split('?')[0]!;
  const path = (url.startsWith(`${CHECKOUT_BASE}/`) ? url.slice(CHECKOUT_BASE.length) : url).replace(/\/$/, '');
  return CHECKOUT_PROBLEM_PATHS.has(path) ? toCheckoutProblem(error, requestId) : toCheckoutError(error);
}

/** The single error middleware: every failure becomes the public error body of its area. */
export function errorHandler(logger: Logger, bodyLimit: number): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { error, unexpected } = toApiError(err, req, bodyLimit);
    if (unexpected) {
      logger.error('request failed', {
        requestId: requestIdOf(res),
        method: req.method,
        path: req.path,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    }
    if (err instanceof StoreUnavailableError) {
      // Answered 503 and retried by clients; the operator still needs to know why the database was away.
      const cause = err.cause instanceof Error ? `${(err.cause as { code?: string }).code ?? ''} ${err.cause.message}`.trim() : String(err.cause);
      logger.warn('database unavailable', { requestId: requestIdOf(res), method: req.method, path: req.path, cause });
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const body = errorBody(req, error, requestIdOf(res));
    if (error.status === 401) {
      // Not on the client-side area or the console: a client key is no Basic credential, and a Basic
      // challenge may make a browser ask the shopper (or the console's user) for a password.
      // Nor on a request the console's session cookie carried.
      if (areaOf(req) !== 'clientside' && areaOf(req) !== 'console' && !carriesConsoleSession(req))
        res.set('WWW-Authenticate', 'Basic realm="payments", charset="UTF-8"');
      // No credential, so no allowed origins to consult; the answer tells nothing but "this key does
      // not work", and a page must be able to read that to say so.
      const origin = req.get('origin');
      if (origin) res.set('Access-Control-Allow-Origin', origin).vary('Origin');
    }
    if (error.retryAfter !== undefined) res.set('Retry-After', String(error.retryAfter));
    res.status(error.status).type('application/json').send(JSON.stringify(body));
  };
}
