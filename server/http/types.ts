import type { RequestHandler } from 'express';
import type { Caller } from './request-context.js';

/** The JSON request body of an operation of the generated `operations` type. */
export type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : Op extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

import type { HandlerDeps } from './handler.js';
export type { HandlerDeps };

export type HandlerFactory = (deps: HandlerDeps) => RequestHandler;
export type { Caller };
