// POST /v2/recordings/track (docs/api-v2.md): a track recording of a meeting through its "default"
// layer. It answers the recording it started (production documents only the 200), and that
// recording lives the life of any other: INVOKED, RECORDING once the recorder joins, UPLOADING on
// stop, UPLOADED with its links.
import { describe, expect, it } from 'vitest';
import { RecordingTransport } from '../../../src/webhooks/recording-transport.js';
import { MISSING_ID, createMeeting, getRecording, recordingAction, v2Error } from '../../helpers/builders.js';
import { RECORDER_JOINS_MS, SAMPLE_CLIP_BYTES } from '../../helpers/documented.js';
import { BASIC, START, START_ISO, basicAuth, makeTestApp } from '../../helpers/test-app.js';

const ORG_CALLER = { name: 'Emulator Org', type: 'ORGANIZATION' };
const track = (meetingId: string, extra: Record<string, unknown> = {}) => ({ meeting_id: meetingId, layers: { default: {} }, ...extra });

describe('POST /v2/recordings/track', () => {
  it('starts a recording of the meeting: 200, INVOKED, started by the organization', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    const res = await api.post('/v2/recordings/track').set('Authorization', BASIC).send(track(m.id)).expect(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      meeting_id: m.id,
      status: 'INVOKED',
      invoked_time: START_ISO,
      output_file_name: `${m.id}_${START}.mp4`,
      download_url: null,
      started_time: null,
      start_reason: { reason: 'API_CALL', caller: ORG_CALLER },
      storage_config: null,
    });
    // The same recording the recording routes show.
    expect(await getRecording(api, res.body.data.id)).toEqual(res.body.data);
    const list = await api.get(`/v2/recordings?meeting_id=${m.id}`).set('Authorization', BASIC).expect(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([res.body.data.id]);
  });

  it('takes the default layer: its file_name_prefix, its storage output without the secrets; max_seconds as a string', async () => {
    const t = makeTestApp();
    const m = await createMeeting(t.api);
    const res = await t.api
      .post('/v2/recordings/track')
      .set('Authorization', BASIC)
      .send({
        meeting_id: m.id,
        layers: {
          default: {
            file_name_prefix: 'tracks',
            outputs: [
              { type: 'DYTE_BUCKET' },
              {
                type: 'STORAGE_CONFIG',
                storage_config: { type: 'aws', bucket: 'b', region: 'us-east-1', path: 'p/', secret: 'TRACK-SECRET-1', access_key: 'TRACK-SECRET-2' },
              },
            ],
          },
        },
        max_seconds: '120',
      })
      .expect(200);
    expect(res.body.data.output_file_name).toBe(`tracks_${m.id}_${START}.mp4`);
    expect(res.body.data.storage_config).toMatchObject({ type: 'aws', bucket: 'b', region: 'us-east-1', path: 'p/' });
    const state = (await t.api.get('/_emulator/state').expect(200)).text;
    for (const text of [res.text, state]) for (const secret of ['TRACK-SECRET-1', 'TRACK-SECRET-2']) expect(text).not.toContain(secret);
    // max_seconds counts recorded time: 120 s after the recorder joined, it stops by itself.
    t.advance(RECORDER_JOINS_MS);
    expect((await getRecording(t.api, res.body.data.id)).status).toBe('RECORDING');
    t.advance(120_000);
    expect((await getRecording(t.api, res.body.data.id)).status).toBe('UPLOADING');
  });

  it('follows the recording lifecycle: RECORDING, stop, UPLOADED with links, webhooks as for any recording', async () => {
    const t = makeTestApp();
    const transport = new RecordingTransport();
    t.deps.webhooks.outbox.useTransport(transport);
    await t.api
      .post('/v2/webhooks')
      .set('Authorization', BASIC)
      .send({ name: 'r', url: 'https://receiver.test/track', events: ['recording.statusUpdate'] })
      .expect(201);
    const m = await createMeeting(t.api);
    const r = (await t.api.post('/v2/recordings/track').set('Authorization', BASIC).send(track(m.id)).expect(200)).body.data;
    t.advance(RECORDER_JOINS_MS);
    expect(await getRecording(t.api, r.id)).toMatchObject({ status: 'RECORDING', started_time: new Date(START + RECORDER_JOINS_MS).toISOString() });
    t.advance(60_000);
    const stopped = await recordingAction(t.api, r.id, 'stop');
    expect(stopped).toMatchObject({ status: 'UPLOADING', file_size: SAMPLE_CLIP_BYTES });
    t.advance(60_000);
    const done = await getRecording(t.api, r.id);
    expect(done.status).toBe('UPLOADED');
    expect(done.download_url).toEqual(expect.stringMatching(/^http:\/\/emulator\.test\/media\/recordings\//));
    await t.deps.webhooks.outbox.idle();
    const statuses = transport.requests.map((x) => (JSON.parse(x.body.toString('utf8')) as { recording: { status: string } }).recording.status);
    expect(statuses).toEqual(['INVOKED', 'RECORDING', 'UPLOADING', 'UPLOADED']);
  });

  it('a second active recording of the meeting is a 409, as on POST /v2/recordings', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    await api.post('/v2/recordings/track').set('Authorization', BASIC).send(track(m.id)).expect(200);
    const res = await api.post('/v2/recordings/track').set('Authorization', BASIC).send(track(m.id)).expect(409);
    expect(res.body).toEqual(v2Error(409, /already has an active recording/));
    await api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: m.id }).expect(409);
  });

  it('an unknown meeting is a 404; a meeting of another organization too', async () => {
    const t = makeTestApp();
    const res = await t.api.post('/v2/recordings/track').set('Authorization', BASIC).send(track(MISSING_ID)).expect(404);
    expect(res.body).toEqual(v2Error(404, `No meeting found with id ${MISSING_ID}`));
    const other = (await t.api.post('/_emulator/orgs').send({ name: 'Other' }).expect(201)).body as { id: string; api_key: string };
    const theirs = (await t.api.post('/v2/meetings').set('Authorization', basicAuth(other.id, other.api_key)).send({}).expect(201)).body.data;
    await t.api.post('/v2/recordings/track').set('Authorization', BASIC).send(track(theirs.id)).expect(404);
    const ours = (await t.api.get('/v2/recordings').set('Authorization', BASIC).expect(200)).body;
    expect(ours.paging.total_count).toBe(0);
  });

  it.each([
    ['no meeting_id', { layers: { default: {} } }, 'BAD_REQUEST: "meeting_id" is required'],
    ['no layers', { meeting_id: MISSING_ID }, 'BAD_REQUEST: "layers" is required'],
    ['no default layer', { meeting_id: MISSING_ID, layers: {} }, 'BAD_REQUEST: "layers.default" is required'],
    ['a layer other than default', { meeting_id: MISSING_ID, layers: { default: {}, audio: {} } }, 'BAD_REQUEST: "audio" is not allowed'],
    [
      'an unknown output type',
      { meeting_id: MISSING_ID, layers: { default: { outputs: [{ type: 'S3' }] } } },
      /^BAD_REQUEST: "layers\.default\.outputs\[0\]\.type" must be one of \[DYTE_BUCKET, STORAGE_CONFIG\]$/,
    ],
    [
      'a STORAGE_CONFIG output without its config',
      { meeting_id: MISSING_ID, layers: { default: { outputs: [{ type: 'STORAGE_CONFIG' }] } } },
      'BAD_REQUEST: "layers.default.outputs[0].storage_config" is required',
    ],
    [
      'a STORAGE_CONFIG output whose config is null',
      { meeting_id: MISSING_ID, layers: { default: { outputs: [{ type: 'STORAGE_CONFIG', storage_config: null }] } } },
      'BAD_REQUEST: "layers.default.outputs[0].storage_config" must be of type object',
    ],
    [
      'an output type twice',
      { meeting_id: MISSING_ID, layers: { default: { outputs: [{ type: 'DYTE_BUCKET' }, { type: 'DYTE_BUCKET' }] } } },
      'BAD_REQUEST: "layers.default.outputs[1].type" must not repeat an output type',
    ],
    ['max_seconds under 60', track(MISSING_ID, { max_seconds: '59' }), 'BAD_REQUEST: "max_seconds" must be greater than or equal to 60'],
    ['max_seconds over 86400', track(MISSING_ID, { max_seconds: 86_401 }), 'BAD_REQUEST: "max_seconds" must be less than or equal to 86400'],
    ['max_seconds that is no number', track(MISSING_ID, { max_seconds: 'soon' }), /^BAD_REQUEST: "max_seconds" /],
    [
      'a bad file_name_prefix',
      { meeting_id: MISSING_ID, layers: { default: { file_name_prefix: 'a b' } } },
      /^BAD_REQUEST: "layers\.default\.file_name_prefix" /,
    ],
  ])('answers 400 for %s, before looking the meeting up, and starts nothing', async (_what, body, message) => {
    const { api } = makeTestApp();
    const res = await api.post('/v2/recordings/track').set('Authorization', BASIC).send(body).expect(400);
    expect(res.body).toEqual(v2Error(400, message));
    expect((await api.get('/v2/recordings').set('Authorization', BASIC).expect(200)).body.paging.total_count).toBe(0);
  });

  it('takes Basic credentials only: no header, a wrong key or a participant token is a 401', async () => {
    const { api } = makeTestApp();
    const m = await createMeeting(api);
    await api.post('/v2/recordings/track').send(track(m.id)).expect(401);
    await api.post('/v2/recordings/track').set('Authorization', basicAuth(undefined, 'wrong')).send(track(m.id)).expect(401);
    const host = (
      await api
        .post(`/v2/meetings/${m.id}/participants`)
        .set('Authorization', BASIC)
        .send({ preset_name: 'group_call_host', custom_participant_id: 'h' })
        .expect(201)
    ).body.data;
    const res = await api.post('/v2/recordings/track').set('Authorization', `Bearer ${host.token}`).send(track(m.id)).expect(401);
    expect(res.body).toEqual(v2Error(401, 'Participant tokens are not accepted on this route; use Basic credentials'));
  });
});

describe("an output's storage_config has the limits of a recording's (docs/limits-and-decisions.md)", () => {
  // Secrets 4096 characters, the storage path 2048, names 255: at the limit accepted, one over refused naming it.
  it.each([
    ...['access_key', 'secret_key', 'secret', 'password', 'private_key'].map((f) => [f, 4096] as const),
    ['path', 2048] as const,
    ...['region', 'bucket', 'host', 'username'].map((f) => [f, 255] as const),
  ])('%s: %i characters', async (field, max) => {
    const t = makeTestApp();
    const body = (n: number, meetingId: string) => ({
      meeting_id: meetingId,
      layers: { default: { outputs: [{ type: 'STORAGE_CONFIG', storage_config: { type: 'sftp', [field]: 'x'.repeat(n) } }] } },
    });
    const m = await createMeeting(t.api);
    await t.api.post('/v2/recordings/track').set('Authorization', BASIC).send(body(max, m.id)).expect(200);
    const before = (await t.api.get('/_emulator/state').expect(200)).text;
    const res = await t.api
      .post('/v2/recordings/track')
      .set('Authorization', BASIC)
      .send(body(max + 1, m.id))
      .expect(400);
    expect(res.body).toEqual(
      v2Error(400, `BAD_REQUEST: "layers.default.outputs[0].storage_config.${field}" length must be less than or equal to ${max} characters long`),
    );
    expect((await t.api.get('/_emulator/state').expect(200)).text).toBe(before);
  });
});
