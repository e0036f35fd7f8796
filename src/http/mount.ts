// Mounts a route declaration on Express: body (content type, size, JSON), auth, validation of
// params, query and body, then the handler. Every failure is an ApiError for the error handler.
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { errors } from '../core/errors.js';
import type { Deps } from '../container.js';
import { authenticate } from './auth.js';
import { fromBodyParserError } from './errors.js';
import { LIMITS } from './limits.js';
import { expressPath, type AnyRoute, type Reply } from './route.js';
import { parseWith } from './validation.js';

const jsonParser = express.json({ limit: LIMITS.bodyBytes, type: () => true, strict: true });
const largeJsonParser = express.json({ limit: LIMITS.stateBodyBytes, type: () => true, strict: true });

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function readJson(req: Request, res: Response, large: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    (large ? largeJsonParser : jsonParser)(req, res, (err?: unknown) => (err ? reject(fromBodyParserError(err) ?? err) : resolve()));
  });
}

/** Iterative, so that the check itself cannot overflow the stack on a hostile body. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

async function readBody(req: Request, res: Response, large = false): Promise<unknown> {
  if (!hasBody(req)) return {};
  if (!req.is(['application/json', 'application/*+json'])) throw errors.unsupportedMediaType(req.headers['content-type'] ?? '');
  await readJson(req, res, large);
  const depth = large ? LIMITS.stateBodyDepth : LIMITS.bodyDepth;
  // Emulator decision: a body nested deeper than LIMITS.bodyDepth is a 400. Without the limit a
  // deep `recording_config` was stored and then every answer that echoes it failed (500).
  if (nestedDeeperThan(req.body, depth)) throw errors.bodyTooDeep(depth);
  return req.body;
}

export function send(res: Response, reply: Reply): void {
  res.status(reply.status);
  if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
  if (reply.body === undefined) res.end();
  else res.json(reply.body);
}

export function mountRoute(app: Express, deps: Deps, r: AnyRoute): void {
  app[r.method](expressPath(r.path), async (req: Request, res: Response, next: NextFunction) => {
    try {
      const auth = await authenticate(deps, r.auth, req);
      if (auth.kind !== 'none') res.locals.orgId = auth.org.id;
      const rawBody = r.body ? await readBody(req, res, r.largeBody) : undefined;
      const params = r.params ? parseWith(r.params, req.params) : {};
      const query = r.query ? parseWith(r.query, req.query) : {};
      const body = r.body ? parseWith(r.body, rawBody ?? {}) : undefined;
      const reply = await r.handler({ deps, params, query, body, auth, req, res });
      if (reply) send(res, reply);
    } catch (err) {
      next(err);
    }
  });
}
