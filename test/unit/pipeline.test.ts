// The request pipeline runs its steps in order, and every kind of failure reaches the error handler.
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { pipeline } from '../../src/http/pipeline.js';

const req = {} as Request;
const res = {} as Response;

/** Settles when the pipeline has handed the request on: to the error handler or to the outer handler. */
function run(steps: RequestHandler[], onError: ErrorRequestHandler = (err) => seen.push(`error ${String(err)}`)): Promise<void> {
  return new Promise((resolve) => {
    const outer: NextFunction = (err?: unknown) => {
      seen.push(`outer ${String(err)}`);
      resolve();
    };
    const handled: ErrorRequestHandler = (err, q, s, n) => {
      try {
        onError(err, q, s, n);
      } finally {
        resolve();
      }
    };
    pipeline(steps, handled)(req, res, outer);
  });
}

let seen: string[] = [];
const step =
  (name: string): RequestHandler =>
  (_req, _res, next) => {
    seen.push(name);
    next();
  };

describe('pipeline', () => {
  it.each([
    ['next(err)', ((_q, _s, next) => next(new Error('boom'))) as RequestHandler],
    [
      'a thrown error',
      (() => {
        throw new Error('boom');
      }) as RequestHandler,
    ],
    [
      'a rejected promise',
      (async () => {
        await Promise.resolve();
        throw new Error('boom');
      }) as RequestHandler,
    ],
  ])('runs the steps in order and hands %s to the error handler, skipping the rest', async (_what, failing) => {
    seen = [];
    await run([step('a'), failing, step('b')]);
    expect(seen).toEqual(['a', 'error Error: boom']);
  });

  it('passes on to the outer handler after the last step, and when the error handler throws', async () => {
    seen = [];
    await run([step('a'), step('b')]);
    expect(seen).toEqual(['a', 'b', 'outer undefined']);
    seen = [];
    await run([(_q, _s, next) => next(new Error('first'))], () => {
      throw new Error('second');
    });
    expect(seen).toEqual(['outer Error: second']);
  });
});
