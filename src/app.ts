// createApp(deps) → an Express app. No listen, no env: tests use it through supertest.
import express, { type Express } from 'express';
import type { Deps } from './container.js';
import { errorHandler } from './http/errors.js';
import { dispatcher } from './http/mount.js';
import { pipeline } from './http/pipeline.js';
import { RouteTable } from './http/route-table.js';
import { allRoutes } from './http/routes.js';
import { faultInjection, rateLimit, requestContext } from './http/request-context.js';

export function createApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const table = new RouteTable(allRoutes(deps.config.publicUrl));
  app.use(pipeline([requestContext(deps, table), faultInjection(deps), rateLimit(deps), dispatcher(deps)], errorHandler(deps.logger)));
  return app;
}
