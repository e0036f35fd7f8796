// Property tests over every v2 route of the route table (issue #8 point 1): random and
// adversarial bodies, queries, path ids, headers, content types, encodings and sizes. The
// invariants are in fuzz-world.ts.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { fuzzParams, fuzzTimeout } from './fuzz-config.js';
import { ROUTES, buildFuzzWorld, checkRequest, requestArb, routeName, type World } from './fuzz-world.js';

const routes = ROUTES.filter((r) => r.api === 'v2');

describe('every v2 route keeps its invariants under hostile input', () => {
  let w: World;
  beforeAll(async () => {
    w = await buildFuzzWorld();
  });

  it.each(routes.map(routeName))('%s', { timeout: fuzzTimeout() }, async (name) => {
    const r = routes.find((x) => routeName(x) === name)!;
    await fc.assert(fc.asyncProperty(requestArb(r, { allMethods: true }), (req) => checkRequest(w, r, req).then(() => undefined)), fuzzParams());
  });
});
