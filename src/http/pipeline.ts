// The steps every request goes through, run in order by one Express middleware. Express's
// router walks its layers with a path match and bookkeeping per layer; these steps need none of
// it (the route table resolves the request once, in the first step), and one layer instead of
// five was a measurable share of a small request's CPU. The contract of each step is Express's:
// (req, res, next), next(err) for a failure, a thrown error or a rejected promise alike.
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
        const result = step(req, res, next) as unknown;
        if (result instanceof Promise) result.catch(fail);
      } catch (e) {
        fail(e);
      }
    };
    next();
  };
}
