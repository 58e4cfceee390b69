import express, { type Express, type RequestHandler } from 'express';
import OpenApiValidator from 'express-openapi-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeRequirement, satisfies } from './auth/roles.js';
import { hosted3ds } from './checkout/hosted-3ds.js';
import { payByLinkPage } from './checkout/pay-by-link-page.js';
import { newPspReference } from './checkout/references.js';
import type { Deps } from './deps.js';
import { areaOf, CHECKOUT_BASE, MANAGEMENT_BASE } from './http/area.js';
import { authentication } from './http/auth.js';
import { corsCheck, corsPreflight } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { ApiError, ERR_NOT_ALLOWED, ERR_NOT_FOUND_ROUTE } from './http/errors.js';
import { Commands, idempotencyKeyHeader } from './http/idempotency.js';
import { jsonBody } from './http/json-body.js';
import { RateLimiter } from './http/rate-limit.js';
import multer from 'multer';
import { mkdir } from 'node:fs';
import { callerOf } from './http/request-context.js';
import { buildHandlers } from './operations.js';
import { projectRoot } from './project-root.js';

type SpecDocument = { paths: Record<string, Record<string, { operationId?: string }>> };

/** The bundled documents the server validates against (generated/<area>.json: the bundle of spec/, as JSON). */
export function loadSpec(area: 'checkout' | 'management'): SpecDocument {
  return JSON.parse(readFileSync(join(projectRoot(), 'generated', `${area}.json`), 'utf8')) as SpecDocument;
}

function operationIdsOf(spec: SpecDocument): string[] {
  return Object.values(spec.paths).flatMap((item) => Object.values(item).map((op) => op.operationId).filter((id): id is string => Boolean(id)));
}

/**
 * Builds the Express app: parsing, authentication, request and response validation against the
 * bundled specs, dispatch by operationId, and the one error handler. It listens on nothing and
 * starts nothing; server/main.ts does that.
 */
export function createApp(deps: Deps): Express {
  const { config, store, clock, logger } = deps;
  const checkoutSpec = loadSpec('checkout');
  const managementSpec = loadSpec('management');
  const handlers = buildHandlers({ ...deps, commands: new Commands(store, () => clock.now()) });
  const missing = [...operationIdsOf(checkoutSpec), ...operationIdsOf(managementSpec)].filter((id) => !handlers.has(id));
  if (missing.length > 0) throw new Error(`operations without a handler: ${missing.join(', ')}`);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // Request ids: a random prefix per process and a counter (cheaper than randomness per request).
  const idPrefix = newPspReference().slice(0, 8);
  let requestCount = 0;
  const logRequests = config.logLevel === 'info';
  app.use((req, res, next) => {
    res.locals.requestId = `${idPrefix}${(++requestCount).toString(36).toUpperCase().padStart(8, '0')}`;
    if (logRequests) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info('request', { requestId: res.locals.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 });
      });
    }
    next();
  });

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(hosted3ds(store, deps.redirects));
  app.use(payByLinkPage({ store, clock, vault: deps.vault, redirects: deps.redirects, publicBaseUrl: config.publicBaseUrl }));

  // Uploads stream to disk, never whole into memory; the size cap stops them early (413).
  // The folder is made when an upload arrives, so that building the app touches no disk.
  const destination = (_req: unknown, _file: unknown, done: (error: Error | null, dir: string) => void) =>
    mkdir(config.uploadDir, { recursive: true }, (error) => done(error, config.uploadDir));
  const uploads = { storage: multer.diskStorage({ destination }), limits: { fileSize: config.androidMaxApkBytes, files: 1, fields: 5 } };
  const limiter = new RateLimiter(config.rateLimitPerMinute);

  const validators = (spec: SpecDocument) =>
    OpenApiValidator.middleware({
      fileUploader: uploads,
      apiSpec: spec as never,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
      validateResponses: config.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      ignoreUndocumented: false,
      $refParser: { mode: 'dereference' },
    });

  const dispatch: RequestHandler = (req, res, next) => {
    const operationId = (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
    const operation = operationId === undefined ? undefined : handlers.get(operationId);
    if (!operation) throw new ApiError(ERR_NOT_FOUND_ROUTE, { message: `Not Found: no operation at ${req.method} ${req.path}` });
    const { credential } = callerOf(res);
    if (!satisfies(credential.roles, operation.requires)) {
      throw new ApiError(ERR_NOT_ALLOWED, { message: `Not allowed: the credential needs ${describeRequirement(operation.requires)}` });
    }
    if (operation.rateLimited) limiter.take(`${credential.id}\u0000${operationId}`);
    return operation.handle(req, res, next);
  };

  const auth = [authentication(store, clock), corsCheck(store)];
  const body = jsonBody(config.bodyLimitBytes);
  app.use([CHECKOUT_BASE, MANAGEMENT_BASE], corsPreflight);
  app.use(CHECKOUT_BASE, ...auth, idempotencyKeyHeader, ...body);
  app.use(MANAGEMENT_BASE, ...auth, ...body);
  // Each request meets only its own area's validator: the other would match it against all its routes for nothing.
  const checkoutValidator = express.Router().use(validators(checkoutSpec));
  const managementValidator = express.Router().use(validators(managementSpec));
  app.use((req, res, next) => (areaOf(req) === 'management' ? managementValidator : checkoutValidator)(req, res, next));
  app.use([CHECKOUT_BASE, MANAGEMENT_BASE], dispatch);

  app.use((req) => {
    throw new ApiError(ERR_NOT_FOUND_ROUTE, { message: `Not Found: no operation at ${req.method} ${req.path}` });
  });
  app.use(errorHandler(logger, config.bodyLimitBytes));
  return app;
}
