import { describe, expect, it } from 'vitest';
import { BASIC, ORG_ID, START, START_ISO, makeTestApp, type TestApp } from '../../helpers/test-app.js';
import { RECORDER_JOINS_MS, SAMPLE_CLIP_BYTES } from '../../helpers/documented.js';
import { MISSING_ID, createMeeting, getRecording, recordingAction, startRecording, v2Error, type Resource } from '../../helpers/builders.js';

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 24 * 60 * 60 * 1000;
const STATUSES = '[INVOKED, RECORDING, PAUSED, UPLOADING, UPLOADED, ERRORED]';
// Production's caller: ORGANIZATION or USER, `user_Id` spelled its way, nothing null.
const ORG_CALLER = { name: 'Emulator Org', type: 'ORGANIZATION' };

/** A meeting with a recording that has reached RECORDING. */
async function recording(t: TestApp, body: Record<string, unknown> = {}) {
  const meeting = await createMeeting(t.api, { title: 'Board meeting' });
  const r = await startRecording(t.api, meeting.id, body);
  t.advance(RECORDER_JOINS_MS);
  return { meeting, r: await getRecording(t.api, r.id) };
}

function meetingObject(m: Resource) {
  return { id: m.id, title: m.title, waiting_room: m.waiting_room, record_on_start: m.record_on_start, created_at: m.created_at, updated_at: m.updated_at };
}

describe('POST /v2/recordings', () => {
  it('answers 200 with the recording in INVOKED, every later field null or (where production allows no null) left out', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: m.id }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        meeting_id: m.id,
        download_url: null,
        download_url_expiry: null,
        audio_download_url: null,
        file_size: null,
        session_id: null,
        output_file_name: `${m.id}_${START}.mp4`,
        status: 'INVOKED',
        invoked_time: START_ISO,
        started_time: null,
        stopped_time: null,
        start_reason: { reason: 'API_CALL', caller: ORG_CALLER },
        storage_config: null,
      },
    });
  });

  it('prepends file_name_prefix to the output file name', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const r = await startRecording(api, m.id, { file_name_prefix: 'board_2026' });
    expect(r.output_file_name).toBe(`board_2026_${m.id}_${START}.mp4`);
  });

  it('keeps storage_config without its secrets, in every answer', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const secrets = {
      access_key: 'AKIA-SECRET-ACCESS',
      secret_key: 'very-secret-key-value',
      secret: 'another-secret',
      password: 'pa55word!',
      private_key: '-----BEGIN KEY-----',
    };
    const res = await t.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({ meeting_id: m.id, storage_config: { type: 'aws', region: 'us-east-1', bucket: 'recordings', path: 'meetings/', ...secrets } })
      .expect(200);
    expect(res.body.data.storage_config).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'aws',
      region: 'us-east-1',
      bucket: 'recordings',
      path: 'meetings/',
    });
    t.advance(RECORDER_JOINS_MS);
    const answers = [
      res,
      await t.api.get(`/v2/recordings/${res.body.data.id}`).set('Authorization', BASIC).expect(200),
      await t.api.get('/v2/recordings').set('Authorization', BASIC).expect(200),
      await t.api.get(`/v2/recordings/active-recording/${m.id}`).set('Authorization', BASIC).expect(200),
      await t.api.put(`/v2/recordings/${res.body.data.id}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200),
    ];
    for (const answer of answers) {
      for (const [key, value] of Object.entries(secrets)) {
        expect(answer.text).not.toContain(value);
        expect(answer.text).not.toContain(`"${key}"`);
      }
    }
  });

  it.each([
    [{}, 'BAD_REQUEST: "meeting_id" is required'],
    [{ meeting_id: 'abc' }, 'BAD_REQUEST: "meeting_id" must be a valid GUID'],
    [{ meeting_id: 42 }, 'BAD_REQUEST: "meeting_id" must be a string'],
    [{ meeting_id: '{m}', max_seconds: 59 }, 'BAD_REQUEST: "max_seconds" must be greater than or equal to 60'],
    [{ meeting_id: '{m}', max_seconds: 86_401 }, 'BAD_REQUEST: "max_seconds" must be less than or equal to 86400'],
    [{ meeting_id: '{m}', allow_multiple_recordings: 'yes' }, 'BAD_REQUEST: "allow_multiple_recordings" must be a boolean'],
    [{ meeting_id: '{m}', storage_config: { type: 'dropbox' } }, 'BAD_REQUEST: "storage_config.type" must be one of [aws, azure, digitalocean, gcs, sftp]'],
    [{ meeting_id: '{m}', storage_config: {} }, 'BAD_REQUEST: "storage_config.type" is required'],
    [{ meeting_id: '{m}', file_name_prefix: 'has space' }, 'BAD_REQUEST: "file_name_prefix" must be 1 to 100 letters, digits, "_" or "-"'],
  ])('rejects %j with 400 and starts nothing', async (body, message) => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const sent = JSON.parse(JSON.stringify(body).replace('{m}', m.id));
    const res = await api.post('/v2/recordings').set('Authorization', BASIC).send(sent).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    const list = await api.get('/v2/recordings').set('Authorization', BASIC).expect(200);
    expect(list.body.paging.total_count).toBe(0);
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: MISSING_ID }).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it.each(['INVOKED', 'RECORDING', 'PAUSED'])('answers 409 for a second recording while one is %s', async (status) => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const first = await startRecording(t.api, m.id);
    if (status !== 'INVOKED') t.advance(RECORDER_JOINS_MS);
    if (status === 'PAUSED') await recordingAction(t.api, first.id, 'pause');
    const res = await t.api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: m.id }).expect(409);
    expect(res.body).toEqual(v2Error(409, `Meeting ${m.id} already has an active recording; pass allow_multiple_recordings to start another`));
    const list = await t.api.get('/v2/recordings').set('Authorization', BASIC).expect(200);
    expect(list.body.paging.total_count).toBe(1);
  });

  it('starts a second active recording with allow_multiple_recordings', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    await startRecording(t.api, m.id);
    t.advance(1_000);
    const second = await startRecording(t.api, m.id, { allow_multiple_recordings: true });
    expect(second.status).toBe('INVOKED');
    const active = await t.api.get(`/v2/recordings/active-recording/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(active.body.data.id).toBe(second.id);
  });

  it('the saved state keeps whether each recording was started with allow_multiple_recordings', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const first = await startRecording(t.api, m.id);
    const second = await startRecording(t.api, m.id, { allow_multiple_recordings: true });
    const doc = (await t.api.get('/_emulator/state').expect(200)).body;
    const kept = doc.organizations.flatMap((o: { recordings?: Resource[] }) => o.recordings ?? []);
    // Left out of the start request, it is false: the recording was the meeting's only one.
    expect(kept.map((r: Resource) => [r.id, r.allowMultipleRecordings])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
  });

  it('starts a new recording once the previous one is stopped', async () => {
    const t = makeTestApp();
    const { meeting, r } = await recording(t);
    await recordingAction(t.api, r.id, 'stop');
    const next = await startRecording(t.api, meeting.id);
    expect(next.id).not.toBe(r.id);
  });
});

describe('the recording lifecycle through the API', () => {
  it('INVOKED → RECORDING (started_time, session_id) → stop: UPLOADING with the meeting → UPLOADED with links', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { title: 'Board meeting', waiting_room: true });
    const invoked = await startRecording(t.api, m.id);

    t.advance(RECORDER_JOINS_MS);
    const started = await getRecording(t.api, invoked.id);
    expect(started).toEqual({
      ...invoked,
      status: 'RECORDING',
      started_time: iso(START + RECORDER_JOINS_MS),
      session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    t.advance(90_000);
    const stopAt = t.now();
    const res = await t.api.put(`/v2/recordings/${invoked.id}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        ...started,
        status: 'UPLOADING',
        stopped_time: iso(stopAt),
        file_size: SAMPLE_CLIP_BYTES,
        stop_reason: { reason: 'API_CALL', caller: ORG_CALLER },
        meeting: meetingObject(m),
      },
    });

    const upload = 17_500; // 10 s + 1.5 recorded minutes × 5 s
    t.advance(upload - 1);
    expect((await getRecording(t.api, invoked.id)).status).toBe('UPLOADING');
    t.advance(1);
    const { meeting: _m, ...stopped } = res.body.data;
    expect(await getRecording(t.api, invoked.id)).toEqual({
      ...stopped,
      status: 'UPLOADED',
      download_url: expect.stringMatching(/^http:\/\/emulator\.test\/media\/recordings\/.+\.mp4\?expires=\d+&signature=[\w-]+$/),
      audio_download_url: expect.stringMatching(/^http:\/\/emulator\.test\/media\/recordings\/.+\.m4a\?expires=\d+&signature=[\w-]+$/),
      download_url_expiry: iso(stopAt + 7 * DAY),
      recording_duration: 90,
    });
  });

  it('pause and resume answer the recording with its meeting; paused time is not recorded', async () => {
    const t = makeTestApp();
    const { meeting, r } = await recording(t);
    t.advance(10_000);
    const paused = await recordingAction(t.api, r.id, 'pause');
    expect(paused).toMatchObject({ id: r.id, status: 'PAUSED', meeting: meetingObject(meeting) });
    t.advance(20_000);
    const resumed = await recordingAction(t.api, r.id, 'resume');
    expect(resumed).toMatchObject({ id: r.id, status: 'RECORDING', meeting: meetingObject(meeting) });
    t.advance(5_000);
    await recordingAction(t.api, r.id, 'stop');
    t.advance(11_250); // the upload: 10 s + 0.25 recorded minutes × 5 s
    expect(await getRecording(t.api, r.id)).toMatchObject({ status: 'UPLOADED', recording_duration: 15 });
  });

  it('stops a PAUSED recording', async () => {
    const t = makeTestApp();
    const { r } = await recording(t);
    await recordingAction(t.api, r.id, 'pause');
    expect(await recordingAction(t.api, r.id, 'stop')).toMatchObject({ status: 'UPLOADING' });
  });

  it('max_seconds stops a recording by itself', async () => {
    const t = makeTestApp();
    const { r } = await recording(t, { max_seconds: 60 });
    t.advance(59_999);
    expect((await getRecording(t.api, r.id)).status).toBe('RECORDING');
    t.advance(1);
    const stopped = await getRecording(t.api, r.id);
    expect(stopped).toMatchObject({ status: 'UPLOADING', stopped_time: iso(START + RECORDER_JOINS_MS + 60_000) });
  });

  it('max_seconds counts recorded time: after a pause the recording stops once the rest is recorded, named as a max_seconds stop', async () => {
    const t = makeTestApp();
    const { r } = await recording(t, { max_seconds: 60 });
    t.advance(20_000); // 20 s recorded
    await recordingAction(t.api, r.id, 'pause');
    t.advance(10 * 60_000); // paused: not recorded
    await recordingAction(t.api, r.id, 'resume');
    const resumedAt = t.now();
    t.advance(40_000 - 1);
    expect((await getRecording(t.api, r.id)).status).toBe('RECORDING');
    t.advance(1);
    // The documented reason stays API_CALL; the caller says it was max_seconds.
    expect(await getRecording(t.api, r.id)).toMatchObject({
      status: 'UPLOADING',
      stopped_time: iso(resumedAt + 40_000),
      stop_reason: { reason: 'API_CALL', caller: { type: 'ORGANIZATION', name: 'max_seconds' } },
    });
  });

  it('max_seconds stops each recording at its own time, whatever else is recording', async () => {
    const t = makeTestApp();
    const a = await recording(t, { max_seconds: 60 }); // RECORDING from START + 3 s
    t.advance(10_000);
    const b = await recording(t, { max_seconds: 60 }); // RECORDING from START + 16 s
    t.advance(60_000 - 13_000 - 1);
    expect((await getRecording(t.api, a.r.id)).status).toBe('RECORDING');
    t.advance(1);
    expect(await getRecording(t.api, a.r.id)).toMatchObject({ status: 'UPLOADING', stopped_time: iso(START + 63_000) });
    expect((await getRecording(t.api, b.r.id)).status).toBe('RECORDING');
    t.advance(13_000);
    expect(await getRecording(t.api, b.r.id)).toMatchObject({ status: 'UPLOADING', stopped_time: iso(START + 76_000) });
  });

  it('the pending max_seconds stop is saved with the state while recording, and only then', async () => {
    const t = makeTestApp();
    const { r } = await recording(t, { max_seconds: 60 }); // RECORDING from START + 3 s
    const jobs = async () => (await t.api.get('/_emulator/state').expect(200)).body.runtime.jobs as Array<{ kind: string; at: number; key: string }>;
    const maxSecondsJob = (at: number) => ({
      key: `recording:${r.id}:max-seconds`,
      at,
      kind: 'recording.maxSeconds',
      payload: { orgId: ORG_ID, recordingId: r.id },
    });
    expect(await jobs()).toEqual([maxSecondsJob(START + 63_000)]);
    t.advance(20_000);
    await recordingAction(t.api, r.id, 'pause');
    expect(await jobs()).toEqual([]); // a paused recording records nothing, so nothing can run out
    t.advance(60_000);
    await recordingAction(t.api, r.id, 'resume'); // 40 s left to record
    expect(await jobs()).toEqual([maxSecondsJob(t.now() + 40_000)]);
    t.advance(10_000);
    await recordingAction(t.api, r.id, 'stop'); // 30 s recorded: the upload takes 10 s + 2.5 s
    expect((await jobs()).map((j) => j.kind)).toEqual(['sim.recording.upload']);
    t.advance(12_500);
    expect((await getRecording(t.api, r.id)).status).toBe('UPLOADED');
    expect(await jobs()).toEqual([]);
  });
});

describe('PUT /v2/recordings/{id}', () => {
  type Setup = 'INVOKED' | 'RECORDING' | 'PAUSED' | 'UPLOADING' | 'UPLOADED';
  async function inStatus(t: TestApp, status: Setup): Promise<Resource> {
    const m = await createMeeting(t.api);
    const r = await startRecording(t.api, m.id);
    if (status === 'INVOKED') return r;
    t.advance(RECORDER_JOINS_MS);
    if (status === 'PAUSED') await recordingAction(t.api, r.id, 'pause');
    if (status === 'UPLOADING' || status === 'UPLOADED') {
      t.advance(30_000);
      await recordingAction(t.api, r.id, 'stop');
    }
    if (status === 'UPLOADED') t.advance(12_500); // the upload: 10 s + 0.5 recorded minutes × 5 s
    const now = await getRecording(t.api, r.id);
    expect(now.status).toBe(status);
    return now;
  }

  it.each<[Setup, 'stop' | 'pause' | 'resume']>([
    ['INVOKED', 'stop'],
    ['INVOKED', 'pause'],
    ['INVOKED', 'resume'],
    ['RECORDING', 'resume'],
    ['PAUSED', 'pause'],
    ['UPLOADING', 'stop'],
    ['UPLOADING', 'pause'],
    ['UPLOADED', 'stop'],
    ['UPLOADED', 'resume'],
  ])('answers 409 to %s + %s and leaves the recording as it was', async (status, action) => {
    const t = makeTestApp();
    const before = await inStatus(t, status);
    const res = await t.api.put(`/v2/recordings/${before.id}`).set('Authorization', BASIC).send({ action }).expect(409);
    expect(res.body).toEqual(v2Error(409, `Cannot ${action} a recording that is ${status}`));
    expect(await getRecording(t.api, before.id)).toEqual(before);
  });

  it.each([
    [{}, 'BAD_REQUEST: "action" is required'],
    [{ action: 'rewind' }, 'BAD_REQUEST: "action" must be one of [stop, pause, resume]'],
    [{ action: 'STOP' }, 'BAD_REQUEST: "action" must be one of [stop, pause, resume]'],
  ])('rejects %j with 400', async (body, message) => {
    const t = makeTestApp();
    const { r } = await recording(t);
    const res = await t.api.put(`/v2/recordings/${r.id}`).set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    expect((await getRecording(t.api, r.id)).status).toBe('RECORDING');
  });

  it('answers 404 for an unknown recording', async () => {
    const { api } = makeTestApp();
    const res = await api.put(`/v2/recordings/${MISSING_ID}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(404);
    expect(res.body).toEqual(v2Error(404, `No recording found with id ${MISSING_ID}`));
  });

  it('answers 400 for an id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.put('/v2/recordings/123').set('Authorization', BASIC).send({ action: 'stop' }).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "id" must be a valid GUID'));
  });
});

describe('GET /v2/recordings', () => {
  /** m1: r1 (UPLOADING), r3 (RECORDING); m2: r2 (INVOKED). Invoked one second apart: r1, r2, r3. */
  async function three() {
    const t = makeTestApp();
    const m1 = await createMeeting(t.api);
    const m2 = await createMeeting(t.api);
    const r1 = await startRecording(t.api, m1.id);
    t.advance(RECORDER_JOINS_MS);
    await recordingAction(t.api, r1.id, 'stop');
    t.advance(1_000);
    const r3 = await startRecording(t.api, m1.id);
    t.advance(RECORDER_JOINS_MS);
    const r2 = await startRecording(t.api, m2.id);
    const ids = { r1: r1.id, r2: r2.id, r3: r3.id };
    return { ...t, m1, m2, ids };
  }

  it('lists every recording, newest first by default, in the paging envelope', async () => {
    const { api, ids } = await three();
    const res = await api.get('/v2/recordings').set('Authorization', BASIC).expect(200);
    expect(res.body.data.map((r: Resource) => r.id)).toEqual([ids.r2, ids.r3, ids.r1]);
    expect(res.body.paging).toEqual({ total_count: 3, start_offset: 1, end_offset: 3 });
    expect(res.body.data.map((r: Resource) => r.status)).toEqual(['INVOKED', 'RECORDING', 'UPLOADING']);
  });

  it.each([
    ['sort_order=ASC', ['r1', 'r3', 'r2']],
    ['sort_order=DESC', ['r2', 'r3', 'r1']],
    ['meeting_id={m1}', ['r3', 'r1']],
    ['meeting_id={m1}&sort_order=ASC', ['r1', 'r3']],
    ['meeting_id={m2}', ['r2']],
    [`meeting_id=${MISSING_ID}`, []],
    ['status=RECORDING', ['r3']],
    ['status=RECORDING,INVOKED', ['r2', 'r3']],
    ['status=RECORDING,%20INVOKED', ['r2', 'r3']], // a space after the comma is read past
    ['status=RECORDING&status=UPLOADING', ['r3', 'r1']],
    ['status=UPLOADED', []],
    // An empty status filter filters nothing.
    ['status=', ['r2', 'r3', 'r1']],
    ['meeting_id={m1}&status=UPLOADING,INVOKED', ['r1']],
  ])('filters with %s', async (query, expected) => {
    const t = await three();
    const q = query.replace('{m1}', t.m1.id).replace('{m2}', t.m2.id);
    const res = await t.api.get(`/v2/recordings?${q}`).set('Authorization', BASIC).expect(200);
    expect(res.body.data.map((r: Resource) => r.id)).toEqual(expected.map((k) => t.ids[k as keyof typeof t.ids]));
    expect(res.body.paging).toEqual(
      expected.length ? { total_count: expected.length, start_offset: 1, end_offset: expected.length } : { total_count: 0, start_offset: 0, end_offset: 0 },
    );
  });

  it('pages', async () => {
    const { api, ids } = await three();
    const res = await api.get('/v2/recordings?per_page=2&page_no=2').set('Authorization', BASIC).expect(200);
    expect(res.body.data.map((r: Resource) => r.id)).toEqual([ids.r1]);
    expect(res.body.paging).toEqual({ total_count: 3, start_offset: 3, end_offset: 3 });
  });

  it.each([
    ['status=DONE', `BAD_REQUEST: "status[0]" must be one of ${STATUSES}`],
    ['status=RECORDING,DONE', `BAD_REQUEST: "status[1]" must be one of ${STATUSES}`],
    // Repeated and comma-separated at once: the index counts the statuses, not the raw values.
    ['status=RECORDING,UPLOADED&status=DONE', `BAD_REQUEST: "status[2]" must be one of ${STATUSES}`],
    ['sort_order=up', 'BAD_REQUEST: "sort_order" must be one of [ASC, DESC]'],
    ['meeting_id=nope', 'BAD_REQUEST: "meeting_id" must be a valid GUID'],
    ['per_page=101', 'BAD_REQUEST: "per_page" must be less than or equal to 100'],
    ['page_no=-1', 'BAD_REQUEST: "page_no" must be greater than or equal to 0'],
  ])('rejects %s with 400', async (query, message) => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/recordings?${query}`).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
  });
});

describe('GET /v2/recordings/{id}', () => {
  it('answers the recording', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const r = await startRecording(api, m.id);
    const res = await api.get(`/v2/recordings/${r.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: r });
  });

  it('answers 404 for an unknown recording', async () => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/recordings/${MISSING_ID}`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No recording found with id ${MISSING_ID}`));
  });

  it('answers 400 for an id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/v2/recordings/not-an-id').set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "id" must be a valid GUID'));
  });
});

describe('GET /v2/recordings/active-recording/{meeting_id}', () => {
  it.each(['INVOKED', 'RECORDING', 'PAUSED'])('answers the recording while it is %s', async (status) => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const r = await startRecording(t.api, m.id);
    if (status !== 'INVOKED') t.advance(RECORDER_JOINS_MS);
    if (status === 'PAUSED') await recordingAction(t.api, r.id, 'pause');
    const res = await t.api.get(`/v2/recordings/active-recording/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: await getRecording(t.api, r.id) });
    expect(res.body.data.status).toBe(status);
  });

  it('answers 404 when the meeting has no recording, and once it is stopped', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const none = await t.api.get(`/v2/recordings/active-recording/${m.id}`).set('Authorization', BASIC).expect(404);
    expect(none.body).toEqual(v2Error(404, `No active recording found for meeting ${m.id}`));
    const r = await startRecording(t.api, m.id);
    t.advance(RECORDER_JOINS_MS);
    await recordingAction(t.api, r.id, 'stop');
    const stopped = await t.api.get(`/v2/recordings/active-recording/${m.id}`).set('Authorization', BASIC).expect(404);
    expect(stopped.body).toEqual(v2Error(404, `No active recording found for meeting ${m.id}`));
  });

  it('answers 404 for an unknown meeting', async () => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/recordings/active-recording/${MISSING_ID}`).set('Authorization', BASIC).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
  });

  it('answers 400 for a meeting id that is not a GUID', async () => {
    const { api } = makeTestApp();
    const res = await api.get('/v2/recordings/active-recording/x').set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, 'BAD_REQUEST: "meeting_id" must be a valid GUID'));
  });
});
