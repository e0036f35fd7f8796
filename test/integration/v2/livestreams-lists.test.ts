// GET /v2/livestreams query options as production documents them (docs/api-v2.md, "Livestreams"):
// status, exclude_meetings, start_time and end_time (creation time, inclusive), sort_order ASC or
// DSC (DESC accepted too), paging; each one honoured, bad values a 400.
import { describe, expect, it } from 'vitest';
import { createIndependentLivestream, createLivestream, createMeeting, v2Error } from '../../helpers/builders.js';
import { iso, patchSimulator } from '../../helpers/lifecycle-helpers.js';
import { BASIC, START, makeTestApp } from '../../helpers/test-app.js';

/**
 * Created one minute apart in manual mode: a (meeting, LIVE), b (own, waiting: OFFLINE),
 * c (own, LIVE then IDLE), d (meeting, ERRORED), e (meeting, stopped: OFFLINE).
 */
async function five() {
  const t = makeTestApp();
  await patchSimulator(t, { livestream: { mode: 'manual' } });
  const force = (id: string, to: string) => t.api.post(`/_emulator/livestreams/${id}/transition`).send({ to }).expect(200);
  const meeting = async () => (await createMeeting(t.api)).id;
  const a = await createLivestream(t.api, await meeting());
  await force(a.id, 'LIVE');
  t.advance(60_000);
  const b = await createIndependentLivestream(t.api, { name: 'b' });
  t.advance(60_000);
  const c = await createIndependentLivestream(t.api, { name: 'c' });
  await force(c.id, 'LIVE');
  await force(c.id, 'IDLE');
  t.advance(60_000);
  const d = await createLivestream(t.api, await meeting());
  await force(d.id, 'ERRORED');
  t.advance(60_000);
  const e = await createLivestream(t.api, await meeting());
  await force(e.id, 'OFFLINE');
  return { ...t, ids: { a: a.id, b: b.id, c: c.id, d: d.id, e: e.id } };
}

type Five = Awaited<ReturnType<typeof five>>;

async function listed(t: Five, query: string): Promise<string[]> {
  const res = await t.api.get(`/v2/livestreams?${query}`).set('Authorization', BASIC).expect(200);
  const byId = Object.fromEntries(Object.entries(t.ids).map(([name, id]) => [id, name]));
  expect(res.body.data.paging.total_count).toBe(res.body.data.livestreams.length);
  return res.body.data.livestreams.map((l: { id: string }) => byId[l.id]);
}

describe('GET /v2/livestreams filters', () => {
  it.each([
    ['', ['e', 'd', 'c', 'b', 'a']],
    ['status=LIVE', ['a']],
    ['status=IDLE', ['c']],
    ['status=ERRORED', ['d']],
    ['status=OFFLINE', ['e', 'b']],
    // Production lists INVOKED; the emulator never reports it, so nothing matches.
    ['status=INVOKED', []],
    ['exclude_meetings=true', ['c', 'b']],
    ['exclude_meetings=false', ['e', 'd', 'c', 'b', 'a']],
    [`start_time=${iso(START + 120_000)}`, ['e', 'd', 'c']],
    [`end_time=${iso(START + 120_000)}`, ['c', 'b', 'a']],
    [`start_time=${iso(START + 60_000)}&end_time=${iso(START + 180_000)}`, ['d', 'c', 'b']],
    [`start_time=${encodeURIComponent('2026-01-01T01:00:01+01:00')}`, ['e', 'd', 'c', 'b']],
    ['sort_order=ASC', ['a', 'b', 'c', 'd', 'e']],
    ['sort_order=DSC', ['e', 'd', 'c', 'b', 'a']],
    ['sort_order=DESC', ['e', 'd', 'c', 'b', 'a']],
    ['exclude_meetings=true&status=OFFLINE&sort_order=ASC', ['b']],
    ['sort_order=ASC&per_page=2&page_no=2', ['c', 'd']],
  ])('?%s → %j', async (query, expected) => {
    const t = await five();
    if (query.includes('per_page')) {
      const res = await t.api.get(`/v2/livestreams?${query}`).set('Authorization', BASIC).expect(200);
      expect(res.body.data.livestreams.map((l: { id: string }) => l.id)).toEqual(expected.map((n) => t.ids[n as keyof typeof t.ids]));
      expect(res.body.data.paging).toEqual({ total_count: 5, start_offset: 3, end_offset: 4 });
    } else {
      expect(await listed(t, query)).toEqual(expected);
    }
  });

  it.each([
    ['status=STOPPED', 'BAD_REQUEST: "status" must be one of [LIVE, IDLE, ERRORED, INVOKED, OFFLINE]'],
    ['exclude_meetings=yes', 'BAD_REQUEST: "exclude_meetings" must be one of [true, false]'],
    ['sort_order=down', 'BAD_REQUEST: "sort_order" must be one of [ASC, DSC, DESC]'],
    ['start_time=yesterday', 'BAD_REQUEST: "start_time" must be in ISO 8601 date format'],
    ['end_time=2026-01-01T00:00:00', 'BAD_REQUEST: "end_time" must be in ISO 8601 date format'],
    ['per_page=101', 'BAD_REQUEST: "per_page" must be less than or equal to 100'],
  ])('rejects ?%s with 400', async (query, message) => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/livestreams?${query}`).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
  });

  it('answers 401 without credentials', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/v2/livestreams?status=LIVE').expect(401);
    expect(res.body).toEqual(v2Error(401, 'Missing Authorization header'));
  });
});
