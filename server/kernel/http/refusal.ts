import type { Request, RequestHandler, Response } from 'express';

/** The longest unread body a refused request may carry for its connection to be kept. */
const DISCARD_BYTES = 1024 * 1024;

/**
 * For an answer sent before the request's body is read (a refusal). A body of up to
 * DISCARD_BYTES is discarded by Node as it arrives, and the connection is kept. A client that
 * sends its body after the headers (fetch with a FormData body, for one) would otherwise find the
 * socket closed while it writes, and report the reset instead of the answer: 40 to 78 of 300
 * refused uploads did, on Node 20, 22 and 24 alike. A longer or chunked body is not waited for. The
 * connection closes after the answer, so that a caller who is refused cannot make the server
 * take in a large body. A client that waits for `100 Continue` gets none (expect-continue.ts) and
 * sends no body at all.
 */
function answeringBeforeBody(req: Request, res: Response): void {
  const chunked = req.get('transfer-encoding') !== undefined;
  if (chunked || Number(req.get('content-length') ?? 0) > DISCARD_BYTES) res.set('Connection', 'close');
}

/** A step that may refuse a request before its body is read (authentication, the CORS check, authorization): its refusal follows the rule above. */
export function refusingBeforeBody(step: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    try {
      await step(req, res, next);
    } catch (error) {
      answeringBeforeBody(req, res);
      throw error;
    }
  };
}
