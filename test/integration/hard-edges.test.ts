// Hard edges: size, content type, syntax, unknown routes, broken paths,
// hostile bodies. Every answer is the v2 error envelope, never a 5xx, and state is untouched.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BASIC, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { createMeeting, v2Error } from '../helpers/builders.js';
import { V2_ROUTES, buildWorld, credentialsFor, routeName, urlOf, validBody, type World } from '../helpers/v2-routes.js';

const MiB = 1024 * 1024;
const bodyRoutes = V2_ROUTES.filter((r) => r.body !== undefined);
const bodyRouteNames = bodyRoutes.map(routeName);
const routeByName = (name: string) => V2_ROUTES.find((r) => routeName(r) === name)!;

/** A JSON body of exactly `bytes` bytes: {"title":"xxx…"}. */
function jsonOfSize(bytes: number): string {
  const shell = '{"title":""}';
  return `{"title":"${'x'.repeat(bytes - shell.length)}"}`;
}

/** Counts that a rejected request must leave as they were. */
async function counts(t: TestApp, w?: World) {
  // The livestream list keeps its paging inside `data`, as production's reference shows it.
  const get = async (url: string) => {
    const { body } = await t.api.get(url).set('Authorization', BASIC).expect(200);
    return (body.paging ?? body.data.paging).total_count as number;
  };
  return {
    meetings: await get('/v2/meetings'),
    recordings: await get('/v2/recordings'),
    livestreams: await get('/v2/livestreams'),
    participants: w ? await get(`/v2/meetings/${w.meetingId}/participants`) : 0,
  };
}

function raw(t: TestApp, method: 'post' | 'put' | 'patch', url: string, contentType: string, body: string | Buffer, auth = BASIC) {
  // serialize: send the bytes as they are (superagent would JSON-encode a Buffer).
  return t.api[method](url)
    .set('Authorization', auth)
    .set('Content-Type', contentType)
    .serialize((b: unknown) => b as string)
    .send(body as string);
}

describe('body size', () => {
  it.each(bodyRouteNames)('%s answers 413 to a body of 1 MiB + 1 byte, and changes nothing', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const before = await counts(t, w);
    const r = routeByName(name);
    const res = await raw(t, r.method as 'post', urlOf(r, w), 'application/json', jsonOfSize(MiB + 1), credentialsFor(r)).expect(413);
    expect(res.body).toEqual(v2Error(413, 'Request body exceeds the limit of 1mb'));
    expect(await counts(t, w)).toEqual(before);
  });

  it('reads a body of exactly 1 MiB (then validates it: 400, not 413)', async () => {
    const t = makeTestApp();
    const body = jsonOfSize(MiB);
    expect(Buffer.byteLength(body)).toBe(MiB);
    const res = await raw(t, 'post', '/v2/meetings', 'application/json', body).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "title" length must be less than or equal to 1024 characters long'));
  });

  it('applies the limit to the inflated size of a gzip body (413)', async () => {
    const t = makeTestApp();
    const zipped = gzipSync(Buffer.from(jsonOfSize(2 * MiB)));
    expect(zipped.length).toBeLessThan(MiB);
    const res = await raw(t, 'post', '/v2/meetings', 'application/json', zipped).set('Content-Encoding', 'gzip').expect(413);
    expect(res.body).toEqual(v2Error(413, 'Request body exceeds the limit of 1mb'));
  });
});

describe('content type and encoding', () => {
  it.each(bodyRouteNames)('%s answers 415 to text/plain, form data and XML, and changes nothing', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const before = await counts(t, w);
    const r = routeByName(name);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
      const res = await raw(t, r.method as 'post', urlOf(r, w), type, JSON.stringify(validBody(r, w)), credentialsFor(r)).expect(415);
      expect(res.body, type).toEqual(v2Error(415, `Content-Type ${type} is not supported; send application/json`));
    }
    expect(await counts(t, w)).toEqual(before);
  });

  it('accepts application/json with a charset and application/*+json', async () => {
    const t = makeTestApp();
    await raw(t, 'post', '/v2/meetings', 'application/json; charset=utf-8', '{"title":"a"}').expect(201);
    await raw(t, 'post', '/v2/meetings', 'application/merge-patch+json', '{"title":"b"}').expect(201);
  });

  it('answers 415 to a charset it cannot read', async () => {
    const t = makeTestApp();
    const res = await raw(t, 'post', '/v2/meetings', 'application/json; charset=latin1', '{"title":"a"}').expect(415);
    expect(res.body).toEqual(v2Error(415, 'Content-Type application/json; charset=latin1 is not supported; send application/json'));
  });

  it('answers 415 to a Content-Encoding it cannot inflate', async () => {
    const t = makeTestApp();
    const res = await raw(t, 'post', '/v2/meetings', 'application/json', '{"title":"a"}').set('Content-Encoding', 'compress').expect(415);
    expect(res.body).toEqual(v2Error(415, 'Content-Encoding compress is not supported; send identity, gzip, deflate or br'));
    expect((await counts(t)).meetings).toBe(0);
  });

  it('reads a gzip body', async () => {
    const t = makeTestApp();
    const res = await raw(t, 'post', '/v2/meetings', 'application/json', gzipSync(Buffer.from('{"title":"zipped"}')))
      .set('Content-Encoding', 'gzip')
      .expect(201);
    expect(res.body.data.title).toBe('zipped');
  });

  it('answers 400 to a gzip body that does not inflate', async () => {
    const t = makeTestApp();
    const res = await raw(t, 'post', '/v2/meetings', 'application/json', 'this is not gzip').set('Content-Encoding', 'gzip').expect(400);
    expect(res.body).toEqual(v2Error(400, 'The request body could not be read'));
    expect((await counts(t)).meetings).toBe(0);
  });

  it('treats a body route without a body as an empty object', async () => {
    const t = makeTestApp();
    await t.api.post('/v2/meetings').set('Authorization', BASIC).set('Content-Type', 'text/plain').expect(201);
  });
});

describe('malformed JSON', () => {
  // The message says where the body stops being JSON (position from 0, line and column from 1) and
  // what is wrong there, without quoting the body.
  const broken: Array<[string, string]> = [
    ['{"title": ', 'at position 10 (line 1, column 11): the body ends too early'],
    ['{title: "a"}', 'at position 1 (line 1, column 2): expected a property name in double quotes'],
    ["{'a': 1}", 'at position 1 (line 1, column 2): expected a property name in double quotes'],
    ['{"a":1}}', 'at position 7 (line 1, column 8): unexpected text after the end of the JSON value'],
    ['{"a":1,}', 'at position 7 (line 1, column 8): expected a property name in double quotes'],
    ['{"a":tru}', 'at position 8 (line 1, column 9): expected true'],
    ['{\n  "a": 1,\n  "b": x\n}', 'at position 19 (line 3, column 8): expected a value (object, array, string, number, true, false or null)'],
    ['{"a":"x\ty"}', 'at position 7 (line 1, column 8): a control character inside a string must be escaped'],
    ['{"a":"\\q"}', 'at position 7 (line 1, column 8): unknown escape in a string'],
    ['[1 2]', "at position 3 (line 1, column 4): expected ',' or ']'"],
    ['null', 'at position 0 (line 1, column 1): a body must be a JSON object or array'],
    ['"just a string"', 'at position 0 (line 1, column 1): a body must be a JSON object or array'],
    ['  42', 'at position 2 (line 1, column 3): a body must be a JSON object or array'],
    ['true', 'at position 0 (line 1, column 1): a body must be a JSON object or array'],
  ];

  it.each(bodyRouteNames)('%s answers 400 naming where broken JSON and bare JSON values go wrong, and changes nothing', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const before = await counts(t, w);
    const r = routeByName(name);
    for (const [body, where] of broken) {
      const res = await raw(t, r.method as 'post', urlOf(r, w), 'application/json', body, credentialsFor(r)).expect(400);
      expect(res.body, body).toEqual(v2Error(400, `BAD_REQUEST: Request body is not valid JSON ${where}`));
    }
    expect(await counts(t, w)).toEqual(before);
  });

  it('quotes nothing of the body, which may hold a secret', async () => {
    const t = makeTestApp();
    const body = '{"storage_config":{"secret":"s3cr3t-VALUE-42"}, oops}';
    const res = await raw(t, 'post', '/v2/recordings', 'application/json', body).expect(400);
    expect(res.body).toEqual(
      v2Error(400, 'BAD_REQUEST: Request body is not valid JSON at position 48 (line 1, column 49): expected a property name in double quotes'),
    );
    expect(res.text).not.toContain('s3cr3t');
  });

  it('answers 400 to a JSON array where an object belongs', async () => {
    const t = makeTestApp();
    const res = await raw(t, 'post', '/v2/meetings', 'application/json', '[]').expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "value" must be of type object'));
  });
});

describe('nesting depth', () => {
  const nested = (levels: number) => `{"recording_config":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;

  it('accepts 32 levels', async () => {
    const t = makeTestApp();
    await raw(t, 'post', '/v2/meetings', 'application/json', nested(32)).expect(201);
  });

  it.each([33, 5_000, 100_000])('answers 400 to %i levels and stores nothing (it could not be answered back)', async (levels) => {
    const t = makeTestApp();
    const res = await raw(t, 'post', '/v2/meetings', 'application/json', nested(levels)).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: Request body is nested deeper than 32 levels'));
    expect((await counts(t)).meetings).toBe(0);
  });

  it('applies to PATCH and PUT too', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    await raw(t, 'patch', `/v2/meetings/${m.id}`, 'application/json', nested(5_000)).expect(400);
    await raw(t, 'put', `/v2/meetings/${m.id}`, 'application/json', nested(5_000)).expect(400);
    const got = await t.api.get(`/v2/meetings/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data).toEqual(m);
  });
});

describe('unknown routes', () => {
  it.each([
    ['get', '/v2/nothing-here'],
    ['get', '/v2'],
    // `GET /` is the landing page (dashboard.test.ts); another path under no mount is still a v2 404.
    ['get', '/index.html'],
    ['get', '/v2/meetings/9f1b7c1e-0000-4000-8000-00000000dead/participants/9f1b7c1e-0000-4000-8000-00000000dead/extra'],
  ] as const)('%s %s answers 404 in the v2 envelope, with or without credentials', async (method, path) => {
    const t = makeTestApp();
    const expected = v2Error(404, `Cannot ${method.toUpperCase()} ${path}`);
    expect((await t.api[method](path).expect(404)).body).toEqual(expected);
    expect((await t.api[method](path).set('Authorization', BASIC).expect(404)).body).toEqual(expected);
  });

  // A path a few edits from a route of the same API and method names it: `{param}` takes any one segment.
  it.each([
    ['get', '/v2/meeting', '/v2/meetings'],
    ['post', '/v2/meeting', '/v2/meetings'],
    ['get', '/v3/meetings', '/v2/meetings'],
    ['get', '/V2/Recording/', '/v2/recordings'],
    ['get', '/v2/meetngs/9f1b7c1e-0000-4000-8000-00000000dead', '/v2/meetings/{id}'],
    ['get', '/v2/meetings/9f1b7c1e-0000-4000-8000-00000000dead/participant', '/v2/meetings/{meeting_id}/participants'],
    ['post', '/v2/webhook', '/v2/webhooks'],
  ] as const)('%s %s answers 404 naming %s', async (method, path, nearest) => {
    const t = makeTestApp();
    const res = await t.api[method](path).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `Cannot ${method.toUpperCase()} ${path}; did you mean ${nearest}?`));
  });

  it.each([
    ['delete', '/v2/meetings', 'GET, HEAD, POST'],
    ['delete', '/v2/meetings/9f1b7c1e-0000-4000-8000-00000000dead', 'GET, HEAD, PUT, PATCH'],
    ['delete', '/v2/livestreams', 'GET, HEAD, POST'],
    ['patch', '/v2/recordings/9f1b7c1e-0000-4000-8000-00000000dead', 'GET, HEAD, PUT'],
    ['put', '/v2/meetings/', 'GET, HEAD, POST'],
  ] as const)('%s %s (a path with other methods) answers 405 with Allow: %s, before any credential is checked', async (method, path, allowed) => {
    const t = makeTestApp();
    const expected = v2Error(405, `Method ${method.toUpperCase()} is not allowed on ${path}; allowed: ${allowed}`);
    for (const auth of [undefined, BASIC]) {
      const req = t.api[method](path);
      if (auth) req.set('Authorization', auth);
      const res = await req.expect(405);
      expect(res.headers.allow).toBe(allowed);
      expect(res.body).toEqual(expected);
    }
    expect((await counts(t)).meetings).toBe(0);
  });
});

describe('broken percent-encoding in the path', () => {
  it.each(['/v2/meetings/%zz', '/v2/meetings/%E0%A4%A', '/v2/meetings/%/participants', '/v2/livestreams/%ff%'])('%s answers 400, not 500', async (path) => {
    const t = makeTestApp();
    const res = await t.api.get(path).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: Request path is not valid percent-encoding'));
  });
});

describe('no input produces a 5xx', () => {
  const hostileBodies: Array<[string, string]> = [
    ['an array of numbers', '[1,2,3]'],
    ['operators as values', '{"title":{"$gt":""},"meeting_id":{"$ne":null},"action":["stop"]}'],
    ['__proto__ and constructor keys', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"title":"p"}'],
    ['numbers out of range', '{"max_seconds":1e400,"port":-1e400,"page_no":1e308}'],
    ['control characters and unicode', '{"title":"\\u0000\\u202e\\ud83d\\ude00","name":"\\ud800"}'],
    ['wrong types everywhere', '{"title":[],"preset_name":{},"custom_participant_id":true,"storage_config":"aws","name":1}'],
    ['a huge string', JSON.stringify({ title: 'é'.repeat(200_000), name: 'x'.repeat(300_000) })],
  ];

  it.each(bodyRouteNames)('%s with hostile bodies', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = routeByName(name);
    for (const [what, body] of hostileBodies) {
      const res = await raw(t, r.method as 'post', urlOf(r, w), 'application/json', body, credentialsFor(r));
      expect(res.status, what).toBeLessThan(500);
      if (res.status >= 400) expect(res.body, what).toEqual({ success: false, error: { code: res.status, message: expect.any(String) } });
    }
  });

  const hostileQueries = [
    'page_no[]=1',
    'per_page=1e400',
    'page_no=9007199254740993',
    'search[a]=b',
    'search=%00%ff',
    'status[]=RECORDING&status=X',
    'sort_order[]=ASC',
    'start_time=9999-99-99T99:99:99Z',
    'meeting_id[0]=x',
  ];
  const getRoutes = V2_ROUTES.filter((r) => r.method === 'get').map(routeName);

  it.each(getRoutes)('%s with hostile queries', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = routeByName(name);
    for (const query of hostileQueries) {
      const res = await t.api.get(`${urlOf(r, w)}?${query}`).set('Authorization', credentialsFor(r));
      expect(res.status, query).toBeLessThan(500);
    }
  });

  it.each([
    'Basic',
    'Basic ',
    'Basic ====',
    `Basic ${'A'.repeat(10_000)}`,
    'Bearer a.b.c',
    'Bearer ....',
    `Bearer ${'x'.repeat(8_000)}`,
    'basic\tabc',
    'Digest username="x"',
  ])('Authorization %j answers 401', async (header) => {
    const t = makeTestApp();
    const res = await t.api.get('/v2/recordings').set('Authorization', header).expect(401);
    expect(res.body).toEqual({ success: false, error: { code: 401, message: expect.any(String) } });
  });
});
