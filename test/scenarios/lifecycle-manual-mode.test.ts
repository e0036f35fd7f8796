// `mode: manual`: nothing moves by itself, however far the clock goes — including jobs that
// were scheduled before the switch. Switching back to auto re-arms what is waiting.
import { describe, expect, it } from 'vitest';
import { BASIC, START, makeTestApp } from '../helpers/test-app.js';
import { DAY, SECOND, iso, patchSimulator, recordEvents } from '../helpers/lifecycle-helpers.js';
import { createLivestream, createMeeting, getLivestream, getRecording, recordingAction, startRecording } from '../helpers/builders.js';

const YEAR = 365 * DAY;

describe('simulator mode manual', () => {
  it('holds recordings and livestreams still for a year of emulated time', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual' }, livestream: { mode: 'manual' } });
    const events = recordEvents(t);
    const meetingId = (await createMeeting(t.api)).id;
    const rec = await startRecording(t.api, meetingId);
    const live = await createLivestream(t.api, meetingId);
    expect(t.deps.scheduler.list()).toEqual([]);

    const advanced = await t.api.post('/_emulator/clock/advance').send({ ms: YEAR }).expect(200);
    expect(advanced.body).toEqual({ now: iso(START + YEAR), mode: 'manual', jobs_run: 0 });
    expect(await getRecording(t.api, rec.id)).toMatchObject({ status: 'INVOKED', started_time: null });
    expect((await getLivestream(t.api, live.id)).status).toBe('OFFLINE');
    expect(events).toEqual([`${iso(START)} recording - → INVOKED`, `${iso(START)} livestream - → OFFLINE`]);
  });

  it('holds an upload still too: a recording forced to RECORDING and stopped stays UPLOADING', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual' } });
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    await t.api.post(`/_emulator/recordings/${id}/transition`).send({ to: 'RECORDING' }).expect(200);
    t.advance(10 * SECOND);
    await recordingAction(t.api, id, 'stop');
    t.advance(YEAR);
    expect(await getRecording(t.api, id)).toMatchObject({ status: 'UPLOADING', download_url: null });
  });

  it('jobs scheduled before the switch to manual do not fire', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const rec = await startRecording(t.api, meetingId); // start job due at +3 s
    const live = await createLivestream(t.api, meetingId); // go-live job due at +5 s
    t.advance(SECOND);
    await patchSimulator(t, { recording: { mode: 'manual' }, livestream: { mode: 'manual' } });
    t.advance(DAY);
    expect((await getRecording(t.api, rec.id)).status).toBe('INVOKED');
    expect((await getLivestream(t.api, live.id)).status).toBe('OFFLINE');
  });

  it('modes are per resource: a manual recording next to an automatic livestream', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual' } });
    const meetingId = (await createMeeting(t.api)).id;
    const rec = await startRecording(t.api, meetingId);
    const live = await createLivestream(t.api, meetingId);
    t.advance(5 * SECOND);
    expect((await getRecording(t.api, rec.id)).status).toBe('INVOKED');
    expect((await getLivestream(t.api, live.id)).status).toBe('LIVE');
  });

  it('switching back to auto re-arms waiting resources with the full delay from the switch', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual' }, livestream: { mode: 'manual' } });
    const meetingId = (await createMeeting(t.api)).id;
    const rec = await startRecording(t.api, meetingId);
    const live = await createLivestream(t.api, meetingId);
    t.advance(DAY);
    const switchedAt = START + DAY;
    await patchSimulator(t, { recording: { mode: 'auto' }, livestream: { mode: 'auto' } });
    t.advance(3 * SECOND - 1);
    expect((await getRecording(t.api, rec.id)).status).toBe('INVOKED');
    t.advance(1);
    expect(await getRecording(t.api, rec.id)).toMatchObject({ status: 'RECORDING', started_time: iso(switchedAt + 3 * SECOND) });
    t.advance(2 * SECOND);
    expect(await getLivestream(t.api, live.id)).toMatchObject({ status: 'LIVE', updated_at: iso(switchedAt + 5 * SECOND) });
  });

  it('an upload interrupted by manual mode completes after a full upload time once auto again', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    t.advance(3 * SECOND + 60 * SECOND); // one recorded minute
    await recordingAction(t.api, id, 'stop'); // upload due in 15 s
    await patchSimulator(t, { recording: { mode: 'manual' } });
    t.advance(DAY);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADING');
    await patchSimulator(t, { recording: { mode: 'auto' } });
    t.advance(15 * SECOND - 1);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADING');
    t.advance(1);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADED');
  });

  it('starts in manual mode with --simulator manual, and reset returns to it', async () => {
    const t = makeTestApp({ simulator: 'manual' });
    const policy = await t.api.get('/_emulator/simulator').expect(200);
    expect(policy.body.recording.mode).toBe('manual');
    expect(policy.body.livestream.mode).toBe('manual');
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    t.advance(DAY);
    expect((await getRecording(t.api, id)).status).toBe('INVOKED');

    await patchSimulator(t, { recording: { mode: 'auto' } });
    t.deps.reset();
    expect((await t.api.get('/_emulator/simulator').expect(200)).body.recording.mode).toBe('manual');
  });

  it('the API still acts in manual mode: stop, pause and resume work on a forced RECORDING', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual' } });
    const meetingId = (await createMeeting(t.api)).id;
    const { id } = await startRecording(t.api, meetingId);
    await t.api.post(`/_emulator/recordings/${id}/transition`).send({ to: 'RECORDING' }).expect(200);
    await t.api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action: 'pause' }).expect(200);
    await t.api.put(`/v2/recordings/${id}`).set('Authorization', BASIC).send({ action: 'resume' }).expect(200);
    expect((await recordingAction(t.api, id, 'stop')).status).toBe('UPLOADING');
  });
});
