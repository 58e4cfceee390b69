import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCaller, checkPathScope, checkRequestScope } from './kernel/auth/policy.js';
import { hosted3ds } from './checkout/payments/hosted-3ds.js';
import { LIBRARY_IMAGES_BASE, LIBRARY_TRANSLATIONS_BASE, libraryImages, libraryTranslations } from './checkout/secured-fields/library-assets.js';
import { SECURED_FIELDS_BASE, securedFieldsPage } from './checkout/secured-fields/secured-fields-page.js';
import { BARCODE_PATH, barcodeImage } from './checkout/hosted-assets/barcode-image.js';
import { payByLinkPage } from './checkout/links/pay-by-link-page.js';
import { newPspReference } from './checkout/references.js';
import { apiDocs } from './docs/docs.js';
import { consoleUi } from './console-ui/console-ui.js';
import type { Deps } from './kernel/deps.js';
import { areaOf, baseOf, CHECKOUT_BASE, CLIENTSIDE_BASE, CONSOLE_BASE, MANAGEMENT_BASE } from './kernel/http/area.js';
import { authentication, clientKeyAuthentication } from './kernel/http/auth.js';
import { chain } from './kernel/http/chain.js';
import { corsCheck, corsPreflight } from './kernel/http/cors.js';
import { errorHandler } from './kernel/http/error-handler.js';
import { letBodyCome } from './kernel/http/expect-continue.js';
import { freshClock } from './kernel/http/fresh-clock.js';
import { health } from './kernel/http/health.js';
import { refusingBeforeBody } from './kernel/http/refusal.js';
import { requestLog } from './kernel/http/request-log.js';
import { ApiError, type Area, ERR_NOT_FOUND_ROUTE, ERR_UNEXPECTED_BODY, ERR_UPLOAD_TOO_LARGE } from './kernel/errors.js';
import { Commands, idempotencyKeyHeader } from './kernel/idempotency.js';
import { jsonBody } from './kernel/http/json-body.js';
import { RateLimiter } from './kernel/http/rate-limit.js';
import { callerOf, keepScopedMerchant } from './kernel/http/request-context.js';
import { matchRoute, routeTable, type MatchedRoute } from './kernel/http/routes.js';
import { fasterValidator } from './kernel/http/validator.js';
import { discardUnadoptedUploads, uploadStorage } from './kernel/http/uploads.js';
import { buildHandlers, type BuiltOperation } from './operations.js';
import { projectRoot } from './project-root.js';
import { DEMO } from './seed.js';

type SpecDocument = { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };

const loadedSpecs = new Map<Area, SpecDocument>();

/**
 * The bundled documents the server validates against (generated/<area>.json: the bundle of spec/,
 * as JSON), read once per process like the validators made from them (an app only reads them; the
 * validator works on its own copy): a process that builds an app per test parsed about 1.3 MB
 * of JSON each time.
 */
export function loadSpec(area: Area): SpecDocument {
  let spec = loadedSpecs.get(area);
  if (!spec) loadedSpecs.set(area, (spec = JSON.parse(readFileSync(join(projectRoot(), 'generated', `${area}.json`), 'utf8')) as SpecDocument));
  return spec;
}

/**
 * Validators by area and the settings they take, shared by every app this process builds: a
 * validator costs hundreds of milliseconds to set up and more to compile each operation's schemas
 * on its first request, and holds nothing of the app that made it (uploads go to the folder of
 * the app that received them: `uploadsGoTo`). One app per process pays the same; a process that
 * builds many (the tests, an embedding that restarts the app) pays once.
 */
const sharedValidators = new Map<string, RequestHandler>();
const UPLOAD_DIR = 'uploadDir';
const uploadsGoTo = uploadStorage((req) => String(req.app.locals[UPLOAD_DIR]));

/** A validator's middleware, made when first needed (or when `load` is called). */
function lazyValidator(make: () => RequestHandler): { handler: RequestHandler; load(): RequestHandler; loaded(): boolean } {
  let made: RequestHandler | undefined;
  const load = () => (made ??= make());
  return { handler: (req, res, next) => load()(req, res, next), load, loaded: () => made !== undefined };
}

/** Whether a path is `base` or below it; like Express's mount paths, regardless of case. */
function within(path: string, base: string): boolean {
  if (path.length < base.length || path.slice(0, base.length).toLowerCase() !== base) return false;
  return path.length === base.length || path.charCodeAt(base.length) === 47;
}

/** The path below the area's base, as the error messages name it. */
function pathInArea(req: Request): string {
  const path = req.originalUrl.split('?')[0]!;
  return path.slice(baseOf(areaOf(req)).length) || '/';
}

/**
 * Whether a request to an operation without a body really carries none. Clients (the Adyen
 * libraries among them) send an empty chunked body on such calls, so a chunked request is read
 * until its end or its first byte, whichever comes first.
 */
function bodyIsEmpty(req: Request, res: Response): Promise<boolean> {
  if (Number(req.get('content-length') ?? 0) > 0) return Promise.resolve(false);
  if (req.get('transfer-encoding') === undefined || req.readableEnded) return Promise.resolve(true);
  // The caller is authorized by now; a client waiting for `100 Continue` would otherwise never send.
  letBodyCome(req, res);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (chunk.length === 0) return;
      req.off('data', onData);
      req.pause();
      resolve(false);
    };
    req.on('data', onData);
    req.once('end', () => resolve(true));
    req.once('error', reject);
  });
}

/** The success status of every operation: the one 2xx response its spec documents (the lowest, if several). */
function successStatusesOf(spec: SpecDocument): Array<[string, number]> {
  return Object.values(spec.paths).flatMap((item) =>
    Object.values(item)
      .filter((op) => op.operationId !== undefined)
      .map((op): [string, number] => [
        op.operationId!,
        Math.min(
          ...Object.keys(op.responses ?? {})
            .map(Number)
            .filter((code) => code >= 200 && code < 300),
        ),
      ]),
  );
}

function operationIdsOf(spec: SpecDocument): string[] {
  return Object.values(spec.paths).flatMap((item) =>
    Object.values(item)
      .map((op) => op.operationId)
      .filter((id): id is string => Boolean(id)),
  );
}

export interface AppOptions {
  /** True once the process is shutting down: /health/ready answers 503. */
  stopping?: () => boolean;
  /**
   * Load the other area's validator once the first checkout or management answer is sent (true
   * unless set false), so that a starting server is soon warm for both. A process that builds
   * apps for one area's work at a time (the tests) leaves it off: each loads what it is asked.
   */
  warmValidators?: boolean;
}

/**
 * Builds the Express app: parsing, authentication, request and response validation against the
 * bundled specs, dispatch by operationId, and the one error handler. It listens on nothing and
 * starts nothing; server/main.ts does that.
 */
export function createApp(deps: Deps, options: AppOptions = {}): Express {
  const { config, store, clock, logger, metrics } = deps;
  const checkoutSpec = loadSpec('checkout');
  const managementSpec = loadSpec('management');
  const clientsideSpec = loadSpec('clientside');
  const consoleSpec = loadSpec('console');
  const specs = [checkoutSpec, managementSpec, clientsideSpec, consoleSpec];
  const successStatuses = new Map(specs.flatMap(successStatusesOf));
  const handlers = buildHandlers({
    ...deps,
    commands: new Commands(store, (companyId) => clock.now(companyId)),
    successStatus: (operationId) => successStatuses.get(operationId) ?? 200,
  });
  const missing = specs.flatMap(operationIdsOf).filter((id) => !handlers.has(id));
  if (missing.length > 0) throw new Error(`operations without a handler: ${missing.join(', ')}`);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // Request ids (a random prefix per process and a counter), the request log and the metrics.
  app.use(metrics.middleware());
  app.use(requestLog(logger, newPspReference().slice(0, 8)));
  // Uploads stream to a temporary file, never whole into memory; the size cap stops them early
  // (413). The folder is made when an upload arrives, so that building the app touches no disk.
  app.locals[UPLOAD_DIR] = config.uploadDir;
  const uploads = { storage: uploadsGoTo, limits: { fileSize: config.androidMaxApkBytes, files: 1, fields: 5 } };
  // Multipart framing and the description field around the file: a declared length beyond the
  // file limit plus this is refused before a byte is read.
  const uploadOverheadBytes = 64 * 1024;
  const limiter = new RateLimiter(store, config.rateLimitPerMinute);
  const routes = {
    checkout: routeTable('checkout', checkoutSpec),
    management: routeTable('management', managementSpec),
    clientside: routeTable('clientside', clientsideSpec),
    console: routeTable('console', consoleSpec),
  };

  // One per area and the settings it takes, shared with the other apps of this process (sharedValidators).
  const validators = (area: Area, spec: SpecDocument): RequestHandler => {
    const key = `${area} ${config.validateResponses} ${config.androidMaxApkBytes}`;
    let shared = sharedValidators.get(key);
    if (!shared) {
      shared = chain(
        ...fasterValidator({
          fileUploader: uploads,
          apiSpec: spec as never,
          validateApiSpec: false,
          validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
          validateResponses: config.validateResponses ? { removeAdditional: false } : false,
          validateSecurity: false,
          ignoreUndocumented: false,
          $refParser: { mode: 'dereference' },
        }),
      );
      sharedValidators.set(key, shared);
    }
    return shared;
  };

  /**
   * Authorization, before anything else reads the request: the operation is looked up from the
   * path, then its roles, the credential's level and the merchant account or company of the
   * path are checked, bodies are refused where the operation takes none, and only then is a
   * rate-limit slot taken. A refused request has had no body parsed, no file written and no
   * slot used. Paths that name no operation go on to the validator, which answers 404 or 405.
   */
  const authorize: RequestHandler = async (req, res, next) => {
    const matched = matchRoute(routes[areaOf(req)], req.method, pathInArea(req));
    if (!matched) return next();
    // For the request log and the metrics.
    res.locals.operationId = matched.route.operationId;
    if (matched.params.merchantId !== undefined) res.locals.merchantAccount = matched.params.merchantId;
    // For the request log (the pspReference a path names).
    res.locals.pathParams = matched.params;
    const operation = handlers.get(matched.route.operationId)!;
    await authorizeBeforeBody(req, res, matched, operation);
    res.locals.operation = operation;
    next();
  };

  const authorizeBeforeBody = async (req: Request, res: Response, matched: MatchedRoute, operation: BuiltOperation) => {
    // The console's sign-in checks the API key its body carries, as authentication would.
    if (operation.signIn) return;
    const caller = callerOf(res);
    const { credential } = caller;
    checkCaller(caller, operation);
    await store.read((tx) => checkPathScope(tx, credential, operation.scope, matched.params));
    if (!matched.route.hasBody && !(await bodyIsEmpty(req, res))) throw new ApiError(ERR_UNEXPECTED_BODY);
    if (matched.route.multipart && Number(req.get('content-length') ?? 0) > config.androidMaxApkBytes + uploadOverheadBytes) {
      throw new ApiError(ERR_UPLOAD_TOO_LARGE, { message: `The upload is larger than allowed: at most ${config.androidMaxApkBytes} bytes` });
    }
    if (operation.rateLimited) {
      const taken = limiter.take(`${credential.id} ${matched.route.operationId}`);
      if (taken) await taken;
    }
  };

  /** After validation: the scope the parsed request decides (checkout's merchantAccount), then the handler. */
  const dispatch: RequestHandler = async (req, res, next) => {
    const operation = res.locals.operation as BuiltOperation | undefined;
    if (!operation) throw new ApiError(ERR_NOT_FOUND_ROUTE, { message: `Not Found: no operation at ${req.method} ${pathInArea(req)}` });
    if (operation.signIn) return operation.handle(req, res, next);
    const { credential } = callerOf(res);
    keepScopedMerchant(res, await store.read((tx) => checkRequestScope(tx, credential, operation.scope, { body: req.body, query: req.query }, areaOf(req))));
    return operation.handle(req, res, next);
  };

  // Each area's requests run as one chain (see chain.ts), and meet only their own area's
  // validator: the other would match them against all its routes for nothing.
  const auth = [
    corsPreflight,
    refusingBeforeBody(authentication(store, clock, config.publicBaseUrl)),
    refusingBeforeBody(corsCheck(store, config.publicBaseUrl)),
    refusingBeforeBody(authorize),
  ];
  // The request has passed every check made before its body: a client that waits for `100 Continue` gets it now.
  const bodyComes: RequestHandler = (req, res, next) => {
    letBodyCome(req, res);
    next();
  };
  const body = [bodyComes, ...jsonBody(config.bodyLimitBytes)];
  // Each validator loads its document (dereferenced: some 150–300 ms of work) when its area is
  // first asked for, and the other area's then follows once that first answer is sent: a
  // starting server answers its first request without loading both, and is warm for both soon
  // after. Nothing is loaded by building the app.
  const validator = {
    checkout: lazyValidator(() => validators('checkout', checkoutSpec)),
    management: lazyValidator(() => validators('management', managementSpec)),
    clientside: lazyValidator(() => validators('clientside', clientsideSpec)),
    console: lazyValidator(() => validators('console', consoleSpec)),
  };
  const warmOther = (area: 'checkout' | 'management'): RequestHandler => {
    const other = area === 'checkout' ? validator.management : validator.checkout;
    if (options.warmValidators === false) return (_req, _res, next) => next();
    return (_req, res, next) => {
      if (!other.loaded()) res.once('finish', () => setImmediate(() => other.load()));
      next();
    };
  };
  // The request log the console shows: every request of the three API areas, written after its answer.
  const recorder = deps.requestRecorder;
  const checkoutApi = chain(
    recorder.middleware('checkout', CHECKOUT_BASE),
    warmOther('checkout'),
    ...auth,
    idempotencyKeyHeader,
    ...body,
    validator.checkout.handler,
    dispatch,
  );
  const managementApi = chain(
    recorder.middleware('management', MANAGEMENT_BASE),
    warmOther('management'),
    ...auth,
    discardUnadoptedUploads,
    ...body,
    validator.management.handler,
    dispatch,
  );
  // What Adyen's web library calls from the shopper's page: a client key only, from an allowed origin.
  const clientsideApi = chain(
    recorder.middleware('clientside', CLIENTSIDE_BASE),
    corsPreflight,
    refusingBeforeBody(clientKeyAuthentication(store, clock)),
    refusingBeforeBody(corsCheck(store, config.publicBaseUrl)),
    refusingBeforeBody(authorize),
    // The library sends none, but a page may: it is checked as on checkout, whose commands these reuse.
    idempotencyKeyHeader,
    ...body,
    validator.clientside.handler,
    dispatch,
  );
  // The console's own API (spec/console): its pages are this server's, so no CORS; its sign-in
  // takes no credential, everything else the API key or the session cookie as the other areas do.
  const consoleAuthentication = authentication(store, clock, config.publicBaseUrl);
  const consoleApi = chain(
    refusingBeforeBody((req, res, next) => {
      const matched = matchRoute(routes.console, req.method, pathInArea(req));
      if (matched && handlers.get(matched.route.operationId)?.signIn) return next();
      return consoleAuthentication(req, res, next);
    }),
    refusingBeforeBody(authorize),
    ...body,
    validator.console.handler,
    dispatch,
  );
  // The secured-fields page sits under the client-side base but is a page: the browser loads it
  // into an iframe with the client key in its path, without an Origin or a JSON body.
  // So is the picture of a QR code the library shows (an image, loaded without an Origin).
  const securedFields = securedFieldsPage(store, clock);
  const barcode = barcodeImage(store, clock);
  app.use((req, res, next) => {
    const path = req.path;
    if (within(path, SECURED_FIELDS_BASE)) return securedFields(req, res, next);
    // The library's images and translations: public, as on Adyen's CDN.
    if (within(path, LIBRARY_IMAGES_BASE)) return libraryImages(req, res);
    if (within(path, LIBRARY_TRANSLATIONS_BASE)) return libraryTranslations(req, res);
    if (path === BARCODE_PATH) return barcode(req, res, next);
    if (within(path, CHECKOUT_BASE)) return checkoutApi(req, res, next);
    if (within(path, MANAGEMENT_BASE)) return managementApi(req, res, next);
    if (within(path, CLIENTSIDE_BASE)) return clientsideApi(req, res, next);
    if (within(path, CONSOLE_BASE)) return consoleApi(req, res, next);
    // Pages and probes take no credential: nothing to check before their body.
    letBodyCome(req, res);
    next();
  });

  // Pages and probes: after the APIs, which answer every request under their base paths.
  app.use(health(store, options.stopping ? { stopping: options.stopping } : {}));
  app.get('/metrics', metrics.endpoint());
  app.use(
    apiDocs({
      publicBaseUrl: config.publicBaseUrl,
      credentials: [
        { username: DEMO.companyUsername, what: 'every role, both areas, every merchant account of DemoCompany', env: 'DEMO_COMPANY_API_KEY' },
        { username: DEMO.merchantUsername, what: `checkout roles only, ${DEMO.merchantEcom} only`, env: 'DEMO_MERCHANT_API_KEY' },
      ],
    }),
  );
  // The hosted pages carry no credential: on PostgreSQL they read the clocks other instances may have moved.
  app.use(['/hosted', '/payByLink'], freshClock(store, clock));
  app.use(hosted3ds(store, deps.redirects));
  app.use(payByLinkPage({ store, clock, vault: deps.vault, redirects: deps.redirects, publicBaseUrl: config.publicBaseUrl }));
  app.use(consoleUi());

  app.use((req) => {
    throw new ApiError(ERR_NOT_FOUND_ROUTE, { message: `Not Found: no operation at ${req.method} ${req.path}` });
  });
  app.use(errorHandler(logger, config.bodyLimitBytes));
  return app;
}
