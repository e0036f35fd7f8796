// GET|PUT /_emulator/state: export → import → export is byte-identical; an import brings back
// everything, pending work included; bad documents are refused and change nothing.
import { describe, expect, it } from 'vitest';
import { RecordingTransport } from '../../../src/webhooks/recording-transport.js';
import { addParticipant, createLivestream, createMeeting, recordingAction, startRecording } from '../../helpers/builders.js';
import { BASIC, basicAuth, bearer, makeTestApp, type TestApp } from '../../helpers/test-app.js';

const V1 = 'Bearer emulator-api-key';

/** A rich state: every resource kind, every pending kind of work. */
async function richState(t: TestApp) {
  const failing = new RecordingTransport(() => ({ statusCode: 503, error: null }));
  t.deps.webhooks.outbox.useTransport(failing);
  await t.api
    .post('/v2/webhooks')
    .set('Authorization', BASIC)
    .send({ name: 'hook', url: 'http://127.0.0.1:9/hook', events: ['recording.statusUpdate'] })
    .expect(201);
  const org = (await t.api.post('/_emulator/orgs').send({ name: 'worker' }).expect(201)).body;
  await t.api.post('/v2/meetings').set('Authorization', basicAuth(org.id, org.api_key)).send({ title: 'theirs' }).expect(201);
  const meeting = await createMeeting(t.api, { title: 'Sync', recording_config: { max_seconds: 600, video_config: { codec: 'H264' } } });
  const host = await addParticipant(t.api, meeting.id, { preset_name: 'group_call_host', custom_participant_id: 'host' });
  await t.api.post(`/_emulator/meetings/${meeting.id}/participants/${host.id}/join`).expect(200);
  const uploaded = await startRecording(t.api, meeting.id, {
    storage_config: { type: 'aws', access_key: 'AKIA-NEVER-EXPORTED', secret_key: 'NEVER-EXPORTED-2', bucket: 'b', region: 'us-east-1', path: 'p' },
  });
  t.advance(3_000);
  t.advance(60_000);
  await recordingAction(t.api, uploaded.id, 'stop');
  t.advance(20_000);
  const recording = await startRecording(t.api, meeting.id);
  t.advance(3_000);
  await recordingAction(t.api, recording.id, 'pause');
  await createLivestream(t.api, meeting.id);
  t.advance(6_000);
  await t.api
    .post('/api/v1/products')
    .set('Authorization', V1)
    .send({ name: 'Kettle', brand: 'Boil', category_code: '302', product_id: 'k1', attributes: { carbon_footprint: '12 kgCO2e' } })
    .expect(201);
  await t.api
    .patch('/_emulator/simulator')
    .send({ recording: { upload_base_ms: 20_000, fail_next: 1, fail_at: 'upload' } })
    .expect(200);
  await t.deps.webhooks.outbox.idle();
  return { meeting, host, recording, uploaded };
}

async function exportText(t: TestApp): Promise<string> {
  return (await t.api.get('/_emulator/state').expect(200)).text;
}

describe('state export and import', () => {
  it('export → import → export is byte-identical', async () => {
    const t = makeTestApp();
    await richState(t);
    const first = await exportText(t);
    await t.api.put('/_emulator/state').set('content-type', 'application/json').send(first).expect(200, { status: 'imported', organizations: 2 });
    expect(await exportText(t)).toBe(first);

    // Also into another emulator with another seed.
    const other = makeTestApp({ seed: 'other-seed' });
    await other.api.put('/_emulator/state').set('content-type', 'application/json').send(first).expect(200);
    expect(await exportText(other)).toBe(first);
  });

  it('holds everything: organizations with keys, resources, pending jobs and deliveries, clock, id position, policy', async () => {
    const t = makeTestApp();
    const { meeting } = await richState(t);
    const doc = JSON.parse(await exportText(t));
    expect(doc.version).toBe(1);
    expect(doc.organizations).toHaveLength(2);
    expect(doc.organizations[0]).toMatchObject({ id: '00000000-0000-4000-8000-000000000001', api_key: 'emulator-api-key' });
    expect(doc.organizations[1].api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    const mine = doc.organizations[0];
    expect(mine.meetings.map((m: { id: string }) => m.id)).toEqual([meeting.id]);
    expect(mine.recordings.map((r: { status: string }) => r.status)).toEqual(['UPLOADED', 'PAUSED']);
    expect(mine.livestreams.map((l: { state: string }) => l.state)).toEqual(['LIVE']);
    expect(mine.participants[0].joinedAt).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(mine.products.map((p: { product_id: string }) => p.product_id)).toContain('K1');
    expect(mine.webhooks).toHaveLength(1);
    expect(doc.runtime.clock).toEqual({ now: '2026-01-01T00:01:32.000Z', mode: 'manual' });
    expect(doc.runtime.ids_position).toBe(t.deps.ids.position());
    expect(doc.runtime.jobs.length).toBeGreaterThan(0);
    expect(doc.runtime.deliveries.some((d: { status: string }) => d.status === 'pending')).toBe(true);
    expect(doc.runtime.simulator.recording).toMatchObject({ uploadBaseMs: 20_000, failNext: 1, failAt: 'upload' });
    expect(doc.participant_token_key).toMatch(/BEGIN PRIVATE KEY/);
    expect(doc.webhook_signing_key).toMatch(/BEGIN PRIVATE KEY/);
  });

  it('never exports storage secrets', async () => {
    const t = makeTestApp();
    await richState(t);
    const text = await exportText(t);
    expect(text).not.toContain('AKIA-NEVER-EXPORTED');
    expect(text).not.toContain('NEVER-EXPORTED-2');
    expect(text).toContain('"bucket":"b"');
  });

  it('an imported state carries on: tokens verify, jobs fire, deliveries retry, ids continue', async () => {
    const source = makeTestApp();
    const { host, recording, meeting } = await richState(source);
    const text = await exportText(source);
    // What the source does next…
    source.advance(60_000);
    const next = await createMeeting(source.api);

    const t = makeTestApp({ seed: 'another-seed' });
    const delivered = new RecordingTransport();
    t.deps.webhooks.outbox.useTransport(delivered);
    await t.api.put('/_emulator/state').set('content-type', 'application/json').send(text).expect(200);
    // The participant's token, signed by the source, is valid here.
    await t.api.get(`/v2/recordings/active-recording/${meeting.id}`).set('Authorization', bearer(host.token)).expect(200);
    // Pending work resumes on the restored clock.
    t.advance(60_000);
    await t.deps.webhooks.outbox.idle();
    expect(delivered.requests.length).toBeGreaterThan(0);
    const after = (await t.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200)).body.data;
    const sourceAfter = (await source.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200)).body.data;
    expect(after).toEqual(sourceAfter);
    // The id sequence continues where it was: with the same seed, the next meeting gets the
    // same id as in the source.
    const same = makeTestApp();
    await same.api.put('/_emulator/state').set('content-type', 'application/json').send(text).expect(200);
    same.advance(60_000);
    expect((await createMeeting(same.api)).id).toBe(next.id);
  });

  it('an exported state starts an emulator as its fixtures', async () => {
    const source = makeTestApp();
    const { meeting } = await richState(source);
    const doc = JSON.parse(await exportText(source));
    const t = makeTestApp({}, { fixtures: source.deps.state.parse(doc, 'state.json') });
    await t.api.get(`/v2/meetings/${meeting.id}`).set('Authorization', BASIC).expect(200);
    expect(await exportText(t)).toBe(JSON.stringify(doc));
    // Reset goes back to those fixtures.
    await createMeeting(t.api);
    await t.api.post('/_emulator/reset').expect(200);
    expect(await exportText(t)).toBe(JSON.stringify(doc));
  });

  it('a reset after an import returns to the fixtures the emulator started with', async () => {
    const source = makeTestApp();
    await richState(source);
    const text = await exportText(source);
    const t = makeTestApp();
    const fresh = await exportText(t);
    await t.api.put('/_emulator/state').set('content-type', 'application/json').send(text).expect(200);
    await t.api.post('/_emulator/reset').expect(200);
    expect(await exportText(t)).toBe(fresh);
  });

  it.each([
    ['not a state document', { hello: 'world' }, 'state: version: Invalid input: expected 1'],
    [
      'an organization without an API key',
      { version: 1, default_presets: [], organizations: [{ id: '00000000-0000-4000-8000-000000000009', name: 'x' }] },
      'state: default_presets: ',
    ],
    ['a job of an unknown kind', 'jobs', 'state: runtime.jobs[0].kind: unknown job kind evil'],
    ['a participant of another meeting', 'participant', 'meetingId: not a meeting of this organization'],
    ['a broken key', 'key', 'participant_token_key: not a usable RSA private key'],
    ['a delivery whose body is not JSON', 'delivery', 'state: runtime.deliveries[0].body: must be a JSON document'],
    [
      "another organization's livestream with the same stream key",
      'key-across',
      'state: organizations[1].livestreams[0].streamKey: duplicate stream key (a stream key belongs to one livestream, across organizations)',
    ],
    [
      'two livestreams of one organization with the same stream key',
      'key-within',
      'state: organizations[0].livestreams[1].streamKey: duplicate stream key (a stream key belongs to one livestream, across organizations)',
    ],
    [
      "another organization's livestream with the same id",
      'id-across',
      'state: organizations[1].livestreams[0].id: duplicate livestream id (one livestream per id, across organizations)',
    ],
  ])('refuses %s with 400 and changes nothing', async (_name, body, message) => {
    const t = makeTestApp();
    await richState(t);
    const before = await exportText(t);
    let doc: unknown = body;
    if (typeof body === 'string') {
      const d = JSON.parse(before);
      if (body === 'jobs') d.runtime.jobs[0].kind = 'evil';
      if (body === 'participant') d.organizations[0].participants[0].meetingId = '00000000-0000-4000-8000-00000000beef';
      if (body === 'delivery') d.runtime.deliveries[0].body = 'not json';
      if (body === 'key') d.participant_token_key = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
      if (body.endsWith('-across') || body.endsWith('-within')) {
        // A copy of the livestream, OFFLINE and of no meeting, into its own or the other organization.
        type Org = { id: string; livestreams?: Array<Record<string, unknown>> };
        const orgs = d.organizations as Org[];
        const holder = orgs.find((o) => (o.livestreams ?? []).length > 0)!;
        const target = body.endsWith('-within') ? holder : orgs.find((o) => o !== holder)!;
        const l = holder.livestreams![0]!;
        const copy: Record<string, unknown> = { ...l, orgId: target.id, meetingId: null, state: 'OFFLINE', liveMs: 0, liveSince: null, stoppedAt: null };
        if (body.startsWith('key')) copy.id = '00000000-0000-4000-8000-00000000cafe';
        else copy.streamKey = 'a-key-of-its-own';
        (target.livestreams ??= []).push(copy);
      }
      doc = d;
    }
    const res = await t.api
      .put('/_emulator/state')
      .send(doc as object)
      .expect(400);
    expect(res.body.error.code).toBe('INVALID_STATE');
    expect(res.body.error.message).toContain(message);
    expect(await exportText(t)).toBe(before);
  });

  it('takes documents larger than the 1 MiB API limit', async () => {
    const t = makeTestApp();
    const doc = JSON.parse(await exportText(t));
    doc.organizations[0].products = Array.from({ length: 2_000 }, (_, i) => ({
      category_code: '101',
      product_id: `P${i}`,
      name: 'n'.repeat(200),
      brand: 'b'.repeat(100),
      description: 'd'.repeat(400),
      attributes: {},
    }));
    const text = JSON.stringify(doc);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    await t.api.put('/_emulator/state').set('content-type', 'application/json').send(text).expect(200);
    await t.api.get('/api/v1/products/101-P1999').set('Authorization', V1).expect(200);
  });
});
