import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middleware in order, as Express would run them mounted one after the other, but as one
 * middleware: an API request passes some twenty steps (authentication, authorization, body,
 * the validator's own steps, dispatch), and Express's router spends more on matching each
 * mounted layer against the path than most of the steps spend on their work. A step that calls
 * `next(error)`, throws or returns a rejected promise ends the chain with that error (Express 5's
 * rule for async middleware); `next('route')` and `next('router')` are not used by any step.
 */
export function chain(...steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) return done(error);
      const step = steps[index++];
      if (!step) return done();
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) result.catch(done);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
