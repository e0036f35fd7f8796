// Livestream sessions: each period a livestream is LIVE is one session (docs/api-v2.md,
// "Livestreams"), with ingest_seconds growing on the emulator's clock and viewer_seconds =
// ingest_seconds × the simulated viewers. Read through GET /v2/livestreams/{id}, its
// active-livestream-session, a session by id and the sessions of a meeting session; kept in a
// state export and dropped with the organization.
import { describe, expect, it } from 'vitest';
import { GO_LIVE_MS } from '../../helpers/documented.js';
import { MISSING_ID, addParticipant, createIndependentLivestream, createLivestream, createMeeting, v2Error, type Resource } from '../../helpers/builders.js';
import { iso, patchSimulator } from '../../helpers/lifecycle-helpers.js';
import { BASIC, ORG_ID, START, basicAuth, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const force = (t: TestApp, id: string, to: string) => t.api.post(`/_emulator/livestreams/${id}/transition`).send({ to }).expect(200);
const detail = async (t: TestApp, id: string, query = '') =>
  (await t.api.get(`/v2/livestreams/${id}${query}`).set('Authorization', BASIC).expect(200)).body.data;
const EMPTY_PAGE = { total_count: 0, start_offset: 0, end_offset: 0 };
const exportState = async (t: TestApp) => (await t.api.get('/_emulator/state').expect(200)).text;
/** A fresh emulator that imported `state` (200). */
async function importedFrom(state: string): Promise<TestApp> {
  const other = makeTestApp();
  await other.api.put('/_emulator/state').set('content-type', 'application/json').send(state).expect(200);
  return other;
}
/** The 400 of importing `doc` into `t`. */
const refusedImport = (t: TestApp, doc: unknown) => t.api.put('/_emulator/state').set('content-type', 'application/json').send(JSON.stringify(doc)).expect(400);

/**
 * A manual-mode script on the clock: an RTMP livestream LIVE 10 s → 70 s (IDLE), LIVE again at
 * 100 s, still LIVE when read at 130 s.
 */
async function twoSessions() {
  const t = makeTestApp();
  await patchSimulator(t, { livestream: { mode: 'manual' } });
  const l = await createIndependentLivestream(t.api, { name: 'obs' });
  t.advance(10_000);
  await force(t, l.id, 'LIVE');
  t.advance(60_000);
  await force(t, l.id, 'IDLE');
  t.advance(30_000);
  await force(t, l.id, 'LIVE');
  t.advance(30_000);
  return { ...t, l };
}

describe('GET /v2/livestreams/{livestream_id}', () => {
  it('answers the livestream, its current session and its sessions newest first, with ingest and viewer seconds from the clock', async () => {
    const t = await twoSessions();
    const data = await detail(t, t.l.id);
    const second = {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      livestream_id: t.l.id,
      started_time: iso(START + 100_000),
      created_at: iso(START + 100_000),
      updated_at: iso(START + 100_000),
      ingest_seconds: 30,
      viewer_seconds: 30,
    };
    const first = {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      livestream_id: t.l.id,
      started_time: iso(START + 10_000),
      stopped_time: iso(START + 70_000),
      created_at: iso(START + 10_000),
      updated_at: iso(START + 70_000),
      ingest_seconds: 60,
      viewer_seconds: 60,
    };
    expect(data).toEqual({
      livestream: { ...t.l, status: 'LIVE', updated_at: iso(START + 100_000) },
      session: second,
      sessions: [second, first],
      paging: { total_count: 2, start_offset: 1, end_offset: 2 },
    });
    expect(data.session.id).toBe(data.sessions[0].id);
    expect(data.sessions[0].id).not.toBe(data.sessions[1].id);
  });

  it('pages the sessions with page_no and per_page', async () => {
    const t = await twoSessions();
    const page2 = await detail(t, t.l.id, '?per_page=1&page_no=2');
    expect(page2.sessions).toEqual([expect.objectContaining({ started_time: iso(START + 10_000), ingest_seconds: 60 })]);
    expect(page2.paging).toEqual({ total_count: 2, start_offset: 2, end_offset: 2 });
    expect(page2.session).toMatchObject({ started_time: iso(START + 100_000) });
  });

  it('viewer_seconds follow the simulated viewers (ingest_seconds × viewers)', async () => {
    const t = await twoSessions();
    await patchSimulator(t, { livestream: { viewers: 3 } });
    const data = await detail(t, t.l.id);
    expect(data.sessions.map((s: Resource) => [s.ingest_seconds, s.viewer_seconds])).toEqual([
      [30, 90],
      [60, 180],
    ]);
  });

  it("a meeting's livestream: the first session carries invoked_time (the start call); a stop closes it", async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const l = await createLivestream(t.api, m.id);
    t.advance(GO_LIVE_MS + 45_500);
    await t.api.post(`/v2/meetings/${m.id}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    t.advance(60_000);
    const data = await detail(t, l.id);
    expect(data.livestream).toMatchObject({ status: 'OFFLINE' });
    expect(data.session).toEqual({
      id: expect.any(String),
      livestream_id: l.id,
      invoked_time: iso(START),
      started_time: iso(START + GO_LIVE_MS),
      stopped_time: iso(START + GO_LIVE_MS + 45_500),
      created_at: iso(START + GO_LIVE_MS),
      updated_at: iso(START + GO_LIVE_MS + 45_500),
      ingest_seconds: 45,
      viewer_seconds: 45,
    });
  });

  it('a failed ingest ends the session with err_message', async () => {
    const t = makeTestApp();
    const l = await createIndependentLivestream(t.api);
    t.advance(GO_LIVE_MS + 12_000);
    await force(t, l.id, 'ERRORED');
    const data = await detail(t, l.id);
    expect(data.livestream.status).toBe('ERRORED');
    expect(data.session).toMatchObject({ err_message: 'Ingest failed', stopped_time: iso(START + GO_LIVE_MS + 12_000), ingest_seconds: 12 });
  });

  it('a livestream that failed before going LIVE has no session', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { fail_next: 1 } });
    const l = await createIndependentLivestream(t.api);
    t.advance(GO_LIVE_MS);
    expect(await detail(t, l.id)).toEqual({ livestream: expect.objectContaining({ status: 'ERRORED' }), sessions: [], paging: EMPTY_PAGE });
  });
});

describe('GET /v2/livestreams/{livestream_id}/active-livestream-session', () => {
  it('answers the LIVE livestream with its running session', async () => {
    const t = await twoSessions();
    const res = await t.api.get(`/v2/livestreams/${t.l.id}/active-livestream-session`).set('Authorization', BASIC).expect(200);
    const data = await detail(t, t.l.id);
    expect(res.body).toEqual({ success: true, data: { livestream: data.livestream, session: data.session } });
  });

  it.each([
    ['waiting for ingest', [] as string[]],
    ['IDLE', ['LIVE', 'IDLE']],
    ['stopped', ['LIVE', 'OFFLINE']],
  ])('answers 404 while the livestream is %s', async (_name, steps) => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const l = await createIndependentLivestream(t.api);
    for (const to of steps) await force(t, l.id, to);
    const res = await t.api.get(`/v2/livestreams/${l.id}/active-livestream-session`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No active livestream session found for livestream ${l.id}`));
  });

  it('answers 404 for an unknown livestream and 400 for a bad id', async () => {
    const { api } = makeTestApp();
    const missing = await api.get(`/v2/livestreams/${MISSING_ID}/active-livestream-session`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No livestream found with id ${MISSING_ID}`));
    const bad = await api.get('/v2/livestreams/1/active-livestream-session').set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "livestream_id" must be a valid GUID'));
  });
});

describe('GET /v2/livestreams/sessions/{livestream-session-id}', () => {
  it('answers one session as the livestream read shows it', async () => {
    const t = await twoSessions();
    const data = await detail(t, t.l.id);
    for (const s of data.sessions) {
      const res = await t.api.get(`/v2/livestreams/sessions/${s.id}`).set('Authorization', BASIC).expect(200);
      expect(res.body).toEqual({ success: true, data: s });
    }
  });

  it('answers 404 for an unknown session (a livestream id is not one) and 400 for a bad id', async () => {
    const t = await twoSessions();
    for (const id of [MISSING_ID, t.l.id]) {
      const res = await t.api.get(`/v2/livestreams/sessions/${id}`).set('Authorization', BASIC).expect(404);
      expect(res.body).toEqual(v2Error(404, `No livestream session found with id ${id}`));
    }
    const bad = await t.api.get('/v2/livestreams/sessions/abc').set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "livestream-session-id" must be a valid GUID'));
  });
});

describe('GET /v2/sessions/{session_id}/livestream-sessions', () => {
  /** A meeting session during which the meeting's livestream went LIVE twice; a second meeting session without. */
  async function meetingSessions() {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id);
    const join = () => t.api.post(`/_emulator/meetings/${m.id}/participants/${p.id}/join`).expect(200);
    const leave = () => t.api.post(`/_emulator/meetings/${m.id}/participants/${p.id}/leave`).expect(200);
    const session1 = (await join()).body.session.id as string;
    const l = await createLivestream(t.api, m.id);
    t.advance(1_000);
    await force(t, l.id, 'LIVE');
    t.advance(20_000);
    await force(t, l.id, 'IDLE');
    t.advance(5_000);
    await force(t, l.id, 'LIVE');
    t.advance(8_000);
    await leave();
    t.advance(1_000);
    const session2 = (await join()).body.session.id as string;
    return { ...t, m, l, session1, session2 };
  }

  it('answers the livestream sessions that went LIVE during the meeting session, newest first, paged in data', async () => {
    const t = await meetingSessions();
    const res = await t.api.get(`/v2/sessions/${t.session1}/livestream-sessions`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        data: [
          // Still LIVE when read at 35 s: a livestream goes on when everyone leaves.
          expect.objectContaining({ livestream_id: t.l.id, started_time: iso(START + 26_000), ingest_seconds: 9 }),
          expect.objectContaining({ livestream_id: t.l.id, started_time: iso(START + 1_000), stopped_time: iso(START + 21_000), ingest_seconds: 20 }),
        ],
        paging: { total_count: 2, start_offset: 1, end_offset: 2 },
      },
    });
    const page = await t.api.get(`/v2/sessions/${t.session1}/livestream-sessions?per_page=1&page_no=2`).set('Authorization', BASIC).expect(200);
    expect(page.body.data.data).toEqual([expect.objectContaining({ started_time: iso(START + 1_000) })]);
    expect(page.body.data.paging).toEqual({ total_count: 2, start_offset: 2, end_offset: 2 });
  });

  it('answers an empty page for a known meeting session without livestream sessions', async () => {
    const t = await meetingSessions();
    const res = await t.api.get(`/v2/sessions/${t.session2}/livestream-sessions`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { data: [], paging: EMPTY_PAGE } });
  });

  it('answers 404 for a session id that is no meeting session, while meetings have sessions of their own', async () => {
    const t = await meetingSessions();
    const res = await t.api.get(`/v2/sessions/${MISSING_ID}/livestream-sessions`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No session found with id ${MISSING_ID}`));
  });

  it('a livestream that goes LIVE after the meeting session ended is not one of its livestream sessions', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id);
    const session = (await t.api.post(`/_emulator/meetings/${m.id}/participants/${p.id}/join`).expect(200)).body.session.id as string;
    t.advance(10_000);
    await t.api.post(`/_emulator/meetings/${m.id}/participants/${p.id}/leave`).expect(200);
    t.advance(1_000);
    const l = await createLivestream(t.api, m.id);
    await force(t, l.id, 'LIVE');
    const res = await t.api.get(`/v2/sessions/${session}/livestream-sessions`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { data: [], paging: EMPTY_PAGE } });
  });

  it('answers 404 for an unknown session and 400 for a bad id', async () => {
    const { api } = makeTestApp();
    const missing = await api.get(`/v2/sessions/${MISSING_ID}/livestream-sessions`).set('Authorization', BASIC).expect(404);
    expect(missing.body).toEqual(v2Error(404, `No session found with id ${MISSING_ID}`));
    const bad = await api.get('/v2/sessions/x/livestream-sessions').set('Authorization', BASIC).expect(400);
    expect(bad.body).toEqual(v2Error(400, 'BAD_REQUEST: "session_id" must be a valid GUID'));
  });
});

describe('the newest session in the lists', () => {
  it('GET /v2/meetings/{id}/livestream and GET /v2/livestreams carry the newest session of the listed livestreams', async () => {
    const t = await twoSessions();
    const newest = (await detail(t, t.l.id)).session;
    const all = await t.api.get('/v2/livestreams').set('Authorization', BASIC).expect(200);
    expect(all.body.data.session).toEqual(newest);
    const m = await createMeeting(t.api);
    await createLivestream(t.api, m.id);
    const ofMeeting = await t.api.get(`/v2/meetings/${m.id}/livestream`).set('Authorization', BASIC).expect(200);
    expect(ofMeeting.body.data).not.toHaveProperty('session');
  });

  it('the lists carry the session that started last, whichever livestream in the page has it', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    // Created a, b, c: the list shows c, b, a. Sessions start c at 10 s, a at 20 s, b at 30 s.
    const a = await createIndependentLivestream(t.api, { name: 'a' });
    const b = await createIndependentLivestream(t.api, { name: 'b' });
    const c = await createIndependentLivestream(t.api, { name: 'c' });
    t.advance(10_000);
    await force(t, c.id, 'LIVE');
    t.advance(10_000);
    await force(t, a.id, 'LIVE');
    t.advance(10_000);
    await force(t, b.id, 'LIVE');
    t.advance(5_000);
    for (const query of ['', '?sort_order=ASC']) {
      const res = await t.api.get(`/v2/livestreams${query}`).set('Authorization', BASIC).expect(200);
      expect(res.body.data.livestreams).toHaveLength(3);
      expect(res.body.data.session).toMatchObject({ livestream_id: b.id, started_time: iso(START + 30_000), ingest_seconds: 5 });
    }
  });

  it("carry the organization's very first session when it is the newest of the page", async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const l = await createIndependentLivestream(t.api, { name: 'first' });
    t.advance(10_000);
    await force(t, l.id, 'LIVE');
    t.advance(4_000);
    const res = await t.api.get('/v2/livestreams').set('Authorization', BASIC).expect(200);
    expect(res.body.data.session).toMatchObject({ livestream_id: l.id, started_time: iso(START + 10_000), ingest_seconds: 4 });
  });

  it('of two sessions that started at the same instant, the lists carry the one that went live second, in either sort order', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const a = await createIndependentLivestream(t.api, { name: 'a' });
    const b = await createIndependentLivestream(t.api, { name: 'b' });
    t.advance(10_000);
    // b goes live first, a second, at the same millisecond of the emulator's clock.
    await force(t, b.id, 'LIVE');
    await force(t, a.id, 'LIVE');
    const second = (await detail(t, a.id)).session;
    expect(second).toMatchObject({ livestream_id: a.id, started_time: iso(START + 10_000) });
    expect((await detail(t, b.id)).session.started_time).toBe(second.started_time);
    for (const query of ['', '?sort_order=ASC']) {
      const res = await t.api.get(`/v2/livestreams${query}`).set('Authorization', BASIC).expect(200);
      expect(res.body.data.livestreams.map((l: Resource) => l.id)).toEqual(query ? [a.id, b.id] : [b.id, a.id]);
      expect(res.body.data.session).toEqual(second);
    }
    // A state export keeps them so: an import takes two sessions that started at the same instant.
    const other = await importedFrom(await exportState(t));
    expect((await other.api.get('/v2/livestreams').set('Authorization', BASIC).expect(200)).body.data.session).toEqual(second);
  });

  it('sessions that start the instant the one before stopped, or stop the instant they started, are kept by an export and taken by an import', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { mode: 'manual' } });
    const l = await createIndependentLivestream(t.api, { name: 'obs' });
    t.advance(10_000);
    await force(t, l.id, 'LIVE');
    t.advance(10_000);
    for (const to of ['IDLE', 'LIVE', 'IDLE', 'LIVE']) await force(t, l.id, to);
    const before = await detail(t, l.id);
    expect(before.sessions.map((s: Resource) => [s.started_time, s.stopped_time])).toEqual([
      [iso(START + 20_000), undefined],
      [iso(START + 20_000), iso(START + 20_000)],
      [iso(START + 10_000), iso(START + 20_000)],
    ]);
    const other = await importedFrom(await exportState(t));
    expect(await detail(other, l.id)).toEqual(before);
  });
});

describe('state and organizations', () => {
  it('a state export holds the sessions; an import brings them back exactly', async () => {
    const t = await twoSessions();
    const before = await detail(t, t.l.id);
    const exported = await exportState(t);
    expect(JSON.parse(exported).organizations[0].livestream_sessions).toHaveLength(2);
    const other = await importedFrom(exported);
    expect(await detail(other, t.l.id)).toEqual(before);
    expect(await exportState(other)).toBe(exported);
  });

  it('an import refuses a session of a livestream the organization does not have (400), and changes nothing', async () => {
    const t = await twoSessions();
    const doc = JSON.parse(await exportState(t));
    doc.organizations[0].livestream_sessions[0].livestreamId = MISSING_ID;
    const res = await refusedImport(t, doc);
    expect(JSON.stringify(res.body)).toContain('organizations[0].livestream_sessions[0].livestreamId: not a livestream of this organization');
    expect((await detail(t, t.l.id)).paging.total_count).toBe(2);
  });

  describe('an import refuses sessions the emulator could not have made (400 naming the place), and changes nothing', () => {
    // twoSessions' export: the livestream LIVE, its sessions [10 s → 70 s, 100 s → open].
    type Saved = { startedTime: number; stoppedTime: number | null };
    type SavedOrg = { livestreams: [{ state: string }]; livestream_sessions: [Saved, Saved] };
    const cases: Array<[string, (org: SavedOrg) => void, string]> = [
      [
        'sessions out of start order',
        (o) => o.livestream_sessions.reverse(),
        'livestream_sessions[1].startedTime: sessions are listed in the order they started',
      ],
      [
        'a session stopped before it started',
        (o) => (o.livestream_sessions[0].stoppedTime = o.livestream_sessions[0].startedTime - 1),
        'livestream_sessions[0].stoppedTime: a session stops after it starts',
      ],
      [
        "a session that starts before its livestream's previous one stopped",
        (o) => (o.livestream_sessions[0].stoppedTime = o.livestream_sessions[1].startedTime + 1),
        "livestream_sessions[1].startedTime: a session starts after its livestream's previous session stopped",
      ],
      [
        'an open session followed by another',
        (o) => (o.livestream_sessions[0].stoppedTime = null),
        "livestream_sessions[1].startedTime: a session starts after its livestream's previous session stopped",
      ],
      [
        'a LIVE livestream whose last session is stopped',
        (o) => (o.livestream_sessions[1].stoppedTime = o.livestream_sessions[1].startedTime + 1),
        'livestreams[0].state: a LIVE livestream has an open session (its last one, stoppedTime null)',
      ],
      [
        'a livestream with an open session that is not LIVE',
        (o) => (o.livestreams[0].state = 'IDLE'),
        'livestreams[0].state: a livestream with an open session is LIVE',
      ],
    ];
    it.each(cases)('%s', async (_name, change, message) => {
      const t = await twoSessions();
      const before = await detail(t, t.l.id);
      const doc = JSON.parse(await exportState(t));
      change(doc.organizations[0]);
      const res = await refusedImport(t, doc);
      expect(JSON.stringify(res.body)).toContain(`organizations[0].${message}`);
      expect(await detail(t, t.l.id)).toEqual(before);
    });

    it('a LIVE livestream with no session at all', async () => {
      const t = await twoSessions();
      const doc = JSON.parse(await exportState(t));
      doc.organizations[0].livestream_sessions = [];
      const res = await refusedImport(t, doc);
      expect(JSON.stringify(res.body)).toContain('organizations[0].livestreams[0].state: a LIVE livestream has an open session');
    });
  });

  it("an organization's reset drops its livestream sessions", async () => {
    const t = await twoSessions();
    const { sessions } = await detail(t, t.l.id);
    await t.api.post(`/_emulator/orgs/${ORG_ID}/reset`).expect(200);
    const res = await t.api.get(`/v2/livestreams/sessions/${sessions[0].id}`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No livestream session found with id ${sessions[0].id}`));
  });

  it('another organization cannot read the sessions (404) and has none of its own', async () => {
    const t = await twoSessions();
    const { sessions } = await detail(t, t.l.id);
    const org = (await t.api.post('/_emulator/orgs').send({ name: 'Organization B' }).expect(201)).body as { id: string; api_key: string };
    const b = basicAuth(org.id, org.api_key);
    const res = await t.api.get(`/v2/livestreams/sessions/${sessions[0].id}`).set('Authorization', b).expect(404);
    expect(res.body).toEqual(v2Error(404, `No livestream session found with id ${sessions[0].id}`));
    const overall = await t.api.get('/v2/analytics/livestreams/overall').set('Authorization', b).expect(200);
    expect(overall.body.data).toEqual({ count: 0, total_ingest_seconds: 0, total_viewer_seconds: 0 });
  });
});
