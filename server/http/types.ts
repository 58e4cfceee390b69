import type { RequestHandler } from 'express';
import type { Caller } from './request-context.js';
import type { Commands } from './idempotency.js';
import type { Deps } from '../deps.js';

/** The JSON request body of an operation of the generated `operations` type. */
export type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : Op extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

/** What every handler factory receives. */
export interface HandlerDeps extends Deps {
  commands: Commands;
}

export type HandlerFactory = (deps: HandlerDeps) => RequestHandler;
export type { Caller };
