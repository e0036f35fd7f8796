// The automatic lifecycle end to end on the manual clock, with exact timestamps. Default
// policy: the recorder joins 3 s after the start, an upload takes 10 s + 5 s per recorded
// minute, ingest goes live 5 s after the livestream is created.
import { describe, expect, it } from 'vitest';
import { BASIC, START, makeTestApp } from '../helpers/test-app.js';
import { DAY, MINUTE, SECOND, iso, patchSimulator, recordEvents } from '../helpers/lifecycle-helpers.js';
import { join, leave } from '../helpers/session-helpers.js';
import { addParticipant, createLivestream, createMeeting, getLivestream, getRecording, recordingAction, startRecording } from '../helpers/builders.js';

describe('automatic recording lifecycle', () => {
  it('INVOKED → RECORDING after 3 s → UPLOADING on stop → UPLOADED 10 s + 5 s/min later, every field at its exact time', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    const meetingId = (await createMeeting(t.api, { title: 'Lifecycle' })).id;

    const started = await startRecording(t.api, meetingId);
    expect(started).toMatchObject({
      status: 'INVOKED',
      invoked_time: iso(START),
      started_time: null,
      stopped_time: null,
      session_id: null,
      file_size: null,
      download_url: null,
      audio_download_url: null,
      download_url_expiry: null,
      output_file_name: `${meetingId}_${START}.mp4`,
      start_reason: { reason: 'API_CALL', caller: { name: 'Emulator Org', type: 'ORGANIZATION' } },
    });
    // Not known yet, and production allows no null there: left out.
    expect(started).not.toHaveProperty('recording_duration');
    expect(started).not.toHaveProperty('stop_reason');

    t.advance(3 * SECOND - 1);
    expect((await getRecording(t.api, started.id)).status).toBe('INVOKED');
    t.advance(1);
    const rec = await getRecording(t.api, started.id);
    expect(rec).toMatchObject({ status: 'RECORDING', started_time: iso(START + 3 * SECOND), session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    // One recorded minute, then stop through the API.
    t.advance(MINUTE);
    const stopTime = START + 63 * SECOND;
    const stopped = await recordingAction(t.api, started.id, 'stop');
    expect(stopped).toMatchObject({
      status: 'UPLOADING',
      started_time: iso(START + 3 * SECOND),
      stopped_time: iso(stopTime),
      file_size: 29_944,
      download_url: null,
      stop_reason: { reason: 'API_CALL', caller: { name: 'Emulator Org', type: 'ORGANIZATION' } },
    });

    // Upload: 10 s base + 5 s for the one recorded minute.
    t.advance(15 * SECOND - 1);
    expect((await getRecording(t.api, started.id)).status).toBe('UPLOADING');
    t.advance(1);
    const uploaded = await getRecording(t.api, started.id);
    const expiry = stopTime + 7 * DAY;
    const base = `http://emulator.test/media/recordings/${started.id}/${meetingId}_${START}`;
    expect(uploaded).toEqual({
      ...stopped,
      meeting: undefined,
      status: 'UPLOADED',
      download_url: expect.stringMatching(new RegExp(`^${base}\\.mp4\\?expires=${expiry}&signature=[A-Za-z0-9_-]{43}$`)),
      audio_download_url: expect.stringMatching(new RegExp(`^${base}\\.m4a\\?expires=${expiry}&signature=[A-Za-z0-9_-]{43}$`)),
      download_url_expiry: iso(expiry),
      recording_duration: 60,
    });

    expect(events).toEqual([
      `${iso(START)} recording - → INVOKED`,
      `${iso(START + 3 * SECOND)} recording INVOKED → RECORDING`,
      `${iso(stopTime)} recording RECORDING → UPLOADING`,
      `${iso(stopTime + 15 * SECOND)} recording UPLOADING → UPLOADED`,
    ]);
  });

  it('counts recorded time without pauses: the upload takes longer for longer recordings', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    t.advance(3 * SECOND); // RECORDING at +3 s
    t.advance(4 * MINUTE); // 4 min recorded
    await t.api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action: 'pause' }).expect(200);
    t.advance(30 * MINUTE); // paused: not recorded
    await t.api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action: 'resume' }).expect(200);
    t.advance(2 * MINUTE); // 6 min recorded in all
    const stopTime = START + 3 * SECOND + 36 * MINUTE;
    await recordingAction(t.api, id, 'stop');
    // 10 s + 6 × 5 s = 40 s
    t.advance(40 * SECOND - 1);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADING');
    t.advance(1);
    expect(await getRecording(t.api, id)).toMatchObject({
      status: 'UPLOADED',
      stopped_time: iso(stopTime),
      recording_duration: 360,
      download_url_expiry: iso(stopTime + 7 * DAY),
    });
  });

  it('uses the delays set at run time', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { start_delay_ms: 500, upload_base_ms: 2_000, upload_ms_per_recorded_minute: 60_000 } });
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    t.advance(499);
    expect((await getRecording(t.api, id)).status).toBe('INVOKED');
    t.advance(1);
    expect(await getRecording(t.api, id)).toMatchObject({ status: 'RECORDING', started_time: iso(START + 500) });
    t.advance(30 * SECOND); // half a minute recorded → 2 s + 30 s
    await recordingAction(t.api, id, 'stop');
    t.advance(32 * SECOND - 1);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADING');
    t.advance(1);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADED');
  });
});

describe("recordings and the meeting's session", () => {
  it("a recording joins the meeting's running session; when everyone leaves only the recording still running is stopped", async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const sessionId = await join(t, meetingId, alice);

    // A first recording, stopped and uploaded while the session runs.
    const first = await startRecording(t.api, meetingId);
    t.advance(3 * SECOND);
    expect(await getRecording(t.api, first.id)).toMatchObject({ status: 'RECORDING', session_id: sessionId });
    t.advance(MINUTE);
    await recordingAction(t.api, first.id, 'stop');
    t.advance(15 * SECOND);
    const uploaded = await getRecording(t.api, first.id);
    expect(uploaded).toMatchObject({ status: 'UPLOADED', stop_reason: { reason: 'API_CALL' } });

    // A second one, running when the last participant leaves.
    const second = await startRecording(t.api, meetingId);
    t.advance(3 * SECOND);
    expect(await getRecording(t.api, second.id)).toMatchObject({ status: 'RECORDING', session_id: sessionId });
    await leave(t, meetingId, alice);
    const leftAt = t.now();
    t.advance(MINUTE);
    expect(await getRecording(t.api, second.id)).toMatchObject({
      status: 'UPLOADING',
      stopped_time: iso(leftAt + MINUTE),
      stop_reason: { reason: 'ALL_PEERS_LEFT', caller: { type: 'ORGANIZATION' } },
    });
    expect(await getRecording(t.api, first.id)).toEqual(uploaded);
  });

  it('a recording started after the session ended gets a session id of its own', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const ended = await join(t, meetingId, alice);
    await leave(t, meetingId, alice);
    const { id } = await startRecording(t.api, meetingId);
    t.advance(3 * SECOND);
    const rec = await getRecording(t.api, id);
    expect(rec).toMatchObject({ status: 'RECORDING', session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(rec.session_id).not.toBe(ended);
  });
});

describe('automatic livestream lifecycle', () => {
  it('OFFLINE → LIVE 5 s after creation; ingest and viewer seconds grow with the clock; stop → OFFLINE', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    const meetingId = (await createMeeting(t.api)).id;
    const created = await createLivestream(t.api, meetingId);
    expect(created).toMatchObject({
      status: 'OFFLINE',
      created_at: iso(START),
      playback_url: `http://emulator.test/media/livestreams/${created.id}/index.m3u8`,
    });

    t.advance(5 * SECOND - 1);
    expect((await getLivestream(t.api, created.id)).status).toBe('OFFLINE');
    t.advance(1);
    expect(await getLivestream(t.api, created.id)).toMatchObject({ status: 'LIVE', updated_at: iso(START + 5 * SECOND) });

    t.advance(30 * SECOND);
    const active = await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(200);
    expect(active.body.data).toMatchObject({ status: 'LIVE', ingest_seconds: 30, viewer_seconds: 30 });

    await patchSimulator(t, { livestream: { viewers: 4 } });
    const watched = await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(200);
    expect(watched.body.data).toMatchObject({ ingest_seconds: 30, viewer_seconds: 120 });

    await t.api.post(`/v2/meetings/${meetingId}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    expect(await getLivestream(t.api, created.id)).toMatchObject({ status: 'OFFLINE', updated_at: iso(START + 35 * SECOND) });
    t.advance(DAY);
    expect((await getLivestream(t.api, created.id)).status).toBe('OFFLINE');
    expect(events).toEqual([
      `${iso(START)} livestream - → OFFLINE`,
      `${iso(START + 5 * SECOND)} livestream OFFLINE → LIVE`,
      `${iso(START + 35 * SECOND)} livestream LIVE → STOPPED`,
    ]);
  });

  it('a livestream stopped before ingest never goes live', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await createLivestream(t.api, meetingId);
    t.advance(2 * SECOND);
    await t.api.post(`/v2/meetings/${meetingId}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    t.advance(MINUTE);
    expect((await getLivestream(t.api, id)).status).toBe('OFFLINE');
    expect(t.deps.scheduler.list()).toEqual([]);
  });
});
