// Failure injection: `fail_next: N` makes the next N simulated steps end in ERRORED — at the
// recorder's start or at the upload for recordings, instead of going live for livestreams.
import { describe, expect, it } from 'vitest';
import { START, makeTestApp } from '../helpers/test-app.js';
import { MINUTE, SECOND, createLivestream, createMeeting, iso, livestream, patchSimulator, recordEvents, recording, startRecording, stopRecording } from '../helpers/lifecycle-helpers.js';

const SYSTEM = { name: null, type: 'SYSTEM', user_id: null };

describe('fail_next for recordings', () => {
  it('at start: the next N recordings go ERRORED when the recorder would join; the one after records', async () => {
    const t = makeTestApp();
    const policy = await patchSimulator(t, { recording: { fail_next: 2, fail_at: 'start' } });
    expect(policy.recording).toMatchObject({ fail_next: 2, fail_at: 'start' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const meetingId = await createMeeting(t);
      ids.push((await startRecording(t, meetingId)).id);
    }
    t.advance(3 * SECOND - 1);
    for (const id of ids) expect((await recording(t, id)).status).toBe('INVOKED');
    t.advance(1);
    for (const id of ids.slice(0, 2)) {
      expect(await recording(t, id)).toMatchObject({ status: 'ERRORED', started_time: null, stopped_time: null, session_id: null, stop_reason: { reason: 'INTERNAL_ERROR', caller: SYSTEM } });
    }
    expect(await recording(t, ids[2]!)).toMatchObject({ status: 'RECORDING', started_time: iso(START + 3 * SECOND) });
    expect((await t.api.get('/_emulator/simulator').expect(200)).body.recording.fail_next).toBe(0);
  });

  it('at upload: the stopped recording goes ERRORED when its upload would finish, keeping its stop', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    await patchSimulator(t, { recording: { fail_next: 1, fail_at: 'upload' } });
    const meetingId = await createMeeting(t);
    const { id } = await startRecording(t, meetingId);
    t.advance(3 * SECOND);
    expect((await recording(t, id)).status).toBe('RECORDING'); // starting is not affected
    t.advance(MINUTE);
    await stopRecording(t, id);
    t.advance(15 * SECOND);
    expect(await recording(t, id)).toMatchObject({
      status: 'ERRORED',
      stopped_time: iso(START + 63 * SECOND),
      file_size: 29_944,
      download_url: null,
      audio_download_url: null,
      stop_reason: { reason: 'API_CALL' },
    });
    expect(events.slice(-1)).toEqual([`${iso(START + 78 * SECOND)} recording UPLOADING → ERRORED`]);

    // The count is spent: the next recording uploads normally.
    const second = await startRecording(t, meetingId);
    t.advance(3 * SECOND + MINUTE);
    await stopRecording(t, second.id);
    t.advance(15 * SECOND);
    expect((await recording(t, second.id)).status).toBe('UPLOADED');
  });

  it('fail_at start does not touch uploads, and a forced move does not spend the count', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { fail_next: 1, fail_at: 'start' } });
    const meetingId = await createMeeting(t);
    const { id } = await startRecording(t, meetingId);
    await t.api.post(`/_emulator/recordings/${id}/transition`).send({ to: 'RECORDING' }).expect(200);
    t.advance(MINUTE);
    await stopRecording(t, id);
    t.advance(15 * SECOND);
    expect((await recording(t, id)).status).toBe('UPLOADED');
    expect((await t.api.get('/_emulator/simulator').expect(200)).body.recording.fail_next).toBe(1);
  });

  it('manual mode injects nothing (nothing is simulated), and keeps the count for later', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual', fail_next: 1 } });
    const meetingId = await createMeeting(t);
    const { id } = await startRecording(t, meetingId);
    t.advance(MINUTE);
    expect((await recording(t, id)).status).toBe('INVOKED');
    await patchSimulator(t, { recording: { mode: 'auto' } });
    t.advance(3 * SECOND);
    expect((await recording(t, id)).status).toBe('ERRORED');
  });
});

describe('fail_next for livestreams', () => {
  it('the next N livestreams go ERRORED instead of LIVE; the one after goes live', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { fail_next: 1 } });
    const first = await createLivestream(t, await createMeeting(t));
    const second = await createLivestream(t, await createMeeting(t));
    t.advance(5 * SECOND);
    expect(await livestream(t, first.id)).toMatchObject({ status: 'ERRORED', updated_at: iso(START + 5 * SECOND) });
    expect((await livestream(t, second.id)).status).toBe('LIVE');
    expect((await t.api.get('/_emulator/simulator').expect(200)).body.livestream.fail_next).toBe(0);
  });

  it('an ERRORED livestream is no longer the active one, and has no playlist', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { livestream: { fail_next: 1 } });
    const meetingId = await createMeeting(t);
    const l = await createLivestream(t, meetingId);
    t.advance(5 * SECOND);
    await t.api.get(new URL(l.playback_url).pathname).expect(404);
    // A new one may be created for the meeting.
    await createLivestream(t, meetingId);
  });
});
