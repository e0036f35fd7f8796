import { describe, expect, it } from 'vitest';
import { BASIC, START, START_ISO, makeTestApp, type TestApp } from '../../helpers/test-app.js';
import { GO_LIVE_MS } from '../../helpers/documented.js';
import { MISSING_ID, createLivestream, createMeeting, v2Error, type Resource } from '../../helpers/builders.js';

const iso = (ms: number) => new Date(ms).toISOString();
// With the default policy one simulated viewer watches: viewer_seconds = ingest_seconds × 1
// (docs/time-and-lifecycles.md).

async function active(t: TestApp, meetingId: string): Promise<Resource> {
  const res = await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(200);
  return res.body.data;
}

describe('POST /v2/meetings/{meeting_id}/livestreams', () => {
  it('answers 201 with the livestream OFFLINE, its ingest server, stream key and playback URL', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.post(`/v2/meetings/${m.id}/livestreams`).set('Authorization', BASIC).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        meeting_id: m.id,
        status: 'OFFLINE',
        name: null,
        ingest_server: 'rtmps://emulator.test:1936/app/',
        stream_key: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
        playback_url: `http://emulator.test/media/livestreams/${res.body.data.id}/index.m3u8`,
        disabled: false,
        created_at: START_ISO,
        updated_at: START_ISO,
      },
    });
  });

  it('takes an optional name', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    expect(await createLivestream(api, m.id, { name: 'Keynote' })).toMatchObject({ name: 'Keynote', status: 'OFFLINE' });
  });

  it('answers 409 while the meeting has an active livestream', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    await createLivestream(api, m.id);
    const res = await api.post(`/v2/meetings/${m.id}/livestreams`).set('Authorization', BASIC).expect(409);
    expect(res.body).toEqual(v2Error(409, `Meeting ${m.id} already has an active livestream`));
  });

  it('starts a new livestream once the previous one is stopped', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const first = await createLivestream(api, m.id);
    await api.post(`/v2/meetings/${m.id}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    const second = await createLivestream(api, m.id);
    expect(second.id).not.toBe(first.id);
    expect(second.stream_key).not.toBe(first.stream_key);
  });

  it.each([
    [{ name: 5 }, 'BAD_REQUEST: "name" must be a string'],
    [{ name: 'x'.repeat(256) }, 'BAD_REQUEST: "name" length must be less than or equal to 255 characters long'],
    // Production's pattern: letters, digits, "-" and "_" only.
    [{ name: 'Key note' }, 'BAD_REQUEST: "name" must only contain letters, digits, "-" and "_"'],
    [{ name: 'keynote!' }, 'BAD_REQUEST: "name" must only contain letters, digits, "-" and "_"'],
    [{ video_config: { height: 0 } }, 'BAD_REQUEST: "video_config.height" must be greater than or equal to 1'],
  ])('rejects %j with 400 and creates nothing', async (body, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.post(`/v2/meetings/${m.id}/livestreams`).set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const list = await api.get('/v2/livestreams').set('Authorization', BASIC).expect(200);
    expect(list.body.data.paging.total_count).toBe(0);
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const res = await api.post(`/v2/meetings/${MISSING_ID}/livestreams`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it('answers 400 for a meeting id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings/abc/livestreams').set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "meeting_id" must be a valid GUID'));
  });
});

describe('GET /v2/meetings/{meeting_id}/active-livestream', () => {
  it('goes LIVE after the ingest delay; ingest_seconds and viewer_seconds then grow with the clock', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const created = await createLivestream(t.api, m.id);
    expect(await active(t, m.id)).toEqual({ ...created, ingest_seconds: 0, viewer_seconds: 0 });

    t.advance(GO_LIVE_MS - 1);
    expect(await active(t, m.id)).toMatchObject({ status: 'OFFLINE', ingest_seconds: 0, viewer_seconds: 0 });
    t.advance(1);
    const live = await active(t, m.id);
    expect(live).toEqual({ ...created, status: 'LIVE', updated_at: iso(START + GO_LIVE_MS), ingest_seconds: 0, viewer_seconds: 0 });

    t.advance(10_000);
    expect(await active(t, m.id)).toMatchObject({ status: 'LIVE', ingest_seconds: 10, viewer_seconds: 10 });
    t.advance(3_600_000);
    expect(await active(t, m.id)).toMatchObject({ status: 'LIVE', ingest_seconds: 3_610, viewer_seconds: 3_610 });
  });

  it('answers 404 when nothing is active, before and after a livestream', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const before = await t.api.get(`/v2/meetings/${m.id}/active-livestream`).set('Authorization', BASIC).expect(404);
    expect(before.body).toEqual(v2Error(404, `No active livestream found for meeting ${m.id}`));
    await createLivestream(t.api, m.id);
    t.advance(GO_LIVE_MS);
    await t.api.post(`/v2/meetings/${m.id}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    const after = await t.api.get(`/v2/meetings/${m.id}/active-livestream`).set('Authorization', BASIC).expect(404);
    expect(after.body).toEqual(v2Error(404, `No active livestream found for meeting ${m.id}`));
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/meetings/${MISSING_ID}/active-livestream`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it('answers 400 for a meeting id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/v2/meetings/abc/active-livestream').set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "meeting_id" must be a valid GUID'));
  });
});

describe('POST /v2/meetings/{meeting_id}/active-livestream/stop', () => {
  it('answers a message; the livestream is OFFLINE and no longer active', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const l = await createLivestream(t.api, m.id);
    t.advance(GO_LIVE_MS + 30_000);
    const res = await t.api.post(`/v2/meetings/${m.id}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { message: 'Livestream stopped successfully' } });
    const got = await t.api.get(`/v2/livestreams/${l.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data.livestream).toEqual({ ...l, status: 'OFFLINE', updated_at: iso(t.now()) });
  });

  it('stops a livestream before it goes LIVE; it stays OFFLINE', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const l = await createLivestream(t.api, m.id);
    await t.api.post(`/v2/meetings/${m.id}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    t.advance(GO_LIVE_MS * 2);
    const got = await t.api.get(`/v2/livestreams/${l.id}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data.livestream.status).toBe('OFFLINE');
  });

  it('answers 404 when nothing is active', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.post(`/v2/meetings/${m.id}/active-livestream/stop`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No active livestream found for meeting ${m.id}`));
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const res = await api.post(`/v2/meetings/${MISSING_ID}/active-livestream/stop`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it('answers 400 for a meeting id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/meetings/abc/active-livestream/stop').set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "meeting_id" must be a valid GUID'));
  });
});

describe('livestream lists and reads', () => {
  /** m1: l1 (stopped), then l3 (active); m2: l2. Created one second apart: l1, l2, l3. */
  async function three() {
    const t = makeTestApp();
    const m1 = await createMeeting(t.api);
    const m2 = await createMeeting(t.api);
    const l1 = await createLivestream(t.api, m1.id);
    await t.api.post(`/v2/meetings/${m1.id}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    t.advance(1_000);
    const l2 = await createLivestream(t.api, m2.id);
    t.advance(1_000);
    const l3 = await createLivestream(t.api, m1.id);
    return { ...t, m1, m2, l1, l2, l3 };
  }
  const ids = (res: { body: { data: { livestreams: Resource[] } } }) => res.body.data.livestreams.map((l) => l.id);

  it("GET /v2/meetings/{id}/livestream lists the meeting's livestreams, newest first, paged", async () => {
    const { api, m1, l1, l3 } = await three();
    const res = await api.get(`/v2/meetings/${m1.id}/livestream`).set('Authorization', BASIC).expect(200);
    expect(ids(res)).toEqual([l3.id, l1.id]);
    expect(res.body.data.paging).toEqual({ total_count: 2, start_offset: 1, end_offset: 2 });
    expect(res.body.data.livestreams[1]).toEqual({ ...l1, status: 'OFFLINE' });
    const page2 = await api.get(`/v2/meetings/${m1.id}/livestream?per_page=1&page_no=2`).set('Authorization', BASIC).expect(200);
    expect(ids(page2)).toEqual([l1.id]);
    expect(page2.body.data.paging).toEqual({ total_count: 2, start_offset: 2, end_offset: 2 });
  });

  it('GET /v2/meetings/{id}/livestream answers an empty page for a meeting without livestreams', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.get(`/v2/meetings/${m.id}/livestream`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { livestreams: [], paging: { total_count: 0, start_offset: 0, end_offset: 0 } } });
  });

  it('GET /v2/meetings/{id}/livestream answers 404 for an unknown meeting and 400 for a bad id', async () => {
    const { api } = makeTestApp();
    const missing = await api.get(`/v2/meetings/${MISSING_ID}/livestream`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
    const bad = await api.get('/v2/meetings/zz/livestream').set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "meeting_id" must be a valid GUID'));
  });

  it('GET /v2/livestreams lists every livestream, newest first, paged', async () => {
    const { api, l1, l2, l3 } = await three();
    const res = await api.get('/v2/livestreams').set('Authorization', BASIC).expect(200);
    expect(ids(res)).toEqual([l3.id, l2.id, l1.id]);
    expect(res.body.data.paging).toEqual({ total_count: 3, start_offset: 1, end_offset: 3 });
    const page = await api.get('/v2/livestreams?per_page=2&page_no=2').set('Authorization', BASIC).expect(200);
    expect(ids(page)).toEqual([l1.id]);
    expect(page.body.data.paging).toEqual({ total_count: 3, start_offset: 3, end_offset: 3 });
  });

  it.each([
    ['per_page=101', 'BAD_REQUEST: "per_page" must be less than or equal to 100'],
    ['page_no=-1', 'BAD_REQUEST: "page_no" must be greater than or equal to 0'],
  ])('GET /v2/livestreams rejects %s with 400', async (query, message) => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/livestreams?${query}`).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
  });

  it('GET /v2/livestreams/{id} answers the livestream, and no session before it went LIVE', async () => {
    const { api, l2 } = await three();
    const res = await api.get(`/v2/livestreams/${l2.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { livestream: l2, sessions: [], paging: { total_count: 0, start_offset: 0, end_offset: 0 } } });
  });

  it('GET /v2/livestreams/{id} answers 404 for an unknown id and 400 for a bad one', async () => {
    const { api } = makeTestApp();
    const missing = await api.get(`/v2/livestreams/${MISSING_ID}`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No livestream found with id ${MISSING_ID}`));
    const bad = await api.get('/v2/livestreams/nope').set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "livestream_id" must be a valid GUID'));
  });
});
