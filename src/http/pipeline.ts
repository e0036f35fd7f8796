// The steps every request goes through, in order, as one request handler (app.ts hands it every
// request). Express's router would walk them as layers, with a path match and bookkeeping per
// layer; they need none of it, since the route table resolves the request once, in the first
// step. The contract of each step is Express's: (req, res, next), and next(err), a thrown error
// or a rejected promise all go to the error handler.
import type { ErrorRequestHandler, NextFunction, RequestHandler } from 'express';

export function pipeline(steps: readonly RequestHandler[], onError: ErrorRequestHandler): RequestHandler {
  return (req, res, outer) => {
    const fail = (err: unknown): void => {
      try {
        onError(err, req, res, outer);
      } catch (e) {
        // As Express does with an error handler that throws: its final handler answers.
        outer(e);
      }
    };
    let i = 0;
    const next: NextFunction = (err?: unknown) => {
      if (err) return fail(err);
      const step = steps[i++];
      if (!step) return outer();
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) result.catch(fail);
      } catch (e) {
        fail(e);
      }
    };
    next();
  };
}
