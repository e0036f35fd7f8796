import { describe, expect, it } from 'vitest';
import { BASIC, ORG_ID, basicAuth, makeTestApp, type TestApp } from '../../helpers/test-app.js';

async function newOrg(t: TestApp, name?: string) {
  const res = await t.api
    .post('/_emulator/orgs')
    .send(name === undefined ? {} : { name })
    .expect(201);
  return res.body as { id: string; name: string; api_key: string };
}

/** A full flow for one organization; returns what the organization sees at the end. */
async function flow(t: TestApp, auth: string, title: string) {
  const meeting = (await t.api.post('/v2/meetings').set('Authorization', auth).send({ title }).expect(201)).body.data;
  await t.api
    .post(`/v2/meetings/${meeting.id}/participants`)
    .set('Authorization', auth)
    .send({ preset_name: 'group_call_host', custom_participant_id: `${title}-host` })
    .expect(201);
  const rec = (await t.api.post('/v2/recordings').set('Authorization', auth).send({ meeting_id: meeting.id }).expect(200)).body.data;
  return { meetingId: meeting.id as string, recordingId: rec.id as string };
}

async function view(t: TestApp, auth: string) {
  const meetings = (await t.api.get('/v2/meetings').set('Authorization', auth).expect(200)).body;
  const recordings = (await t.api.get('/v2/recordings').set('Authorization', auth).expect(200)).body;
  return { meetings, recordings };
}

describe('organizations for isolation', () => {
  it('creates an organization with the default presets and answers its API key once', async () => {
    const t = makeTestApp();
    const org = await newOrg(t, 'worker-1');
    expect(org).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'worker-1',
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      account_id: '00000000000000000000000000000001',
    });
    const list = (await t.api.get('/_emulator/orgs').expect(200)).body;
    expect(list).toContainEqual({ id: org.id, name: 'worker-1', account_id: '00000000000000000000000000000001' });
    expect(JSON.stringify(list)).not.toContain(org.api_key);
    // The default presets are there: a host can be added.
    const auth = basicAuth(org.id, org.api_key);
    const m = (await t.api.post('/v2/meetings').set('Authorization', auth).send({}).expect(201)).body.data;
    await t.api
      .post(`/v2/meetings/${m.id}/participants`)
      .set('Authorization', auth)
      .send({ preset_name: 'webinar_viewer', custom_participant_id: 'v' })
      .expect(201);
  });

  it('names a created organization when no name is given', async () => {
    const t = makeTestApp();
    const org = await newOrg(t);
    expect(org.name).toMatch(/^Organization [0-9a-f]{8}$/);
  });

  it('rejects a bad name with 400 in the control shape', async () => {
    const t = makeTestApp();
    const res = await t.api.post('/_emulator/orgs').send({ name: 7 }).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: '"name" must be a string' } });
  });

  it('never lets one organization see or change another one’s data', async () => {
    const t = makeTestApp();
    const other = await newOrg(t, 'other');
    const otherAuth = basicAuth(other.id, other.api_key);
    const mine = await flow(t, BASIC, 'mine');
    await t.api.get(`/v2/meetings/${mine.meetingId}`).set('Authorization', otherAuth).expect(404);
    await t.api.get(`/v2/recordings/${mine.recordingId}`).set('Authorization', otherAuth).expect(404);
    await t.api.put(`/v2/recordings/${mine.recordingId}`).set('Authorization', otherAuth).send({ action: 'stop' }).expect(404);
    await t.api.patch(`/v2/meetings/${mine.meetingId}`).set('Authorization', otherAuth).send({ title: 'hijack' }).expect(404);
    await t.api.post('/v2/recordings').set('Authorization', otherAuth).send({ meeting_id: mine.meetingId }).expect(404);
    const seen = await view(t, otherAuth);
    expect(seen.meetings.data).toEqual([]);
    expect(seen.recordings.data).toEqual([]);
    // Another org's key with this org's id does not authenticate.
    await t.api.get('/v2/meetings').set('Authorization', basicAuth(ORG_ID, other.api_key)).expect(401);
  });

  it('two organizations run their flows interleaved and each ends exactly as when run alone', async () => {
    // Alone: each flow in its own emulator.
    const aloneA = makeTestApp();
    await flow(aloneA, BASIC, 'A');
    aloneA.advance(4_000);
    const expectedA = await view(aloneA, BASIC);

    const t = makeTestApp();
    const b = await newOrg(t, 'B');
    const authB = basicAuth(b.id, b.api_key);
    // Interleaved: A's steps and B's steps alternate.
    const ma = (await t.api.post('/v2/meetings').set('Authorization', BASIC).send({ title: 'A' }).expect(201)).body.data;
    const mb = (await t.api.post('/v2/meetings').set('Authorization', authB).send({ title: 'B' }).expect(201)).body.data;
    await t.api
      .post(`/v2/meetings/${ma.id}/participants`)
      .set('Authorization', BASIC)
      .send({ preset_name: 'group_call_host', custom_participant_id: 'A-host' })
      .expect(201);
    await t.api
      .post(`/v2/meetings/${mb.id}/participants`)
      .set('Authorization', authB)
      .send({ preset_name: 'group_call_host', custom_participant_id: 'B-host' })
      .expect(201);
    await t.api.post('/v2/recordings').set('Authorization', authB).send({ meeting_id: mb.id }).expect(200);
    await t.api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: ma.id }).expect(200);
    t.advance(4_000);
    const seenA = await view(t, BASIC);
    const seenB = await view(t, authB);

    // Ids differ between runs (one id sequence per emulator); everything else is the same.
    const shape = (v: Awaited<ReturnType<typeof view>>) =>
      JSON.parse(JSON.stringify(v).replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, '<id>'));
    expect(shape(seenA)).toEqual(shape(expectedA));
    expect(seenA.meetings.data.map((m: { title: string }) => m.title)).toEqual(['A']);
    expect(seenB.meetings.data.map((m: { title: string }) => m.title)).toEqual(['B']);
    expect(seenA.recordings.data[0].status).toBe('RECORDING');
    expect(seenB.recordings.data[0].status).toBe('RECORDING');
    expect(seenB.recordings.data[0].meeting_id).toBe(mb.id);
  });

  it('resets one organization and leaves the others alone', async () => {
    const t = makeTestApp();
    const b = await newOrg(t, 'B');
    const authB = basicAuth(b.id, b.api_key);
    await flow(t, BASIC, 'A');
    await flow(t, authB, 'B');
    await t.api.post(`/_emulator/orgs/${b.id}/reset`).expect(200, { id: b.id, name: 'B', account_id: '00000000000000000000000000000001' });
    expect((await view(t, authB)).meetings.data).toEqual([]);
    expect((await view(t, BASIC)).meetings.data).toHaveLength(1);
    // Its credentials still work and its pending jobs are gone: A's recording still starts.
    t.advance(4_000);
    expect((await view(t, BASIC)).recordings.data[0].status).toBe('RECORDING');
    await t.api.post('/v2/meetings').set('Authorization', authB).send({}).expect(201);
  });

  it('resets a fixture organization to its fixtures', async () => {
    const t = makeTestApp();
    await flow(t, BASIC, 'A');
    await t.api.post(`/_emulator/orgs/${ORG_ID}/reset`).expect(200);
    expect((await view(t, BASIC)).meetings.data).toEqual([]);
    expect(t.deps.scheduler.list()).toEqual([]);
  });

  it('answers 404 for resetting an unknown organization and 400 for a bad id', async () => {
    const t = makeTestApp();
    const res = await t.api.post('/_emulator/orgs/00000000-0000-4000-8000-00000000dead/reset').expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No organization found with id 00000000-0000-4000-8000-00000000dead' } });
    await t.api.post('/_emulator/orgs/nope/reset').expect(400);
  });

  it('POST /_emulator/reset returns everything to the fixtures, created organizations included', async () => {
    const t = makeTestApp();
    const b = await newOrg(t, 'B');
    await flow(t, BASIC, 'A');
    t.advance(60_000);
    await t.api.post('/_emulator/reset').expect(200, { status: 'reset' });
    expect((await view(t, BASIC)).meetings.data).toEqual([]);
    await t.api.get('/v2/meetings').set('Authorization', basicAuth(b.id, b.api_key)).expect(401);
    expect((await t.api.get('/_emulator/clock').expect(200)).body).toEqual({ now: '2026-01-01T00:00:00.000Z', mode: 'manual' });
    // The id sequence restarts too: the same request gives the same id as in a fresh emulator.
    const again = (await t.api.post('/v2/meetings').set('Authorization', BASIC).send({}).expect(201)).body.data.id;
    const fresh = (await makeTestApp().api.post('/v2/meetings').set('Authorization', BASIC).send({}).expect(201)).body.data.id;
    expect(again).toBe(fresh);
  });
});
