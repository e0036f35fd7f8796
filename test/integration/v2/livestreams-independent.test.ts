// Livestreams of their own (no meeting: any RTMP encoder, docs/api-v2.md "Livestreams") and the
// operations on any livestream: reset-stream-key, enable, disable. Every answer is validated
// against the served OpenAPI document by `api`.
import { describe, expect, it } from 'vitest';
import { GO_LIVE_MS } from '../../helpers/documented.js';
import { MISSING_ID, createIndependentLivestream, createLivestream, createMeeting, getLivestream, v2Error } from '../../helpers/builders.js';
import { iso, patchSimulator, recordEvents } from '../../helpers/lifecycle-helpers.js';
import { BASIC, START, START_ISO, basicAuth, makeTestApp, type TestApp } from '../../helpers/test-app.js';

async function otherOrg(t: TestApp): Promise<string> {
  const org = (await t.api.post('/_emulator/orgs').send({ name: 'Organization B' }).expect(201)).body as { id: string; api_key: string };
  return basicAuth(org.id, org.api_key);
}

describe('POST /v2/livestreams', () => {
  it('answers 201 with a livestream without a meeting: OFFLINE, enabled, with its ingest server, stream key and playback URL', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/livestreams').set('Authorization', BASIC).send({ name: 'test_livestream' }).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        meeting_id: null,
        status: 'OFFLINE',
        name: 'test_livestream',
        ingest_server: 'rtmps://emulator.test:1936/app/',
        stream_key: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
        playback_url: `http://emulator.test/media/livestreams/${res.body.data.id}/index.m3u8`,
        disabled: false,
        created_at: START_ISO,
        updated_at: START_ISO,
      },
    });
  });

  it.each([{}, { name: null }])('takes no name (%j): name is null', async (body) => {
    const { api } = makeTestApp();
    expect(await createIndependentLivestream(api, body)).toMatchObject({ name: null, meeting_id: null });
  });

  it('goes LIVE once its encoder connects (the ingest delay), like a meeting livestream', async () => {
    const t = makeTestApp();
    const l = await createIndependentLivestream(t.api);
    t.advance(GO_LIVE_MS);
    expect(await getLivestream(t.api, l.id)).toMatchObject({ status: 'LIVE', meeting_id: null, updated_at: iso(START + GO_LIVE_MS) });
  });

  it('is listed with the other livestreams, and a meeting can still have its own', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const own = await createIndependentLivestream(api);
    const meetings = await createLivestream(api, m.id);
    const list = await api.get('/v2/livestreams').set('Authorization', BASIC).expect(200);
    expect(list.body.data.livestreams.map((l: { id: string }) => l.id)).toEqual([meetings.id, own.id]);
    const ofMeeting = await api.get(`/v2/meetings/${m.id}/livestream`).set('Authorization', BASIC).expect(200);
    expect(ofMeeting.body.data.livestreams.map((l: { id: string }) => l.id)).toEqual([meetings.id]);
  });

  it.each([
    [{ name: 'has space' }, 'BAD_REQUEST: "name" must only contain letters, digits, "-" and "_"'],
    [{ name: 'dots.not.allowed' }, 'BAD_REQUEST: "name" must only contain letters, digits, "-" and "_"'],
    [{ name: 7 }, 'BAD_REQUEST: "name" must be a string'],
    [{ name: 'x'.repeat(256) }, 'BAD_REQUEST: "name" length must be less than or equal to 255 characters long'],
  ])('rejects %j with 400 and creates nothing', async (body, message) => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/livestreams').set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const list = await api.get('/v2/livestreams').set('Authorization', BASIC).expect(200);
    expect(list.body.data.paging.total_count).toBe(0);
  });

  it('answers 401 without credentials and creates nothing', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/livestreams').send({ name: 'x' }).expect(401);
    expect(res.body).toEqual(v2Error(401, 'Missing Authorization header'));
    const list = await api.get('/v2/livestreams').set('Authorization', BASIC).expect(200);
    expect(list.body.data.paging.total_count).toBe(0);
  });
});

describe('POST /v2/livestreams/{livestream_id}/reset-stream-key', () => {
  it('answers the livestream with a new stream key; everything else stays', async () => {
    const t = makeTestApp();
    const l = await createIndependentLivestream(t.api, { name: 'rtmp' });
    t.advance(1_000);
    const res = await t.api.post(`/v2/livestreams/${l.id}/reset-stream-key`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { ...l, stream_key: expect.stringMatching(/^[0-9A-Za-z]{32}$/), updated_at: iso(START + 1_000) } });
    expect(res.body.data.stream_key).not.toBe(l.stream_key);
    expect(await getLivestream(t.api, l.id)).toEqual(res.body.data);
  });

  it('leaves a running ingest LIVE (the new key is for the next connection)', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const l = await createLivestream(t.api, m.id);
    t.advance(GO_LIVE_MS);
    const res = await t.api.post(`/v2/livestreams/${l.id}/reset-stream-key`).set('Authorization', BASIC).expect(200);
    expect(res.body.data).toMatchObject({ status: 'LIVE', meeting_id: m.id });
  });

  it('answers 404 for an unknown livestream and 400 for an id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const missing = await api.post(`/v2/livestreams/${MISSING_ID}/reset-stream-key`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No livestream found with id ${MISSING_ID}`));
    const bad = await api.post('/v2/livestreams/nope/reset-stream-key').set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "livestream_id" must be a valid GUID'));
  });
});

describe('PUT /v2/livestreams/{livestream_id}/disable and /enable', () => {
  it('disable sets disabled; a waiting livestream does not go LIVE until it is enabled, then after the full delay', async () => {
    const t = makeTestApp();
    const l = await createIndependentLivestream(t.api);
    t.advance(1_000);
    const disabled = await t.api.put(`/v2/livestreams/${l.id}/disable`).set('Authorization', BASIC).expect(200);
    expect(disabled.body).toEqual({ success: true, data: { ...l, disabled: true, updated_at: iso(START + 1_000) } });

    t.advance(GO_LIVE_MS * 2);
    expect(await getLivestream(t.api, l.id)).toMatchObject({ status: 'OFFLINE', disabled: true });

    const enabled = await t.api.put(`/v2/livestreams/${l.id}/enable`).set('Authorization', BASIC).expect(200);
    const enabledAt = START + 1_000 + GO_LIVE_MS * 2;
    expect(enabled.body).toEqual({ success: true, data: { ...l, disabled: false, updated_at: iso(enabledAt) } });
    t.advance(GO_LIVE_MS - 1);
    expect((await getLivestream(t.api, l.id)).status).toBe('OFFLINE');
    t.advance(1);
    expect(await getLivestream(t.api, l.id)).toMatchObject({ status: 'LIVE', disabled: false, updated_at: iso(enabledAt + GO_LIVE_MS) });
  });

  it('disable cuts a LIVE ingest: the livestream goes IDLE (livestreaming.statusUpdate IDLE) and stays there', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    const l = await createIndependentLivestream(t.api);
    t.advance(GO_LIVE_MS + 30_000);
    const res = await t.api.put(`/v2/livestreams/${l.id}/disable`).set('Authorization', BASIC).expect(200);
    expect(res.body.data).toMatchObject({ status: 'IDLE', disabled: true });
    await t.api.put(`/v2/livestreams/${l.id}/enable`).set('Authorization', BASIC).expect(200);
    t.advance(GO_LIVE_MS * 10);
    expect(await getLivestream(t.api, l.id)).toMatchObject({ status: 'IDLE', disabled: false });
    expect(events).toEqual([
      `${iso(START)} livestream - → OFFLINE`,
      `${iso(START + GO_LIVE_MS)} livestream OFFLINE → LIVE`,
      `${iso(START + GO_LIVE_MS + 30_000)} livestream LIVE → IDLE`,
      `${iso(START + GO_LIVE_MS + 30_000)} livestream.enabled`,
    ]);
  });

  it('a disabled livestream cannot be forced LIVE (409); enabled, it can go LIVE again from IDLE', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const l = await createIndependentLivestream(t.api);
    await t.api.post(`/_emulator/livestreams/${l.id}/transition`).send({ to: 'LIVE' }).expect(200);
    await t.api.put(`/v2/livestreams/${l.id}/disable`).set('Authorization', BASIC).expect(200);
    const refused = await t.api.post(`/_emulator/livestreams/${l.id}/transition`).send({ to: 'LIVE' }).expect(409);
    expect(refused.body).toEqual({ error: { code: 'CONFLICT', message: `Livestream ${l.id} is disabled` } });
    await t.api.put(`/v2/livestreams/${l.id}/enable`).set('Authorization', BASIC).expect(200);
    const again = await t.api.post(`/_emulator/livestreams/${l.id}/transition`).send({ to: 'LIVE' }).expect(200);
    expect(again.body).toMatchObject({ status: 'LIVE', disabled: false });
  });

  it('a stopped or failed livestream cannot be forced anywhere (409); the answer names what it is', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const stopped = await createIndependentLivestream(t.api);
    const failed = await createIndependentLivestream(t.api);
    await t.api.post(`/_emulator/livestreams/${stopped.id}/transition`).send({ to: 'OFFLINE' }).expect(200);
    await t.api.post(`/_emulator/livestreams/${failed.id}/transition`).send({ to: 'ERRORED' }).expect(200);
    // A stopped livestream reads OFFLINE on the wire, like one waiting for ingest: the answer says which.
    const fromStopped = await t.api.post(`/_emulator/livestreams/${stopped.id}/transition`).send({ to: 'LIVE' }).expect(409);
    expect(fromStopped.body).toEqual({ error: { code: 'CONFLICT', message: 'Cannot move a livestream from OFFLINE (stopped) to LIVE' } });
    const fromFailed = await t.api.post(`/_emulator/livestreams/${failed.id}/transition`).send({ to: 'LIVE' }).expect(409);
    expect(fromFailed.body).toEqual({ error: { code: 'CONFLICT', message: 'Cannot move a livestream from ERRORED to LIVE' } });
  });

  it('enabling a livestream that is already enabled leaves its ingest delay running', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    const l = await createIndependentLivestream(t.api);
    t.advance(GO_LIVE_MS - 2_000);
    await t.api.put(`/v2/livestreams/${l.id}/enable`).set('Authorization', BASIC).expect(200);
    // The encoder still connects at the delay counted from creation, not from the enable.
    t.advance(2_000);
    expect(await getLivestream(t.api, l.id)).toMatchObject({ status: 'LIVE', updated_at: iso(START + GO_LIVE_MS) });
    // Nothing was enabled: the livestream never was disabled.
    expect(events).toEqual([`${iso(START)} livestream - → OFFLINE`, `${iso(START + GO_LIVE_MS)} livestream OFFLINE → LIVE`]);
  });

  it('are idempotent: disabling twice or enabling an enabled livestream answers it as it is', async () => {
    const t = makeTestApp();
    const l = await createIndependentLivestream(t.api);
    t.advance(1_000);
    const enabled = await t.api.put(`/v2/livestreams/${l.id}/enable`).set('Authorization', BASIC).expect(200);
    expect(enabled.body.data).toEqual(l);
    await t.api.put(`/v2/livestreams/${l.id}/disable`).set('Authorization', BASIC).expect(200);
    t.advance(1_000);
    const twice = await t.api.put(`/v2/livestreams/${l.id}/disable`).set('Authorization', BASIC).expect(200);
    expect(twice.body.data).toEqual({ ...l, disabled: true, updated_at: iso(START + 1_000) });
  });

  it.each(['enable', 'disable'])('%s answers 404 for an unknown livestream and 400 for a bad id', async (action) => {
    const { api } = makeTestApp();
    const missing = await api.put(`/v2/livestreams/${MISSING_ID}/${action}`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No livestream found with id ${MISSING_ID}`));
    const bad = await api.put(`/v2/livestreams/zz/${action}`).set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "livestream_id" must be a valid GUID'));
  });
});

describe('isolation between organizations', () => {
  it("another organization neither sees nor changes the first one's livestreams", async () => {
    const t = makeTestApp();
    const l = await createIndependentLivestream(t.api, { name: 'private' });
    const b = await otherOrg(t);
    for (const [method, path] of [
      ['get', `/v2/livestreams/${l.id}`],
      ['post', `/v2/livestreams/${l.id}/reset-stream-key`],
      ['put', `/v2/livestreams/${l.id}/enable`],
      ['put', `/v2/livestreams/${l.id}/disable`],
      ['get', `/v2/livestreams/${l.id}/active-livestream-session`],
    ] as const) {
      const res = await t.api[method](path).set('Authorization', b).expect(404);
      expect(res.body).toEqual(v2Error(404, `No livestream found with id ${l.id}`));
    }
    const list = await t.api.get('/v2/livestreams').set('Authorization', b).expect(200);
    expect(list.body.data).toEqual({ livestreams: [], paging: { total_count: 0, start_offset: 0, end_offset: 0 } });
    const own = await createIndependentLivestream(t.api, { name: 'mine' });
    expect(await getLivestream(t.api, l.id)).toEqual(l);
    expect(own.id).not.toBe(l.id);
  });
});
