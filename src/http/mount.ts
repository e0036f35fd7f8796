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

const jsonParser = express.json({ limit: LIMITS.bodyText, type: () => true, strict: true });

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function readJson(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    jsonParser(req, res, (err?: unknown) => (err ? reject(fromBodyParserError(err) ?? err) : resolve()));
  });
}

async function readBody(req: Request, res: Response): Promise<unknown> {
  if (!hasBody(req)) return {};
  if (!req.is(['application/json', 'application/*+json'])) throw errors.unsupportedMediaType(req.headers['content-type'] ?? '');
  await readJson(req, res);
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
      const rawBody = r.body ? await readBody(req, res) : undefined;
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
