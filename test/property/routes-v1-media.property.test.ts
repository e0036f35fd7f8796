// Property tests over every v1 and media route of the route table, and over paths no route
// serves. The invariants are in fuzz-world.ts.
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { fuzzParams, fuzzTimeout } from './fuzz-config.js';
import { rawSegment, queryPair } from './arbitraries.js';
import { ROUTES, buildFuzzWorld, checkRequest, describeRouteProperties, type World } from './fuzz-world.js';
import type { AnyRoute } from '../../src/http/route.js';

const routes = ROUTES.filter((r) => r.api === 'v1' || r.api === 'media');

describeRouteProperties('every v1 and media route keeps its invariants under hostile input', routes);

describe('paths no route serves', () => {
  let w: World;
  beforeAll(async () => {
    w = await buildFuzzWorld();
  });

  // A pseudo-route per API prefix: its one parameter is a whole random tail of segments.
  const prefixes = [
    '/v2',
    '/v2/meetings',
    '/api/v1',
    '/v1',
    '/_emulator',
    '/media',
    '/.well-known',
    '',
    '/v3',
    '/client/v4/accounts/00000000000000000000000000000001/realtime/kit',
    '/client/v4/accounts/00000000000000000000000000000001/realtime/kit/00000000-0000-4000-8000-000000000001',
  ];
  const unknown = (prefix: string): AnyRoute => ({
    ...ROUTES[0]!,
    method: 'get',
    path: `${prefix}/{tail}`,
    params: undefined,
    query: undefined,
    body: undefined,
    auth: 'none',
  });

  it.each(prefixes)('under %j: the 404 (or 400) is in the API’s own shape and changes nothing', { timeout: fuzzTimeout(2) }, async (prefix) => {
    const tail = fc.array(rawSegment, { minLength: 1, maxLength: 4 }).map((segs) => segs.join('/'));
    const known = new Set(ROUTES.map((r) => r.path.replace(/\{[^}]+\}/g, '{}')));
    const arb = fc.record({
      r: fc.constant(unknown(prefix)),
      tail,
      method: fc.constantFrom('get', 'post', 'put', 'patch', 'delete' as const),
      query: fc.array(queryPair(['q']), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ r, tail: t, method, query }) => {
        // Only paths that are not a served template (a served one is fuzzed above).
        fc.pre(!known.has(`${prefix}/{}`) || t.includes('/'));
        await checkRequest(w, r, {
          method,
          params: { tail: { kind: 'raw', value: t } },
          query,
          auth: 'right',
          contentType: 'application/json',
          encoding: null,
          body: { kind: 'any', value: { title: 'x' } },
          range: null,
        });
      }),
      fuzzParams(2),
    );
  });
});
