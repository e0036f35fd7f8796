// The active session of a meeting (GET …/active-session, kick, kick-all, mute, mute-all, poll):
// the host's actions act on the one presence model that scripted participants use.
import { describe, expect, it } from 'vitest';
import { BASIC, ORG_ID, START, basicAuth, makeTestApp, type TestApp } from '../../helpers/test-app.js';
import { MISSING_ID, addParticipant, createMeeting, v2Error } from '../../helpers/builders.js';
import { MINUTE, SECOND, iso, recordEvents } from '../../helpers/lifecycle-helpers.js';
import { join, liveMeeting, webhookPayloads } from '../../helpers/session-helpers.js';

const UUID = /^[0-9a-f-]{36}$/;
const active = (meetingId: string, action = '') => `/v2/meetings/${meetingId}/active-session${action ? `/${action}` : ''}`;

async function otherOrgAuth(t: TestApp): Promise<string> {
  const res = await t.api.post('/_emulator/orgs').send({ name: 'Other' }).expect(201);
  return basicAuth(res.body.id, res.body.api_key);
}

/** What the realtime rooms hear of each mute (the pages turn their microphones off): who, whether they may unmute, when. */
function mutes(t: TestApp): { meetingId: string; sessionId: string; participantIds: string[]; allowUnmute: boolean; at: number }[] {
  const seen: { meetingId: string; sessionId: string; participantIds: string[]; allowUnmute: boolean; at: number }[] = [];
  t.deps.bus.subscribe((e) => {
    if (e.type === 'participants.muted')
      seen.push({ meetingId: e.meeting.id, sessionId: e.session.id, participantIds: e.participantIds, allowUnmute: e.allowUnmute, at: e.at });
  });
  return seen;
}

async function presentIds(t: TestApp, meetingId: string): Promise<string[]> {
  return (await t.api.get(`/_emulator/meetings/${meetingId}/presence`).expect(200)).body.participants.map((p: { id: string }) => p.id);
}

describe('GET /v2/meetings/{meeting_id}/active-session', () => {
  it('answers the LIVE session: participants now and at most, participant-minutes so far', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob']);
    t.advance(MINUTE);
    await t.api.post(`/_emulator/meetings/${meetingId}/participants/${ids.bob}/leave`).expect(200);
    t.advance(30 * SECOND);
    const res = await t.api.get(active(meetingId)).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: sessionId,
        associated_id: meetingId,
        meeting_display_name: 'Standup',
        type: 'meeting',
        status: 'LIVE',
        live_participants: 1,
        max_concurrent_participants: 2,
        // alice 1.5 min + bob 1 min
        minutes_consumed: 2.5,
        organization_id: ORG_ID,
        started_at: iso(START),
        created_at: iso(START),
        updated_at: iso(START + MINUTE),
      },
    });
  });

  it('of a meeting without a title shows an empty meeting_display_name', async () => {
    const t = makeTestApp();
    const { meetingId } = await liveMeeting(t, ['alice'], {});
    const res = await t.api.get(active(meetingId)).set('Authorization', BASIC).expect(200);
    expect(res.body.data.meeting_display_name).toBe('');
  });

  it('404s in production words before anyone joined and once the session ended', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const pid = (await addParticipant(t.api, meetingId)).id;
    const missing = v2Error(404, `No active session found for meeting_id ${meetingId}`);
    expect((await t.api.get(active(meetingId)).set('Authorization', BASIC).expect(404)).body).toEqual(missing);
    await join(t, meetingId, pid);
    await t.api.post(`/_emulator/meetings/${meetingId}/participants/${pid}/leave`).expect(200);
    expect((await t.api.get(active(meetingId)).set('Authorization', BASIC).expect(404)).body).toEqual(missing);
  });

  it.each([
    ['get', ''],
    ['post', 'kick-all'],
    ['post', 'mute-all'],
  ] as const)('%s %s: an unknown meeting is 404, a malformed id 400, no credentials 401', async (method, action) => {
    const t = makeTestApp();
    expect((await t.api[method](active(MISSING_ID, action)).set('Authorization', BASIC).send({}).expect(404)).body).toEqual(
      v2Error(404, `No meeting found with id ${MISSING_ID}`),
    );
    expect((await t.api[method](active('not-a-uuid', action)).set('Authorization', BASIC).send({}).expect(400)).body).toEqual(
      v2Error(400, 'BAD_REQUEST: "meeting_id" must be a valid GUID'),
    );
    await t.api[method](active(MISSING_ID, action)).send({}).expect(401);
  });

  it("another organization's credentials never reach the session", async () => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice']);
    const other = await otherOrgAuth(t);
    for (const [method, action, body] of [
      ['get', '', undefined],
      ['post', 'kick', { participant_ids: [ids.alice] }],
      ['post', 'kick-all', {}],
      ['post', 'mute', { participant_ids: [ids.alice] }],
      ['post', 'mute-all', {}],
      ['post', 'poll', { question: 'Q?', options: ['a', 'b'] }],
    ] as const) {
      const res = await t.api[method](active(meetingId, action)).set('Authorization', other).send(body).expect(404);
      expect(res.body).toEqual(v2Error(404, `No meeting found with id ${meetingId}`));
    }
    expect(await presentIds(t, meetingId)).toEqual([ids.alice]);
  });
});

describe('POST …/active-session/kick', () => {
  it('each kicked participant leaves (participantLeft); the others stay', async () => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice', 'bob', 'carol']);
    t.advance(MINUTE);
    const events = recordEvents(t);
    const res = await t.api
      .post(active(meetingId, 'kick'))
      .set('Authorization', BASIC)
      .send({ participant_ids: [ids.carol], custom_participant_ids: ['alice'] })
      .expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        action: 'kick',
        participants: [
          { id: ids.alice, name: 'alice', created_at: iso(START), updated_at: iso(START) },
          { id: ids.carol, name: 'carol', created_at: iso(START), updated_at: iso(START) },
        ],
      },
    });
    expect(events).toEqual([
      `${iso(START + MINUTE)} participant.left alice (joined ${iso(START)})`,
      `${iso(START + MINUTE)} participant.left carol (joined ${iso(START)})`,
    ]);
    expect(await presentIds(t, meetingId)).toEqual([ids.bob]);
  });

  it('answers a kicked participant with its picture when it has one', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api, { title: 'Standup' })).id;
    const picture = 'https://example.com/ada.png';
    const ada = (await addParticipant(t.api, meetingId, { name: 'Ada', custom_participant_id: 'ada', picture })).id;
    await join(t, meetingId, ada);
    const res = await t.api
      .post(active(meetingId, 'kick'))
      .set('Authorization', BASIC)
      .send({ participant_ids: [ada] })
      .expect(200);
    expect(res.body.data.participants).toEqual([{ id: ada, name: 'Ada', picture, created_at: iso(START), updated_at: iso(START) }]);
  });

  it('kicking the last one ends the session as any last leave does (ALL_PARTICIPANTS_LEFT); they may join again', async () => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice']);
    const events = recordEvents(t);
    await t.api
      .post(active(meetingId, 'kick'))
      .set('Authorization', BASIC)
      .send({ participant_ids: [ids.alice] })
      .expect(200);
    expect(events).toEqual([`${iso(START)} participant.left alice (joined ${iso(START)})`, `${iso(START)} meeting.ended ALL_PARTICIPANTS_LEFT`]);
    await join(t, meetingId, ids.alice!);
    expect(await presentIds(t, meetingId)).toEqual([ids.alice]);
  });

  it.each<[{ participant_ids?: string[]; custom_participant_ids?: string[] }, string]>([
    [{ participant_ids: [MISSING_ID] }, `No user found with id ${MISSING_ID}`],
    [{ custom_participant_ids: ['nobody'] }, 'No user found with custom_participant_id nobody'],
  ])('an id that names nobody in the session is 404 and nobody is kicked (%j)', async (selector, message) => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice', 'bob']);
    const res = await t.api
      .post(active(meetingId, 'kick'))
      .set('Authorization', BASIC)
      .send({ ...selector, participant_ids: [ids.alice, ...(selector.participant_ids ?? [])] })
      .expect(404);
    expect(res.body).toEqual(v2Error(404, message));
    expect(await presentIds(t, meetingId)).toEqual([ids.alice, ids.bob]);
  });

  it('a participant of the meeting who is not in the session is not found', async () => {
    const t = makeTestApp();
    const { meetingId } = await liveMeeting(t, ['alice']);
    const absent = (await addParticipant(t.api, meetingId, { custom_participant_id: 'zed' })).id;
    const res = await t.api
      .post(active(meetingId, 'kick'))
      .set('Authorization', BASIC)
      .send({ participant_ids: [absent] })
      .expect(404);
    expect(res.body).toEqual(v2Error(404, `No user found with id ${absent}`));
  });

  it.each([
    [{}, 'BAD_REQUEST: "participant_ids" or "custom_participant_ids" must name at least one participant'],
    [{ participant_ids: [] }, 'BAD_REQUEST: "participant_ids" or "custom_participant_ids" must name at least one participant'],
    [{ participant_ids: 'abc' }, 'BAD_REQUEST: "participant_ids" must be an array'],
    [{ custom_participant_ids: [7] }, 'BAD_REQUEST: "custom_participant_ids[0]" must be a string'],
  ])('validates the body: %j', async (body, message) => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice']);
    for (const action of ['kick', 'mute']) {
      expect((await t.api.post(active(meetingId, action)).set('Authorization', BASIC).send(body).expect(400)).body).toEqual(v2Error(400, message));
    }
    expect(await presentIds(t, meetingId)).toEqual([ids.alice]);
  });

  it('needs a LIVE session', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const res = await t.api
      .post(active(meetingId, 'kick'))
      .set('Authorization', BASIC)
      .send({ participant_ids: [MISSING_ID] })
      .expect(404);
    expect(res.body).toEqual(v2Error(404, `No active session found for meeting_id ${meetingId}`));
  });
});

describe('POST …/active-session/kick-all', () => {
  it('everyone leaves, then the session ends with HOST_ENDED_MEETING (webhooks as the guide shows them)', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob']);
    t.advance(2 * MINUTE);
    const payloads = webhookPayloads(t);
    const res = await t.api.post(active(meetingId, 'kick-all')).set('Authorization', BASIC).expect(200);
    expect(res.body).toEqual({ success: true, data: { action: 'kick-all', kicked_participants_count: 2 } });
    const meeting = {
      id: meetingId,
      sessionId,
      title: 'Standup',
      createdAt: iso(START),
      startedAt: iso(START),
      organizedBy: { id: ORG_ID, name: 'Emulator Org' },
    };
    expect(payloads).toEqual([
      {
        event: 'meeting.participantLeft',
        meeting: { ...meeting, status: 'LIVE' },
        participant: expect.objectContaining({ peerId: ids.alice, joinedAt: iso(START), leftAt: iso(START + 2 * MINUTE) }),
      },
      {
        event: 'meeting.participantLeft',
        meeting: { ...meeting, status: 'LIVE' },
        participant: expect.objectContaining({ peerId: ids.bob, leftAt: iso(START + 2 * MINUTE) }),
      },
      { event: 'meeting.ended', meeting: { ...meeting, status: 'LIVE', endedAt: '2026-01-01T00:02:00.000Z' }, reason: 'HOST_ENDED_MEETING' },
    ]);
    expect(await presentIds(t, meetingId)).toEqual([]);
    await t.api.get(active(meetingId)).set('Authorization', BASIC).expect(404);
    const session = (await t.api.get(`/v2/sessions/${sessionId}`).set('Authorization', BASIC).expect(200)).body.data.session;
    expect(session).toMatchObject({ status: 'ENDED', ended_at: iso(START + 2 * MINUTE), live_participants: 0, minutes_consumed: 4 });
  });

  it('arms the ALL_PEERS_LEFT stop of a running recording, as the last leave does', async () => {
    const t = makeTestApp();
    const { meetingId } = await liveMeeting(t, ['alice'], { title: 'Rec', record_on_start: true });
    t.advance(10 * SECOND);
    await t.api.post(active(meetingId, 'kick-all')).set('Authorization', BASIC).expect(200);
    t.advance(MINUTE);
    const rec = (await t.api.get(`/v2/recordings?meeting_id=${meetingId}`).set('Authorization', BASIC).expect(200)).body.data[0];
    expect(rec.stop_reason.reason).toBe('ALL_PEERS_LEFT');
  });
});

describe('POST …/active-session/mute and mute-all', () => {
  it('mute keeps the mute on the participant in the session (an audio_off event in its stats)', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob']);
    t.advance(5 * SECOND);
    const heard = mutes(t);
    const res = await t.api
      .post(active(meetingId, 'mute'))
      .set('Authorization', BASIC)
      .send({ custom_participant_ids: ['bob'] })
      .expect(200);
    expect(res.body).toEqual({
      success: true,
      data: { action: 'mute', participants: [{ id: ids.bob, name: 'bob', created_at: iso(START), updated_at: iso(START) }] },
    });
    const stats = async (pid: string) =>
      (await t.api.get(`/v2/sessions/${sessionId}/participants/${pid}?filters=events`).set('Authorization', BASIC).expect(200)).body.data.participant.peer_stats
        .events;
    expect(await stats(ids.bob!)).toEqual([
      { type: 'call_join', timestamp: iso(START) },
      { type: 'audio_off', timestamp: iso(START + 5 * SECOND) },
    ]);
    expect(await stats(ids.alice!)).toEqual([{ type: 'call_join', timestamp: iso(START) }]);
    // A participant the host muted may unmute (mute takes no allow_unmute): the state export keeps both.
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    const saved = state.organizations[0].sessions.find((s: { id: string }) => s.id === sessionId);
    expect(
      saved.participants.map((p: { customParticipantId: string; mutedAt: number | null; allowUnmute: boolean }) => [
        p.customParticipantId,
        p.mutedAt,
        p.allowUnmute,
      ]),
    ).toEqual([
      ['alice', null, true],
      ['bob', START + 5 * SECOND, true],
    ]);
    // Muting does not change who is in the meeting.
    expect(await presentIds(t, meetingId)).toEqual([ids.alice, ids.bob]);
    // The pages hear it once: Bob's microphone goes off, and he may turn it on again.
    expect(heard).toEqual([{ meetingId, sessionId, participantIds: [ids.bob], allowUnmute: true, at: START + 5 * SECOND }]);
  });

  it('mute-all mutes everyone present and keeps allow_unmute', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob', 'carol']);
    await t.api.post(`/_emulator/meetings/${meetingId}/participants/${ids.carol}/leave`).expect(200);
    const heard = mutes(t);
    const res = await t.api.post(active(meetingId, 'mute-all')).set('Authorization', BASIC).send({ allow_unmute: false }).expect(200);
    expect(res.body).toEqual({ success: true, data: { action: 'mute-all', muted_participants_count: 2 } });
    const session = t.deps.store.org(ORG_ID)!.sessions.get(sessionId)!;
    expect(session.participants.map((p) => [p.customParticipantId, p.mutedAt, p.allowUnmute])).toEqual([
      ['alice', START, false],
      ['bob', START, false],
      ['carol', null, true],
    ]);
    // The pages of those present hear it, and that they may not unmute.
    expect(heard).toEqual([{ meetingId, sessionId, participantIds: [ids.alice, ids.bob], allowUnmute: false, at: START }]);
  });

  it('mute-all: allow_unmute defaults to true and must be a boolean', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice']);
    const heard = mutes(t);
    expect((await t.api.post(active(meetingId, 'mute-all')).set('Authorization', BASIC).send({ allow_unmute: 'no' }).expect(400)).body).toEqual(
      v2Error(400, 'BAD_REQUEST: "allow_unmute" must be a boolean'),
    );
    expect(t.deps.store.org(ORG_ID)!.sessions.get(sessionId)!.participants[0]!.mutedAt).toBeNull();
    // A refused mute-all tells the pages nothing.
    expect(heard).toEqual([]);
    await t.api.post(active(meetingId, 'mute-all')).set('Authorization', BASIC).expect(200);
    expect(heard).toEqual([{ meetingId, sessionId, participantIds: [ids.alice], allowUnmute: true, at: START }]);
    expect(t.deps.store.org(ORG_ID)!.sessions.get(sessionId)!.participants[0]).toMatchObject({ mutedAt: START, allowUnmute: true });
  });
});

describe('POST …/active-session/poll', () => {
  it('creates a poll (201) kept with the session: it survives a state export and import', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId } = await liveMeeting(t, ['alice']);
    const res = await t.api
      .post(active(meetingId, 'poll'))
      .set('Authorization', BASIC)
      .send({ question: 'Lunch?', options: ['pizza', 'salad'], anonymous: true })
      .expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        action: 'create-poll',
        poll: {
          id: expect.stringMatching(UUID),
          question: 'Lunch?',
          options: [
            { text: 'pizza', count: 0, votes: [] },
            { text: 'salad', count: 0, votes: [] },
          ],
          anonymous: true,
          hide_votes: false,
          created_by: ORG_ID,
          voted: [],
        },
      },
    });
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    const saved = state.organizations[0].sessions.find((s: { id: string }) => s.id === sessionId);
    expect(saved.polls).toEqual([
      {
        id: res.body.data.poll.id,
        question: 'Lunch?',
        options: ['pizza', 'salad'],
        anonymous: true,
        hideVotes: false,
        createdBy: ORG_ID,
        createdAt: START,
        votes: [],
      },
    ]);
    await t.api.put('/_emulator/state').send(state).expect(200);
    expect(t.deps.store.org(ORG_ID)!.sessions.get(sessionId)!.polls).toHaveLength(1);
  });

  it.each([
    [{ options: ['a'] }, 'BAD_REQUEST: "question" is required'],
    [{ question: 'Q' }, 'BAD_REQUEST: "options" is required'],
    [{ question: 'Q', options: [] }, 'BAD_REQUEST: "options" must contain at least 1 items'],
    [{ question: '', options: ['a'] }, 'BAD_REQUEST: "question" is not allowed to be empty'],
    [{ question: 'Q', options: ['a'], hide_votes: 'yes' }, 'BAD_REQUEST: "hide_votes" must be a boolean'],
  ])('validates the poll: %j', async (body, message) => {
    const t = makeTestApp();
    const { meetingId, sessionId } = await liveMeeting(t, ['alice']);
    expect((await t.api.post(active(meetingId, 'poll')).set('Authorization', BASIC).send(body).expect(400)).body).toEqual(v2Error(400, message));
    expect(t.deps.store.org(ORG_ID)!.sessions.get(sessionId)!.polls).toEqual([]);
  });

  it('a session keeps at most 100 polls (409 past them)', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId } = await liveMeeting(t, ['alice']);
    for (let i = 0; i < 100; i++) {
      await t.api
        .post(active(meetingId, 'poll'))
        .set('Authorization', BASIC)
        .send({ question: `Q${i}`, options: ['a'] })
        .expect(201);
    }
    const res = await t.api
      .post(active(meetingId, 'poll'))
      .set('Authorization', BASIC)
      .send({ question: 'one more', options: ['a'] })
      .expect(409);
    expect(res.body).toEqual(v2Error(409, `Session ${sessionId} already has 100 polls, the most one session keeps`));
  });

  it('counts the votes the participants cast, as production shows them; the votes are kept with the session (state export and import) and after it ends', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob', 'carol']);
    const created = await t.api
      .post(active(meetingId, 'poll'))
      .set('Authorization', BASIC)
      .send({ question: 'Lunch?', options: ['pizza', 'salad', 'soup'] })
      .expect(201);
    const pollId: string = created.body.data.poll.id;
    const vote = (pid: string, option: number) => t.api.post(`/_emulator/meetings/${meetingId}/participants/${pid}/polls/${pollId}/vote`).send({ option });
    t.advance(SECOND);
    await vote(ids.bob!, 1).expect(200);
    t.advance(SECOND);
    await vote(ids.alice!, 1).expect(200);
    const last = await vote(ids.carol!, 0).expect(200);
    const expected = {
      id: pollId,
      question: 'Lunch?',
      options: [
        { text: 'pizza', count: 1, votes: [{ id: ids.carol, name: 'carol' }] },
        {
          text: 'salad',
          count: 2,
          votes: [
            { id: ids.bob, name: 'bob' },
            { id: ids.alice, name: 'alice' },
          ],
        },
        { text: 'soup', count: 0, votes: [] },
      ],
      anonymous: false,
      hide_votes: false,
      created_by: ORG_ID,
      voted: [ids.bob, ids.alice, ids.carol],
    };
    expect(last.body).toEqual(expected);
    expect((await t.api.get(`/_emulator/meetings/${meetingId}/polls`).expect(200)).body).toEqual({ session_id: sessionId, polls: [expected] });

    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    const saved = state.organizations[0].sessions.find((s: { id: string }) => s.id === sessionId);
    expect(saved.polls[0].votes).toEqual([
      { participantId: ids.bob, name: 'bob', option: 1, at: START + SECOND },
      { participantId: ids.alice, name: 'alice', option: 1, at: START + 2 * SECOND },
      { participantId: ids.carol, name: 'carol', option: 0, at: START + 2 * SECOND },
    ]);
    await t.api.put('/_emulator/state').send(state).expect(200);
    await t.api.post(active(meetingId, 'kick-all')).set('Authorization', BASIC).expect(200);
    expect((await t.api.get(`/_emulator/meetings/${meetingId}/polls`).expect(200)).body).toEqual({ session_id: sessionId, polls: [expected] });
    // An ended session takes no more votes.
    const late = await vote(ids.alice!, 2).expect(409);
    expect(late.body.error.message).toBe(`Participant ${ids.alice} is not in meeting ${meetingId}`);
  });

  it('a state document saved before votes were kept loads its polls with none', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId } = await liveMeeting(t, ['alice']);
    await t.api
      .post(active(meetingId, 'poll'))
      .set('Authorization', BASIC)
      .send({ question: 'Q', options: ['a', 'b'] })
      .expect(201);
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    const saved = state.organizations[0].sessions.find((s: { id: string }) => s.id === sessionId);
    delete saved.polls[0].votes;
    await t.api.put('/_emulator/state').send(state).expect(200);
    expect(t.deps.store.org(ORG_ID)!.sessions.get(sessionId)!.polls[0]!.votes).toEqual([]);
  });

  it('needs a LIVE session', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const res = await t.api
      .post(active(meetingId, 'poll'))
      .set('Authorization', BASIC)
      .send({ question: 'Q', options: ['a'] })
      .expect(404);
    expect(res.body).toEqual(v2Error(404, `No active session found for meeting_id ${meetingId}`));
  });
});
