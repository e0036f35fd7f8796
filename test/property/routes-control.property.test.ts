// Property tests over every route of the control API (/_emulator, /.well-known) of the route
// table (issue #8 point 1). The invariants are in fuzz-world.ts; an accepted change is undone
// by importing the world's state again, so every run meets the same world.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { fuzzParams, fuzzTimeout } from './fuzz-config.js';
import { ROUTES, buildFuzzWorld, checkRequest, requestArb, routeName, type World } from './fuzz-world.js';

const routes = ROUTES.filter((r) => r.api === 'control');

describe('every control route keeps its invariants under hostile input', () => {
  let w: World;
  beforeAll(async () => {
    w = await buildFuzzWorld();
  });

  it.each(routes.map(routeName))('%s', { timeout: fuzzTimeout() }, async (name) => {
    const r = routes.find((x) => routeName(x) === name)!;
    await fc.assert(fc.asyncProperty(requestArb(r, { allMethods: true }), (req) => checkRequest(w, r, req).then(() => undefined)), fuzzParams());
  });
});
