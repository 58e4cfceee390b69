/**
 * Sends the generated requests (generator.ts) to a target — the in-process server, the Prism
 * mock or a deployment — and judges every answer:
 *
 * - every response has a documented status and a body that validates against that status's
 *   schema (suite.ts's Ajv), and none is a 5xx;
 * - a valid request never gets a schema-class refusal: 400, or on checkout and client-side 422
 *   with error code 192, 158 or 137, or on management 422 naming a field with a validator
 *   message. Domain refusals (a payment that does not exist, 403 for a merchant account out of
 *   reach, …) are fine;
 * - an invalid request gets 400 or 422 in the area's error shape naming the broken field: the
 *   checkout and client-side `message`, the management `invalidFields`, Prism's `sl-violations`
 *   header.
 *
 * The client-side area is called as a page calls it: its client key in the query parameter the
 * operation names (`clientKey` or `token`), set from the run's settings like the API key header
 * (never generated, never broken), and an `Origin` header.
 */
import { ARRANGE } from '../arrange.js';
import { type Area, type ExampleCase, exampleCases, responseValidator, type Target } from '../suite.js';
import { createGenerator, type GeneratedOperation, type GeneratedRequest, type Generator, loadSpec, operationsOf, type OperationModel } from './generator.js';

export type TargetKind = 'server' | 'mock' | 'deployment';

export interface RunSettings {
  target: Target;
  kind: TargetKind;
  seed: number;
  /** Valid requests per operation (operations without body or query parameters get one). */
  validCount: number;
  /** The client key the client-side operations are called with (clientKeyOf). */
  clientKey?: string;
}

/**
 * Against a deployment: how long one operation's requests may take, waits for its rate limit
 * included, and how long one request may take. A deployment's default rate limit (120 a minute on
 * the terminal settings) would make an operation with hundreds of generated requests wait for
 * minutes, past the test's timeout, while its requests went on in the background.
 */
export const DEPLOYMENT_OPERATION_BUDGET_MS = 60_000;
export const DEPLOYMENT_REQUEST_TIMEOUT_MS = 30_000;

export interface Exchange {
  request: GeneratedRequest;
  method: string;
  url: string;
  status: number;
  body: unknown;
  headers: Headers;
}

export interface OperationReport {
  operationId: string;
  valid: number;
  invalid: number;
  notSeparable: string[];
  problems: string[];
  /** Problems that match a known finding (KNOWN_FINDINGS): reported, not failed. */
  known: string[];
  /** Requests not sent: the deployment's rate limit would have kept them waiting past the operation's budget. */
  unsent: number;
}

/**
 * Findings the generated tests made, reported and waiting for a fix in the server or the spec:
 * a problem they match is listed (and counted in the summary) but does not fail the run. Remove
 * an entry when its fix lands; CONTRACT_STRICT=1 fails on them too.
 */
export interface KnownFinding {
  id: string;
  targets: TargetKind[];
  matches(operation: OperationModel, exchange: Exchange, problem: string): boolean;
}
const refusal = (exchange: Exchange) => exchange.body as { errorCode?: string; message?: string; detail?: string; invalidFields?: unknown } | undefined;
const real: TargetKind[] = ['server', 'deployment'];
export const KNOWN_FINDINGS: KnownFinding[] = [
  {
    // CardDetails documents `encryptedCard`; storing a card refuses it (192 "send the separate encrypted fields instead").
    id: 'checkout-encryptedCard-documented-but-refused',
    targets: real,
    matches: (op, ex) => op.area === 'checkout' && ex.request.kind === 'valid' && /^Invalid field 'paymentMethod\.encryptedCard'/.test(refusal(ex)?.message ?? ''),
  },
  {
    // PaypalUpdateOrderRequest.deliveryMethods allows any list; the server needs exactly one `selected` (192).
    id: 'checkout-paypal-deliveryMethods-exactly-one-selected',
    targets: real,
    matches: (op, ex) => op.operationId === 'updatesOrderForPaypalExpressCheckout' && ex.request.kind === 'valid' && /'deliveryMethods': exactly one must be selected/.test(refusal(ex)?.message ?? ''),
  },
  {
    // UtilityRequest.originDomains items are any string in the spec; the server wants http(s) origins (192).
    id: 'checkout-originDomains-not-constrained-in-spec',
    targets: real,
    matches: (op, ex) => op.operationId === 'originKeys' && ex.request.kind === 'valid' && /^Invalid field 'originDomains\.\d+'/.test(refusal(ex)?.message ?? ''),
  },
  {
    // Amount.value has `minimum: 0`; orders and modifications refuse 0 (137 "must be greater than 0").
    id: 'checkout-amount-zero-refused',
    targets: real,
    matches: (_op, ex) => ex.request.kind === 'valid' && refusal(ex)?.errorCode === '137' && /'amount\.value' must be greater than 0/.test(refusal(ex)?.message ?? ''),
  },
  {
    // storePaymentMethodMode `enabled` needs recurringProcessingModel (158); the spec does not say so (no dependentRequired / if-then).
    id: 'checkout-recurringProcessingModel-conditionally-required',
    targets: real,
    matches: (_op, ex) => ex.request.kind === 'valid' && /^Required field 'recurringProcessingModel' is not provided: storePaymentMethodMode/.test(refusal(ex)?.message ?? ''),
  },
];

// Checkout first (its clock advance must come before management rotates the caller's key); the
// client-side sessions are made with that key too.
const AREAS: Area[] = ['checkout', 'clientside', 'management'];
export const areas = AREAS;

/** The operations a run covers. */
export function generatedOperations(): OperationModel[] {
  return AREAS.flatMap((area) => operationsOf(area)).filter((op) => !op.multipart);
}

/** The query parameters that carry a client key: the client-side spec's query security schemes. */
const clientKeyNames = new Set(
  Object.values<{ in?: string; name?: string }>(loadSpec('clientside').components?.securitySchemes ?? {})
    .filter((s) => s.in === 'query')
    .map((s) => s.name!),
);
const clientKeyParam = (operation: OperationModel) => operation.params.find((p) => p.in === 'query' && clientKeyNames.has(p.name))?.name;

/** The page the client-side calls come from: any origin passes a credential without allowed origins. */
export const PAGE_ORIGIN = 'https://shop.contract.example.com';

/** The demo merchant credential, whose client key the client-side operations are called with (server/seed.ts). */
const DEMO_CREDENTIAL = { merchantId: 'DemoMerchantECOM', apiCredentialId: 'S2-DEMOMERCHANT1' };

/** The demo merchant credential's client key, read with the target's API key; the reason when it cannot be read. */
export async function clientKeyOf(target: Target): Promise<{ clientKey: string } | { reason: string }> {
  const address = `${target.baseUrl.management}/merchants/${DEMO_CREDENTIAL.merchantId}/apiCredentials/${DEMO_CREDENTIAL.apiCredentialId}`;
  try {
    const response = await fetch(address, { headers: target.headers });
    const body = (await response.json().catch(() => undefined)) as { clientKey?: string } | undefined;
    if (response.ok && body?.clientKey) return { clientKey: body.clientKey };
    return { reason: `GET ${address} answered ${response.status}` };
  } catch (error) {
    return { reason: `GET ${address} failed: ${(error as Error).message}` };
  }
}

const SCHEMA_CODES = new Set(['192', '158', '137']);
const VALIDATOR_MESSAGE = /^(must |is not a known field|Required field|.*must (be|have|match|NOT|equal))/;

function firstQuoted(message: unknown): string | undefined {
  return typeof message === 'string' ? /'([^']+)'/.exec(message)?.[1] : undefined;
}

/** The names a refusal may give the broken field: the field itself, or within an anyOf its branching field. */
function acceptableNames(request: GeneratedRequest, operation: OperationModel): (name: string) => boolean {
  const field = request.field ?? '';
  const path = request.fieldPath ?? [];
  if (request.location !== 'body') return (name) => name.toLowerCase() === field.toLowerCase();
  // paymentMethod is an anyOf: a broken branch is reported by whichever branch the validator names first.
  const branchRoots = operation.area !== 'management' ? ['paymentMethod'] : [];
  const root = branchRoots.find((r) => path[0] === r);
  return (name) => name === field || (root !== undefined && (name === root || name.startsWith(`${root}.`)));
}

function violations(headers: Headers): Array<{ location: string[]; message: string }> {
  // Prism prefixes a long list (a union of many members, each reporting) with "Too many violations!"
  // and cuts the header at about 8 KB: the violations before the cut are read.
  const raw = headers.get('sl-violations')?.replace(/^Too many violations! /, '');
  if (!raw) return [];
  for (const text of [raw, `${raw.slice(0, raw.lastIndexOf('},{') + 1)}]`]) {
    try {
      return JSON.parse(text) as Array<{ location: string[]; message: string }>;
    } catch {
      // cut short: try the violations before the cut
    }
  }
  return [];
}

/** The field names a Prism violation gives: its location below request/body (or query/header), with a missing or unknown property appended. */
function prismNames(v: { location: string[]; message: string }): string[] {
  const [, , ...rest] = v.location;
  const base = rest.join('.');
  const names = [base];
  const property = /(?:required property|additional properties; found) '([^']+)'/.exec(v.message)?.[1];
  if (property) names.push(base ? `${base}.${property}` : property);
  return names;
}

export function judge(operation: OperationModel, exchange: Exchange, kind: TargetKind, validate: ReturnType<typeof responseValidator>): string[] {
  const problems: string[] = [];
  const { status, body, request } = exchange;
  const pointer = operation.responses[String(status)] ?? operation.responses.default;
  if (pointer === undefined) problems.push(`status ${status} is not documented for ${operation.operationId}`);
  else {
    const errors = validate(pointer, body);
    if (errors.length > 0) problems.push(`the ${status} body does not match its schema: ${errors.slice(0, 4).join('; ')}`);
  }
  if (status >= 500) problems.push(`a ${status} answer`);
  const b = (body ?? {}) as Record<string, any>;
  if (request.kind === 'valid') {
    if (status === 400) problems.push(`a valid request was refused with 400: ${b.message ?? b.detail ?? ''}`);
    if (status === 401) problems.push('the credential was refused (401)');
    if (status === 422 && operation.area !== 'management' && SCHEMA_CODES.has(String(b.errorCode))) {
      problems.push(`a valid request got a schema-class refusal: 422 ${b.errorCode} ${b.message}`);
    }
    if (status === 422 && operation.area === 'management' && Array.isArray(b.invalidFields) && b.invalidFields.some((f: { message?: string }) => VALIDATOR_MESSAGE.test(f.message ?? ''))) {
      problems.push(`a valid request got a schema-class refusal: 422 ${JSON.stringify(b.invalidFields)}`);
    }
    if (kind === 'mock' && status === 422) problems.push(`the mock refused a valid request: ${exchange.headers.get('sl-violations') ?? ''}`);
  } else {
    if (status !== 400 && status !== 422) {
      problems.push(`an invalid request (${request.description}) got ${status}, not 400 or 422`);
    } else {
      const accepts = acceptableNames(request, operation);
      let named: string[];
      // Prism reports parameter names in lower case.
      if (kind === 'mock')
        named = violations(exchange.headers)
          .flatMap(prismNames)
          .map((n) => (request.location === 'body' ? n : n.toLowerCase()));
      // Checkout's (and the client-side's) ServiceError names the field in `message`; its problem-details bodies (/validateShopperId) in `detail`.
      else if (operation.area !== 'management') named = [firstQuoted(b.message ?? b.detail)].filter((n): n is string => n !== undefined);
      else named = Array.isArray(b.invalidFields) ? b.invalidFields.map((f: { name: string }) => f.name) : [];
      if (!named.some(accepts)) {
        const said = kind === 'mock' ? exchange.headers.get('sl-violations') : operation.area !== 'management' ? b.message : JSON.stringify(b.invalidFields ?? b.detail);
        problems.push(`the refusal of ${request.description} does not name '${request.field}': ${status} ${said}`);
      }
    }
  }
  return problems;
}

function url(target: Target, operation: OperationModel, path: Record<string, string>, query: Record<string, string>): string {
  const filled = operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = path[name] ?? operation.params.find((p) => p.in === 'path' && p.name === name)?.example;
    return encodeURIComponent(String(value));
  });
  // Reserved characters percent-encoded, as OpenAPI's `allowReserved: false` (the default) asks of clients.
  const encode = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const search = Object.entries(query)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
  return `${target.baseUrl[operation.area]}${filled}${search ? `?${search}` : ''}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What `send` returns for a request that the deployment's rate limit would hold past the deadline. */
const RATE_LIMITED = Symbol('rate limited');

async function send(
  target: Target,
  operation: OperationModel,
  request: GeneratedRequest,
  path: Record<string, string>,
  clientKey?: string,
  deadline = Infinity,
  timeoutMs?: number,
): Promise<Exchange | typeof RATE_LIMITED> {
  const param = clientKeyParam(operation);
  const address = url(target, operation, path, param ? { ...request.query, [param]: clientKey ?? '' } : request.query);
  // A page sends its Origin and no API key; the other areas get the target's credential headers.
  const credential = operation.area === 'clientside' ? { Origin: PAGE_ORIGIN } : target.headers;
  for (let attempt = 0, limited = 0, resets = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(address, {
        method: operation.method,
        headers: { ...credential, ...(request.body !== undefined && { 'Content-Type': 'application/json' }), ...request.headers },
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        ...(timeoutMs !== undefined && { signal: AbortSignal.timeout(timeoutMs) }),
      });
    } catch (error) {
      // A pooled keep-alive connection that the server closed as idle just as it was reused
      // (undici: "other side closed", or a reset when the close and the write cross on a busy
      // machine): the request is sent again on a fresh connection. A server that is really gone
      // refuses the retries too, and the error then names the cause.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if ((cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET' || cause?.code === 'EPIPE') && resets++ < 3) {
        await sleep(50 * resets);
        continue;
      }
      throw new Error(`${operation.method.toUpperCase()} ${address} failed after ${attempt + 1} attempt(s): ${cause?.code ?? ''} ${cause?.message ?? String(error)}`, { cause: error });
    }
    const text = await response.text();
    // A deployment's rate limit (RATE_LIMIT_PER_MINUTE) is honoured, not judged: waited out up to
    // the operation's deadline (requests of the same operation compete for it), else three times.
    if (response.status === 429 && (deadline !== Infinity || limited++ < 3)) {
      const waitMs = Math.min(Number(response.headers.get('retry-after') ?? '5'), 65) * 1000;
      if (Date.now() + waitMs > deadline) return RATE_LIMITED;
      await sleep(waitMs);
      continue;
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { request, method: operation.method, url: address, status: response.status, body, headers: response.headers };
  }
}

/** Runs `tasks` with at most `width` at a time, in order of start. */
async function pool<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

const deepEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const examples = new Map<Area, ExampleCase[]>();
/** The spec example an arrangement starts from (arrange.ts takes an example case). */
function exampleOf(operation: OperationModel): ExampleCase | undefined {
  if (!examples.has(operation.area)) examples.set(operation.area, exampleCases(operation.area, loadSpec(operation.area)));
  return examples.get(operation.area)!.find((c) => c.operation.operationId === operation.operationId);
}

export interface Runner {
  settings: RunSettings;
  generators: Record<Area, Generator>;
  run(operation: OperationModel): Promise<OperationReport>;
  reports: OperationReport[];
  summary(): string;
}

export function createRunner(settings: RunSettings): Runner {
  const generators = Object.fromEntries(AREAS.map((area) => [area, createGenerator(area, settings.seed)])) as Record<Area, Generator>;
  const validators = Object.fromEntries(AREAS.map((area) => [area, responseValidator(area, loadSpec(area))])) as Record<Area, ReturnType<typeof responseValidator>>;
  const reports: OperationReport[] = [];
  const started = Date.now();
  const strict = process.env.CONTRACT_STRICT === '1';
  return {
    settings,
    generators,
    reports,
    async run(operation) {
      // Against a real server, the arrangements of the example suite make the path's resources exist
      // (a payment to capture, a webhook to update); their body fields (an order's data, a session's
      // data, a loopback URL) are laid over the generated bodies. The mock needs none.
      let path: Record<string, string> = {};
      let overrides: { body?: Record<string, unknown>; query?: Record<string, string> } = {};
      const arrange = ARRANGE[operation.operationId];
      const example = exampleOf(operation);
      if (settings.kind !== 'mock' && arrange && example) {
        const arranged = await arrange(settings.target, example);
        path = arranged.path ?? {};
        const changed =
          arranged.body && typeof arranged.body === 'object'
            ? Object.fromEntries(Object.entries(arranged.body as Record<string, unknown>).filter(([k, v]) => !deepEqual(v, (example.body as Record<string, unknown> | undefined)?.[k])))
            : undefined;
        overrides = { ...(changed && Object.keys(changed).length > 0 && { body: changed }), ...(arranged.query && { query: arranged.query }) };
      }
      // The client key parameter is the caller's credential, set when sending: neither generated nor broken.
      const param = clientKeyParam(operation);
      const generatedFor = param ? { ...operation, params: operation.params.filter((p) => !(p.in === 'query' && p.name === param)) } : operation;
      if (param && settings.clientKey === undefined) throw new Error(`${operation.operationId}: no client key to call it with (RunSettings.clientKey)`);
      const generated: GeneratedOperation = generators[operation.area].generate(generatedFor, { validCount: settings.validCount, overrides });
      // Prism takes an empty query or header value for an absent one, so it cannot refuse them; the server does.
      const emptyParameter = (r: GeneratedRequest) => (r.location === 'query' && r.query[r.field!] === '') || (r.location === 'header' && r.headers[r.field!] === '');
      const invalid = settings.kind === 'mock' ? generated.invalid.filter((r) => !emptyParameter(r)) : generated.invalid;
      const report: OperationReport = {
        operationId: operation.operationId,
        valid: generated.valid.length,
        invalid: invalid.length,
        notSeparable: [...generated.notSeparable, ...generated.invalid.filter((r) => !invalid.includes(r)).map((r) => `${r.description} (the mock takes an empty value for none)`)],
        problems: [],
        known: [],
        unsent: 0,
      };
      const deployment = settings.kind === 'deployment';
      const deadline = deployment ? Date.now() + DEPLOYMENT_OPERATION_BUDGET_MS : Infinity;
      const judgeOne = async (request: GeneratedRequest) => {
        // Once the rate limit has held one request past the budget, the rest are not sent either.
        const exchange =
          report.unsent > 0 ? RATE_LIMITED : await send(settings.target, operation, request, path, settings.clientKey, deadline, deployment ? DEPLOYMENT_REQUEST_TIMEOUT_MS : undefined);
        if (exchange === RATE_LIMITED) {
          report.unsent++;
          return;
        }
        for (const problem of judge(operation, exchange, settings.kind, validators[operation.area])) {
          const line = `${problem}\n      ${exchange.method} ${exchange.url}${request.body !== undefined ? ` ${JSON.stringify(request.body).slice(0, 600)}` : ''}${Object.keys(request.headers).length ? ` headers ${JSON.stringify(request.headers)}` : ''}\n      → ${exchange.status} ${JSON.stringify(exchange.body)?.slice(0, 400)}`;
          const known = strict ? undefined : KNOWN_FINDINGS.find((f) => f.targets.includes(settings.kind) && f.matches(operation, exchange, problem));
          (known ? report.known : report.problems).push(known ? `[${known.id}] ${line}` : line);
        }
      };
      // Valid requests one after another (they may depend on each other's effects), invalid ones a few at a time.
      for (const request of generated.valid) await judgeOne(request);
      await pool(invalid, settings.kind === 'deployment' ? 2 : 6, judgeOne);
      reports.push(report);
      return report;
    },
    summary() {
      const sum = (f: (r: OperationReport) => number) => reports.reduce((n, r) => n + f(r), 0);
      const knownById = () => {
        const counts = new Map<string, number>();
        for (const line of reports.flatMap((r) => r.known)) {
          const id = /^\[([^\]]+)\]/.exec(line)?.[1] ?? '?';
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        return counts.size === 0 ? '' : ` (${[...counts].map(([id, n]) => `${id} ×${n}`).join(', ')})`;
      };
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      return (
        `generated contract tests (${settings.kind}): seed ${settings.seed} (CONTRACT_SEED=${settings.seed} repeats it), ${reports.length} operations, ` +
        `${sum((r) => r.valid + r.invalid)} requests: ${sum((r) => r.valid)} valid, ${sum((r) => r.invalid)} invalid (${sum((r) => r.notSeparable.length)} constraints not separable); ` +
        `${sum((r) => r.problems.length)} problems, ${sum((r) => r.known.length)} known findings${knownById()}` +
        `${sum((r) => r.unsent) > 0 ? `; ${sum((r) => r.unsent)} requests of ${reports.filter((r) => r.unsent > 0).length} operations not sent (the deployment's rate limit)` : ''}; ${seconds} s`
      );
    },
  };
}

/** The failure message of one operation: the seed and every problem with its request and response. */
export function failureMessage(settings: RunSettings, report: OperationReport): string {
  return `${report.operationId} (${settings.kind}, seed ${settings.seed}: CONTRACT_SEED=${settings.seed} repeats it): ${report.problems.length} problems\n  - ${report.problems.join('\n  - ')}`;
}
