// Rendering of every error, per API (STYLE habit 5): the v2 envelope, the v1 shape, the
// control shape. Unknown errors are logged with the request id and answered 500.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { z } from 'zod';
import { ApiError, errors, isApiError } from '../core/errors.js';
import type { Logger } from '../logger.js';
import { LIMITS } from './limits.js';
import type { Api } from './route.js';

export const v1ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
/** The control API and media routes answer errors in the same shape as v1. */
export const controlErrorSchema = v1ErrorSchema;

export function apiOfPath(path: string): Api {
  if (path.startsWith('/v1/') || path === '/v1' || path.startsWith('/api/v1/') || path === '/api/v1') return 'v1';
  if (path.startsWith('/_emulator/') || path === '/_emulator') return 'control';
  if (path.startsWith('/media/')) return 'media';
  return 'v2';
}

export function errorBody(api: Api, err: ApiError): unknown {
  if (api === 'v2') return { success: false, error: { code: err.status, message: err.v2Message } };
  return { error: { code: err.code, message: err.message } };
}

/**
 * body-parser's errors (size, syntax, charset, encoding) and the router's (a path whose
 * percent-encoding is broken) become catalogued ApiErrors: bad input is a 4xx, never a 500.
 */
function limitText(bytes: number | undefined): string {
  return bytes === undefined || bytes === LIMITS.bodyBytes ? LIMITS.bodyText : `${Math.round(bytes / (1024 * 1024))}mb`;
}

export function fromBodyParserError(err: unknown): ApiError | undefined {
  const e = err as { type?: string; status?: unknown; expose?: unknown; name?: unknown; charset?: unknown; encoding?: unknown } | null;
  switch (e?.type) {
    case 'entity.too.large':
      return errors.payloadTooLarge(limitText((err as { limit?: number }).limit));
    case 'entity.parse.failed':
      return errors.malformedJson();
    case 'encoding.unsupported':
      return errors.unsupportedEncoding(String(e.encoding ?? ''));
    case 'charset.unsupported':
      return errors.unsupportedMediaType(`application/json; charset=${String(e.charset ?? '')}`);
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return errors.badRequest('The request body could not be read');
  }
  // The router's decodeURIComponent failure (`/v2/meetings/%zz`).
  if (e?.name === 'URIError' && e.status === 400) return errors.malformedPath();
  // body-parser wraps stream failures without a type, e.g. a gzip body that does not inflate.
  if (e?.status === 400 && e.expose === true) return errors.badRequest('The request body could not be read');
  return undefined;
}

/** A route template as a matcher of raw paths (still percent-encoded): each {param} is one segment. */
function templateMatcher(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  // Express routing is case-insensitive and ignores one trailing slash.
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * A path whose percent-encoding is broken answers 400 only where a route serves that method and
 * path; anywhere else it is the usual 404. Express decodes the parameters of every route whose
 * path matches before it looks at the method, so `GET /v2/meetings/{id}/participants/%zz/token`
 * (only POST is served there) answered 400 — a status the served OpenAPI document does not list
 * for it. Found by the property tests (issue #8).
 */
export function malformedPathGuard(routes: ReadonlyArray<{ method: string; path: string }>): RequestHandler {
  const served = routes.map((r) => ({ method: r.method.toUpperCase(), matches: templateMatcher(r.path) }));
  return (req, _res, next) => {
    try {
      decodeURIComponent(req.path);
      return next();
    } catch {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const known = served.some((r) => r.method === method && r.matches.test(req.path));
      return next(known ? errors.malformedPath() : errors.routeNotFound(req.method, req.path));
    }
  };
}

export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => next(errors.routeNotFound(req.method, req.path));
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req: Request, res, _next) => {
    let apiError = isApiError(err) ? err : fromBodyParserError(err);
    if (!apiError) {
      logger.error({ err, requestId: res.getHeader('x-request-id'), method: req.method, path: req.path }, 'unhandled error');
      apiError = errors.internal();
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(apiError.status);
    for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
    res.json(errorBody(apiOfPath(req.path), apiError));
  };
}
