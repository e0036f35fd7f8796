// A meeting's recording_config applies to the recordings it starts; the start request's own
// settings win over it (the precedence of the recording-config guide). Production's enums are
// enforced, and the recordings list honours every documented query option.
import { describe, expect, it } from 'vitest';
import { BASIC, START, makeTestApp } from '../../helpers/test-app.js';
import { RECORDER_JOINS_MS } from '../../helpers/documented.js';
import { addParticipant, createMeeting, getRecording, recordingAction, startRecording, v2Error } from '../../helpers/builders.js';

const DAY = 24 * 60 * 60 * 1000;

describe("a meeting's recording_config", () => {
  it('gives the recordings it starts their file name prefix, max_seconds and storage config', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, {
      recording_config: { file_name_prefix: 'standup', max_seconds: 120, storage_config: { type: 'gcs', bucket: 'team', path: 'daily/' } },
    });
    const r = await startRecording(t.api, m.id);
    expect(r.output_file_name).toBe(`standup_${m.id}_${START}.mp4`);
    expect(r.storage_config).toEqual({ id: expect.any(String), type: 'gcs', bucket: 'team', path: 'daily/' });
    t.advance(RECORDER_JOINS_MS + 120_000 - 1);
    expect((await getRecording(t.api, r.id)).status).toBe('RECORDING');
    t.advance(1);
    expect((await getRecording(t.api, r.id)).status).toBe('UPLOADING');
  });

  it('gives way to the start request', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { recording_config: { file_name_prefix: 'meeting', storage_config: { type: 'gcs', bucket: 'team' } } });
    const r = await startRecording(t.api, m.id, { file_name_prefix: 'start', storage_config: { type: 'aws', bucket: 'mine' } });
    expect(r.output_file_name).toBe(`start_${m.id}_${START}.mp4`);
    expect(r.storage_config).toEqual({ id: expect.any(String), type: 'aws', bucket: 'mine' });
  });

  it('applies to a recording started by record_on_start', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { record_on_start: true, recording_config: { file_name_prefix: 'auto' } });
    const p = await addParticipant(t.api, m.id);
    await t.api.post(`/_emulator/meetings/${m.id}/participants/${p.id}/join`).expect(200);
    const active = await t.api.get(`/v2/recordings/active-recording/${m.id}`).set('Authorization', BASIC).expect(200);
    expect(active.body.data.output_file_name).toBe(`auto_${m.id}_${START}.mp4`);
  });

  it.each([
    ['the meeting', { dyte_bucket_config: { enabled: false } }, {}],
    ['the start request', {}, { dyte_bucket_config: { enabled: false } }],
  ])('dyte_bucket_config.enabled false (%s): uploaded without download links', async (_where, config, start) => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { recording_config: config });
    const r = await startRecording(t.api, m.id, start);
    t.advance(RECORDER_JOINS_MS + 60_000);
    await recordingAction(t.api, r.id, 'stop');
    t.advance(15_000);
    expect(await getRecording(t.api, r.id)).toMatchObject({
      status: 'UPLOADED',
      download_url: null,
      audio_download_url: null,
      download_url_expiry: null,
      recording_duration: 60,
    });
  });

  it('audio_config.export_file false: no audio link, the video link as usual', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { recording_config: { audio_config: { export_file: false } } });
    const r = await startRecording(t.api, m.id);
    t.advance(RECORDER_JOINS_MS + 60_000);
    const stopAt = t.now();
    await recordingAction(t.api, r.id, 'stop');
    t.advance(15_000);
    expect(await getRecording(t.api, r.id)).toMatchObject({
      download_url: expect.stringMatching(/\.mp4\?/),
      audio_download_url: null,
      download_url_expiry: new Date(stopAt + 7 * DAY).toISOString(),
    });
  });

  it('is echoed as given, without unknown keys and without storage secrets', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, {
      recording_config: { max_seconds: 600, colour: 'blue', storage_config: { type: 'sftp', host: 'h', port: 0, password: 'p4ss', private_key: 'k' } },
    });
    expect(m.recording_config).toEqual({ max_seconds: 600, storage_config: { type: 'sftp', host: 'h', port: 0 } });
  });

  it.each(['KEY', 'PASSWORD'])('keeps the storage auth_method %s on the recording it starts', async (method) => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { recording_config: { storage_config: { type: 'sftp', host: 'files.example', auth_method: method } } });
    const r = await startRecording(t.api, m.id);
    expect(r.storage_config).toEqual({ id: expect.any(String), type: 'sftp', host: 'files.example', auth_method: method });
  });

  it.each([
    [{ video_config: { codec: 'VP9' } }, '"recording_config.video_config.codec" must be one of [H264, VP8]'],
    [{ video_config: { width: 1921 } }, '"recording_config.video_config.width" must be less than or equal to 1920'],
    [
      { video_config: { watermark: { position: 'center' } } },
      '"recording_config.video_config.watermark.position" must be one of [left top, right top, left bottom, right bottom]',
    ],
    [{ audio_config: { codec: 'OPUS' } }, '"recording_config.audio_config.codec" must be one of [MP3, AAC]'],
    [{ audio_config: { channel: 'surround' } }, '"recording_config.audio_config.channel" must be one of [mono, stereo]'],
    [{ storage_config: { type: 'sftp', auth_method: 'TOKEN' } }, '"recording_config.storage_config.auth_method" must be one of [KEY, PASSWORD]'],
    [{ dyte_bucket_config: {} }, '"recording_config.dyte_bucket_config.enabled" is required'],
    [{ max_seconds: 59 }, '"recording_config.max_seconds" must be greater than or equal to 60'],
  ])('rejects %j with 400', async (config, message) => {
    const t = makeTestApp();
    const res = await t.api.post('/v2/meetings').set('Authorization', BASIC).send({ recording_config: config }).expect(400);
    expect(res.body).toEqual(v2Error(400, `BAD_REQUEST: ${message}`));
  });

  it.each([
    [{ video_config: { codec: 'AV1' } }, '"video_config.codec" must be one of [H264, VP8]'],
    [{ audio_config: { codec: 'FLAC' } }, '"audio_config.codec" must be one of [MP3, AAC]'],
    [{ interactive_config: { type: 'SCTE' } }, '"interactive_config.type" must be one of [ID3]'],
  ])('a start with %j is a 400', async (body, message) => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const res = await t.api
      .post('/v2/recordings')
      .set('Authorization', BASIC)
      .send({ meeting_id: m.id, ...body })
      .expect(400);
    expect(res.body).toEqual(v2Error(400, `BAD_REQUEST: ${message}`));
  });
});

describe("a meeting's recording_config in an imported state", () => {
  /** Imports the emulator's own state with the meeting's recording config replaced. */
  async function imported(recordingConfig: Record<string, unknown>) {
    const t = makeTestApp();
    const meeting = await createMeeting(t.api, { title: 'Imported' });
    const doc = (await t.api.get('/_emulator/state').expect(200)).body;
    const kept = doc.organizations.flatMap((o: { meetings?: Array<Record<string, unknown>> }) => o.meetings ?? []);
    kept[0].recordingConfig = recordingConfig;
    await t.api.put('/_emulator/state').send(doc).expect(200);
    return { t, meetingId: meeting.id };
  }

  it.each([
    [
      'with a storage secret',
      { max_seconds: 600, storage_config: { type: 'aws', bucket: 'b', secret_key: 'imported-secret' } },
      { max_seconds: 600, storage_config: { type: 'aws', bucket: 'b' } },
    ],
    ['with storage_config null', { max_seconds: 600, storage_config: null }, { max_seconds: 600, storage_config: null }],
    ['without storage_config', { max_seconds: 600 }, { max_seconds: 600 }],
  ])('%s is kept as given, less the secrets', async (_name, given, shown) => {
    const { t, meetingId } = await imported(given);
    const got = await t.api.get(`/v2/meetings/${meetingId}`).set('Authorization', BASIC).expect(200);
    expect(got.body.data.recording_config).toEqual(shown);
    expect((await t.api.get('/_emulator/state').expect(200)).text).not.toContain('imported-secret');
  });

  // The import takes any JSON object as a recording config; a storage_config that is not an
  // object says nothing, so the recordings keep to the emulator's own bucket.
  it('a storage_config that is not an object gives the recordings no storage config', async () => {
    const { t, meetingId } = await imported({ storage_config: 'none' });
    const r = await startRecording(t.api, meetingId);
    expect(r.storage_config).toBeNull();
  });
});

describe('requests as production takes them', () => {
  it('record_on_start and live_stream_on_start null are the default (false)', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api, { title: 'x', record_on_start: null, live_stream_on_start: null });
    expect(m).toMatchObject({ record_on_start: false, live_stream_on_start: false });
  });

  it('a null preset_name on a participant PATCH leaves the preset as it was', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const p = await addParticipant(t.api, m.id);
    const res = await t.api
      .patch(`/v2/meetings/${m.id}/participants/${p.id}`)
      .set('Authorization', BASIC)
      .send({ name: 'Renamed', preset_name: null })
      .expect(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', preset_name: p.preset_name, preset_id: p.preset_id });
  });

  it('GET /v2/meetings search matches the meeting id too', async () => {
    const t = makeTestApp();
    const a = await createMeeting(t.api, { title: 'Alpha' });
    await createMeeting(t.api, { title: 'Beta' });
    const res = await t.api.get(`/v2/meetings?search=${a.id}`).set('Authorization', BASIC).expect(200);
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual([a.id]);
  });
});

describe('GET /v2/recordings query options', () => {
  async function three() {
    const t = makeTestApp();
    const board = await createMeeting(t.api, { title: 'Board meeting' });
    const sync = await createMeeting(t.api, { title: 'Weekly sync' });
    const r1 = await startRecording(t.api, board.id, { file_name_prefix: 'first' });
    t.advance(RECORDER_JOINS_MS + 60_000);
    await recordingAction(t.api, r1.id, 'stop');
    t.advance(60_000); // r1 UPLOADED, its links expire 7 days after its stop
    const r2 = await startRecording(t.api, sync.id);
    t.advance(60_000);
    const r3 = await startRecording(t.api, board.id, { allow_multiple_recordings: true });
    return { t, board, sync, r1, r2, r3, stop1: START + RECORDER_JOINS_MS + 60_000 };
  }
  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((r) => r.id);

  it('search: the meeting title, the meeting id, the recording id or the file name', async () => {
    const { t, board, sync, r1, r2, r3 } = await three();
    const q = async (s: string) =>
      ids(
        (
          await t.api
            .get(`/v2/recordings?search=${encodeURIComponent(s)}`)
            .set('Authorization', BASIC)
            .expect(200)
        ).body,
      );
    expect(await q('board')).toEqual([r3.id, r1.id]);
    expect(await q(sync.id)).toEqual([r2.id]);
    expect(await q(r3.id)).toEqual([r3.id]);
    expect(await q('FIRST_')).toEqual([r1.id]);
    expect(await q('nothing')).toEqual([]);
    expect(board.id).toBeDefined();
  });

  it('search: a meeting without a title matches by its ids and file names only', async () => {
    const t = makeTestApp();
    const titled = await createMeeting(t.api, { title: 'Where next' });
    const untitled = await createMeeting(t.api, {});
    expect(untitled).not.toHaveProperty('title'); // without a title, `title` is left out
    const a = await startRecording(t.api, titled.id);
    const b = await startRecording(t.api, untitled.id);
    const q = async (s: string) => ids((await t.api.get(`/v2/recordings?search=${s}`).set('Authorization', BASIC).expect(200)).body);
    expect(await q('here')).toEqual([a.id]);
    expect(await q(untitled.id)).toEqual([b.id]);
  });

  it('start_time and end_time bound the invoked time, both inclusive', async () => {
    const { t, r1, r2, r3 } = await three();
    const r2At = new Date(START + RECORDER_JOINS_MS + 120_000).toISOString();
    const res = await t.api.get(`/v2/recordings?start_time=${r2At}&end_time=${r2At}`).set('Authorization', BASIC).expect(200);
    expect(ids(res.body)).toEqual([r2.id]);
    const later = await t.api.get(`/v2/recordings?start_time=${r2At}`).set('Authorization', BASIC).expect(200);
    expect(ids(later.body)).toEqual([r3.id, r2.id]);
    const earlier = await t.api.get(`/v2/recordings?end_time=${r2At}`).set('Authorization', BASIC).expect(200);
    expect(ids(earlier.body)).toEqual([r2.id, r1.id]);
  });

  it('expired: the recordings whose links have expired on the emulator clock, or the others', async () => {
    const { t, r1, r2, r3, stop1 } = await three();
    const q = async (v: string) => ids((await t.api.get(`/v2/recordings?expired=${v}`).set('Authorization', BASIC).expect(200)).body);
    expect(await q('true')).toEqual([]);
    t.deps.scheduler.advanceTo(stop1 + 7 * DAY);
    expect(await q('true')).toEqual([r1.id]);
    expect(await q('false')).toEqual([r3.id, r2.id]);
  });

  it('sort_by invokedTime with sort_order ASC', async () => {
    const { t, r1, r2, r3 } = await three();
    const res = await t.api.get('/v2/recordings?sort_by=invokedTime&sort_order=ASC').set('Authorization', BASIC).expect(200);
    expect(ids(res.body)).toEqual([r1.id, r2.id, r3.id]);
    expect(res.body.data[0].meeting).toMatchObject({ title: 'Board meeting' });
  });

  it.each([
    ['sort_by=createdAt', '"sort_by" must be one of [invokedTime]'],
    ['expired=maybe', '"expired" must be one of [true, false]'],
    ['start_time=yesterday', '"start_time" must be in ISO 8601 date format'],
  ])('rejects %s with 400', async (query, message) => {
    const { api } = makeTestApp();
    const res = await api.get(`/v2/recordings?${query}`).set('Authorization', BASIC).expect(400);
    expect(res.body).toEqual(v2Error(400, `BAD_REQUEST: ${message}`));
  });
});
