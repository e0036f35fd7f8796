// Errors that say what to fix, in every API's own shape: a wrong method (405 + Allow), a path a
// typo away from a route (404 naming it), credentials in the wrong form, an unknown preset; and
// the CORS headers a page on another origin needs to read any of them (docs/api-v2.md, "Errors
// and hard edges"; docs/api-v1.md; docs/control-api.md).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMeeting, getRecording, recordingAction, startRecording, v2Error } from '../helpers/builders.js';
import { API_KEY, BASIC, ORG_ID, makeTestApp, type TestApp } from '../helpers/test-app.js';

const ID = '9f1b7c1e-0000-4000-8000-00000000dead';
const v1Error = (code: string, message: string) => ({ error: { code, message } });

describe('a method no route serves on a served path: 405 with Allow, in the API’s own shape', () => {
  it.each([
    ['delete', '/v2/meetings', 'GET, HEAD, POST', 'v2'],
    ['post', `/v2/meetings/${ID}`, 'GET, HEAD, PUT, PATCH', 'v2'],
    ['delete', '/api/v1/products', 'POST', 'v1'],
    ['put', '/v1/products/101-COLDBREW330', 'GET, HEAD', 'v1'],
    ['delete', '/_emulator/health', 'GET, HEAD', 'control'],
    ['get', '/_emulator/clock/advance', 'POST', 'control'],
    ['post', `/media/recordings/${ID}/a.mp4`, 'GET, HEAD', 'media'],
  ] as const)('%s %s → 405, Allow: %s (%s)', async (method, path, allowed, api) => {
    const t = makeTestApp();
    const res = await t.api[method](path).expect(405);
    expect(res.headers.allow).toBe(allowed);
    const message = `Method ${method.toUpperCase()} is not allowed on ${path}; allowed: ${allowed}`;
    expect(res.body).toEqual(api === 'v2' ? v2Error(405, message) : v1Error('METHOD_NOT_ALLOWED', message));
  });

  it('answers 405 to a HEAD where no GET is served, Allow naming what is', async () => {
    const t = makeTestApp();
    const res = await request(t.app).head('/_emulator/clock/advance').expect(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('a path a typo away from a route: 404 naming it', () => {
  it.each([
    ['get', '/api/v1/product/101-COLDBREW330', '/api/v1/products/{svc_code}', 'v1'],
    ['post', '/v1/product', '/v1/products', 'v1'],
    ['get', '/_emulator/helth', '/_emulator/health', 'control'],
    ['post', '/_emulator/clock/advanc', '/_emulator/clock/advance', 'control'],
    ['get', `/media/recording/${ID}/a.mp3`, '/media/recordings/{recording_id}/{file}', 'media'],
  ] as const)('%s %s names %s (%s, its own shape; v2 in hard-edges.test.ts)', async (method, path, nearest, _api) => {
    const t = makeTestApp();
    const res = await t.api[method](path).expect(404);
    expect(res.body).toEqual(v1Error('ROUTE_NOT_FOUND', `Cannot ${method.toUpperCase()} ${path}; did you mean ${nearest}?`));
  });

  it.each([
    ['get', '/v2/nothing-here'],
    ['get', '/_emulator/everything-else'],
    ['get', '/api/v1/categories-of-things'],
    // Four edits away from /v2/meetings (and far from every other route): no longer a typo.
    ['get', '/v2/mxxxxngs'],
    // Close in spelling, but a route of another method: the hint is for the method sent.
    ['delete', '/v2/meeting'],
  ] as const)('%s %s gives no hint', async (method, path) => {
    const t = makeTestApp();
    const res = await t.api[method](path).expect(404);
    expect(JSON.stringify(res.body)).toContain(`"Cannot ${method.toUpperCase()} ${path}"`);
  });
});

describe('credentials in the wrong form say the form expected, never the value sent', () => {
  const BASIC_FORM = 'Authorization: Basic base64(<organization id>:<API key>)';
  const BEARER_KEY = `v2 expects ${BASIC_FORM}; Bearer is for v1 API keys and participant tokens`;
  const MALFORMED = `Malformed Basic credentials; expected ${BASIC_FORM}`;

  it.each([
    ['the v1 API key as Bearer on a Basic route', 'get', '/v2/meetings', `Bearer ${API_KEY}`, BEARER_KEY],
    ['the v1 API key as Bearer on a route that takes participant tokens', 'get', '/v2/recordings', `Bearer ${API_KEY}`, BEARER_KEY],
    ['Basic that is not base64', 'get', '/v2/meetings', 'Basic org:emulator-api-key', MALFORMED],
    // Base64 decoders skip what is not of the alphabet; the emulator refuses it instead of guessing.
    ['Basic with a character outside base64 before the credentials', 'get', '/v2/meetings', `Basic !${BASIC.slice(6)}`, MALFORMED],
    ['Basic with a character outside base64 after the credentials', 'get', '/v2/meetings', `Basic ${BASIC.slice(6)}!`, MALFORMED],
    ['Basic with a character outside base64 inside the credentials', 'get', '/v2/meetings', `Basic ${BASIC.slice(6, 10)}.${BASIC.slice(10)}`, MALFORMED],
    // Two dots do not make a JWT: every part must be base64url.
    ['a Bearer value with two dots after a character no JWT holds', 'get', '/v2/recordings', 'Bearer !key.with.dots', BEARER_KEY],
    ['a Bearer value with two dots before a character no JWT holds', 'get', '/v2/recordings', 'Bearer key.with.dots!', BEARER_KEY],
    ['Basic without a colon', 'post', '/v2/meetings', `Basic ${Buffer.from('emulator-api-key').toString('base64')}`, MALFORMED],
  ] as const)('%s', async (_what, method, path, header, message) => {
    const t = makeTestApp();
    const res = await t.api[method](path).set('Authorization', header).expect(401);
    expect(res.body).toEqual(v2Error(401, message));
    expect(res.text).not.toContain(API_KEY);
    expect(res.text).not.toContain(header.split(' ')[1]);
  });
});

describe('an unknown preset', () => {
  it('keeps the production text first, then lists the presets of the organization', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const res = await t.api
      .post(`/v2/meetings/${m.id}/participants`)
      .set('Authorization', BASIC)
      .send({ preset_name: 'host', custom_participant_id: 'u1' })
      .expect(400);
    expect(res.body.error.message).toMatch(/^BAD_REQUEST: No preset found with name host;/);
    expect(res.body).toEqual(
      v2Error(
        400,
        "BAD_REQUEST: No preset found with name host; the organization's presets are: group_call_host, group_call_participant, webinar_presenter, webinar_viewer, livestream_host, livestream_viewer",
      ),
    );
  });
});

describe('malformed JSON on v1 and the control API says where, in their shape', () => {
  it.each([
    ['/api/v1/products', `Bearer ${API_KEY}`],
    ['/_emulator/orgs', undefined],
  ])('POST %s', async (path, auth) => {
    const t = makeTestApp();
    const req = t.api.post(path).set('Content-Type', 'application/json');
    if (auth) req.set('Authorization', auth);
    const res = await req.send('{"name":"a" "brand":"b"}').expect(400);
    expect(res.body).toEqual(v1Error('BAD_REQUEST', "Request body is not valid JSON at position 12 (line 1, column 13): expected ',' or '}'"));
  });
});

/** An UPLOADED recording's download link (path and signed query). */
async function downloadPath(t: TestApp): Promise<string> {
  const { id } = await startRecording(t.api, (await createMeeting(t.api, {})).id);
  t.advance(63_000);
  await recordingAction(t.api, id, 'stop');
  t.advance(15_000);
  const url = new URL(String((await getRecording(t.api, id)).download_url));
  return `${url.pathname}${url.search}`;
}

describe('CORS headers on every answer a browser can get', () => {
  type Case = [string, number, (t: TestApp) => Promise<request.Response>];
  const cases: Case[] = [
    ['a success', 200, (t) => t.api.get('/v2/meetings').set('Authorization', BASIC)],
    ['a validation error', 400, (t) => t.api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 1 })],
    ['malformed JSON', 400, (t) => t.api.post('/v2/meetings').set('Authorization', BASIC).set('Content-Type', 'application/json').send('{')],
    ['missing credentials', 401, (t) => t.api.get('/v2/meetings')],
    ['a v1 401', 401, (t) => t.api.get('/api/v1/products/101-COLDBREW330')],
    ['a media link with a wrong signature', 403, async (t) => t.api.get(`${(await downloadPath(t)).replace(/signature=[^&]+/, 'signature=0')}`)],
    ['an unknown id', 404, (t) => t.api.get(`/v2/meetings/${ID}`).set('Authorization', BASIC)],
    ['an unknown route', 404, (t) => t.api.get('/v2/nothing-here')],
    ['an unknown control route', 404, (t) => t.api.get('/_emulator/nothing-here')],
    ['a wrong method', 405, (t) => t.api.delete('/v2/meetings')],
    [
      'a body over the limit',
      413,
      (t) =>
        t.api
          .post('/v2/meetings')
          .set('Authorization', BASIC)
          .set('Content-Type', 'application/json')
          .send(`{"title":"${'x'.repeat(1024 * 1024)}"}`),
    ],
    ['a content type not read', 415, (t) => t.api.post('/v2/meetings').set('Authorization', BASIC).set('Content-Type', 'text/plain').send('x')],
    ['a range past the end of a file', 416, async (t) => t.api.get(await downloadPath(t)).set('Range', 'bytes=99999999-')],
    ['a v1 product code that is not one', 400, (t) => t.api.get('/api/v1/products/x').set('Authorization', `Bearer ${API_KEY}`)],
    [
      'an injected fault',
      503,
      async (t) => {
        await t.api.post('/_emulator/faults').send({ method: 'GET', path: '/v2/meetings', status: 503, count: 1 }).expect(201);
        return t.api.get('/v2/meetings').set('Authorization', BASIC);
      },
    ],
  ];

  it.each(cases)('%s (%i)', async (_what, status, send) => {
    const t = makeTestApp();
    const res = await send(t);
    expect(res.status).toBe(status);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('x-request-id');
  });

  it('a 429 of the rate limit, its Retry-After readable', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(200);
    const res = await t.api.get('/v2/meetings').set('Authorization', BASIC).expect(429);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('retry-after');
  });

  it('an answer of Express’s final handler (an error handler that itself failed)', async () => {
    const t = makeTestApp();
    t.deps.services.meetings.list = () => {
      throw new Error('boom');
    };
    t.deps.logger.error = () => {
      throw new Error('the logger failed too');
    };
    const res = await request(t.app).get('/v2/meetings').set('Authorization', BASIC);
    expect(res.status).toBe(500);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it.each(['/v2/meetings', `/v2/meetings/${ID}/participants`, '/api/v1/products', '/_emulator/health', '/media/anything', '/nowhere'])(
    'answers the preflight OPTIONS %s: 204, every method, the headers clients send',
    async (path) => {
      const t = makeTestApp();
      const res = await request(t.app)
        .options(path)
        .set('Origin', 'http://localhost:5173')
        .set('Access-Control-Request-Method', 'DELETE')
        .set('Access-Control-Request-Headers', 'authorization, content-type')
        .expect(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toMatch(/\bAuthorization\b.*\bContent-Type\b/);
      expect(res.text).toBe('');
    },
  );

  it('does not let a preflight spend the rate limit or trip a fault rule', async () => {
    const t = makeTestApp({ rateLimit: 1 });
    await t.api.post('/_emulator/faults').send({ path: '/v2/meetings', status: 500, count: 1 }).expect(201);
    await request(t.app).options('/v2/meetings').expect(204);
    await request(t.app).options('/v2/meetings').expect(204);
    expect((await t.api.get('/v2/meetings').set('Authorization', BASIC)).status).toBe(500);
  });
});

describe('a failure the emulator did not foresee', () => {
  it('answers 500 INTERNAL_ERROR in the v1 shape, without the failure’s own text, and logs it with the request id', async () => {
    const t = makeTestApp();
    // A bug in a handler, as no catalogued error would describe it: its text must not reach the client.
    t.deps.services.products.get = () => {
      throw new TypeError('cannot read the secret field of undefined');
    };
    const logged: unknown[] = [];
    t.deps.logger.error = ((fields: unknown, message: string) => void logged.push([fields, message])) as typeof t.deps.logger.error;
    const res = await request(t.app).get('/api/v1/products/101-COLDBREW330').set('Authorization', `Bearer ${API_KEY}`).expect(500);
    expect(res.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal error in the emulator' } });
    expect(logged).toEqual([[expect.objectContaining({ requestId: res.headers['x-request-id'] }), 'unhandled error']]);
  });
});

describe('errors thrown to code that calls the services in process (startEmulator’s deps)', () => {
  it('are ApiErrors, named so where they are printed, with the status and code an answer would carry', () => {
    const t = makeTestApp();
    let thrown: unknown;
    try {
      t.deps.services.meetings.get(ORG_ID, ID);
    } catch (err) {
      thrown = err;
    }
    expect(String(thrown)).toBe(`ApiError: No meeting found with id ${ID}`);
    expect(thrown).toMatchObject({ name: 'ApiError', status: 404, code: 'NOT_FOUND' });
  });
});
