// The web SDK's REST calls on its own hosts (docs/frontend-offline.md): every call init() makes,
// with the Host header the SDK sends (`api.localhost:4443` for `baseURI: 'localhost:4443'`).
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { createIdGenerator } from '../../../src/core/ids.js';
import { PRESETS, addParticipant, createMeeting } from '../../helpers/builders.js';
import { TOKEN_LIFETIME_MS } from '../../helpers/documented.js';
import { BASIC, ORG_ID, bearer, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const BASE = 'localhost:4443';
const host = (prefix: string) => `${prefix}.${BASE}`;

let t: TestApp;
let meetingId: string;
let participant: { id: string; token: string };

beforeEach(async () => {
  t = makeTestApp();
  meetingId = (await createMeeting(t.api, { title: 'Design review' })).id;
  participant = await addParticipant(t.api, meetingId, { name: 'Ada', preset_name: PRESETS.host.name, custom_participant_id: 'ada-1' });
});

const onHost = (prefix: string) => {
  const agent = request(t.app);
  const at =
    (method: 'get' | 'post' | 'options') =>
    (path: string): request.Test =>
      agent[method](path).set('Host', host(prefix));
  return { get: at('get'), post: at('post'), options: at('options') };
};
const api = () => onHost('api');

describe('GET api.<base>/v2/internals/participant-details', () => {
  it('answers the participant, their whole preset as /v2/presets serves it, and their meeting', async () => {
    const res = await api().get('/v2/internals/participant-details').set('Authorization', bearer(participant.token)).expect(200);
    const preset = (await t.api.get(`/v2/presets/${PRESETS.host.id}`).set('Authorization', BASIC).expect(200)).body.data;
    expect(res.body.success).toBe(true);
    expect(res.body.data.participant).toEqual({
      id: participant.id,
      name: 'Ada',
      custom_participant_id: 'ada-1',
      client_specific_id: 'ada-1',
      organization_id: ORG_ID,
      preset_id: PRESETS.host.id,
      preset_name: PRESETS.host.name,
    });
    expect(res.body.data.preset).toEqual(preset);
    // What the SDK cannot start without: a design_tokens block in the ui, the plugin config, the view type.
    expect(res.body.data.preset.ui.design_tokens).toBeTypeOf('object');
    expect(res.body.data.preset.permissions.plugins.config).toBeDefined();
    expect(res.body.data.preset.config.view_type).toBe('GROUP_CALL');
    expect(res.body.data.meeting).toMatchObject({ id: meetingId, title: 'Design review' });
  });

  it('gives a picture when the participant has one, and an empty name for a participant without one', async () => {
    const p = await addParticipant(t.api, meetingId, { name: undefined, picture: 'https://example.test/p.png', custom_participant_id: 'p-2' });
    const res = await api().get('/v2/internals/participant-details').set('Authorization', bearer(p.token)).expect(200);
    expect(res.body.data.participant).toMatchObject({ name: '', picture: 'https://example.test/p.png' });
  });

  it('is the SDK host that serves it: on the emulator’s own host the path is unrouted', async () => {
    const res = await request(t.app).get('/v2/internals/participant-details').set('Authorization', bearer(participant.token)).expect(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 404 } });
  });
});

describe('POST api.<base>/v2/internals/rooms', () => {
  it('answers the meeting title and the Cloudflare-SFU mode (sfu 3), whatever the body', async () => {
    const res = await api()
      .post('/v2/internals/rooms')
      .set('Authorization', bearer(participant.token))
      .send({ ip_information: { ip: '10.0.0.1', loc: '1,2' } })
      .expect(200);
    expect(res.body).toEqual({
      success: true,
      data: { room_node_link: 'wss://socket-edge.localhost:4443', title: 'Design review', use_hive_media: false, sfu: 3 },
    });
  });

  it('gives an empty title for a meeting without one', async () => {
    const untitled = await createMeeting(t.api, {});
    const p = await addParticipant(t.api, untitled.id, { custom_participant_id: 'p-3' });
    const res = await api().post('/v2/internals/rooms').set('Authorization', bearer(p.token)).expect(200);
    expect(res.body.data.title).toBe('');
  });
});

describe('the other calls of init() on the api host', () => {
  it('GET /v2/plugins/user: no plugins', async () => {
    const res = await api().get('/v2/plugins/user').set('Authorization', bearer(participant.token)).expect(200);
    expect(res.body).toEqual({ success: true, data: { plugins: [] } });
  });

  it('GET /iceservers: none (host candidates connect on one machine)', async () => {
    const res = await api().get('/iceservers').set('Authorization', bearer(participant.token)).expect(200);
    expect(res.body).toEqual({ success: true, iceServers: [] });
  });

  it('the v2 routes answer on the api host too: a participant token starts a recording of its meeting', async () => {
    const res = await api().post('/v2/recordings').set('Authorization', bearer(participant.token)).send({ meeting_id: meetingId }).expect(200);
    expect(res.body.data.meeting_id).toBe(meetingId);
    await api().get('/v2/meetings').set('Authorization', BASIC).expect(200);
  });

  it('an unknown path on the api host is a 404 in the v2 envelope', async () => {
    const res = await api().get('/v2/internals/nothing').set('Authorization', bearer(participant.token)).expect(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 404 } });
  });

  it('a GET of a POST route on its host is a 405 naming POST', async () => {
    const res = await api().get('/v2/internals/rooms').set('Authorization', bearer(participant.token)).expect(405);
    expect(res.headers.allow).toBe('POST');
  });
});

const API_CALLS = [
  ['get', '/v2/internals/participant-details'],
  ['post', '/v2/internals/rooms'],
  ['get', '/v2/plugins/user'],
  ['get', '/iceservers'],
] as const;

describe.each(API_CALLS)('%s api.<base>%s refuses every credential but a valid participant token (401)', (method, path) => {
  const call = (authorization?: string) => {
    const r = api()[method](path);
    return authorization === undefined ? r : r.set('Authorization', authorization);
  };

  it.each([
    ['no header', () => undefined, 'Missing Authorization header'],
    ["the organization's Basic credentials", () => BASIC, 'Expected Authorization: Bearer <participant token>'],
    ['a Bearer value that is no JWT', () => bearer('emulator-api-key'), 'Invalid or expired participant token'],
  ])('%s', async (_name, authorization, message) => {
    const res = await call(authorization()).expect(401);
    expect(res.body).toEqual({ success: false, error: { code: 401, message } });
  });

  it('a token with a forged signature', async () => {
    const forger = createIdGenerator('forger-seed').rsaKey('participant-tokens');
    const forged = await new SignJWT(decodeJwt(participant.token)).setProtectedHeader(decodeProtectedHeader(participant.token) as { alg: string }).sign(forger);
    const res = await call(bearer(forged)).expect(401);
    expect(res.body.error.message).toBe('Invalid or expired participant token');
  });

  it('a token expired on the emulator clock (100 days)', async () => {
    t.advance(TOKEN_LIFETIME_MS + 1000);
    await call(bearer(participant.token)).expect(401);
  });

  it('the token of a deleted participant', async () => {
    await t.api.delete(`/v2/meetings/${meetingId}/participants/${participant.id}`).set('Authorization', BASIC).expect(200);
    await call(bearer(participant.token)).expect(401);
  });

  it('never echoes the token in the answer', async () => {
    const res = await call(bearer(`${participant.token}x`)).expect(401);
    expect(res.text).not.toContain(participant.token);
  });
});

describe('flags.<base>: feature flags (the Flagsmith identities API)', () => {
  it('answers only the livestream flag (on), with or without the trailing slash the SDK sends', async () => {
    for (const path of ['/api/v1/identities/', '/api/v1/identities']) {
      const res = await onHost('flags')
        .post(path)
        .set('X-Environment-Key', 'an-environment-key')
        .send({ identifier: 'PEER_x', traits: [{ trait_key: 'a', trait_value: 1 }] })
        .expect(200);
      expect(res.body).toEqual({ flags: [{ feature: { name: 'feat_livestream' }, enabled: true, feature_state_value: null }], traits: [] });
    }
  });
});

describe('location.<base> and location-legacy.<base>: where the client is', () => {
  it.each([
    ['location', 'get', '/'],
    ['location-legacy', 'post', '/?token=3c493932b0624c&peerId=p1'],
  ] as const)('%s %s %s answers an ipinfo document whose loc the SDK takes (longer than 5 characters)', async (prefix, method, path) => {
    const res = await onHost(prefix)[method](path).expect(200);
    expect(res.body).toMatchObject({ ip: expect.any(String), country: expect.any(String), timezone: expect.any(String) });
    expect(res.body.loc.length).toBeGreaterThan(5);
  });
});

describe('telemetry sinks accept anything and keep nothing', () => {
  it.each([
    ['api-silos', '/otel/logs', 'application/json', JSON.stringify({ meetingMetadata: {}, serviceName: 'web-core', logs: [{ message: 'hi' }] })],
    ['api-silos', '/otel/logs', 'application/json', '{not json'],
    ['da-collector', '/api/v1/message', 'text/plain;charset=UTF-8', JSON.stringify({ payload: { entries: [] }, peerId: 'p' })],
    ['da-collector', '/api/v1/message', 'application/octet-stream', '\u0000\u0001junk'],
  ])('%s %s (%s)', async (prefix, path, type, body) => {
    const res = await onHost(prefix).post(path).set('Content-Type', type).send(body).expect(204);
    expect(res.text).toBe('');
  });
});

describe('CORS on the SDK hosts', () => {
  const SENT = [
    'authorization',
    'content-type',
    'dyte-tracing-id',
    'tracing-id',
    'traceparent',
    'x-dyte-web-core-version',
    'x-realtimekit-version',
    'x-environment-key',
  ];

  it.each(['api', 'flags', 'api-silos', 'da-collector'])('a preflight to %s.<base> from any origin allows every header the SDKs send', async (prefix) => {
    const res = await onHost(prefix)
      .options('/v2/internals/participant-details')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', SENT.join(','))
      .expect(204);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    for (const h of SENT) expect(allowed).toContain(h);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('an answer and an error both carry access-control-allow-origin', async () => {
    const okRes = await api().get('/iceservers').set('Origin', 'http://localhost:5173').set('Authorization', bearer(participant.token)).expect(200);
    expect(okRes.headers['access-control-allow-origin']).toBe('*');
    const refused = await api().get('/iceservers').set('Origin', 'http://localhost:5173').expect(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('the SDK calls are an API like the others', () => {
  it('the request journal records them, without the token', async () => {
    await api().get('/v2/plugins/user').set('Authorization', bearer(participant.token)).expect(200);
    const journal = (await request(t.app).get('/_emulator/requests').expect(200)).body;
    const text = JSON.stringify(journal);
    expect(text).toContain('/v2/plugins/user');
    expect(text).not.toContain(participant.token);
  });

  it('the telemetry the SDK sends every few seconds stays out of the journal, which it would flood', async () => {
    await onHost('api-silos').post('/otel/logs').send({ logs: [] }).expect(204);
    await onHost('da-collector').post('/api/v1/message').send('{}').expect(204);
    await onHost('location').get('/').expect(200);
    const journal = (await request(t.app).get('/_emulator/requests').expect(200)).body as { data: Array<{ path: string }> };
    const paths = JSON.stringify(journal);
    expect(paths).not.toContain('/otel/logs');
    expect(paths).not.toContain('/api/v1/message');
    expect(paths).toContain('"path":"/"');
  });

  it('the telemetry stays out of the dashboard’s live feed as well; the SDK’s other calls are in it', async () => {
    const heard: string[] = [];
    const unsubscribe = t.deps.feed.subscribe({ send: (m) => void (m.kind === 'request' && heard.push(String(m.data.path))), end: () => {} });
    try {
      await onHost('api-silos').post('/otel/logs').send({ logs: [] }).expect(204);
      await onHost('da-collector').post('/api/v1/message').send('{}').expect(204);
      await onHost('location').get('/').expect(200);
    } finally {
      unsubscribe();
    }
    expect(heard).toEqual(['/']);
  });

  it('a fault rule applies to them', async () => {
    await request(t.app).post('/_emulator/faults').send({ method: 'GET', path: '/iceservers', status: 503 }).expect(201);
    const res = await api().get('/iceservers').set('Authorization', bearer(participant.token)).expect(503);
    expect(res.body).toMatchObject({ success: false, error: { code: 503 } });
  });

  it('the served OpenAPI document leaves them out (they are the SDK’s internals)', async () => {
    const doc = (await request(t.app).get('/_emulator/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.includes('internals') || p === '/iceservers' || p.includes('identities'))).toEqual([]);
  });
});
