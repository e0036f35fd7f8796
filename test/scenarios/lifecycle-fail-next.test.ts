// Failure injection: `fail_next: N` makes the next N simulated steps end in ERRORED — at the
// recorder's start or at the upload for recordings, instead of going live for livestreams.
import { describe, expect, it } from 'vitest';
import { BASIC, START, makeTestApp } from '../helpers/test-app.js';
import { MINUTE, SECOND, iso, patchSimulator, recordEvents } from '../helpers/lifecycle-helpers.js';
import { createLivestream, createMeeting, getLivestream, getRecording, recordingAction, startRecording } from '../helpers/builders.js';

// The service's own transitions show as the organization, without user details.
const SYSTEM = { type: 'ORGANIZATION' };

describe('fail_next for recordings', () => {
  it('at start: the next N recordings go ERRORED when the recorder would join; the one after records', async () => {
    const t = makeTestApp();
    const policy = await patchSimulator(t, { recording: { fail_next: 2, fail_at: 'start' } });
    expect(policy.recording).toMatchObject({ fail_next: 2, fail_at: 'start' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const meetingId = (await createMeeting(t.api)).id;
      ids.push((await startRecording(t.api, meetingId)).id);
    }
    t.advance(3 * SECOND - 1);
    for (const id of ids) expect((await getRecording(t.api, id)).status).toBe('INVOKED');
    t.advance(1);
    for (const id of ids.slice(0, 2)) {
      expect(await getRecording(t.api, id)).toMatchObject({
        status: 'ERRORED',
        started_time: null,
        stopped_time: null,
        session_id: null,
        stop_reason: { reason: 'INTERNAL_ERROR', caller: SYSTEM },
      });
    }
    expect(await getRecording(t.api, ids[2]!)).toMatchObject({ status: 'RECORDING', started_time: iso(START + 3 * SECOND) });
    expect((await t.api.get('/_emulator/simulator').expect(200)).body.recording.fail_next).toBe(0);
  });

  it('at upload: the stopped recording goes ERRORED when its upload would finish, keeping its stop', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    await patchSimulator(t, { recording: { fail_next: 1, fail_at: 'upload' } });
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    t.advance(3 * SECOND);
    expect((await getRecording(t.api, id)).status).toBe('RECORDING'); // starting is not affected
    t.advance(MINUTE);
    await recordingAction(t.api, id, 'stop');
    t.advance(15 * SECOND);
    expect(await getRecording(t.api, id)).toMatchObject({
      status: 'ERRORED',
      stopped_time: iso(START + 63 * SECOND),
      file_size: 29_944,
      download_url: null,
      audio_download_url: null,
      stop_reason: { reason: 'API_CALL' },
    });
    expect(events.slice(-1)).toEqual([`${iso(START + 78 * SECOND)} recording UPLOADING → ERRORED`]);

    // The count is spent: the next recording uploads normally.
    const second = await startRecording(t.api, meetingId);
    t.advance(3 * SECOND + MINUTE);
    await recordingAction(t.api, second.id, 'stop');
    t.advance(15 * SECOND);
    expect((await getRecording(t.api, second.id)).status).toBe('UPLOADED');
  });

  it('fail_at start does not touch uploads, and a forced move does not spend the count', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { fail_next: 1, fail_at: 'start' } });
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    await t.api.post(`/_emulator/recordings/${id}/transition`).send({ to: 'RECORDING' }).expect(200);
    t.advance(MINUTE);
    await recordingAction(t.api, id, 'stop');
    t.advance(15 * SECOND);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADED');
    expect((await t.api.get('/_emulator/simulator').expect(200)).body.recording.fail_next).toBe(1);
  });

  it('manual mode injects nothing (nothing is simulated), and keeps the count for later', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual', fail_next: 1 } });
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    t.advance(MINUTE);
    expect((await getRecording(t.api, id)).status).toBe('INVOKED');
    await patchSimulator(t, { recording: { mode: 'auto' } });
    t.advance(3 * SECOND);
    expect((await getRecording(t.api, id)).status).toBe('ERRORED');
  });
});

describe('fail_next for livestreams', () => {
  it('the next N livestreams go ERRORED instead of LIVE; the one after goes live', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { fail_next: 1 } });
    const first = await createLivestream(t.api, (await createMeeting(t.api)).id);
    const second = await createLivestream(t.api, (await createMeeting(t.api)).id);
    t.advance(5 * SECOND);
    expect(await getLivestream(t.api, first.id)).toMatchObject({ status: 'ERRORED', updated_at: iso(START + 5 * SECOND) });
    expect((await getLivestream(t.api, second.id)).status).toBe('LIVE');
    expect((await t.api.get('/_emulator/simulator').expect(200)).body.livestream.fail_next).toBe(0);
  });

  it('an ERRORED livestream is no longer the active one, and has no playlist', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { fail_next: 1 } });
    const meetingId = (await createMeeting(t.api)).id;
    const l = await createLivestream(t.api, meetingId);
    t.advance(5 * SECOND);
    const active = await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(404);
    expect(active.body).toEqual({ success: false, error: { code: 404, message: `No active livestream found for meeting ${meetingId}` } });
    const playlist = await t.api.get(new URL(l.playback_url as string).pathname).expect(404);
    expect(playlist.body.error.code).toBe('NOT_FOUND');
    // A new one may be created for the meeting.
    expect(await createLivestream(t.api, meetingId)).toMatchObject({ meeting_id: meetingId, status: 'OFFLINE' });
  });
});
