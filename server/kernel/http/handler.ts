import type { Request, RequestHandler } from 'express';
import type { operations as CheckoutOperations } from '../../../generated/checkout.js';
import type { operations as ClientsideOperations } from '../../../generated/clientside.js';
import type { operations as ConsoleOperations } from '../../../generated/console.js';
import type { operations as ManagementOperations } from '../../../generated/management.js';
import type { Deps } from '../deps.js';
import type { Tx } from '../../store/tx.js';
import type { Commands } from '../idempotency.js';
import { type Caller, callerOf, requestIdOf } from './request-context.js';
import { sendJson } from './send-json.js';

/** Every operation of the four specs, by operationId (no two specs share one). */
type Operations = CheckoutOperations & ManagementOperations & ClientsideOperations & ConsoleOperations;

/** Operations this service sends (the spec's `webhooks`), rather than serves. */
type OutboundOperationId = 'standardNotification';

export type OperationId = Exclude<keyof Operations, OutboundOperationId>;

type Op<Id extends OperationId> = Operations[Id];

/** The JSON request body of an operation; `undefined` where it takes none or it is optional and absent. */
export type BodyOf<Id extends OperationId> =
  Op<Id> extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : Op<Id> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B | undefined
      : undefined;

/** The path parameters of an operation. */
export type PathOf<Id extends OperationId> =
  Op<Id> extends { parameters: { path: infer P } } ? (P extends object ? P : Record<string, never>) : Record<string, never>;

/** The query parameters of an operation (all optional unless the spec requires them). */
export type QueryOf<Id extends OperationId> =
  Op<Id> extends { parameters: { query?: infer Q } } ? (NonNullable<Q> extends object ? NonNullable<Q> : Record<string, never>) : Record<string, never>;

type SuccessCode = 200 | 201 | 202 | 204;

/** The body of the operation's success response (`void` for 204). */
export type SuccessOf<Id extends OperationId> = {
  [S in keyof Op<Id>['responses'] & SuccessCode]: Op<Id>['responses'][S] extends { content: { 'application/json': infer R } } ? R : void;
}[keyof Op<Id>['responses'] & SuccessCode];

/** What a handler receives: the validated request, typed from the spec, and the caller. */
export interface Call<Id extends OperationId> {
  body: BodyOf<Id>;
  path: PathOf<Id>;
  query: QueryOf<Id>;
  caller: Caller;
  /** The request's id (X-Request-Id): passed on to what the handler causes (outbound calls' log lines). */
  requestId: string;
  /** For what the spec does not type: uploaded files, the base address for links. */
  req: Request;
}

/** What a command handler receives besides the call: the transaction its effect and its idempotency record share. */
export interface CommandCall<Id extends OperationId> extends Call<Id> {
  tx: Tx;
}

/** What every handler is built with. */
export interface HandlerDeps extends Deps {
  commands: Commands;
  /** The success status of each operation, read from the spec. */
  successStatus(operationId: OperationId): number;
}

/** One operation's implementation, built into an Express handler when the app is made. */
export interface Operation<Id extends OperationId> {
  operationId: Id;
  build(deps: HandlerDeps): RequestHandler;
}

function callOf<Id extends OperationId>(req: Request, caller: Caller): Call<Id> {
  // The validator has checked body, path and query against the spec before this runs: this is
  // the one place where the request is read as the spec's types.
  const path = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams ?? {};
  const requestId = req.res ? requestIdOf(req.res) : 'unknown';
  return { body: req.body as BodyOf<Id>, path: path as PathOf<Id>, query: req.query as QueryOf<Id>, caller, requestId, req };
}

/**
 * An operation that reads, or changes state without needing a replayable response: the
 * handler returns the spec's success body (checked by the compiler against the operation's
 * response schema) or throws the area's error. Written `operation('getPaymentLink')(async (call,
 * deps) => …)`: the operationId fixes the types before the handler is read, so the literals it
 * returns are checked against the spec's enums.
 */
export function operation<Id extends OperationId>(operationId: Id) {
  return (handle: (call: Call<Id>, deps: HandlerDeps) => Promise<SuccessOf<Id>> | SuccessOf<Id>): Operation<Id> => ({
    operationId,
    build: (deps) => {
      const status = deps.successStatus(operationId);
      return async (req, res) => sendJson(res, status, await handle(callOf<Id>(req, callerOf(res)), deps));
    },
  });
}

/**
 * A state-changing checkout operation: it runs in one transaction and, with an Idempotency-Key,
 * its response is stored in that transaction and replayed to repeats (server/http/idempotency.ts).
 */
export function command<Id extends OperationId>(operationId: Id) {
  return (handle: (call: CommandCall<Id>, deps: HandlerDeps) => Promise<SuccessOf<Id>> | SuccessOf<Id>): Operation<Id> => ({
    operationId,
    build: (deps) =>
      deps.commands.handler(deps.successStatus(operationId), (tx, caller, req) => Promise.resolve(handle({ ...callOf<Id>(req, caller), tx }, deps))),
  });
}

/**
 * A command whose effect leaves this system (an outbound call): `prepare` runs in a
 * transaction, `effect` outside any; with an Idempotency-Key the response is recorded after.
 */
export function outboundCommand<Id extends OperationId>(operationId: Id) {
  return <P>(
    prepare: (call: CommandCall<Id>, deps: HandlerDeps) => Promise<P>,
    effect: (prepared: P, deps: HandlerDeps) => Promise<SuccessOf<Id>>,
  ): Operation<Id> => ({
    operationId,
    build: (deps) =>
      deps.commands.effectHandler(
        deps.successStatus(operationId),
        (tx, caller, req) => prepare({ ...callOf<Id>(req, caller), tx }, deps),
        (prepared) => effect(prepared, deps),
      ),
  });
}
