import express, { type RequestHandler } from 'express';
import { ApiError, ERR_BODY_TOO_LARGE, ERR_TOO_DEEP, ERR_UNSAFE_INTEGER } from '../errors.js';
import { discardBody } from './refusal.js';

/** Deeper bodies are refused before validation: no API field nests this far, and deep input is an attack on recursive code. */
export const MAX_JSON_DEPTH = 32;

/**
 * Finds the first problem a JSON value has that JSON.parse does not report: nesting deeper than
 * MAX_JSON_DEPTH, or an integer outside the safe range (JSON.parse rounds those silently,
 * which for money means a different amount). Iterative, so hostile input cannot overflow the stack.
 */
export function jsonProblem(value: unknown): ApiError | undefined {
  const stack: Array<{ node: unknown; path: string; depth: number }> = [{ node: value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node) || (Number.isInteger(node) && !Number.isSafeInteger(node))) {
        const name = path || 'body';
        const message = `${node} is not a safe integer (at most 9007199254740991 in size)`;
        // The value is the number as JSON.parse read it (already rounded): enough to find the field.
        return new ApiError(ERR_UNSAFE_INTEGER, { message: `Invalid field '${name}': ${message}`, invalidFields: [{ name, value: String(node), message }] });
      }
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      return new ApiError(ERR_TOO_DEEP, { message: `Unexpected input: the body is nested deeper than ${MAX_JSON_DEPTH} levels` });
    }
    if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push({ node: child, path: path ? `${path}.${i}` : String(i), depth: depth + 1 }));
    } else {
      for (const [key, child] of Object.entries(node)) stack.push({ node: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return undefined;
}

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Parses JSON bodies up to `limit` bytes and refuses the input JSON.parse accepts but we must not.
 * A body declared longer than `limit` is refused (413) as a refusal before the body is
 * (refusal.ts): read and dropped up to DISCARD_BYTES first, so that the client reads the 413, and
 * not waited for beyond that (the connection closes after the answer). The JSON parser would read
 * all of it, however long, before answering.
 */
export function jsonBody(limit: number): RequestHandler[] {
  const declaredTooLarge: RequestHandler = async (req, res, next) => {
    if (!(Number(req.get('content-length') ?? 0) > limit) || !req.is(JSON_TYPES)) return next();
    await discardBody(req, res);
    throw new ApiError(ERR_BODY_TOO_LARGE, { message: `Request larger than allowed maximum of ${limit} bytes` });
  };
  const parse = express.json({ limit, strict: true, type: JSON_TYPES });
  const guard: RequestHandler = (req, _res, next) => {
    const problem = req.body === undefined ? undefined : jsonProblem(req.body);
    next(problem);
  };
  return [declaredTooLarge, parse, guard];
}
