import type { RequestHandler } from 'express';
import OpenApiValidator from 'express-openapi-validator';
import eovAjv from 'express-openapi-validator/dist/framework/ajv/index.js';
import eovAjvOptions from 'express-openapi-validator/dist/framework/ajv/options.js';
import eovSchemaValidator from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';
import { pathToRegexp as compileRoute } from 'path-to-regexp';

type ValidatorOptions = Parameters<typeof OpenApiValidator.middleware>[0];

/**
 * The one module that reaches into express-openapi-validator's internals (written against 5.6.2;
 * everywhere else the library is used as published). Each replacement is kept because it was
 * measured to pay (docs/performance.md, "Replaced internals of dependencies");
 * test/unit/validator-fast-path.test.ts fails, naming the installed version, when one is no longer
 * in place.
 */

/** The parts of express-openapi-validator 5.6's internals that `fasterValidator` replaces (see below). */
interface RouteDetails {
  basePath: string;
  _openApiRoute: string;
  _expressRoute: string;
  [method: string]: unknown;
}
interface OpenApiContext {
  apiDoc: { paths: Record<string, Record<string, unknown>> };
  expressRouteMap: Record<string, RouteDetails>;
  openApiRouteMap: Record<string, RouteDetails>;
  serial: number;
  ignoreUndocumented: boolean;
  useRequestUrl: boolean;
  shouldIgnoreRoute(path: string): boolean;
  isManagedRoute(path: string): boolean;
}
interface ApiDoc {
  paths?: unknown;
  components?: { securitySchemes?: unknown };
  [key: string]: unknown;
}
interface ValidatorInstance {
  metadataMiddleware(context: OpenApiContext, responseApiDoc: ApiDoc | undefined): RequestHandler;
  requestValidationMiddleware(apiDoc: ApiDoc): RequestHandler;
  responseValidationMiddleware(apiDoc: ApiDoc, serial: number): RequestHandler;
}

// Called with the options express-openapi-validator passes (`strict` too, which path-to-regexp 8's types no longer name).
const pathToRegexp = compileRoute as unknown as (path: string, options: object) => { regexp: RegExp; keys: Array<{ name: string }> };
const errors = OpenApiValidator.error;

/**
 * express-openapi-validator builds a validator of the OpenAPI 3.1 meta-schema for every instance
 * (twice per start: about 140 ms of a cold start's CPU) even when `validateApiSpec` is false and it
 * is never called. The bundled documents are linted by Redocly at build time instead; with
 * `validateApiSpec: false` the framework gets a stand-in that compiles nothing.
 */
const schemaValidatorModule = eovSchemaValidator as unknown as {
  OpenAPISchemaValidator: new (options: { validateApiSpec?: boolean }) => { validate(doc: unknown): { errors: unknown[] } };
};
const StockSchemaValidator = schemaValidatorModule.OpenAPISchemaValidator;
class SkippedSchemaValidator {
  constructor() {
    validatorFastPath.skippedSpecValidation = true;
  }
  validate(): { errors: unknown[] } {
    return { errors: [] };
  }
}

/**
 * Which of the replacements below are in place: the skipped meta-schema, the route lookup, the
 * validators' documents without their `$ref` targets and ajv's code generated without its
 * optimizing passes. test/unit/validator-fast-path.test.ts expects all of them, and the
 * `openapi_validator_fast_path` metric reports them.
 */
export const validatorFastPath = { routeLookup: false, slimDocument: false, slimPreprocessing: false, skippedSpecValidation: false, unoptimizedCode: false };

/**
 * ajv runs optimizing passes over the code of every validator it compiles (`code.optimize`, on by
 * default); express-openapi-validator passes no way to set it. Each operation's validators are
 * compiled on its first request, and those passes were half of it: the request and response
 * validators of POST /payments compiled in 1.1–1.4 s with them and 0.35–0.7 s without, while
 * validating with either code took the same time (docs/performance.md). Every options object the
 * library hands to ajv comes from `AjvOptions.baseOptions`, so the option is added there.
 */
const ajvOptionsModule = eovAjvOptions as unknown as { AjvOptions?: { prototype: { baseOptions?: () => Record<string, unknown> } } };
const stockBaseOptions = ajvOptionsModule.AjvOptions?.prototype.baseOptions;
function withoutCodeOptimization(): void {
  const prototype = ajvOptionsModule.AjvOptions?.prototype;
  if (!prototype || typeof stockBaseOptions !== 'function' || prototype.baseOptions !== stockBaseOptions) return;
  prototype.baseOptions = function baseOptions(this: unknown) {
    validatorFastPath.unoptimizedCode = true;
    return { ...stockBaseOptions.call(this), code: { optimize: false } };
  };
}

/**
 * Every ajv instance the library makes (`createAjv`) first walks the whole document it is given,
 * key by key (a clean-up of `x-stoplight` keys), then adds it to ajv, which walks it again. The
 * dereferenced document shares each schema wherever it was referred to, and the walks have no
 * memory of what they saw, so a shared schema is walked once per reference: the instances made
 * for the schema preprocessing and for multipart bodies at each start cost about as much as
 * compiling an operation's validators. Those instances only resolve `$ref`s, which a dereferenced
 * document no longer has: they get the document without its paths and schemas, as the
 * validators do (`withoutRefTargets`). The preprocessing itself still walks the paths.
 */
const ajvModule = eovAjv as unknown as { createRequestAjv?: (apiDoc: ApiDoc, options?: object) => unknown };
const stockCreateRequestAjv = ajvModule.createRequestAjv;
function slimRequestAjv(): void {
  if (typeof stockCreateRequestAjv !== 'function' || ajvModule.createRequestAjv !== stockCreateRequestAjv) return;
  ajvModule.createRequestAjv = function createRequestAjv(apiDoc: ApiDoc, options?: object) {
    const slim = withoutRefTargets(apiDoc);
    if (slim !== apiDoc) validatorFastPath.slimPreprocessing = true;
    return stockCreateRequestAjv(slim, options);
  };
}

/**
 * express-openapi-validator's middleware, with the same behaviour and two costs removed:
 *
 * - **Route lookup**: the validator compiles every path template of the spec with path-to-regexp
 *   on every request until one matches (≈ 150 templates in management). Here each template is
 *   compiled once, in the validator's own order, and matched the same way (list and replay spend
 *   about a fifth and two fifths more CPU per request with the library's lookup).
 * - **Validator compilation**: each operation's first request builds its ajv validators from a
 *   schema that embeds the whole document's `paths` and `components` (for `$ref` resolution);
 *   ajv walks every key of that on each build, which with the dereferenced document costs
 *   hundreds of milliseconds per operation (a server answering many operations for the first
 *   time, as every test does, pays it again and again; the first answer of a cold start, about
 *   250 ms of CPU). The document is fully dereferenced
 *   (`$refParser.mode: 'dereference'`, checked here), so nothing is resolved against those
 *   parts: the validators get the document without them (the security schemes stay).
 *
 * Both replace methods of the validator instance that `middleware()` creates (it leaves it at
 * `middleware._oav`), pinned to express-openapi-validator 5.6.2; if that shape is not there
 * the stock middleware runs unchanged, and the validator test notices (`validatorFastPath`).
 * The two instances of an app (one per area) are created one after the other, so `_oav` is ours.
 */
export function fasterValidator(options: ValidatorOptions): RequestHandler[] {
  // The framework reads the class from the module when it initializes (after this returns, on
  // its own promise): the stand-in stays for the process; a caller that wants the spec
  // validated gets the stock class back.
  schemaValidatorModule.OpenAPISchemaValidator = options.validateApiSpec === false ? SkippedSchemaValidator : StockSchemaValidator;
  withoutCodeOptimization();
  const dereferenced = (options as { $refParser?: { mode?: string } }).$refParser?.mode === 'dereference';
  if (dereferenced) slimRequestAjv();
  const chain = OpenApiValidator.middleware(options) as unknown as RequestHandler[];
  const instance = (OpenApiValidator.middleware as unknown as { _oav?: ValidatorInstance })._oav;
  if (
    !instance ||
    !dereferenced ||
    typeof instance.metadataMiddleware !== 'function' ||
    typeof instance.requestValidationMiddleware !== 'function' ||
    typeof instance.responseValidationMiddleware !== 'function'
  ) {
    return chain;
  }
  const requestValidationMiddleware = instance.requestValidationMiddleware.bind(instance);
  const responseValidationMiddleware = instance.responseValidationMiddleware.bind(instance);
  instance.metadataMiddleware = compiledMetadata;
  instance.requestValidationMiddleware = (apiDoc) => requestValidationMiddleware(withoutRefTargets(apiDoc));
  instance.responseValidationMiddleware = (apiDoc, serial) => responseValidationMiddleware(withoutRefTargets(apiDoc), serial);
  validatorFastPath.routeLookup = true;
  return chain;
}

/** Documents already walked for a `$ref`, and whether they had one (a document is walked once, however many validators it gets). */
const hasRef = new WeakMap<object, boolean>();

/** The document as the validators need it once every `$ref` is resolved: no paths or schemas to resolve against. */
function withoutRefTargets(apiDoc: ApiDoc): ApiDoc {
  if (apiDoc === null || typeof apiDoc !== 'object') return apiDoc;
  let referring = hasRef.get(apiDoc);
  if (referring === undefined) hasRef.set(apiDoc, (referring = containsRef(apiDoc, new Set())));
  if (referring) return apiDoc;
  const securitySchemes = apiDoc.components?.securitySchemes;
  if (Object.keys(apiDoc.paths ?? {}).length > 0) validatorFastPath.slimDocument = true;
  return { ...apiDoc, paths: {}, components: securitySchemes ? { securitySchemes } : {} };
}

function containsRef(value: unknown, seen: Set<object>): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (!Array.isArray(value) && typeof (value as { $ref?: unknown }).$ref === 'string') return true;
  for (const child of Object.values(value)) if (containsRef(child, seen)) return true;
  return false;
}

/** express-openapi-validator's metadata middleware (openapi.metadata.js) with each path template compiled once. */
function compiledMetadata(context: OpenApiContext, responseApiDoc: ApiDoc | undefined): RequestHandler {
  const responsePaths = (responseApiDoc?.paths ?? undefined) as Record<string, Record<string, unknown>> | undefined;
  let compiled: { options: string; routes: Array<{ expressRoute: string; openApiRoute: string; pathKey: string; regexp: RegExp; keys: string[] }> } | undefined;
  const routesFor = (sensitive: boolean, strict: boolean) => {
    const options = `${sensitive} ${strict}`;
    if (compiled?.options !== options) {
      compiled = {
        options,
        routes: Object.entries(context.expressRouteMap).map(([expressRoute, methods]) => {
          const { regexp, keys } = pathToRegexp(expressRoute, { sensitive, strict });
          const openApiRoute = methods._openApiRoute;
          return { expressRoute, openApiRoute, pathKey: openApiRoute.substring(methods.basePath.length), regexp, keys: keys.map((k) => k.name) };
        }),
      };
    }
    return compiled.routes;
  };

  return (req, _res, next) => {
    const path = req.path.startsWith(req.baseUrl) ? req.path : `${req.baseUrl}/${req.path}`;
    if (context.shouldIgnoreRoute(path)) return next();
    const url = (context.useRequestUrl ? req.url : req.originalUrl).split('?')[0]!;
    const method = req.method.toLowerCase();
    for (const route of routesFor(req.app.enabled('case sensitive routing'), req.app.enabled('strict routing'))) {
      const match = route.regexp.exec(url);
      if (!match) continue;
      let pathParams: Record<string, string>;
      try {
        pathParams = Object.fromEntries(route.keys.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      } catch {
        throw new errors.BadRequest({ path: req.path, message: `malformed uri'` });
      }
      const schema = context.apiDoc.paths[route.pathKey]![method];
      if (!schema) {
        // A path the spec knows, with a method it does not.
        if (context.ignoreUndocumented) return next();
        const allowed = Object.keys(context.openApiRouteMap[route.openApiRoute]!).filter((key) => HTTP_METHODS.has(key.toLowerCase()));
        throw new errors.MethodNotAllowed({ path: req.path, message: `${req.method} method not allowed`, headers: { Allow: allowed.join(', ') } });
      }
      const openapi: Record<string, unknown> = {
        expressRoute: route.expressRoute,
        openApiRoute: route.openApiRoute,
        pathParams,
        schema,
        serial: context.serial,
      };
      if (responsePaths) openapi._responseSchema = responsePaths[route.pathKey]?.[method];
      (req as unknown as { openapi: unknown }).openapi = openapi;
      req.params = pathParams;
      return next();
    }
    if (context.isManagedRoute(path) && !context.ignoreUndocumented) throw new errors.NotFound({ path: req.path, message: 'not found' });
    next();
  };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
