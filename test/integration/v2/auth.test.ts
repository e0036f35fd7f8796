// v2 auth (docs/api-v2.md): Basic on every v2 route; participant tokens (RS256, 100 days on the emulator
// clock) on exactly the routes the web SDK calls (recordings; a meeting's livestream start, stop
// and read) and only for their own meeting, within what their preset allows.
import { SignJWT, UnsecuredJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createIdGenerator } from '../../../src/core/ids.js';
import { BASIC, ORG_ID, START, basicAuth, bearer, makeTestApp, type TestApp } from '../../helpers/test-app.js';
import { PRESETS, addParticipant, createMeeting, getRecording, startRecording, v2Error } from '../../helpers/builders.js';
import { successStatus } from '../../helpers/success-status.js';
import { PARTICIPANT_TOKEN_ROUTES, PARTNER_ROUTES, V2_ROUTES, buildWorld, routeName, urlOf, validBody, type World } from '../../helpers/v2-routes.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const BEARER_NOT_A_TOKEN = 'v2 expects Authorization: Basic base64(<organization id>:<API key>); Bearer is for v1 API keys and participant tokens';
const NOT_ACCEPTED = 'Participant tokens are not accepted on this route; use Basic credentials';
const INVALID_TOKEN = 'Invalid or expired participant token';

// The partner API has credentials of its own (test/integration/v2/orgs.test.ts).
const orgScopedRoutes = V2_ROUTES.filter((r) => !PARTNER_ROUTES.includes(routeName(r)));
const tokenRoutes = orgScopedRoutes.filter((r) => PARTICIPANT_TOKEN_ROUTES.includes(routeName(r)));
const basicOnlyRoutes = orgScopedRoutes.filter((r) => !PARTICIPANT_TOKEN_ROUTES.includes(routeName(r)));

function send(t: TestApp, r: (typeof V2_ROUTES)[number], url: string, body: Record<string, unknown>) {
  const req = t.api[r.method](url);
  return r.body ? req.send(body) : req;
}

/** What a refused request must leave as it was: every list, read under Basic. */
async function snapshot(t: TestApp, w: World): Promise<string[]> {
  const urls = ['/v2/meetings', '/v2/recordings', '/v2/livestreams', `/v2/meetings/${w.meetingId}/participants`, `/v2/meetings/${w.meetingId}`];
  return Promise.all(urls.map(async (url) => (await t.api.get(url).set('Authorization', BASIC).expect(200)).text));
}

/** A meeting whose host (can_record) holds a token, and another meeting with its own recording. */
async function twoMeetings(t: TestApp) {
  const mine = await createMeeting(t.api, { title: 'Mine' });
  const theirs = await createMeeting(t.api, { title: 'Theirs' });
  const host = await addParticipant(t.api, mine.id, { name: 'Host', custom_participant_id: 'host' });
  const theirRecording = await startRecording(t.api, theirs.id);
  return { mine, theirs, host, theirRecording };
}

describe('the route table', () => {
  it('accepts participant tokens on exactly the routes the web SDK calls', () => {
    expect(
      V2_ROUTES.filter((r) => r.auth === 'basic-or-participant')
        .map(routeName)
        .sort(),
    ).toEqual([...PARTICIPANT_TOKEN_ROUTES].sort());
    expect(orgScopedRoutes.filter((r) => r.auth !== 'basic-or-participant').every((r) => r.auth === 'basic')).toBe(true);
  });

  it('takes the partner token on exactly the four routes of the partner API', () => {
    expect(
      V2_ROUTES.filter((r) => r.auth === 'partner-bearer')
        .map(routeName)
        .sort(),
    ).toEqual([...PARTNER_ROUTES].sort());
  });
});

describe('Basic credentials on every v2 route', () => {
  it('are read after any run of spaces that follows the scheme, as HTTP allows', async () => {
    const t = makeTestApp();
    const res = await t.api.get('/v2/meetings').set('Authorization', BASIC.replace(' ', '   ')).expect(200);
    expect(res.body).toMatchObject({ success: true, data: [] });
  });

  it.each(orgScopedRoutes.map(routeName))('%s answers 401 without credentials, with a wrong key and with another scheme, and changes nothing', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = V2_ROUTES.find((x) => routeName(x) === name)!;
    const before = await snapshot(t, w);
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'Missing Authorization header'],
      [basicAuth(ORG_ID, 'wrong-key'), 'Invalid organization id or API key'],
      [basicAuth('00000000-0000-4000-8000-000000000999'), 'Invalid organization id or API key'],
      ['Token abc', 'Unsupported Authorization scheme'],
    ];
    for (const [header, message] of cases) {
      const req = send(t, r, urlOf(r, w), validBody(r, w));
      if (header) req.set('Authorization', header);
      const res = await req.expect(401);
      expect(res.body, String(header)).toEqual(v2Error(401, message));
    }
    expect(await snapshot(t, w)).toEqual(before);
  });
});

describe('participant tokens', () => {
  it('are RS256 JWTs with the contract claims, 100 days on the emulator clock, verifiable with the JWKS', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { preset_name: 'webinar_presenter' });
    const jwks = await t.api.get('/.well-known/jwks.json').expect(200);
    expect(jwks.body).toEqual({ keys: [{ kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: expect.any(String), alg: 'RS256', use: 'sig' }] });

    expect(decodeProtectedHeader(p.token)).toEqual({ alg: 'RS256', typ: 'JWT', kid: jwks.body.keys[0].kid });
    const iat = START / 1000;
    const claims = {
      orgId: ORG_ID,
      meetingId: m.id,
      participantId: p.id,
      presetId: '00000000-0000-4000-8000-0000000000a3',
      iat,
      exp: iat + 100 * 24 * 60 * 60,
    };
    expect(decodeJwt(p.token)).toEqual(claims);
    const { payload, protectedHeader } = await jwtVerify(p.token, createLocalJWKSet(jwks.body), { algorithms: ['RS256'], currentDate: new Date(START) });
    expect(payload).toEqual(claims);
    expect(protectedHeader.alg).toBe('RS256');
  });

  it.each(tokenRoutes.map(routeName))('%s accepts a token for its own meeting', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    t.advance(3_000); // the recorder joins (default timings): the recording may be paused
    // One active livestream per meeting: the world's is stopped before the token starts one.
    if (name === 'post /v2/meetings/{meeting_id}/livestreams')
      await t.api.post(`/v2/meetings/${w.meetingId}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    const r = tokenRoutes.find((x) => routeName(x) === name)!;
    const res = await send(t, r, urlOf(r, w), validBody(r, w)).set('Authorization', bearer(w.token)).expect(successStatus(r));
    expect(res.body.success).toBe(true);
  });

  it.each(basicOnlyRoutes.map(routeName))('%s answers 401 to a valid participant token', async (name) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const r = basicOnlyRoutes.find((x) => routeName(x) === name)!;
    const before = await snapshot(t, w);
    const res = await send(t, r, urlOf(r, w), validBody(r, w)).set('Authorization', bearer(w.token)).expect(401);
    expect(res.body).toEqual(v2Error(401, NOT_ACCEPTED));
    expect(await snapshot(t, w)).toEqual(before);
  });

  it('PUT /v2/recordings/{id} with the token of a preset that cannot record is a 403 and leaves the recording as it was', async () => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const viewer = await addParticipant(t.api, w.meetingId, { name: 'Viewer', preset_name: 'webinar_viewer', custom_participant_id: 'viewer' });
    t.advance(3_000); // the recorder joins (default timings)
    const before = await getRecording(t.api, w.recordingId);
    const res = await t.api.put(`/v2/recordings/${w.recordingId}`).set('Authorization', bearer(viewer.token)).send({ action: 'stop' }).expect(403);
    expect(res.body).toEqual(v2Error(403, 'Preset webinar_viewer does not allow recording'));
    expect(await getRecording(t.api, w.recordingId)).toEqual(before);
  });

  it.each([
    ['post', 'livestreams'],
    ['post', 'active-livestream/stop'],
  ] as const)('%s /v2/meetings/{id}/%s with the token of a preset that cannot livestream is a 403 and changes nothing', async (method, tail) => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    const viewer = await addParticipant(t.api, w.meetingId, { name: 'Viewer', preset_name: 'livestream_viewer', custom_participant_id: 'viewer' });
    const before = await snapshot(t, w);
    const res = await t.api[method](`/v2/meetings/${w.meetingId}/${tail}`).set('Authorization', bearer(viewer.token)).send({}).expect(403);
    expect(res.body).toEqual(v2Error(403, 'Preset livestream_viewer does not allow livestreaming'));
    expect(await snapshot(t, w)).toEqual(before);
    // Reading the meeting's livestream needs no permission beyond being in the meeting.
    await t.api.get(`/v2/meetings/${w.meetingId}/active-livestream`).set('Authorization', bearer(viewer.token)).expect(200);
  });

  describe('reach only their own meeting (403)', () => {
    it('POST /v2/recordings for another meeting', async () => {
      const t = makeTestApp();
      const { theirs, host } = await twoMeetings(t);
      const res = await t.api
        .post('/v2/recordings')
        .set('Authorization', bearer(host.token))
        .send({ meeting_id: theirs.id, allow_multiple_recordings: true })
        .expect(403);
      expect(res.body).toEqual(v2Error(403, 'This participant token does not grant access to that meeting'));
      const list = await t.api.get(`/v2/recordings?meeting_id=${theirs.id}`).set('Authorization', BASIC).expect(200);
      expect(list.body.paging.total_count).toBe(1);
    });

    it('GET /v2/recordings/{id} of another meeting', async () => {
      const t = makeTestApp();
      const { host, theirRecording } = await twoMeetings(t);
      const res = await t.api.get(`/v2/recordings/${theirRecording.id}`).set('Authorization', bearer(host.token)).expect(403);
      expect(res.body).toEqual(v2Error(403, 'This participant token does not grant access to that meeting'));
    });

    it('GET /v2/recordings/active-recording/{meeting_id} of another meeting', async () => {
      const t = makeTestApp();
      const { theirs, host } = await twoMeetings(t);
      const res = await t.api.get(`/v2/recordings/active-recording/${theirs.id}`).set('Authorization', bearer(host.token)).expect(403);
      expect(res.body).toEqual(v2Error(403, 'This participant token does not grant access to that meeting'));
    });

    it('GET /v2/recordings?meeting_id= of another meeting', async () => {
      const t = makeTestApp();
      const { theirs, host } = await twoMeetings(t);
      const res = await t.api.get(`/v2/recordings?meeting_id=${theirs.id}`).set('Authorization', bearer(host.token)).expect(403);
      expect(res.body).toEqual(v2Error(403, 'This participant token does not grant access to that meeting'));
    });

    it("GET /v2/recordings lists only the token's meeting", async () => {
      const t = makeTestApp();
      const { mine, host } = await twoMeetings(t);
      const own = await startRecording(t.api, mine.id, {}, bearer(host.token));
      const res = await t.api.get('/v2/recordings').set('Authorization', bearer(host.token)).expect(200);
      expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([own.id]);
      expect(res.body.paging).toEqual({ total_count: 1, start_offset: 1, end_offset: 1 });
      const all = await t.api.get('/v2/recordings').set('Authorization', BASIC).expect(200);
      expect(all.body.paging.total_count).toBe(2);
    });
  });

  it('start a recording as the participant (start_reason caller USER)', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { name: 'Grace', preset_name: 'group_call_host' });
    const r = await startRecording(t.api, m.id, {}, bearer(p.token));
    expect(r.start_reason).toEqual({ reason: 'API_CALL', caller: { name: 'Grace', type: 'USER', user_Id: p.id } });
    const active = await t.api.get(`/v2/recordings/active-recording/${m.id}`).set('Authorization', bearer(p.token)).expect(200);
    expect(active.body.data.id).toBe(r.id);
  });

  it.each([
    ['group_call_host', 200],
    ['webinar_presenter', 200],
    ['livestream_host', 200],
    ['group_call_participant', 403],
    ['webinar_viewer', 403],
    ['livestream_viewer', 403],
  ])('POST /v2/recordings with a %s token answers %i', async (preset, status) => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id, { preset_name: preset });
    const res = await t.api.post('/v2/recordings').set('Authorization', bearer(p.token)).send({ meeting_id: m.id }).expect(status);
    if (status === 403) {
      expect(res.body).toEqual(v2Error(403, `Preset ${preset} does not allow recording`));
      const list = await t.api.get('/v2/recordings').set('Authorization', BASIC).expect(200);
      expect(list.body.paging.total_count).toBe(0);
    } else {
      expect(res.body.data.status).toBe('INVOKED');
    }
  });

  it('a preset without can_record may still read recordings of its meeting', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const viewer = await addParticipant(t.api, m.id, { preset_name: PRESETS.participant.name });
    const r = await startRecording(t.api, m.id);
    const res = await t.api.get(`/v2/recordings/${r.id}`).set('Authorization', bearer(viewer.token)).expect(200);
    expect(res.body).toMatchObject({ success: true, data: { id: r.id, meeting_id: m.id, status: 'INVOKED' } });
  });

  it.each([
    ['just before expiry (100 days minus one second)', 100 * DAY_MS - 1_000, 200],
    ['at expiry (100 days)', 100 * DAY_MS, 401],
    ['long after expiry', 365 * DAY_MS, 401],
  ])('a token %s answers %i', async (_when, ms, status) => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id);
    t.advance(ms);
    const res = await t.api.get('/v2/recordings').set('Authorization', bearer(p.token)).expect(status);
    if (status === 401) expect(res.body).toEqual(v2Error(401, INVALID_TOKEN));
  });

  it('a token issued later lives 100 days from its own issue time', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id);
    t.advance(50 * DAY_MS);
    const fresh = await t.api.post(`/v2/meetings/${m.id}/participants/${p.id}/token`).set('Authorization', BASIC).expect(200);
    t.advance(60 * DAY_MS);
    const old = await t.api.get('/v2/recordings').set('Authorization', bearer(p.token)).expect(401);
    expect(old.body).toEqual(v2Error(401, INVALID_TOKEN));
    const res = await t.api.get('/v2/recordings').set('Authorization', bearer(fresh.body.data.token)).expect(200);
    expect(res.body).toMatchObject({ success: true, data: [] });
  });

  it('a token opens nothing once a state import puts its participant in another meeting', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { title: 'Issued for' });
    const other = await createMeeting(t.api, { title: 'Moved to' });
    const p = await addParticipant(t.api, m.id);
    await startRecording(t.api, m.id);
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    const org = state.organizations.find((o: { id: string }) => o.id === ORG_ID);
    org.participants.find((x: { id: string }) => x.id === p.id).meetingId = other.id;
    await t.api.put('/_emulator/state').send(state).expect(200);
    const res = await t.api.get('/v2/recordings').set('Authorization', bearer(p.token)).expect(401);
    expect(res.body).toEqual(v2Error(401, INVALID_TOKEN));
    const moved = await t.api.get(`/v2/meetings/${other.id}/participants/${p.id}`).set('Authorization', BASIC).expect(200);
    expect(moved.body.data.id).toBe(p.id);
  });

  it("a deleted participant's tokens answer 401 on every token route", async () => {
    const t = makeTestApp();
    const w = await buildWorld(t);
    await t.api.delete(`/v2/meetings/${w.meetingId}/participants/${w.participantId}`).set('Authorization', BASIC).expect(200);
    for (const r of tokenRoutes) {
      const res = await send(t, r, urlOf(r, w), validBody(r, w)).set('Authorization', bearer(w.token)).expect(401);
      expect(res.body).toEqual(v2Error(401, INVALID_TOKEN));
    }
  });

  describe('refuses what it did not sign (401)', () => {
    async function forge(t: TestApp, how: string): Promise<{ token: string; meetingId: string }> {
      const m = await createMeeting(t.api);
      const other = await createMeeting(t.api);
      const p = await addParticipant(t.api, m.id);
      const [h, payload, sig] = p.token.split('.') as [string, string, string];
      const claims = decodeJwt(p.token);
      const header = decodeProtectedHeader(p.token);
      const jwks = (await t.api.get('/.well-known/jwks.json').expect(200)).body as { keys: Array<Record<string, string>> };
      switch (how) {
        case 'a payload changed under the signature': {
          const changed = Buffer.from(JSON.stringify({ ...claims, meetingId: other.id })).toString('base64url');
          return { token: `${h}.${changed}.${sig}`, meetingId: other.id };
        }
        case 'a signature taken from another token': {
          const q = await addParticipant(t.api, other.id);
          return { token: `${h}.${payload}.${q.token.split('.')[2]}`, meetingId: m.id };
        }
        case 'another RSA key under the same kid': {
          const key = createIdGenerator('forger-seed').rsaKey('participant-tokens');
          return { token: await new SignJWT(claims).setProtectedHeader({ ...header, alg: 'RS256' }).sign(key), meetingId: m.id };
        }
        case 'alg none': {
          const unsecured = new UnsecuredJWT(claims).encode();
          return { token: unsecured, meetingId: m.id };
        }
        case 'alg none with the original signature':
          return { token: `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.${sig}`, meetingId: m.id };
        case 'HS256 signed with the public key (PEM)': {
          const pem = t.deps.keys.participantTokens.publicPem;
          return {
            token: await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: header.kid! }).sign(new TextEncoder().encode(pem)),
            meetingId: m.id,
          };
        }
        case 'HS256 signed with the JWK modulus': {
          const n = jwks.keys[0]!.n!;
          return { token: await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(n)), meetingId: m.id };
        }
        case 'an emulator with another seed': {
          const elsewhere = makeTestApp({ seed: 'another-seed' });
          const em = await createMeeting(elsewhere.api);
          const ep = await addParticipant(elsewhere.api, em.id);
          return { token: ep.token, meetingId: em.id };
        }
        case 'not a JWT at all':
          return { token: 'definitely-not-a-jwt', meetingId: m.id };
        default:
          throw new Error(how);
      }
    }

    it.each([
      'a payload changed under the signature',
      'a signature taken from another token',
      'another RSA key under the same kid',
      'alg none',
      'alg none with the original signature',
      'HS256 signed with the public key (PEM)',
      'HS256 signed with the JWK modulus',
      'an emulator with another seed',
      'not a JWT at all',
    ])('%s', async (how) => {
      const t = makeTestApp();
      const { token, meetingId } = await forge(t, how);
      const start = await t.api.post('/v2/recordings').set('Authorization', bearer(token)).send({ meeting_id: meetingId }).expect(401);
      // A Bearer value that is no JWT is taken for an API key sent the v1 way: the answer says what v2 expects.
      expect(start.body).toEqual(v2Error(401, how === 'not a JWT at all' ? BEARER_NOT_A_TOKEN : INVALID_TOKEN));
      const list = await t.api.get('/v2/recordings').set('Authorization', BASIC).expect(200);
      expect(list.body.paging.total_count).toBe(0);
      await t.api.get(`/v2/recordings/active-recording/${meetingId}`).set('Authorization', bearer(token)).expect(401);
    });
  });

  it('an empty Bearer answers 401', async () => {
    const t = makeTestApp();
    const res = await t.api.get('/v2/recordings').set('Authorization', 'Bearer ').expect(401);
    expect(res.body).toEqual(v2Error(401, 'Missing participant token'));
  });
});
