// makeTestApp(): a fresh emulator per test — manual clock, seeded ids, silent logger, its requests
// sent to a server of its own on a free port, closed after the test file.
// `api` wraps supertest so that every response is validated against the served OpenAPI
// document before the test's own assertions run.
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import { messageClasses } from '../../src/http/message-classes.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { buildDeps, type Deps } from '../../src/container.js';
import { silentLogger } from '../../src/logger.js';
import { loadFixturesFile, type Fixtures } from '../../src/store/fixtures.js';
import { assertMatchesOpenApi } from './openapi-validator.js';

export const ORG_ID = '00000000-0000-4000-8000-000000000001';
export const API_KEY = 'emulator-api-key';
export const START = Date.parse('2026-01-01T00:00:00.000Z');
export const START_ISO = '2026-01-01T00:00:00.000Z';

export const basicAuth = (orgId = ORG_ID, key = API_KEY) => `Basic ${Buffer.from(`${orgId}:${key}`).toString('base64')}`;
export const BASIC = basicAuth();
export const bearer = (token: string) => `Bearer ${token}`;

let defaultFixtures: Fixtures | undefined;
export function fixtures(): Fixtures {
  defaultFixtures ??= loadFixturesFile(defaultConfig().fixtures);
  return structuredClone(defaultFixtures);
}

export interface TestApp {
  app: Express;
  deps: Deps;
  /** supertest with OpenAPI validation of every response. */
  api: Api;
  /** Moves the manual clock forward, running due jobs. */
  advance(ms: number): void;
  now(): number;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Api = Record<Method, (path: string) => request.Test>;

export function makeTestApp(overrides: Partial<Config> = {}, opts: { fixtures?: Fixtures } = {}): TestApp {
  const config = defaultConfig({
    clock: 'manual',
    startTime: START,
    seed: 'test-seed',
    publicUrl: 'http://emulator.test',
    logLevel: 'silent',
    // No recorder: an app built here is never closed, and these tests read what the API says of recordings, not what they hold.
    recordings: 'sample',
    // The simulator's livestreams: LIVE on its timer, the sample segments (an app built here runs no media plane).
    livestreams: 'sample',
    ...overrides,
  });
  const deps = buildDeps(config, { fixtures: opts.fixtures ?? fixtures(), logger: silentLogger() });
  const app = createApp(deps);
  return { app, deps, api: validatingApi(app), advance: (ms) => void deps.scheduler.advanceTo(deps.clock.now() + ms), now: () => deps.clock.now() };
}

/**
 * Each app's requests go to one server of its own, listening from its first request until the end
 * of the test file (test/setup/in-process.ts closes it): supertest given the app itself starts a
 * server for every request and closes it after, a quarter of a request's time here.
 */
const servers = new Map<Express, Server>();

function serverFor(app: Express): Server {
  let server = servers.get(app);
  if (!server) {
    // Made as the emulator's own server makes them, so that the tests run the app as it runs (src/http/message-classes.ts).
    const classes = messageClasses();
    classes.adopt(app);
    // Bound before listen() returns (no host to look up): supertest reads its port at once.
    server = createServer(classes.options, app).listen(0);
    server.unref();
    servers.set(app, server);
  }
  return server;
}

/** Closes the servers the apps' requests went to (after each test file). */
export async function closeTestServers(): Promise<void> {
  const open = [...servers.values()];
  servers.clear();
  await Promise.all(
    open.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}

export function validatingApi(app: Express): Api {
  const agent = request(serverFor(app));
  // The check runs when the test awaits the request (after its own .expect()s), so a mismatch
  // fails that test rather than surfacing as an unhandled rejection.
  const wrap = (method: Method) => (path: string) => {
    const test = agent[method](path);
    const then = test.then.bind(test);
    test.then = ((onFulfilled, onRejected) =>
      then(async (res) => {
        await assertMatchesOpenApi(app, method, path, res);
        return res;
      }).then(onFulfilled, onRejected)) as typeof test.then;
    return test;
  };
  return { get: wrap('get'), post: wrap('post'), put: wrap('put'), patch: wrap('patch'), delete: wrap('delete') };
}
