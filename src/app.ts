// createApp(deps) → an Express app. No listen, no env: tests use it through supertest.
import express, { type Express } from 'express';
import type { Deps } from './container.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { mountRoute } from './http/mount.js';
import { allRoutes } from './http/routes.js';
import { faultInjection, rateLimit, requestContext } from './http/request-context.js';

export function createApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(deps));
  app.use(faultInjection(deps));
  app.use(rateLimit(deps));
  for (const r of allRoutes(deps.config.publicUrl)) mountRoute(app, deps, r);
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
