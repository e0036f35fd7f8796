// GET /v2/analytics/daywise: sessions, session minutes and recording minutes per UTC day,
// computed from the session history and the recordings.
import { describe, expect, it } from 'vitest';
import { BASIC, START, basicAuth, makeTestApp, type TestApp } from '../../helpers/test-app.js';
import { recordingAction, startRecording, v2Error } from '../../helpers/builders.js';
import { DAY, MINUTE, SECOND } from '../../helpers/lifecycle-helpers.js';
import { leave, liveMeeting } from '../../helpers/session-helpers.js';
import { RECORDER_JOINS_MS } from '../../helpers/documented.js';

const daywise = (t: TestApp, query = '', auth = BASIC) => t.api.get(`/v2/analytics/daywise${query}`).set('Authorization', auth);

/**
 * Day 1 (2026-01-01): a 10-minute session of two (20 participant-minutes), recorded for 6 min.
 * Day 3 (2026-01-03): a session of one, 1.5 min, still LIVE when asked.
 */
async function twoDays(t: TestApp) {
  const first = await liveMeeting(t, ['alice', 'bob'], { title: 'Day one' });
  const rec = await startRecording(t.api, first.meetingId);
  t.advance(RECORDER_JOINS_MS + 6 * MINUTE);
  await recordingAction(t.api, rec.id, 'stop');
  t.advance(10 * MINUTE - 6 * MINUTE - RECORDER_JOINS_MS);
  await leave(t, first.meetingId, first.ids.alice!);
  await leave(t, first.meetingId, first.ids.bob!);
  t.advance(2 * DAY - 10 * MINUTE);
  await liveMeeting(t, ['carol'], { title: 'Day three' });
  t.advance(90 * SECOND);
}

describe('GET /v2/analytics/daywise', () => {
  it('counts per UTC day only the days with something to count', async () => {
    const t = makeTestApp();
    await twoDays(t);
    const res = await daywise(t, '?start_date=2026-01-01&end_date=2026-01-03').expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        session_stats: {
          sessions_count: 2,
          sessions_minutes_consumed: 21.5,
          day_stats: [
            { day: '2026-01-01T00:00:00.000Z', total_sessions: 1, total_session_minutes: 20 },
            { day: '2026-01-03T00:00:00.000Z', total_sessions: 1, total_session_minutes: 1.5 },
          ],
        },
        recording_stats: {
          recording_count: 1,
          recording_minutes_consumed: 6,
          day_stats: [{ day: '2026-01-01T00:00:00.000Z', total_recordings: 1, total_recording_minutes: 6 }],
        },
      },
    });
  });

  it('end_date is included, start_date bounds the range', async () => {
    const t = makeTestApp();
    await twoDays(t);
    const only = async (q: string) => (await daywise(t, q).expect(200)).body.data.session_stats.day_stats.map((d: { day: string }) => d.day.slice(0, 10));
    expect(await only('?start_date=2026-01-02&end_date=2026-01-03')).toEqual(['2026-01-03']);
    expect(await only('?start_date=2026-01-01&end_date=2026-01-01')).toEqual(['2026-01-01']);
    expect(await only('?start_date=2026-01-02&end_date=2026-01-02')).toEqual([]);
  });

  it('by default covers the 30 days before today (emulator clock), today included', async () => {
    const t = makeTestApp();
    await twoDays(t);
    expect((await daywise(t).expect(200)).body.data.session_stats.sessions_count).toBe(2);
    t.advance(30 * DAY);
    // Today is 2026-02-02: 2026-01-03 is 30 days back, 2026-01-01 is not.
    const res = await daywise(t).expect(200);
    expect(res.body.data.session_stats.day_stats.map((d: { day: string }) => d.day)).toEqual(['2026-01-03T00:00:00.000Z']);
    expect(res.body.data.recording_stats).toEqual({ recording_count: 0, recording_minutes_consumed: 0, day_stats: [] });
  });

  it('a LIVE session counts its minutes so far', async () => {
    const t = makeTestApp();
    await liveMeeting(t, ['alice', 'bob']);
    t.advance(3 * MINUTE);
    expect((await daywise(t, `?end_date=2026-01-01`).expect(200)).body.data.session_stats.sessions_minutes_consumed).toBe(6);
  });

  it.each([
    ['?start_date=01-01-2026', 'BAD_REQUEST: "start_date" must be a date in YYYY-MM-DD format'],
    ['?end_date=2026-02-30', 'BAD_REQUEST: "end_date" must be a date in YYYY-MM-DD format'],
    ['?start_date=2026-01-05&end_date=2026-01-01', 'BAD_REQUEST: "end_date" must not be before "start_date"'],
  ])('rejects %s with 400', async (query, message) => {
    const t = makeTestApp();
    expect((await daywise(t, query).expect(400)).body).toEqual(v2Error(400, message));
  });

  it("counts the organization's own sessions only; no credentials is 401", async () => {
    const t = makeTestApp();
    await twoDays(t);
    const org = (await t.api.post('/_emulator/orgs').send({ name: 'Other' }).expect(201)).body;
    const res = await daywise(t, '', basicAuth(org.id, org.api_key)).expect(200);
    expect(res.body.data).toEqual({
      session_stats: { sessions_count: 0, sessions_minutes_consumed: 0, day_stats: [] },
      recording_stats: { recording_count: 0, recording_minutes_consumed: 0, day_stats: [] },
    });
    await t.api.get('/v2/analytics/daywise').expect(401);
    expect(START).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
  });
});
