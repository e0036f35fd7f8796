// What the property tests found, kept as plain examples, plus the edges of
// the HTTP layer they cannot reach through supertest. Each case names what was wrong before.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMeeting, v2Error } from '../helpers/builders.js';
import { API_KEY, BASIC, makeTestApp, type TestApp } from '../helpers/test-app.js';

const stateOf = async (t: TestApp) => (await t.api.get('/_emulator/state').expect(200)).text;

function raw(t: TestApp, method: 'post' | 'put' | 'patch', url: string, body: string, auth: string | undefined = BASIC) {
  const req = t.api[method](url).set('Content-Type', 'application/json');
  if (auth) req.set('Authorization', auth);
  return req.serialize((b: unknown) => b as string).send(body);
}

describe('broken percent-encoding on a method no route serves there', () => {
  // Before: 400 "not valid percent-encoding" for any method whose path matched some route (Express
  // decodes the parameters before it checks the method), a status the served OpenAPI document
  // does not list for that method. Now: the usual 405 naming the methods served there, in the
  // API's own shape.
  it.each([
    ['get', '/v2/meetings/9f1b7c1e-0000-4000-8000-00000000dead/participants/%zz/token', 'v2', 'POST'],
    ['patch', '/media/recordings/9f1b7c1e-0000-4000-8000-00000000dead/%zz.mp4', 'control', 'GET, HEAD'],
    ['patch', '/media/livestreams/9f1b7c1e-0000-4000-8000-00000000dead/segments/%zz.ts', 'control', 'GET, HEAD'],
    ['get', '/_emulator/meetings/9f1b7c1e-0000-4000-8000-00000000dead/participants/%zz/join', 'control', 'POST'],
    ['delete', '/v2/meetings/%E0%A4%A', 'v2', 'GET, HEAD, PUT, PATCH'],
  ] as const)('%s %s answers 405', async (method, path, shape, allowed) => {
    const t = makeTestApp();
    const res = await t.api[method](path).set('Authorization', BASIC).expect(405);
    const message = `Method ${method.toUpperCase()} is not allowed on ${path}; allowed: ${allowed}`;
    expect(res.headers.allow).toBe(allowed);
    expect(res.body).toEqual(shape === 'v2' ? v2Error(405, message) : { error: { code: 'METHOD_NOT_ALLOWED', message } });
  });

  it.each([
    ['post', '/v2/meetings/9f1b7c1e-0000-4000-8000-00000000dead/participants/%zz/token'],
    ['get', '/v2/meetings/%E0%A4%A'],
    ['post', '/_emulator/meetings/9f1b7c1e-0000-4000-8000-00000000dead/participants/%zz/join'],
  ] as const)('%s %s (a served method) still answers 400', async (method, path) => {
    const t = makeTestApp();
    const res = await t.api[method](path).set('Authorization', BASIC).expect(400);
    expect(JSON.stringify(res.body)).toContain('Request path is not valid percent-encoding');
  });
});

describe('__proto__ as a key at any depth of any body', () => {
  // Before: zod dropped the key without a word (a free-form recording_config came back without
  // it) — the client never learnt. Now a 400 naming where it was, and nothing changes.
  it.each([
    ['/v2/meetings', '{"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}}', '"recording_config.__proto__"'],
    ['/v2/meetings', '{"__proto__":{"title":"x"},"title":"t"}', '"__proto__"'],
    ['/v2/meetings', '{"recording_config":{"a":[1,{"b":{"__proto__":null}}]}}', '"recording_config.a[1].b.__proto__"'],
    // The first in document order is named, after a branch that has none.
    ['/v2/meetings', '{"recording_config":{"x":{"y":1},"z":{"__proto__":1},"w":{"__proto__":2}}}', '"recording_config.z.__proto__"'],
    ['/v2/webhooks', '{"name":"n","url":"http://127.0.0.1:9/h","events":["meeting.started"],"__proto__":[]}', '"__proto__"'],
  ])('POST %s %s → 400 naming %s', async (url, body, label) => {
    const t = makeTestApp();
    const before = await stateOf(t);
    const res = await raw(t, 'post', url, body).expect(400);
    expect(res.body).toEqual(v2Error(400, `BAD_REQUEST: ${label} is not allowed (reserved name)`));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await stateOf(t)).toBe(before);
  });

  it('in a v1 body and a control body: 400 in their shape', async () => {
    const t = makeTestApp();
    const before = await stateOf(t);
    const v1 = await raw(
      t,
      'post',
      '/v1/products',
      '{"name":"n","brand":"b","category_code":"701","product_id":"P1","extra":{"__proto__":{"x":1}}}',
      `Bearer ${API_KEY}`,
    ).expect(400);
    expect(v1.body).toEqual({ error: { code: 'BAD_REQUEST', message: '"extra.__proto__" is not allowed (reserved name)' } });
    const doc = before.replace('{"version":1', '{"version":1,"__proto__":{"polluted":true}');
    const state = await t.api.put('/_emulator/state').set('Content-Type', 'application/json').send(doc).expect(400);
    expect(state.body).toEqual({ error: { code: 'BAD_REQUEST', message: '"__proto__" is not allowed (reserved name)' } });
    expect(await stateOf(t)).toBe(before);
  });

  // A meeting's recording_config from the API keeps production's known fields only (unknown keys are
  // dropped); the free-form object that remains is the one a state document holds.
  it('constructor and prototype are ordinary keys of a free-form object: stored and echoed as sent', async () => {
    const t = makeTestApp();
    await createMeeting(t.api, { title: 'state' });
    const config = { constructor: { prototype: { polluted: 'yes' } }, prototype: 1, toString: 'x' };
    const doc = (await t.api.get('/_emulator/state').expect(200)).body;
    const meeting = doc.organizations.flatMap((o: { meetings?: Array<Record<string, unknown>> }) => o.meetings ?? [])[0];
    meeting.recordingConfig = config;
    await t.api.put('/_emulator/state').send(doc).expect(200);
    const again = (await t.api.get('/_emulator/state').expect(200)).body;
    expect(again.organizations.flatMap((o: { meetings?: Array<Record<string, unknown>> }) => o.meetings ?? [])[0].recordingConfig).toEqual(config);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('constructor and prototype inside a recording_config are unknown keys: dropped, nothing polluted', async () => {
    const t = makeTestApp();
    const config = { constructor: { prototype: { polluted: 'yes' } }, prototype: 1, toString: 'x', max_seconds: 600 };
    const m = await createMeeting(t.api, { recording_config: config });
    expect(m.recording_config).toEqual({ max_seconds: 600 });
    const got = await t.api.get(`/v2/meetings/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data.recording_config).toEqual({ max_seconds: 600 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the HTTP layer under the emulator', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function listen(t: TestApp): Promise<number> {
    server = createServer(t.app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  function send(port: number, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  // The property tests send bodies to every route. Through supertest, a 1 MiB body on a route
  // that reads none was cut off (supertest closes its server once the answer is in), which looked
  // like a reset. On a real server the answer arrives and the unread body is drained.
  it('a route that reads no body answers a request that carries 1 MiB anyway', async () => {
    const t = makeTestApp();
    const port = await listen(t);
    const big = JSON.stringify({ title: 'x'.repeat(1024 * 1024 - 20) });
    const res = await send(port, '/_emulator/openapi.json', { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) }, big);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).openapi).toBe('3.1.0');
    const next = await send(port, '/v2/meetings', { authorization: BASIC }, '');
    expect(next.status).toBe(200);
  });

  // A Content-Length that is not a number never reaches the emulator: Node's HTTP parser answers
  // 400 (no body, connection closed) — there is no API to shape that answer for. Nothing changes
  // and the next request is served. (A Content-Length larger than the body makes any HTTP server
  // wait for the rest; a smaller one leaves bytes that the parser and the app race for.)
  it.each(['abc', '-1', '1, 2'])('Content-Length %j: 400 from the HTTP parser, state unchanged, next request served', async (length) => {
    const t = makeTestApp();
    const port = await listen(t);
    const before = await stateOf(t);
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end(
          `POST /v2/meetings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${BASIC}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"title":"x"}`,
        );
      });
      let text = '';
      socket
        .on('data', (c: Buffer) => (text += c.toString('latin1')))
        .on('close', () => resolve(text))
        .on('error', reject);
    });
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(await stateOf(t)).toBe(before);
    expect((await send(port, '/v2/meetings', { authorization: BASIC }, '')).status).toBe(200);
  });
});
