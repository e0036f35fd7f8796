// PUT /_emulator/state checks every pending job against its kind: a payload its kind does not
// accept, or a key that is not the one the payload gives, is a 400 naming the path, and the
// import changes nothing. A job that passes runs as it would have in the emulator that saved it.
import { describe, expect, it } from 'vitest';
import { buildDeps } from '../../../src/container.js';
import { defaultConfig } from '../../../src/config.js';
import { silentLogger } from '../../../src/logger.js';
import { FixtureError, type Fixtures } from '../../../src/store/fixtures.js';
import { RecordingTransport } from '../../../src/webhooks/recording-transport.js';
import { createMeeting, startRecording } from '../../helpers/builders.js';
import { BASIC, makeTestApp, type TestApp } from '../../helpers/test-app.js';

interface JobDoc {
  key: string;
  at: number;
  kind: string;
  payload: Record<string, unknown>;
}

/** A state with a pending webhook retry and a pending recorder join. */
async function stateWithJobs(t: TestApp) {
  t.deps.webhooks.outbox.useTransport(new RecordingTransport(() => ({ statusCode: 503, error: null })));
  await t.api
    .post('/v2/webhooks')
    .set('Authorization', BASIC)
    .send({ name: 'hook', url: 'http://127.0.0.1:9/hook', events: ['recording.statusUpdate'] })
    .expect(201);
  const meeting = await createMeeting(t.api);
  const recording = await startRecording(t.api, meeting.id);
  await t.deps.webhooks.outbox.idle();
  const text = (await t.api.get('/_emulator/state').expect(200)).text;
  const doc = JSON.parse(text) as { runtime: { jobs: JobDoc[] } };
  const index = (kind: string) => doc.runtime.jobs.findIndex((j) => j.kind === kind);
  return { text, doc, recording, retry: index('webhook.retry'), recorderJoin: index('sim.recording.start') };
}

describe('state import: pending jobs', () => {
  it('holds the jobs as their kinds name them', async () => {
    const t = makeTestApp();
    const { doc, recording, retry, recorderJoin } = await stateWithJobs(t);
    const deliveryId = t.deps.webhooks.outbox.list().items[0]!.id;
    expect(doc.runtime.jobs[retry]).toEqual({
      key: `webhook:${deliveryId}:retry`,
      at: expect.any(Number),
      kind: 'webhook.retry',
      payload: { deliveryId, orgId: '00000000-0000-4000-8000-000000000001' },
    });
    expect(doc.runtime.jobs[recorderJoin]).toEqual({
      key: `recording:${recording.id}:sim`,
      at: expect.any(Number),
      kind: 'sim.recording.start',
      payload: { orgId: '00000000-0000-4000-8000-000000000001', id: recording.id },
    });
  });

  it.each([
    [
      'a payload field missing',
      'retry',
      (j: JobDoc): void => void delete j.payload.deliveryId,
      '.payload.deliveryId: Invalid input: expected string, received undefined',
    ],
    [
      'a payload field of the wrong type',
      'retry',
      (j: JobDoc): void => void (j.payload.orgId = 42),
      '.payload.orgId: Invalid input: expected string, received number',
    ],
    ['a payload field its kind does not have', 'recorderJoin', (j: JobDoc): void => void (j.payload.extra = 'x'), '.payload: Unrecognized key: "extra"'],
    ['an empty id', 'recorderJoin', (j: JobDoc): void => void (j.payload.id = ''), '.payload.id: Too small: expected string to have >=1 characters'],
    [
      'a key that is not the one its payload gives',
      'retry',
      (j: JobDoc): void => void (j.key = 'webhook:someone-else:retry'),
      '.key: a webhook.retry job with this payload is named webhook:',
    ],
  ] as const)('refuses %s with 400 INVALID_STATE naming the path, and changes nothing', async (_name, which, spoil, message) => {
    const t = makeTestApp();
    const state = await stateWithJobs(t);
    const i = state[which];
    spoil(state.doc.runtime.jobs[i]!);
    const res = await t.api.put('/_emulator/state').send(state.doc).expect(400);
    expect(res.body.error.code).toBe('INVALID_STATE');
    expect(res.body.error.message).toContain(`state: runtime.jobs[${i}]${message}`);
    expect((await t.api.get('/_emulator/state').expect(200)).text).toBe(state.text);
  });

  it('imports sound jobs, which then run: the recorder joins and the retry goes out', async () => {
    const source = makeTestApp();
    const { text, recording } = await stateWithJobs(source);
    const t = makeTestApp();
    const delivered = new RecordingTransport();
    t.deps.webhooks.outbox.useTransport(delivered);
    await t.api.put('/_emulator/state').set('content-type', 'application/json').send(text).expect(200);
    t.advance(3_000);
    await t.deps.webhooks.outbox.idle();
    expect((await t.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200)).body.data.status).toBe('RECORDING');
    expect(delivered.requests.length).toBeGreaterThan(0);
  });

  // A saved state edited by hand can hold a max_seconds stop for a recording that no longer
  // records: when it falls due, it leaves the recording as the document says it is.
  it('a pending max_seconds stop leaves a recording the imported state shows as paused', async () => {
    const source = makeTestApp();
    const meeting = await createMeeting(source.api);
    const recording = await startRecording(source.api, meeting.id, { max_seconds: 60 });
    source.advance(3_000 + 20_000); // the recorder joined at +3 s; 20 s recorded
    const doc = (await source.api.get('/_emulator/state').expect(200)).body;
    expect(doc.runtime.jobs.map((j: JobDoc) => j.kind)).toEqual(['recording.maxSeconds']);
    const saved = doc.organizations.flatMap((o: { recordings?: Array<Record<string, unknown>> }) => o.recordings ?? [])[0];
    Object.assign(saved, { status: 'PAUSED', recordedMs: 20_000, spanStartedAt: null });

    const t = makeTestApp();
    await t.api.put('/_emulator/state').send(doc).expect(200);
    t.advance(60_000);
    const after = await t.api.get(`/v2/recordings/${recording.id}`).set('Authorization', BASIC).expect(200);
    expect(after.body.data).toMatchObject({ status: 'PAUSED', stopped_time: null });
    expect((await t.api.get('/_emulator/state').expect(200)).body.runtime.jobs).toEqual([]);
  });

  it('a saved state used as the fixtures to start from (--fixtures state.json) passes the same checks', async () => {
    const { doc, retry } = await stateWithJobs(makeTestApp());
    doc.runtime.jobs[retry]!.key = 'webhook:someone-else:retry';
    const start = () => buildDeps(defaultConfig({ clock: 'manual', logLevel: 'silent' }), { fixtures: doc as unknown as Fixtures, logger: silentLogger() });
    expect(start).toThrow(FixtureError);
    expect(start).toThrow(`fixtures: runtime.jobs[${retry}].key: a webhook.retry job with this payload is named webhook:`);
  });
});
