// Per-request plumbing, before any route: an x-request-id on every response, the request
// journal entry and one structured log line when the response ends, fault rules and the rate
// limit. Authorization values are never recorded: the journal keeps method, path, redacted
// query and body, status and the organization id.
import type { Request, RequestHandler, Response } from 'express';
import { realNow } from '../core/clock.js';
import { errors } from '../core/errors.js';
import { createHash } from 'node:crypto';
import type { Deps } from '../container.js';
import { journalBody } from '../journal/request-journal.js';
import { resolvedOf, setResolved, type Resolved, type RouteTable } from './route-table.js';

/**
 * The account and app a RealtimeKit request named in its path, as sent (also when it was refused:
 * the journal then shows which account a 403 was for); null for the other APIs.
 */
function realtimeKitTarget(resolved: Resolved): { account_id: string | null; app_id: string | null } {
  // Stryker disable next-line ConditionalExpression: only RealtimeKit paths have account_id and app_id, so other requests get the same empty target.
  if (resolved.api !== 'realtimekit') return NO_TARGET;
  const at = (name: string) => {
    const i = resolved.names.indexOf(name);
    return i < 0 ? null : resolved.raw[i]!;
  };
  return { account_id: at('account_id'), app_id: at('app_id') };
}
const NO_TARGET = { account_id: null, app_id: null };

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Also resolves the request against the route table, once: every step after it reads the result. */
export function requestContext(deps: Deps, table: RouteTable): RequestHandler {
  return (req: Request, res: Response, next) => {
    const requestId = deps.journal.nextRequestId();
    res.setHeader('x-request-id', requestId);
    const path = req.path;
    const resolved = table.resolve(req.method, path, req.headers.host);
    setResolved(res, resolved);
    const startedReal = realNow();
    const at = deps.clock.now();
    const scope = { requestId, deliveries: [] as string[] };
    // `on`, not `once`: a response closes once, and once's wrapper costs a removal per request.
    res.on('close', () => {
      const status = res.writableFinished ? res.statusCode : 0;
      const durationMs = realNow() - startedReal;
      const orgId = (res.locals.orgId as string | undefined) ?? null;
      // The journal is of the emulated APIs (v1, v2, media): what a client under test sent.
      const journaled = resolved.api !== 'control' && resolved.route?.journal !== false;
      if (deps.journal.enabled && journaled) {
        deps.journal.add({
          id: requestId,
          at,
          method: req.method,
          path,
          // Express parses the query string on every access of req.query: only when there is one.
          // Stryker disable next-line StringLiteral: a shortcut: Express parses a missing query string as {}, the same value.
          query: req.url.includes('?') ? req.query : {},
          status,
          duration_ms: durationMs,
          org_id: orgId,
          ...realtimeKitTarget(resolved),
          body: journalBody(req.body, Number(req.headers['content-length'] ?? 0)),
          deliveries: scope.deliveries,
        });
      }
      // The dashboard hears of every request to the emulated APIs and of every control request
      // that changes something; the control API's reads (its own among them) are not news.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: LiveFeed.request() returns at once when nobody listens.
      if (deps.feed.listenerCount > 0 && (journaled || (resolved.api === 'control' && !READS.has(req.method)))) {
        deps.feed.request({ id: requestId, api: resolved.api, method: req.method, path, status, org_id: orgId, deliveries: scope.deliveries });
      }
      // The line's fields are built only when it is written (the bench and most test runs log at warn).
      if (deps.logger.isLevelEnabled('info')) deps.logger.info({ reqId: requestId, method: req.method, path, status, ms: durationMs, orgId }, 'request');
    });
    res.locals.requestScope = scope;
    next();
  };
}

/** Fault rules apply to the emulated APIs, never to the control API. */
export function faultInjection(deps: Deps): RequestHandler {
  return (req, res, next) => {
    if (resolvedOf(res).api === 'control') return next();
    const rule = deps.faults.take(req.method, req.path);
    if (!rule) return next();
    const apply = () => {
      if (rule.drop) {
        req.socket.destroy();
        return;
      }
      if (rule.status !== null) return next(errors.injected(rule.status, rule.id));
      next();
    };
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a zero delay only waits one turn of the timers before the same rule applies.
    if (rule.delay_ms > 0) return void deps.sleep(rule.delay_ms).then(apply, next);
    apply();
  };
}

function clientKey(req: Request): string {
  const auth = req.headers.authorization;
  // Hashed: the limiter's map never holds a credential.
  // Stryker disable next-line StringLiteral: the address is missing only for a gone socket, and any fixed text names the one shared key as well.
  return auth ? createHash('sha256').update(auth).digest('base64url') : `ip:${req.socket.remoteAddress ?? ''}`;
}

export function rateLimit(deps: Deps): RequestHandler {
  return (req, res, next) => {
    // Stryker disable next-line ConditionalExpression: take() of a disabled limiter never holds a request, so the check is only a shortcut.
    if (!deps.rateLimiter.enabled) return next();
    const api = resolvedOf(res).api;
    if (api !== 'v1' && api !== 'v2' && api !== 'realtimekit') return next();
    const retryAfter = deps.rateLimiter.take(clientKey(req), deps.clock.now());
    return retryAfter > 0 ? next(errors.tooManyRequests(retryAfter)) : next();
  };
}
