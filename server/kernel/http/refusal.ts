import type { Request, RequestHandler, Response } from 'express';
import { waitsForContinue } from './expect-continue.js';

/**
 * The longest body of a refused request that is read (and discarded, never kept) before the
 * refusal is sent: 4 MiB. Four times the default JSON limit (BODY_LIMIT_BYTES, 1 MiB), so that
 * whatever a client plausibly sends by mistake (a JSON body to an operation that takes none, one a
 * little over the limit, a small upload to an operation it may not call) is answered readably;
 * reading it costs a refused caller's bandwidth, some milliseconds on a network, and no memory.
 * Anything larger is an upload or an attempt to make the server read: not waited for.
 */
export const DISCARD_BYTES = 4 * 1024 * 1024;

/**
 * For an answer sent before the request's body was read (a refusal): reads what is left of the
 * body and drops it, then lets the answer go out on a connection that stays open. A client still
 * sending its body when the server answers and closes finds the connection reset while it writes,
 * and reports that instead of the answer (Node's fetch: "fetch failed"); one that has sent it all
 * reads the answer, whatever its order of reading and writing. Not waited for:
 * - a body declared longer than DISCARD_BYTES, or a chunked one that grows past it: the answer
 *   goes out at once (or once that much was read) with `Connection: close`, so a refused caller
 *   cannot make the server take in more;
 * - the body of a client that waits for `100 Continue` (expect-continue.ts): it gets none, sends
 *   no body, and Node closes the connection after the answer.
 * A client that stops sending is bounded by REQUEST_TIMEOUT_MS, as any request is.
 */
export function discardBody(req: Request, res: Response): Promise<void> {
  if (req.complete || req.readableEnded || waitsForContinue(req)) return Promise.resolve();
  const chunked = req.get('transfer-encoding') !== undefined;
  const declared = Number(req.get('content-length') ?? 0);
  if (!chunked && !(declared > 0)) return Promise.resolve();
  if (!chunked && declared > DISCARD_BYTES) {
    res.set('Connection', 'close');
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', done);
      req.off('error', done);
      req.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read <= DISCARD_BYTES) return;
      res.set('Connection', 'close');
      req.pause();
      done();
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('error', done);
    req.once('close', done);
    req.resume();
  });
}

/** A step that may refuse a request before its body is read (authentication, the CORS check, authorization): its refusal follows the rule above. */
export function refusingBeforeBody(step: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    try {
      await step(req, res, next);
    } catch (error) {
      await discardBody(req, res);
      throw error;
    }
  };
}
