// Rendering of every error, per API, in one place: the v2 envelope, the v1 shape, the
// control shape. Unknown errors are logged with the request id and answered 500.
import type { ErrorRequestHandler, Request } from 'express';
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { ApiError, errors, isApiError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { LIMITS } from './limits.js';
import type { Api } from './route.js';
import { resolvedOf } from './route-table.js';

export const v1ErrorSchema = lazy(() => z.object({ error: z.object({ code: z.string(), message: z.string() }) }));
/** The control API and media routes answer errors in the same shape as v1. */
export const controlErrorSchema = v1ErrorSchema;

/**
 * RealtimeKit answers errors in the Cloudflare API v4 envelope, whose `errors` list the official
 * client reads. Emulator decision: each error's code is the HTTP status (as v2's `error.code`).
 */
export const realtimeKitErrorSchema = lazy(() =>
  z.object({
    success: z.literal(false),
    errors: z.array(z.object({ code: z.number().int(), message: z.string() })),
    messages: z.array(z.unknown()),
    result: z.null(),
  }),
);

export function errorBody(api: Api, err: ApiError): unknown {
  // The web SDKs read only the status of an error of their calls; production answers them in the v2 envelope.
  if (api === 'v2' || api === 'sdk') return { success: false, error: { code: err.status, message: err.v2Message } };
  if (api === 'realtimekit') return { success: false, errors: [{ code: err.status, message: err.v2Message }], messages: [], result: null };
  return { error: { code: err.code, message: err.message } };
}

function limitText(bytes: number | undefined): string {
  // Stryker disable next-line ConditionalExpression: the limit is 1 MiB, which LIMITS.bodyText also writes as 1mb.
  return bytes === undefined || bytes === LIMITS.bodyBytes ? LIMITS.bodyText : `${Math.round(bytes / (1024 * 1024))}mb`;
}

/**
 * Where the body stops being JSON, as position, line and column, and what is wrong there. Found
 * by json-syntax.ts rather than read from the parser's message, which may quote the body.
 */
export function malformedJson(body: unknown): ApiError {
  const found = typeof body === 'string' ? findJsonSyntaxError(body) : undefined;
  return errors.malformedJson(found && `at position ${found.offset} (line ${found.line}, column ${found.column}): ${found.reason}`);
}

/** body-parser's errors (size, syntax, charset, encoding) become catalogued ApiErrors: bad input is a 4xx, never a 500. */
export function fromBodyParserError(err: unknown): ApiError | undefined {
  const e = err as { type?: string; status?: unknown; expose?: unknown; name?: unknown; charset?: unknown; encoding?: unknown } | null;
  switch (e?.type) {
    case 'entity.too.large':
      return errors.payloadTooLarge(limitText((err as { limit?: number }).limit));
    case 'entity.parse.failed':
      return malformedJson((err as { body?: unknown }).body);
    case 'encoding.unsupported':
      // Stryker disable next-line StringLiteral: body-parser always gives these errors their encoding or charset, so the fallback is never used.
      return errors.unsupportedEncoding(String(e.encoding ?? ''));
    case 'charset.unsupported':
      // Stryker disable next-line StringLiteral: body-parser always gives these errors their encoding or charset, so the fallback is never used.
      return errors.unsupportedMediaType(`application/json; charset=${String(e.charset ?? '')}`);
  }
  // Every other 400 of body-parser's is a body that did not arrive whole or did not decode: cut
  // off by the client ('request.aborted'), shorter or longer than its Content-Length
  // ('request.size.invalid'), or a gzip body that does not inflate (no type at all). Its 500s
  // (a stream already read, or with an encoding set) would be the emulator's own fault: logged.
  // Stryker disable next-line ConditionalExpression: every 400 error that reaches here comes from http-errors, which exposes every status below 500.
  if (e?.status === 400 && e.expose === true) return errors.bodyUnreadable();
  return undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req: Request, res, _next) => {
    let apiError = isApiError(err) ? err : fromBodyParserError(err);
    if (!apiError) {
      logger.error({ err, requestId: res.getHeader('x-request-id'), method: req.method, path: req.path }, 'unhandled error');
      apiError = errors.internal();
    }
    // Stryker disable next-line BlockStatement,ConditionalExpression: no error reaches the handler once an answer began: every route writes its answer in one call.
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(apiError.status);
    for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
    res.json(errorBody(resolvedOf(res).api, apiError));
  };
}
