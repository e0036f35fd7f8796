// Scripted participants: join and leave drive sessions, meeting.started/ended, record_on_start,
// live_stream_on_start, and the ALL_PEERS_LEFT stop 60 s after the last leave.
import { describe, expect, it } from 'vitest';
import { BASIC, START, makeTestApp, type TestApp } from '../helpers/test-app.js';
import { MINUTE, SECOND, expectControlError, iso, patchSimulator, recordEvents } from '../helpers/lifecycle-helpers.js';
import { addParticipant, createMeeting, getRecording } from '../helpers/builders.js';

function join(t: TestApp, meetingId: string, pid: string) {
  return t.api.post(`/_emulator/meetings/${meetingId}/participants/${pid}/join`);
}
function leave(t: TestApp, meetingId: string, pid: string) {
  return t.api.post(`/_emulator/meetings/${meetingId}/participants/${pid}/leave`);
}
async function activeRecording(t: TestApp, meetingId: string) {
  return (await t.api.get(`/v2/recordings/active-recording/${meetingId}`).set('Authorization', BASIC).expect(200)).body.data;
}
async function meetingRecordings(t: TestApp, meetingId: string) {
  return (await t.api.get(`/v2/recordings?meeting_id=${meetingId}`).set('Authorization', BASIC).expect(200)).body.data as { id: string; status: string }[];
}

describe('join and leave', () => {
  it('the first join opens a session and emits meeting.started; the last leave ends it with ALL_PARTICIPANTS_LEFT', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api, { title: 'Sync' })).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const bob = (await addParticipant(t.api, meetingId, { name: 'bob', custom_participant_id: 'bob' })).id;
    const events = recordEvents(t);

    const first = await join(t, meetingId, alice).expect(200);
    expect(first.body).toEqual({
      meeting_id: meetingId,
      session: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), started_at: iso(START), ended_at: null },
      participants: [{ id: alice, custom_participant_id: 'alice', name: 'alice', joined_at: iso(START) }],
    });
    const sessionId = first.body.session.id;
    t.advance(10 * SECOND);
    const second = await join(t, meetingId, bob).expect(200);
    expect(second.body.session.id).toBe(sessionId);
    expect(second.body.participants.map((p: { id: string }) => p.id)).toEqual([alice, bob]);

    t.advance(20 * SECOND);
    expect((await leave(t, meetingId, alice).expect(200)).body.session.ended_at).toBeNull();
    t.advance(30 * SECOND);
    const last = await leave(t, meetingId, bob).expect(200);
    expect(last.body).toEqual({ meeting_id: meetingId, session: { id: sessionId, started_at: iso(START), ended_at: iso(START + MINUTE) }, participants: [] });

    expect(events).toEqual([
      `${iso(START)} meeting.started`,
      `${iso(START)} participant.joined alice`,
      `${iso(START + 10 * SECOND)} participant.joined bob`,
      `${iso(START + 30 * SECOND)} participant.left alice (joined ${iso(START)})`,
      `${iso(START + MINUTE)} participant.left bob (joined ${iso(START + 10 * SECOND)})`,
      `${iso(START + MINUTE)} meeting.ended ALL_PARTICIPANTS_LEFT`,
    ]);
    // GET presence shows the same.
    expect((await t.api.get(`/_emulator/meetings/${meetingId}/presence`).expect(200)).body).toEqual(last.body);
  });

  it('events carry the meeting with its session and the participant', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const seen: unknown[] = [];
    t.deps.bus.subscribe((e) => seen.push(e));
    await join(t, meetingId, alice).expect(200);
    t.advance(5 * SECOND);
    await leave(t, meetingId, alice).expect(200);
    const org = { id: '00000000-0000-4000-8000-000000000001', name: 'Emulator Org', apiKey: 'emulator-api-key' };
    const session = { id: expect.any(String), startedAt: START, endedAt: null };
    expect(seen).toEqual([
      { type: 'meeting.started', at: START, org, meeting: expect.objectContaining({ id: meetingId, session }) },
      {
        type: 'participant.joined',
        at: START,
        org,
        meeting: expect.objectContaining({ session }),
        participant: expect.objectContaining({ id: alice, joinedAt: START }),
      },
      {
        type: 'participant.left',
        at: START + 5 * SECOND,
        org,
        meeting: expect.objectContaining({ session }),
        participant: expect.objectContaining({ id: alice, joinedAt: null }),
        joinedAt: START,
        // Of their own accord (a kick, kick-all or deletion says so, and the participant's page hears it).
        cause: 'left',
      },
      {
        type: 'meeting.ended',
        at: START + 5 * SECOND,
        org,
        meeting: expect.objectContaining({ session: { ...session, endedAt: START + 5 * SECOND } }),
        reason: 'ALL_PARTICIPANTS_LEFT',
      },
    ]);
  });

  it('a join after the session ended opens a new session', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const s1 = (await join(t, meetingId, alice).expect(200)).body.session.id;
    await leave(t, meetingId, alice).expect(200);
    t.advance(MINUTE);
    const again = await join(t, meetingId, alice).expect(200);
    expect(again.body.session).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), started_at: iso(START + MINUTE), ended_at: null });
    expect(again.body.session.id).not.toBe(s1);
  });

  it.each([
    ['join twice', async (t: TestApp, m: string, p: string) => (await join(t, m, p).expect(200), join(t, m, p)), 409, 'CONFLICT'],
    ['leave without joining', async (t: TestApp, m: string, p: string) => leave(t, m, p), 409, 'CONFLICT'],
    [
      'leave twice',
      async (t: TestApp, m: string, p: string) => (await join(t, m, p).expect(200), await leave(t, m, p).expect(200), leave(t, m, p)),
      409,
      'CONFLICT',
    ],
    ['join an unknown meeting', async (t: TestApp, _m: string, p: string) => join(t, '00000000-0000-4000-8000-00000000f00d', p), 404, 'NOT_FOUND'],
    ['join as an unknown participant', async (t: TestApp, m: string) => join(t, m, '00000000-0000-4000-8000-00000000f00d'), 404, 'NOT_FOUND'],
    ['leave as an unknown participant', async (t: TestApp, m: string) => leave(t, m, '00000000-0000-4000-8000-00000000f00d'), 404, 'NOT_FOUND'],
    ['join with a meeting id that is not a UUID', async (t: TestApp, _m: string, p: string) => join(t, 'meeting', p), 400, 'BAD_REQUEST'],
  ])('%s → %d', async (_name, act, status, code) => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const pid = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const res = await act(t, meetingId, pid);
    expect(res.status).toBe(status);
    expectControlError(res.body, code);
  });

  it.each([
    ['join twice', async (t: TestApp, m: string, p: string) => (await join(t, m, p).expect(200), join(t, m, p))],
    ['leave without joining', async (t: TestApp, m: string, p: string) => leave(t, m, p)],
  ])('the 409 of %s names the participant and the meeting', async (_name, act) => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const pid = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const res = await act(t, meetingId, pid);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(res.body.error.message).toContain(pid);
    expect(res.body.error.message).toContain(meetingId);
  });

  it('a leave after the session has ended (a state document shows the participant still present) does not end it again', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    await join(t, meetingId, alice).expect(200);
    await leave(t, meetingId, alice).expect(200);
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    state.organizations[0].participants.find((p: { id: string }) => p.id === alice).joinedAt = START;
    await t.api.put('/_emulator/state').send(state).expect(200);
    const events = recordEvents(t);
    t.advance(MINUTE);
    const res = await leave(t, meetingId, alice).expect(200);
    expect(res.body.session.ended_at).toBe(iso(START));
    expect(events.filter((e) => e.includes('meeting.'))).toEqual([]);
  });

  it('a participant of another meeting is not found in this one', async () => {
    const t = makeTestApp();
    const m1 = (await createMeeting(t.api)).id;
    const m2 = (await createMeeting(t.api)).id;
    const p2 = (await addParticipant(t.api, m2, { name: 'bob', custom_participant_id: 'bob' })).id;
    const res = await join(t, m1, p2).expect(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: `No participant found with id ${p2}` } });
  });

  it('an INACTIVE meeting refuses joins, and nothing happens', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    const meetingId = (await createMeeting(t.api, { record_on_start: true })).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    await t.api.patch(`/v2/meetings/${meetingId}`).set('Authorization', BASIC).send({ status: 'INACTIVE' }).expect(200);
    const res = await join(t, meetingId, alice).expect(409);
    expect(res.body).toEqual({ error: { code: 'CONFLICT', message: `Meeting ${meetingId} is INACTIVE; participants cannot join` } });
    expect(events).toEqual([]);
    expect((await t.api.get(`/_emulator/meetings/${meetingId}/presence`).expect(200)).body).toEqual({ meeting_id: meetingId, session: null, participants: [] });
  });
});

describe('record_on_start and live_stream_on_start', () => {
  it('the first join starts a recording (RECORD_ON_START) that carries the session id, and a livestream', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api, { record_on_start: true, live_stream_on_start: true })).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const bob = (await addParticipant(t.api, meetingId, { name: 'bob', custom_participant_id: 'bob' })).id;
    const events = recordEvents(t);
    const sessionId = (await join(t, meetingId, alice).expect(200)).body.session.id;
    await join(t, meetingId, bob).expect(200); // not a first join: nothing more starts

    const rec = await activeRecording(t, meetingId);
    expect(rec).toMatchObject({
      status: 'INVOKED',
      invoked_time: iso(START),
      // Started by the service itself: shown as the organization, without user details.
      start_reason: { reason: 'RECORD_ON_START', caller: { type: 'ORGANIZATION' } },
    });
    const live = (await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(200)).body.data;
    expect(live).toMatchObject({ status: 'OFFLINE', created_at: iso(START) });

    t.advance(5 * SECOND);
    expect(await getRecording(t.api, rec.id)).toMatchObject({ status: 'RECORDING', started_time: iso(START + 3 * SECOND), session_id: sessionId });
    expect((await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(200)).body.data.status).toBe('LIVE');
    expect(events).toEqual([
      `${iso(START)} meeting.started`,
      `${iso(START)} participant.joined alice`,
      `${iso(START)} recording - → INVOKED`,
      `${iso(START)} livestream - → OFFLINE`,
      `${iso(START)} participant.joined bob`,
      `${iso(START + 3 * SECOND)} recording INVOKED → RECORDING`,
      `${iso(START + 5 * SECOND)} livestream OFFLINE → LIVE`,
    ]);
  });

  it('does not start a second recording or livestream when one is already active', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api, { record_on_start: true, live_stream_on_start: true })).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    await t.api.post('/v2/recordings').set('Authorization', BASIC).send({ meeting_id: meetingId }).expect(200);
    await t.api.post(`/v2/meetings/${meetingId}/livestreams`).set('Authorization', BASIC).send({}).expect(201);
    await join(t, meetingId, alice).expect(200);
    expect(await meetingRecordings(t, meetingId)).toHaveLength(1);
    const lives = await t.api.get(`/v2/meetings/${meetingId}/livestream`).set('Authorization', BASIC).expect(200);
    expect(lives.body.data.paging.total_count).toBe(1);
  });

  it('only the first join starts them: a later join in the same session does not restart a stopped recording or livestream', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api, { record_on_start: true, live_stream_on_start: true })).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const bob = (await addParticipant(t.api, meetingId, { name: 'bob', custom_participant_id: 'bob' })).id;
    await join(t, meetingId, alice).expect(200);
    t.advance(MINUTE);
    const rec = await activeRecording(t, meetingId);
    await t.api.put(`/v2/recordings/${rec.id}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
    await t.api.post(`/v2/meetings/${meetingId}/active-livestream/stop`).set('Authorization', BASIC).expect(200);
    await join(t, meetingId, bob).expect(200);
    t.advance(MINUTE);
    expect(await meetingRecordings(t, meetingId)).toHaveLength(1);
    await t.api.get(`/v2/recordings/active-recording/${meetingId}`).set('Authorization', BASIC).expect(404);
    const lives = await t.api.get(`/v2/meetings/${meetingId}/livestream`).set('Authorization', BASIC).expect(200);
    expect(lives.body.data.paging.total_count).toBe(1);
  });

  it('without the flags a join starts nothing', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    await join(t, meetingId, alice).expect(200);
    t.advance(MINUTE);
    expect(await meetingRecordings(t, meetingId)).toEqual([]);
    await t.api.get(`/v2/meetings/${meetingId}/active-livestream`).set('Authorization', BASIC).expect(404);
  });
});

describe('ALL_PEERS_LEFT', () => {
  async function recordingMeeting(t: TestApp) {
    const meetingId = (await createMeeting(t.api, { record_on_start: true })).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    const bob = (await addParticipant(t.api, meetingId, { name: 'bob', custom_participant_id: 'bob' })).id;
    await join(t, meetingId, alice).expect(200);
    await join(t, meetingId, bob).expect(200);
    const { id } = await activeRecording(t, meetingId);
    t.advance(MINUTE); // RECORDING since +3 s
    return { meetingId, alice, bob, recordingId: id as string };
  }

  it('the active recording stops 60 s after the last leave, with stop_reason ALL_PEERS_LEFT, then uploads', async () => {
    const t = makeTestApp();
    const { meetingId, alice, bob, recordingId } = await recordingMeeting(t);
    await leave(t, meetingId, alice).expect(200);
    t.advance(10 * SECOND);
    await leave(t, meetingId, bob).expect(200); // last leave at +70 s
    const lastLeave = START + 70 * SECOND;
    t.advance(60 * SECOND - 1);
    expect((await getRecording(t.api, recordingId)).status).toBe('RECORDING');
    t.advance(1);
    expect(await getRecording(t.api, recordingId)).toMatchObject({
      status: 'UPLOADING',
      stopped_time: iso(lastLeave + 60 * SECOND),
      stop_reason: { reason: 'ALL_PEERS_LEFT', caller: { type: 'ORGANIZATION' } },
    });
    // 127 s recorded → 10 s + round(5 s × 127/60) = 20.583 s
    t.advance(20_583);
    expect(await getRecording(t.api, recordingId)).toMatchObject({ status: 'UPLOADED', recording_duration: 127 });
  });

  it('removing the last present participant through the API ends the session like a leave', async () => {
    const t = makeTestApp();
    const { meetingId, alice, bob, recordingId } = await recordingMeeting(t);
    await leave(t, meetingId, alice).expect(200);
    await t.api.delete(`/v2/meetings/${meetingId}/participants/${bob}`).set('Authorization', BASIC).expect(200);
    const presence = (await t.api.get(`/_emulator/meetings/${meetingId}/presence`).expect(200)).body;
    expect(presence.participants).toEqual([]);
    expect(presence.session.ended_at).toBe(iso(START + MINUTE));
    t.advance(60 * SECOND);
    expect(await getRecording(t.api, recordingId)).toMatchObject({ status: 'UPLOADING', stop_reason: { reason: 'ALL_PEERS_LEFT' } });
  });

  it('a rejoin within the 60 s cancels the stop; the session ended and a new one began', async () => {
    const t = makeTestApp();
    const events = recordEvents(t);
    const { meetingId, alice, bob, recordingId } = await recordingMeeting(t);
    await leave(t, meetingId, alice).expect(200);
    await leave(t, meetingId, bob).expect(200);
    t.advance(59 * SECOND);
    await join(t, meetingId, bob).expect(200);
    t.advance(10 * MINUTE);
    const rec = await getRecording(t.api, recordingId);
    expect(rec).toMatchObject({ status: 'RECORDING', stopped_time: null });
    expect(rec).not.toHaveProperty('stop_reason');
    expect(await meetingRecordings(t, meetingId)).toHaveLength(1); // record_on_start did not start another
    expect(events.filter((e) => e.includes('meeting.'))).toEqual([
      `${iso(START)} meeting.started`,
      `${iso(START + MINUTE)} meeting.ended ALL_PARTICIPANTS_LEFT`,
      `${iso(START + 2 * MINUTE - SECOND)} meeting.started`,
    ]);
    // Leaving again arms a fresh 60 s.
    await leave(t, meetingId, bob).expect(200);
    const leftAt = START + 2 * MINUTE - SECOND + 10 * MINUTE;
    t.advance(MINUTE);
    expect(await getRecording(t.api, recordingId)).toMatchObject({
      status: 'UPLOADING',
      stopped_time: iso(leftAt + MINUTE),
      stop_reason: { reason: 'ALL_PEERS_LEFT' },
    });
  });

  it('a paused recording is stopped too; a recording stopped through the API meanwhile is left as it is', async () => {
    const t = makeTestApp();
    const { meetingId, alice, bob, recordingId } = await recordingMeeting(t);
    await t.api.put(`/v2/recordings/${recordingId}`).set('Authorization', BASIC).send({ action: 'pause' }).expect(200);
    await leave(t, meetingId, alice).expect(200);
    await leave(t, meetingId, bob).expect(200);
    t.advance(MINUTE);
    expect(await getRecording(t.api, recordingId)).toMatchObject({ status: 'UPLOADING', stop_reason: { reason: 'ALL_PEERS_LEFT' } });

    const t2 = makeTestApp();
    const m2 = await recordingMeeting(t2);
    await leave(t2, m2.meetingId, m2.alice).expect(200);
    await leave(t2, m2.meetingId, m2.bob).expect(200);
    await t2.api.put(`/v2/recordings/${m2.recordingId}`).set('Authorization', BASIC).send({ action: 'stop' }).expect(200);
    t2.advance(MINUTE);
    expect(await getRecording(t2.api, m2.recordingId)).toMatchObject({ stop_reason: { reason: 'API_CALL' } });
  });

  it('still applies when the simulator is in manual mode (a rule of the service, not a simulated event)', async () => {
    const t = makeTestApp();
    await patchSimulator(t, { recording: { mode: 'manual' } });
    const meetingId = (await createMeeting(t.api, { record_on_start: true })).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    await join(t, meetingId, alice).expect(200);
    const { id } = await activeRecording(t, meetingId);
    await t.api.post(`/_emulator/recordings/${id}/transition`).send({ to: 'RECORDING' }).expect(200);
    await leave(t, meetingId, alice).expect(200);
    t.advance(MINUTE);
    expect(await getRecording(t.api, id)).toMatchObject({ status: 'UPLOADING', stop_reason: { reason: 'ALL_PEERS_LEFT' } });
    t.advance(60 * MINUTE);
    expect((await getRecording(t.api, id)).status).toBe('UPLOADING'); // and manual holds the upload
  });

  it("a rejoin in one meeting does not cancel another meeting's pending stop", async () => {
    const t = makeTestApp();
    const first = await recordingMeeting(t);
    const second = await recordingMeeting(t);
    await leave(t, first.meetingId, first.alice).expect(200);
    await leave(t, first.meetingId, first.bob).expect(200);
    await leave(t, second.meetingId, second.alice).expect(200);
    await leave(t, second.meetingId, second.bob).expect(200);
    t.advance(30 * SECOND);
    await join(t, second.meetingId, second.bob).expect(200);
    t.advance(30 * SECOND);
    expect(await getRecording(t.api, first.recordingId)).toMatchObject({ status: 'UPLOADING', stop_reason: { reason: 'ALL_PEERS_LEFT' } });
    expect(await getRecording(t.api, second.recordingId)).toMatchObject({ status: 'RECORDING', stopped_time: null });
  });

  it('a stop that falls due while someone is present (as a state document may say) leaves the recording running', async () => {
    const t = makeTestApp();
    const { meetingId, alice, bob, recordingId } = await recordingMeeting(t);
    await leave(t, meetingId, alice).expect(200);
    await leave(t, meetingId, bob).expect(200);
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    state.organizations[0].participants.find((p: { id: string }) => p.id === alice).joinedAt = START + MINUTE;
    await t.api.put('/_emulator/state').send(state).expect(200);
    t.advance(MINUTE);
    expect(await getRecording(t.api, recordingId)).toMatchObject({ status: 'RECORDING', stopped_time: null });
  });

  it('nothing is scheduled when no recording is active at the last leave', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const alice = (await addParticipant(t.api, meetingId, { name: 'alice', custom_participant_id: 'alice' })).id;
    await join(t, meetingId, alice).expect(200);
    await leave(t, meetingId, alice).expect(200);
    expect(t.deps.scheduler.list()).toEqual([]);
  });
});
