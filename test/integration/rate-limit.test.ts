// --rate-limit N (docs/running.md): N requests per minute per client on the v1 and v2 APIs, counted on
// the emulator clock; the next one is a 429 whose Retry-After gives the whole seconds until the
// client's minute is over, and advancing the clock lifts it. The control API is never limited.
import { request as httpRequest, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { API_KEY, BASIC, ORG_ID, basicAuth, makeTestApp } from '../helpers/test-app.js';

const SECOND = 1_000;
// A well-formed product code that names no product: 404 when it gets through the limit.
const V1_UNKNOWN = '/api/v1/products/101-NOSUCHPRODUCT';

describe('--rate-limit', () => {
  it('lets N requests of a client through in a minute and answers the next with 429 and the seconds left in Retry-After', async () => {
    const t = makeTestApp({ rateLimit: 3 });
    for (let i = 0; i < 3; i++) await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    t.advance(20 * SECOND);
    const res = await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429);
    expect(res.headers['retry-after']).toBe('40');
    expect(res.body).toEqual({ success: false, error: { code: 429, message: 'Too many requests' } });
  });

  it('rounds the seconds left up: 0.5 s left is Retry-After 1, never 0', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    t.advance(59_500);
    expect((await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429)).headers['retry-after']).toBe('1');
    t.advance(499);
    expect((await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429)).headers['retry-after']).toBe('1');
  });

  it('starts a new minute exactly 60 s after the first request of the last one, with the full count again', async () => {
    const t = makeTestApp({ rateLimit: 2 });
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    t.advance(10 * SECOND);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    t.advance(50 * SECOND - 1);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429);
    t.advance(1);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    expect((await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429)).headers['retry-after']).toBe('60');
  });

  it('counts each client (each Authorization) on its own: one at its limit does not hold up another', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    const other = basicAuth(undefined, 'not-the-key');
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429);
    // Another client still has its request (answered 401 for its wrong key, not 429).
    await t.api.get('/v2/meetings').set('Authorization', other).expect(401);
    await t.api.get('/v2/meetings').set('Authorization', other).expect(429);
    await t.api.get(V1_UNKNOWN).set('Authorization', `Bearer ${API_KEY}`).expect(404);
  });

  it('limits v1 as well, and never the control API', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    await t.api.get(V1_UNKNOWN).set('Authorization', `Bearer ${API_KEY}`).expect(404);
    await t.api.get(V1_UNKNOWN).set('Authorization', `Bearer ${API_KEY}`).expect(429);
    for (let i = 0; i < 3; i++) await t.api.get('/_emulator/health').expect(200);
  });

  it('answers a v1 client over its limit in the v1 shape: 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    await t.api.get(V1_UNKNOWN).set('Authorization', `Bearer ${API_KEY}`).expect(404);
    t.advance(15 * SECOND);
    const res = await t.api.get(V1_UNKNOWN).set('Authorization', `Bearer ${API_KEY}`).expect(429);
    expect(res.headers['retry-after']).toBe('45');
    expect(res.body).toEqual({ error: { code: 'TOO_MANY_REQUESTS', message: 'Too many requests' } });
  });

  it('POST /_emulator/reset forgets the counts with everything else: a client at its limit is served again', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429);
    await t.api.post('/_emulator/reset').expect(200);
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
  });

  it('is off by default (0): a hundred requests in the same instant all pass', async () => {
    const t = makeTestApp();
    for (let i = 0; i < 100; i++) await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
  });

  it('limits the RealtimeKit prefix as it limits /v2, answering in its own error shape', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    const meetings = `/client/v4/accounts/00000000000000000000000000000001/realtime/kit/${ORG_ID}/meetings`;
    await t.api.get(meetings).set('Authorization', `Bearer ${API_KEY}`).expect(200);
    t.advance(30 * SECOND);
    const res = await t.api.get(meetings).set('Authorization', `Bearer ${API_KEY}`).expect(429);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.body).toEqual({ success: false, errors: [{ code: 429, message: 'Too many requests' }], messages: [], result: null });
  });

  it('counts a client without credentials by its address: another address has its own requests', async () => {
    // Over the network: the address is the socket's (127.0.0.1 and 127.0.0.2 are both this machine on Linux).
    const t = makeTestApp({ rateLimit: 1 });
    const server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const statusFrom = (localAddress: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/v2/meetings', localAddress, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await statusFrom('127.0.0.1')).toBe(401);
      expect(await statusFrom('127.0.0.1')).toBe(429);
      expect(await statusFrom('127.0.0.2')).toBe(401);
      expect(await statusFrom('127.0.0.2')).toBe(429);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
