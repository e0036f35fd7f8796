// createApp(deps) → an Express app. No listen, no env: tests use it through supertest.
import express, { type Express } from 'express';
import type { Deps } from './container.js';
import { errorHandler, malformedPathGuard, notFoundHandler } from './http/errors.js';
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
  const routes = allRoutes(deps.config.publicUrl);
  app.use(malformedPathGuard(routes));
  for (const r of routes) mountRoute(app, deps, r);
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
