// Serves a route declaration: body (content type, size, JSON), auth, validation of params, query
// and body, then the handler. Every failure is an ApiError for the error handler.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { errors } from '../core/errors.js';
import type { RequestScopeData } from '../core/request-scope.js';
import type { Deps } from '../container.js';
import { authenticate, hasOrg } from './auth.js';
import { fromBodyParserError } from './errors.js';
import { readPlainJson } from './json-body.js';
import { LIMITS } from './limits.js';
import { JsonText, schemaOf, type Reply } from './route.js';
import { decodeParams, resolvedOf, type RouteTable } from './route-table.js';
import { parseWith } from './validation.js';

const jsonParser = express.json({ limit: LIMITS.bodyBytes, type: () => true, strict: true });
const largeJsonParser = express.json({ limit: LIMITS.stateBodyBytes, type: () => true, strict: true });

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function readJson(req: Request, res: Response, large: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    // Stryker disable next-line LogicalOperator: the error handler maps body-parser errors itself, so the raw error gives the same answer.
    (large ? largeJsonParser : jsonParser)(req, res, (err?: unknown) => (err ? reject(fromBodyParserError(err) ?? err) : resolve()));
  });
}

/** Iterative, so that the check itself cannot overflow the stack on a hostile body. */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Whether any object of a parsed body has an own `__proto__` key: the walk without paths, for the usual body that has none. */
function hasProtoKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(v, '__proto__')) return true;
    for (const child of Object.values(v)) stack.push(child);
  }
  return false;
}

/**
 * Where the first own `__proto__` key of a parsed body sits (`recording_config.__proto__`,
 * `a[0].__proto__`), in document order; undefined when there is none. Iterative, like the depth check.
 */
function protoKeyPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  // Stryker disable next-line EqualityOperator: protoKeyPath is only called once a __proto__ key is known, so the walk returns before the stack runs out.
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(v, '__proto__')) return path ? `${path}.__proto__` : '__proto__';
    const children = Array.isArray(v)
      ? v.map((c, i) => [c, `${path}[${i}]`] as [unknown, string])
      : Object.keys(v).map((k) => [(v as Record<string, unknown>)[k], path ? `${path}.${k}` : k] as [unknown, string]);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

async function readBody(req: Request, res: Response, large = false): Promise<unknown> {
  if (!hasBody(req)) return {};
  const direct = readPlainJson(req, large ? LIMITS.stateBodyBytes : LIMITS.bodyBytes);
  if (direct) await direct;
  else {
    if (!req.is(['application/json', 'application/*+json'])) throw errors.unsupportedMediaType(req.headers['content-type'] ?? '');
    await readJson(req, res, large);
  }
  const depth = large ? LIMITS.stateBodyDepth : LIMITS.bodyDepth;
  // Emulator decision: a body nested deeper than LIMITS.bodyDepth is a 400. Without the limit a
  // deep `recording_config` was stored and then every answer that echoes it failed (500).
  if (nestedDeeperThan(req.body, depth)) throw errors.bodyTooDeep(depth);
  // Emulator decision: `__proto__` as a key, at any depth of any body, is a 400 naming it.
  // JSON.parse keeps it as an ordinary key, but zod drops it without a word (a free-form
  // `recording_config` lost it silently) and careless code writes through it to a prototype,
  // so it could never be stored and echoed back as sent. Found by the property tests.
  if (hasProtoKey(req.body)) throw errors.validation(`"${protoKeyPath(req.body)!}" is not allowed (reserved name)`);
  return req.body;
}

/**
 * Writes the reply directly: the same headers as Express's res.json (no ETag, which the app
 * turns off), without its content negotiation and freshness checks on every response.
 */
export function send(res: Response, reply: Reply): void {
  res.statusCode = reply.status;
  if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
  if (reply.body === undefined) {
    res.end();
    return;
  }
  const text = reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * Runs the route the request context resolved (see route-table.ts); when none serves the method
 * and path, answers 405 if routes serve the path with other methods, else 404 with the nearest
 * route as a hint. One dispatcher in place of Express's router: the route table's own matchers
 * pick the route, so which route serves a path is decided once.
 */
export function dispatcher(deps: Deps, table: RouteTable): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const resolved = resolvedOf(res);
    const r = resolved.route;
    if (!r) {
      const path = req.path;
      const allowed = table.allowedOn(path, req.headers.host);
      if (allowed.length > 0) return next(errors.methodNotAllowed(req.method, path, allowed));
      return next(errors.routeNotFound(req.method, path, table.nearest(req.method, path)));
    }
    try {
      // Decoded before anything else, as Express decodes a matched route's parameters.
      req.params = decodeParams(resolved);
      const authed = authenticate(deps, r.auth, req);
      const auth = authed instanceof Promise ? await authed : authed;
      if (hasOrg(auth)) res.locals.orgId = auth.org.id;
      const rawBody = r.body ? await readBody(req, res, r.largeBody) : undefined;
      const params = r.params ? parseWith(schemaOf(r.params), req.params) : {};
      // Express parses the query string on every access of req.query: not at all when there is none.
      // Stryker disable next-line StringLiteral: a shortcut: Express parses a missing query string as {}, the same value.
      const query = r.query ? parseWith(schemaOf(r.query), req.url.includes('?') ? req.query : {}) : {};
      const body = r.body ? parseWith(schemaOf(r.body), rawBody ?? {}) : undefined;
      const scope = res.locals.requestScope as RequestScopeData | undefined;
      const run = () => r.handler({ deps, params, query, body, auth, req, res });
      const replied = scope ? deps.requestScope.run(scope, run) : run();
      const reply = replied instanceof Promise ? await replied : replied;
      if (reply) send(res, reply);
    } catch (err) {
      next(err);
    }
  };
}
