// The route table decides, once per request, which route serves it and which API it belongs to.
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../src/core/errors.js';
import { RouteTable, decodeParams } from '../../src/http/route-table.js';
import type { AnyRoute, Api } from '../../src/http/route.js';
import { allRoutes } from '../../src/http/routes.js';

// Built in each test, not once when the file loads: the table compiles its matchers when it is
// built, and a check of that code belongs to the test that reads the answer.
const fresh = () => new RouteTable(allRoutes('http://emulator.test'));
const table = {
  resolve: (method: string, path: string, host?: string) => fresh().resolve(method, path, host),
  allowedOn: (path: string, host?: string) => fresh().allowedOn(path, host),
  nearest: (method: string, path: string) => fresh().nearest(method, path),
};
const ID = '0b0e5d4e-4a51-4c2e-9d59-2a4f5a3c1d11';
/** A route of its own, for the checks the table makes of what it is given. */
const route = (path: string, api: Api = 'v2'): AnyRoute =>
  ({ method: 'get', path, api, auth: 'none', tag: 't', summary: 's', responses: {}, handler: () => undefined }) as unknown as AnyRoute;
describe('RouteTable.resolve', () => {
  it.each([
    ['GET', `/v2/meetings/${ID}`, 'GET /v2/meetings/{id}', 'v2'],
    ['HEAD', `/v2/meetings/${ID}`, 'GET /v2/meetings/{id}', 'v2'],
    ['POST', '/v2/meetings', 'POST /v2/meetings', 'v2'],
    ['POST', '/v2/meetings/', 'POST /v2/meetings', 'v2'],
    ['POST', '/V2/Meetings', 'POST /v2/meetings', 'v2'],
    ['GET', '/api/v1/products/ABC', 'GET /api/v1/products/{svc_code}', 'v1'],
    ['GET', '/v1/products/ABC', 'GET /v1/products/{svc_code}', 'v1'],
    ['GET', '/_emulator/health', 'GET /_emulator/health', 'control'],
    ['GET', '/.well-known/jwks.json', 'GET /.well-known/jwks.json', 'control'],
    ['GET', '/media/recordings/r1/a.b.mp4', 'GET /media/recordings/{recording_id}/{file}', 'media'],
    ['GET', '/media/recordings/r1/a.MP4', 'GET /media/recordings/{recording_id}/{file}', 'media'],
    ['GET', '/media/recordings/r1/a.webm', 'GET /media/recordings/{recording_id}/{file}', 'media'],
  ])('%s %s → %s (%s)', (method, path, route, api) => {
    const r = table.resolve(method, path);
    expect(r.route && `${r.route.method.toUpperCase()} ${r.route.path}`).toBe(route);
    expect(r.api).toBe(api);
  });

  it.each([
    ['GET', '/v2/nothing', 'v2'],
    ['PUT', '/v2/meetings', 'v2'],
    ['GET', `/v2/meetings/${ID}/participants/p1/token`, 'v2'],
    ['GET', `/v2/meetings/${ID}//`, 'v2'],
    ['GET', '/v2//meetings', 'v2'],
    ['GET', '/api/v1/nothing', 'v1'],
    ['DELETE', '/v1/products/ABC', 'v1'],
    ['GET', '/_emulator/nothing', 'control'],
    ['GET', '/media/recordings/r1/a/b.mp4', 'media'],
    ['GET', '/.well-known/other.json', 'v2'],
    // GET / is the landing page; the root with another method is still unrouted.
    ['POST', '/', 'v2'],
    ['GET', '/v3/meetings', 'v2'],
    ['PROPFIND', '/v2/meetings', 'v2'],
    // A mount's name alone, without a slash after it, is still under the mount.
    ['GET', '/v1', 'v1'],
    ['GET', '/_emulator', 'control'],
    ['GET', '/MEDIA', 'media'],
  ])('%s %s: no route, API %s', (method, path, api) => {
    const r = table.resolve(method, path);
    expect(r.route).toBeUndefined();
    expect(r.api).toBe(api);
    expect([r.raw, r.names]).toEqual([[], []]);
  });
});

describe('RouteTable checks the routes it is given', () => {
  it('refuses two parameters in one segment, which it could not match as Express does', () => {
    expect(() => new RouteTable([route('/x/{a}-{b}')])).toThrow(new Error('/x/{a}-{b}: one parameter per segment'));
    expect(() => new RouteTable([route('/x/{a}/{b}.mp4')])).not.toThrow();
  });

  it('refuses a first segment holding the routes of two APIs: an unrouted path under it would have no API', () => {
    expect(() => new RouteTable([route('/x/{a}', 'v2'), route('/x/y/{b}', 'v1')])).toThrow(
      new Error('/x holds routes of two APIs (v2, v1): a path no route serves there would have no API'),
    );
    // Fixed paths are no mount: one under another API's first segment is allowed.
    expect(new RouteTable([route('/x/{a}', 'v2'), route('/x/doc.json', 'control')]).apiOf('/x/other')).toBe('v2');
  });

  it('makes a mount of a family of routes only, not of a fixed document', () => {
    const t = new RouteTable([route('/fam/{id}', 'v1'), route('/docs/openapi.json', 'control')]);
    expect(t.apiOf('/fam/unknown/deeper')).toBe('v1');
    expect(t.apiOf('/docs/other.json')).toBe('v2');
  });
});

describe('RouteTable.resolve on the web SDK hosts (by the first label of Host)', () => {
  it.each([
    ['GET', '/v2/internals/participant-details', 'api.localhost:4443', 'GET /v2/internals/participant-details', 'sdk'],
    ['GET', '/v2/internals/participant-details', 'API.example.test', 'GET /v2/internals/participant-details', 'sdk'],
    ['POST', '/api/v1/identities/', 'flags.localhost:4443', 'POST /api/v1/identities', 'sdk'],
    ['GET', '/', 'location.localhost:4443', 'GET /', 'sdk'],
    ['POST', '/otel/logs', 'api-silos.localhost', 'POST /otel/logs', 'sdk'],
    // The other routes answer on an SDK host too: the SDK calls v2 routes on its api host.
    ['GET', `/v2/meetings/${ID}`, 'api.localhost:4443', 'GET /v2/meetings/{id}', 'v2'],
    // GET / elsewhere is the landing page, on any other host.
    ['GET', '/', 'localhost:4700', 'GET /', 'control'],
    ['GET', '/', 'flags.localhost:4443', 'GET /', 'control'],
  ])('%s %s on %s → %s (%s)', (method, path, host, route, api) => {
    const r = table.resolve(method, path, host);
    expect(r.route && `${r.route.method.toUpperCase()} ${r.route.path}`).toBe(route);
    expect(r.api).toBe(api);
  });

  it.each([
    ['GET', '/v2/internals/participant-details', undefined],
    ['GET', '/v2/internals/participant-details', '127.0.0.1:4700'],
    ['GET', '/v2/internals/participant-details', 'flags.localhost:4443'],
    ['GET', '/v2/internals/participant-details', 'localhost'],
    // A host without a dot has no first label to go by, even one that starts like an SDK host's.
    ['GET', '/v2/internals/participant-details', 'apis'],
    ['POST', '/otel/logs', 'api.localhost:4443'],
  ])('%s %s on %s: no route', (method, path, host) => {
    expect(table.resolve(method, path, host).route).toBeUndefined();
  });

  it('allowedOn counts the routes of the host', () => {
    expect(table.allowedOn('/v2/internals/rooms', 'api.localhost:4443')).toEqual(['POST']);
    expect(table.allowedOn('/v2/internals/rooms', 'localhost:4700')).toEqual([]);
  });
});

describe('decodeParams', () => {
  it('decodes the parameters of the resolved route', () => {
    expect(decodeParams(table.resolve('GET', '/v2/meetings/a%20b'))).toEqual({ id: 'a b' });
    expect(decodeParams(table.resolve('GET', '/media/recordings/r%2F1/f%2Eg.mp4'))).toEqual({ recording_id: 'r/1', file: 'f.g.mp4' });
  });

  it('takes a parameter that shares its segment with fixed text (`{seq}.ts`) without that text', () => {
    expect(decodeParams(table.resolve('GET', '/media/livestreams/l1/segments/7.ts'))).toEqual({ livestream_id: 'l1', seq: '7' });
  });

  it('answers 400 for a broken percent-encoding where a route serves the path', () => {
    let thrown: unknown;
    try {
      decodeParams(table.resolve('GET', '/v2/meetings/%zz'));
    } catch (err) {
      thrown = err;
    }
    expect(isApiError(thrown) && thrown.status).toBe(400);
  });
});

describe('RouteTable.nearest (the typo hint of a 404)', () => {
  it('looks among the routes of the method, HEAD among the GET routes', () => {
    expect(table.nearest('GET', '/v2/meeting')).toBe('/v2/meetings');
    expect(table.nearest('HEAD', '/v2/meeting')).toBe('/v2/meetings');
    expect(table.nearest('DELETE', '/v2/meeting')).toBeUndefined();
  });

  it("looks only among the routes of the path's own API", () => {
    // One edit from /v2/meetings, but under /v1: no v1 route is near it.
    expect(table.nearest('GET', '/v1/meetings')).toBeUndefined();
    expect(table.nearest('GET', '/v2/products/ABC')).toBeUndefined();
    expect(table.nearest('GET', '/v1/product/ABC')).toBe('/v1/products/{svc_code}');
  });
});
