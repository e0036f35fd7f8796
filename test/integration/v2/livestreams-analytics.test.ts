// Livestream analytics computed from livestream sessions on the emulator's clock (docs/api-v2.md,
// "Livestreams"): a session counts once, in full, on the UTC day it started; a running one counts
// up to now; viewer seconds are ingest seconds × the simulated viewers.
import { describe, expect, it } from 'vitest';
import { createIndependentLivestream, v2Error } from '../../helpers/builders.js';
import { patchSimulator } from '../../helpers/lifecycle-helpers.js';
import { BASIC, basicAuth, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const DAY1 = '2026-01-01T00:00:00.000Z';
const DAY2 = '2026-01-02T00:00:00.000Z';

/**
 * A: LIVE 00:00:10 → 00:02:10 on day 1 (120 s), LIVE again at 01:00:00 on day 2, still running
 * when read at 01:00:45 (45 s). B: LIVE 23:59:00 on day 1 → 00:01:00 on day 2 (120 s, day 1).
 * Two simulated viewers.
 */
async function timeline(): Promise<TestApp> {
  const t = makeTestApp();
  await patchSimulator(t, { livestream: { mode: 'manual', viewers: 2 } });
  const to = (id: string, status: string) => t.api.post(`/_emulator/livestreams/${id}/transition`).send({ to: status }).expect(200);
  const at = (iso: string) => t.advance(Date.parse(iso) - t.now());
  const a = await createIndependentLivestream(t.api, { name: 'a' });
  const b = await createIndependentLivestream(t.api, { name: 'b' });
  at('2026-01-01T00:00:10.000Z');
  await to(a.id, 'LIVE');
  at('2026-01-01T00:02:10.000Z');
  await to(a.id, 'IDLE');
  at('2026-01-01T23:59:00.000Z');
  await to(b.id, 'LIVE');
  at('2026-01-02T00:01:00.000Z');
  await to(b.id, 'OFFLINE');
  at('2026-01-02T01:00:00.000Z');
  await to(a.id, 'LIVE');
  at('2026-01-02T01:00:45.000Z');
  return t;
}

const get = async (t: TestApp, url: string) => (await t.api.get(url).set('Authorization', BASIC).expect(200)).body;

describe('GET /v2/analytics/livestreams/overall', () => {
  it.each([
    ['', { count: 3, total_ingest_seconds: 285, total_viewer_seconds: 570 }],
    [`?start_time=${DAY2}`, { count: 1, total_ingest_seconds: 45, total_viewer_seconds: 90 }],
    ['?end_time=2026-01-01T12:00:00.000Z', { count: 1, total_ingest_seconds: 120, total_viewer_seconds: 240 }],
    [`?start_time=${DAY1}&end_time=2026-01-01T23:59:00.000Z`, { count: 2, total_ingest_seconds: 240, total_viewer_seconds: 480 }],
    ['?start_time=2026-01-03T00:00:00.000Z', { count: 0, total_ingest_seconds: 0, total_viewer_seconds: 0 }],
  ])('%s → %j', async (query, totals) => {
    const t = await timeline();
    expect(await get(t, `/v2/analytics/livestreams/overall${query}`)).toEqual({ success: true, data: totals });
  });

  it('start_time takes a session that started at that very millisecond', async () => {
    const t = await timeline();
    // A went LIVE again at 01:00:00 on day 2 and is still running at 01:00:45.
    expect((await get(t, '/v2/analytics/livestreams/overall?start_time=2026-01-02T01:00:00.000Z')).data).toEqual({
      count: 1,
      total_ingest_seconds: 45,
      total_viewer_seconds: 90,
    });
  });

  it('a running session keeps counting with the clock', async () => {
    const t = await timeline();
    t.advance(15_000);
    expect((await get(t, '/v2/analytics/livestreams/overall')).data).toEqual({ count: 3, total_ingest_seconds: 300, total_viewer_seconds: 600 });
  });

  it('is zero before anything went LIVE', async () => {
    const { api } = makeTestApp();
    await createIndependentLivestream(api);
    const res = await api.get('/v2/analytics/livestreams/overall').set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { count: 0, total_ingest_seconds: 0, total_viewer_seconds: 0 } });
  });
});

describe('GET /v2/analytics/livestreams/daywise', () => {
  it('answers the totals of each UTC day a session started on, oldest first', async () => {
    const t = await timeline();
    expect(await get(t, '/v2/analytics/livestreams/daywise')).toEqual({
      success: true,
      data: [
        { date: DAY1, count: 2, total_ingest_seconds: 240, total_viewer_seconds: 480 },
        { date: DAY2, count: 1, total_ingest_seconds: 45, total_viewer_seconds: 90 },
      ],
    });
  });

  it('honours the range; days without a session are left out', async () => {
    const t = await timeline();
    expect((await get(t, `/v2/analytics/livestreams/daywise?start_time=${DAY2}`)).data).toEqual([
      { date: DAY2, count: 1, total_ingest_seconds: 45, total_viewer_seconds: 90 },
    ]);
    expect((await get(t, '/v2/analytics/livestreams/daywise?end_time=2025-12-31T23:59:59.000Z')).data).toEqual([]);
  });
});

describe('both analytics routes', () => {
  it.each(['overall', 'daywise'])('%s rejects a time that is not ISO 8601 with 400', async (kind) => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/analytics/livestreams/${kind}?start_time=2026-13-01`).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "start_time" must be in ISO 8601 date format'));
  });

  it.each(['overall', 'daywise'])('%s answers 401 without credentials', async (kind) => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/analytics/livestreams/${kind}`).expect(401);
    expect(res.body).toEqual(v2Error(401, 'Missing Authorization header'));
  });

  it("count only the organization's own sessions", async () => {
    const t = await timeline();
    const org = (await t.api.post('/_emulator/orgs').send({ name: 'Organization B' }).expect(201)).body as { id: string; api_key: string };
    const b = basicAuth(org.id, org.api_key);
    const daywise = await t.api.get('/v2/analytics/livestreams/daywise').set('Authorization', b).expect(200);
    expect(daywise.body).toEqual({ success: true, data: [] });
  });
});
