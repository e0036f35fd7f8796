// CORS on every answer: a page on another origin (a dashboard, a test runner in a browser, hls.js)
// can read the emulator's answers, its errors included — a 404, 405, 413 or 416 the browser hides
// behind an opaque "CORS error" tells the developer nothing. The headers are set right after the
// request context (which cannot fail), before any step that can, so whatever answers afterwards (a route, the error handler, Express's final handler)
// carries them; the answer to a malformed request Node refuses itself sets them in client-error.ts.
import type { RequestHandler, Response } from 'express';

/** Every header a browser should get on every answer, in one table (client-error.ts writes the same). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, retry-after, allow, content-length, content-range, accept-ranges, content-disposition',
};

/** What a preflight allows: every method and the headers clients of the APIs send. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  // All methods, whatever the path: the actual request then gets its 404 or 405 with a message
  // the page can read, instead of failing the preflight without one.
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  // After the emulator's own, the headers the web SDKs send (web-core, RealtimeKit, their flags
  // client): without them the browser refuses every call of init() on the SDK hosts.
  'access-control-allow-headers':
    'Authorization, Content-Type, Content-Encoding, Range, X-Request-Id, dyte-tracing-id, tracing-id, traceparent, x-dyte-web-core-version, x-realtimekit-version, x-environment-key',
  'access-control-max-age': '600',
};

const CORS_ENTRIES = Object.entries(CORS_HEADERS);
const PREFLIGHT_ENTRIES = Object.entries(PREFLIGHT_HEADERS);

export function setCorsHeaders(res: Response): void {
  for (const [k, v] of CORS_ENTRIES) res.setHeader(k, v);
}

/**
 * CORS headers on the response, whatever happens next. An OPTIONS request (a
 * preflight, on any path) is answered here, 204, before fault rules and the rate limit: they
 * concern the requests a client makes, not its browser's permission checks.
 */
export function cors(): RequestHandler {
  return (req, res, next) => {
    setCorsHeaders(res);
    if (req.method !== 'OPTIONS') return next();
    for (const [k, v] of PREFLIGHT_ENTRIES) res.setHeader(k, v);
    res.statusCode = 204;
    res.end();
  };
}
