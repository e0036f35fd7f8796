// The session history (GET /v2/sessions…): sessions from scripted joins, their participants
// with every stay, the chat, transcript and summary behind signed links that serve real files,
// and the webhooks that announce those files when a session ends.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { BASIC, ORG_ID, START, basicAuth, makeTestApp, type TestApp } from '../../helpers/test-app.js';
import { MISSING_ID, addParticipant, createMeeting, v2Error } from '../../helpers/builders.js';
import { DAY, MINUTE, SECOND, iso } from '../../helpers/lifecycle-helpers.js';
import { chat, join, leave, liveMeeting, speak, webhookPayloads } from '../../helpers/session-helpers.js';

const get = (t: TestApp, path: string, auth = BASIC) => t.api.get(path).set('Authorization', auth);

/** ai_config is kept on the meeting record; the meetings API takes it in its own change. */
function setAiConfig(t: TestApp, meetingId: string, aiConfig: Record<string, unknown>) {
  const data = t.deps.store.org(ORG_ID)!;
  data.putMeeting({ ...data.meetings.get(meetingId)!, aiConfig });
}

/** Downloads a link the API handed out (the emulator's own origin is stripped). */
function download(t: TestApp, url: string) {
  return request(t.app).get(url.replace('http://emulator.test', ''));
}

async function otherOrgAuth(t: TestApp): Promise<{ id: string; auth: string }> {
  const res = await t.api.post('/_emulator/orgs').send({ name: 'Other' }).expect(201);
  return { id: res.body.id, auth: basicAuth(res.body.id, res.body.api_key) };
}

describe('GET /v2/sessions', () => {
  /** Two meetings: "Standup" has an ended session then a LIVE one; "Retro" one ended session. */
  async function history(t: TestApp) {
    const standup = await liveMeeting(t, ['alice', 'bob'], { title: 'Standup' });
    t.advance(MINUTE);
    await leave(t, standup.meetingId, standup.ids.alice!);
    await leave(t, standup.meetingId, standup.ids.bob!);
    t.advance(DAY);
    const retro = await liveMeeting(t, ['carol'], { title: 'Retro' });
    t.advance(5 * MINUTE);
    await leave(t, retro.meetingId, retro.ids.carol!);
    t.advance(MINUTE);
    const second = await join(t, standup.meetingId, standup.ids.alice!);
    t.advance(MINUTE);
    return { first: standup.sessionId, standup: standup.meetingId, retro: retro.sessionId, retroMeeting: retro.meetingId, second };
  }

  it('lists every session, newest first, with paging in data', async () => {
    const t = makeTestApp();
    const h = await history(t);
    const res = await get(t, '/v2/sessions').expect(200);
    expect(res.body.data.paging).toEqual({ total_count: 3, start_offset: 1, end_offset: 3 });
    expect(res.body.data.sessions.map((s: { id: string }) => s.id)).toEqual([h.second, h.retro, h.first]);
    expect(res.body.data.sessions[1]).toEqual({
      id: h.retro,
      associated_id: h.retroMeeting,
      meeting_display_name: 'Retro',
      type: 'meeting',
      status: 'ENDED',
      live_participants: 0,
      max_concurrent_participants: 1,
      minutes_consumed: 5,
      organization_id: ORG_ID,
      started_at: iso(START + MINUTE + DAY),
      created_at: iso(START + MINUTE + DAY),
      updated_at: iso(START + 6 * MINUTE + DAY),
      ended_at: iso(START + 6 * MINUTE + DAY),
    });
    expect(res.body.data.sessions[0]).toMatchObject({ status: 'LIVE', live_participants: 1, minutes_consumed: 1 });
    expect(res.body.data.sessions[0].ended_at).toBeUndefined();
  });

  it.each([
    [
      'associated_id',
      (h: Awaited<ReturnType<typeof history>>) => `associated_id=${h.standup}`,
      (h: Awaited<ReturnType<typeof history>>) => [h.second, h.first],
    ],
    ['status=LIVE', () => 'status=LIVE', (h: Awaited<ReturnType<typeof history>>) => [h.second]],
    ['status=ENDED', () => 'status=ENDED', (h: Awaited<ReturnType<typeof history>>) => [h.retro, h.first]],
    ['participants=2:5', () => 'participants=2:5', (h: Awaited<ReturnType<typeof history>>) => [h.first]],
    ['search by title', () => 'search=retr', (h: Awaited<ReturnType<typeof history>>) => [h.retro]],
    ['search by session id', (h: Awaited<ReturnType<typeof history>>) => `search=${h.first}`, (h: Awaited<ReturnType<typeof history>>) => [h.first]],
    ['start_time', () => `start_time=${iso(START + DAY)}`, (h: Awaited<ReturnType<typeof history>>) => [h.second, h.retro]],
    ['end_time', () => `end_time=${iso(START + DAY)}`, (h: Awaited<ReturnType<typeof history>>) => [h.first]],
    // Both bounds and the participant range are inclusive.
    ['start_time at a session start', () => `start_time=${iso(START + MINUTE + DAY)}`, (h: Awaited<ReturnType<typeof history>>) => [h.second, h.retro]],
    ['end_time at a session start', () => `end_time=${iso(START + MINUTE + DAY)}`, (h: Awaited<ReturnType<typeof history>>) => [h.retro, h.first]],
    ['participants=1:1', () => 'participants=1:1', (h: Awaited<ReturnType<typeof history>>) => [h.second, h.retro]],
    ['sort_order=ASC', () => 'sort_order=ASC', (h: Awaited<ReturnType<typeof history>>) => [h.first, h.retro, h.second]],
    ['sort_by=minutesConsumed', () => 'sort_by=minutesConsumed', (h: Awaited<ReturnType<typeof history>>) => [h.retro, h.first, h.second]],
    ['per_page and page_no', () => 'per_page=1&page_no=2', (h: Awaited<ReturnType<typeof history>>) => [h.retro]],
  ])('filters and sorts: %s', async (_name, query, expected) => {
    const t = makeTestApp();
    const h = await history(t);
    const res = await get(t, `/v2/sessions?${query(h)}`).expect(200);
    expect(res.body.data.sessions.map((s: { id: string }) => s.id)).toEqual(expected(h));
  });

  it.each([
    ['participants=10:1', 'BAD_REQUEST: "participants" must have its minimum at most its maximum'],
    ['participants=many', 'BAD_REQUEST: "participants" must read "<min>:<max>", such as "1:10"'],
    ['status=OPEN', 'BAD_REQUEST: "status" must be one of [LIVE, ENDED]'],
    ['sort_by=title', 'BAD_REQUEST: "sort_by" must be one of [minutesConsumed, createdAt]'],
    ['start_time=yesterday', 'BAD_REQUEST: "start_time" must be in ISO 8601 date format'],
  ])('rejects %s with 400', async (query, message) => {
    const t = makeTestApp();
    expect((await get(t, `/v2/sessions?${query}`).expect(400)).body).toEqual(v2Error(400, message));
  });

  it('search matches the title, the meeting id or the session id, nothing else (a meeting without a title)', async () => {
    const t = makeTestApp();
    await liveMeeting(t, ['alice'], {});
    expect((await get(t, '/v2/sessions?search=here').expect(200)).body.data).toEqual({
      sessions: [],
      paging: { total_count: 0, start_offset: 0, end_offset: 0 },
    });
  });

  it('an organization sees only its own sessions; no credentials is 401', async () => {
    const t = makeTestApp();
    await liveMeeting(t, ['alice']);
    const other = await otherOrgAuth(t);
    expect((await get(t, '/v2/sessions', other.auth).expect(200)).body.data).toEqual({
      sessions: [],
      paging: { total_count: 0, start_offset: 0, end_offset: 0 },
    });
    await t.api.get('/v2/sessions').expect(401);
  });
});

describe('GET /v2/sessions/{session_id}', () => {
  it('answers the session; include_breakout_rooms adds an empty list', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId } = await liveMeeting(t, ['alice']);
    const res = await get(t, `/v2/sessions/${sessionId}`).expect(200);
    expect(res.body.data.session).toMatchObject({ id: sessionId, associated_id: meetingId, status: 'LIVE' });
    expect(res.body.data.session.breakout_rooms).toBeUndefined();
    expect((await get(t, `/v2/sessions/${sessionId}?include_breakout_rooms=true`).expect(200)).body.data.session.breakout_rooms).toEqual([]);
  });

  it('404s an unknown or foreign session, 400s a malformed id or flag', async () => {
    const t = makeTestApp();
    const { sessionId } = await liveMeeting(t, ['alice']);
    const other = await otherOrgAuth(t);
    for (const path of ['', '/participants', '/chat', '/transcript', '/summary']) {
      expect((await get(t, `/v2/sessions/${MISSING_ID}${path}`).expect(404)).body).toEqual(v2Error(404, `No session found with id ${MISSING_ID}`));
      expect((await get(t, `/v2/sessions/${sessionId}${path}`, other.auth).expect(404)).body).toEqual(v2Error(404, `No session found with id ${sessionId}`));
      expect((await get(t, `/v2/sessions/nope${path}`).expect(400)).body).toEqual(v2Error(400, 'BAD_REQUEST: "session_id" must be a valid GUID'));
    }
    expect((await get(t, `/v2/sessions/${sessionId}?include_breakout_rooms=maybe`).expect(400)).body).toEqual(
      v2Error(400, 'BAD_REQUEST: "include_breakout_rooms" must be one of [true, false]'),
    );
  });
});

describe('GET /v2/sessions/{session_id}/participants', () => {
  async function rejoined(t: TestApp) {
    const m = await liveMeeting(t, ['alice', 'bob']);
    t.advance(MINUTE);
    await leave(t, m.meetingId, m.ids.alice!);
    t.advance(MINUTE);
    await join(t, m.meetingId, m.ids.alice!);
    t.advance(3 * MINUTE);
    await leave(t, m.meetingId, m.ids.bob!);
    t.advance(30 * SECOND);
    return m;
  }

  it('lists each participant once, with first join, last leave and every stay summed', async () => {
    const t = makeTestApp();
    const { sessionId, ids } = await rejoined(t);
    const res = await get(t, `/v2/sessions/${sessionId}/participants`).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        participants: [
          {
            id: ids.alice,
            user_id: ids.alice,
            custom_participant_id: 'alice',
            display_name: 'alice',
            preset_name: 'group_call_host',
            joined_at: iso(START),
            // still in: no left_at; 1 min + 3.5 min so far
            duration: 4.5,
            created_at: iso(START),
            updated_at: iso(START + 2 * MINUTE),
          },
          {
            id: ids.bob,
            user_id: ids.bob,
            custom_participant_id: 'bob',
            display_name: 'bob',
            preset_name: 'group_call_host',
            joined_at: iso(START),
            left_at: iso(START + 5 * MINUTE),
            duration: 5,
            created_at: iso(START),
            updated_at: iso(START + 5 * MINUTE),
          },
        ],
        paging: { total_count: 2, start_offset: 1, end_offset: 2 },
      },
    });
  });

  it('include_peer_events lists a PEER_JOINING and a PEER_LEAVING per stay', async () => {
    const t = makeTestApp();
    const { sessionId, ids } = await rejoined(t);
    const res = await get(t, `/v2/sessions/${sessionId}/participants?include_peer_events=true&search=ALI`).expect(200);
    expect(res.body.data.participants).toHaveLength(1);
    expect(res.body.data.participants[0].peer_events).toEqual(
      [
        ['PEER_JOINING', START],
        ['PEER_LEAVING', START + MINUTE],
        ['PEER_JOINING', START + 2 * MINUTE],
      ].map(([name, at]) => ({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        peer_id: ids.alice,
        event_name: name,
        created_at: iso(at as number),
        updated_at: iso(at as number),
      })),
    );
  });

  it('sorts by duration, longest first with sort_order=DESC', async () => {
    const t = makeTestApp();
    const { sessionId, ids } = await rejoined(t);
    const order = async (q: string) =>
      (await get(t, `/v2/sessions/${sessionId}/participants?${q}`).expect(200)).body.data.participants.map((p: { id: string }) => p.id);
    expect(await order('sort_by=duration&sort_order=DESC')).toEqual([ids.bob, ids.alice]);
    expect(await order('sort_by=duration')).toEqual([ids.alice, ids.bob]);
  });

  it('search matches the display name or the custom participant id, whatever the case', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    const ada = (await addParticipant(t.api, meetingId, { name: 'Ada Lovelace', custom_participant_id: 'u-1' })).id;
    const bob = (await addParticipant(t.api, meetingId, { name: 'Bob', custom_participant_id: 'EXT-42' })).id;
    const nameless = (await addParticipant(t.api, meetingId, { name: undefined, custom_participant_id: 'u-3' })).id;
    await join(t, meetingId, ada);
    await join(t, meetingId, bob);
    const sessionId = await join(t, meetingId, nameless);
    const found = async (search: string) =>
      (await get(t, `/v2/sessions/${sessionId}/participants?search=${search}`).expect(200)).body.data.participants.map((p: { id: string }) => p.id);
    expect(await found('LOVELACE')).toEqual([ada]);
    expect(await found('ext-4')).toEqual([bob]);
    expect(await found('u-')).toEqual([ada, nameless]);
    // A participant without a display name is found by its ids only.
    expect(await found('here')).toEqual([]);
  });

  it('sorts by first join by default and by duration with sort_by=duration', async () => {
    const t = makeTestApp();
    // alice joins first and stays 10 minutes; bob joins a minute later and stays 1 minute; carol
    // joins last and stays 4 minutes.
    const m = await liveMeeting(t, ['alice']);
    t.advance(MINUTE);
    const bob = (await addParticipant(t.api, m.meetingId, { name: 'bob', custom_participant_id: 'bob' })).id;
    await join(t, m.meetingId, bob);
    t.advance(MINUTE);
    await leave(t, m.meetingId, bob);
    const carol = (await addParticipant(t.api, m.meetingId, { name: 'carol', custom_participant_id: 'carol' })).id;
    await join(t, m.meetingId, carol);
    t.advance(4 * MINUTE);
    await leave(t, m.meetingId, carol);
    t.advance(4 * MINUTE);
    await leave(t, m.meetingId, m.ids.alice!);
    const order = async (q: string) =>
      (await get(t, `/v2/sessions/${m.sessionId}/participants?${q}`).expect(200)).body.data.participants.map((p: { id: string }) => p.id);
    expect(await order('')).toEqual([m.ids.alice, bob, carol]);
    expect(await order('sort_order=DESC')).toEqual([carol, bob, m.ids.alice]);
    expect(await order('sort_by=duration')).toEqual([bob, carol, m.ids.alice]);
    expect(await order('sort_by=duration&sort_order=DESC')).toEqual([m.ids.alice, carol, bob]);
  });

  it('peer-report finds a peer whose only session is the first of the organization', async () => {
    const t = makeTestApp();
    const { ids } = await liveMeeting(t, ['alice']);
    await liveMeeting(t, ['bob'], { title: 'Retro' });
    const res = await get(t, `/v2/sessions/peer-report/${ids.alice}`).expect(200);
    expect(res.body.data.participant).toMatchObject({ id: ids.alice, custom_participant_id: 'alice', joined_at: iso(START) });
  });

  it('one participant with call statistics: events only with filters=events; no media stats to show', async () => {
    const t = makeTestApp();
    const { sessionId, ids } = await rejoined(t);
    const res = await get(t, `/v2/sessions/${sessionId}/participants/${ids.bob}?filters=events,quality_stats`).expect(200);
    expect(res.body.data.participant).toEqual({
      id: ids.bob,
      user_id: ids.bob,
      custom_participant_id: 'bob',
      display_name: 'bob',
      preset_name: 'group_call_host',
      joined_at: iso(START),
      left_at: iso(START + 5 * MINUTE),
      duration: 5,
      created_at: iso(START),
      updated_at: iso(START + 5 * MINUTE),
      peer_stats: {
        events: [
          { type: 'call_join', timestamp: iso(START) },
          { type: 'call_leave', timestamp: iso(START + 5 * MINUTE) },
        ],
      },
      quality_stats: [],
    });
    const unknown = await get(t, `/v2/sessions/${sessionId}/participants/${MISSING_ID}`).expect(404);
    expect(unknown.body).toEqual(v2Error(404, `No participant found with id ${MISSING_ID} in session ${sessionId}`));
    // An empty item (a trailing comma) picks nothing more.
    const trailing = await get(t, `/v2/sessions/${sessionId}/participants/${ids.bob}?filters=events,`).expect(200);
    expect(Object.keys(trailing.body.data.participant.peer_stats)).toEqual(['events']);
    expect((await get(t, `/v2/sessions/${sessionId}/participants/${ids.bob}?filters=events,colour`).expect(400)).body.error.message).toMatch(
      /^BAD_REQUEST: "filters\[1\]" must be one of/,
    );
  });

  it('peer-report: the peer id is the participant id, in its newest session', async () => {
    const t = makeTestApp();
    const { meetingId, ids } = await rejoined(t);
    await leave(t, meetingId, ids.alice!);
    t.advance(MINUTE);
    await join(t, meetingId, ids.alice!);
    t.advance(MINUTE);
    const res = await get(t, `/v2/sessions/peer-report/${ids.alice}?filters=events`).expect(200);
    expect(res.body.data.participant).toEqual({
      id: ids.alice,
      user_id: ids.alice,
      custom_participant_id: 'alice',
      display_name: 'alice',
      role: 'group_call_host',
      joined_at: iso(START + 6.5 * MINUTE),
      duration: 1,
      created_at: iso(START + 6.5 * MINUTE),
      updated_at: iso(START + 6.5 * MINUTE),
      peer_stats: { events: [{ type: 'call_join', timestamp: iso(START + 6.5 * MINUTE) }] },
    });
    expect((await get(t, `/v2/sessions/peer-report/${MISSING_ID}`).expect(404)).body).toEqual(v2Error(404, `No peer found with id ${MISSING_ID}`));
  });
});

describe('chat, transcript and summary', () => {
  it('the chat link serves the messages as CSV; it expires after 7 days on the emulator clock', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob']);
    await chat(t, meetingId, ids.alice!, 'hi, "all"');
    t.advance(SECOND);
    await chat(t, meetingId, ids.bob!, 'hello\nthere');
    const res = await get(t, `/v2/sessions/${sessionId}/chat`).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        chat_download_url: expect.stringMatching(new RegExp(`^http://emulator\\.test/media/sessions/${sessionId}/chat\\.csv\\?expires=\\d+&signature=`)),
        chat_download_url_expiry: iso(START + SECOND + 7 * DAY),
      },
    });
    const file = await download(t, res.body.data.chat_download_url).expect(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [first, second] = t.deps.store
      .org(ORG_ID)!
      .sessions.get(sessionId)!
      .chat.map((m) => m.id);
    expect(file.text).toBe(
      [
        'id,participantId,sessionId,meetingId,displayName,pinned,isEdited,payloadType,payload,createdAt',
        `${first},${ids.alice},${sessionId},${meetingId},alice,false,false,TEXT_MESSAGE,"hi, ""all""",${iso(START)}`,
        `${second},${ids.bob},${sessionId},${meetingId},bob,false,false,TEXT_MESSAGE,"hello\nthere",${iso(START + SECOND)}`,
        '',
      ].join('\r\n'),
    );
    await download(t, res.body.data.chat_download_url.replace(/signature=[^&]+/, 'signature=forged')).expect(403);
    t.advance(7 * DAY + 1);
    expect((await download(t, res.body.data.chat_download_url).expect(403)).body.error.code).toBe('LINK_EXPIRED');
  });

  it('chat and speech need the participant in the meeting (409), a known participant (404) and text (400)', async () => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice']);
    const absent = (await addParticipant(t.api, meetingId, { custom_participant_id: 'zed' })).id;
    for (const [kind, field] of [
      ['chat', 'message'],
      ['transcript', 'text'],
    ] as const) {
      const path = (pid: string) => `/_emulator/meetings/${meetingId}/participants/${pid}/${kind}`;
      expect(
        (
          await t.api
            .post(path(absent))
            .send({ [field]: 'hi' })
            .expect(409)
        ).body,
      ).toEqual({ error: { code: 'CONFLICT', message: `Participant ${absent} is not in meeting ${meetingId}` } });
      expect(
        (
          await t.api
            .post(path(MISSING_ID))
            .send({ [field]: 'hi' })
            .expect(404)
        ).body.error.code,
      ).toBe('NOT_FOUND');
      expect(
        (
          await t.api
            .post(path(ids.alice!))
            .send({ [field]: '' })
            .expect(400)
        ).body.error.code,
      ).toBe('BAD_REQUEST');
      expect(
        (
          await t.api
            .post(path(ids.alice!))
            .send({ [field]: 'x'.repeat(4001) })
            .expect(400)
        ).body.error.code,
      ).toBe('BAD_REQUEST');
    }
    expect(t.deps.store.org(ORG_ID)!.sessions.values().next().value!.chat).toEqual([]);
  });

  it('a spoken line holds a word (400 for only spaces, nothing kept); a chat message of spaces is kept as sent', async () => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice']);
    const path = (kind: string) => `/_emulator/meetings/${meetingId}/participants/${ids.alice!}/${kind}`;
    const res = await t.api.post(path('transcript')).send({ text: ' \n\t ' }).expect(400);
    expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: '"text" fails to match the required pattern' } });
    expect((await t.api.post(path('chat')).send({ message: '  ' }).expect(200)).body.message).toBe('  ');
    const session = t.deps.store.org(ORG_ID)!.sessions.values().next().value!;
    expect(session.transcript).toEqual([]);
    expect(session.chat.map((m) => m.payload)).toEqual(['  ']);
  });

  it('a session keeps at most 10 000 chat messages and 10 000 transcript lines (409 past them, nothing kept)', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice']);
    const { sessionHistory, sessions } = t.deps.services;
    const meeting = sessions.locateMeeting(meetingId);
    for (let i = 0; i < 10_000; i++) {
      sessionHistory.sendChat(meeting, ids.alice!, `m${i}`);
      sessionHistory.speak(meeting, ids.alice!, `l${i}`);
      // A speaker says at most 10 lines a second.
      if (i % 10 === 9) t.advance(1000);
    }
    for (const [kind, field] of [
      ['chat', 'message'],
      ['transcript', 'text'],
    ] as const) {
      const res = await t.api
        .post(`/_emulator/meetings/${meetingId}/participants/${ids.alice}/${kind}`)
        .send({ [field]: 'one more' })
        .expect(409);
      expect(res.body.error.message).toMatch(/the most one session keeps$/);
    }
    const session = t.deps.store.org(ORG_ID)!.sessions.get(sessionId)!;
    expect([session.chat.length, session.transcript.length]).toEqual([10_000, 10_000]);
  });

  it('meeting.chatSynced announces the chat when a session that had chat ends (none without chat)', async () => {
    const t = makeTestApp();
    const quiet = await liveMeeting(t, ['alice']);
    const payloads = webhookPayloads(t);
    await leave(t, quiet.meetingId, quiet.ids.alice!);
    expect(payloads.map((p) => p.event)).toEqual(['meeting.participantLeft', 'meeting.ended']);

    const chatty = await liveMeeting(t, ['bob'], { title: 'Chatty' });
    await chat(t, chatty.meetingId, chatty.ids.bob!, 'bye');
    t.advance(MINUTE);
    payloads.length = 0;
    await leave(t, chatty.meetingId, chatty.ids.bob!);
    expect(payloads.map((p) => p.event)).toEqual(['meeting.participantLeft', 'meeting.ended', 'meeting.chatSynced']);
    expect(payloads[2]).toEqual({
      event: 'meeting.chatSynced',
      sessionId: chatty.sessionId,
      meetingId: chatty.meetingId,
      chatDownloadUrl: expect.stringContaining(`/media/sessions/${chatty.sessionId}/chat.csv?expires=`),
      // The guide's form: a space, microseconds.
      chatDownloadUrlExpiry: '2026-01-08 00:01:00.000000Z',
      organizedBy: { id: ORG_ID, name: 'Emulator Org' },
    });
    const url = (payloads[2] as { chatDownloadUrl: string }).chatDownloadUrl;
    expect((await download(t, url).expect(200)).text).toContain(',bye,');
  });

  it('the transcript link serves the lines as CSV; meeting.transcript only when ai_config asks for it', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob']);
    await speak(t, meetingId, ids.alice!, 'Good morning everyone');
    t.advance(2 * SECOND);
    await speak(t, meetingId, ids.bob!, 'Morning, the build is green');
    const res = await get(t, `/v2/sessions/${sessionId}/transcript`).expect(200);
    expect(res.body.data).toEqual({
      sessionId,
      transcript_download_url: expect.stringContaining(`/media/sessions/${sessionId}/transcript.csv?expires=`),
      transcript_download_url_expiry: iso(START + 2 * SECOND + 7 * DAY),
    });
    expect((await download(t, res.body.data.transcript_download_url).expect(200)).text).toBe(
      [
        'Timestamp,Participant ID,User ID,Custom Participant ID,Participant Name,Transcript',
        `${iso(START)},${ids.alice},${ids.alice},alice,alice,Good morning everyone`,
        `${iso(START + 2 * SECOND)},${ids.bob},${ids.bob},bob,bob,"Morning, the build is green"`,
        '',
      ].join('\r\n'),
    );

    setAiConfig(t, meetingId, { transcription: { language: 'en-US' } });
    const payloads = webhookPayloads(t);
    await leave(t, meetingId, ids.alice!);
    await leave(t, meetingId, ids.bob!);
    expect(payloads.map((p) => p.event)).toEqual(['meeting.participantLeft', 'meeting.participantLeft', 'meeting.ended', 'meeting.transcript']);
    expect(payloads[3]).toEqual({
      event: 'meeting.transcript',
      meeting: {
        id: meetingId,
        sessionId,
        title: 'Standup',
        status: 'LIVE',
        createdAt: '2026-01-01T00:00:00.000Z',
        startedAt: '2026-01-01T00:00:00.000Z',
        endedAt: '2026-01-01T00:00:02.000Z',
        organizedBy: { id: ORG_ID, name: 'Emulator Org' },
      },
      transcriptDownloadUrl: expect.stringContaining(`/media/sessions/${sessionId}/transcript.csv?expires=`),
      transcriptDownloadUrlExpiry: '2026-01-08 00:00:02.000000Z',
    });
  });

  it('a session nobody spoke in ends without meeting.transcript or meeting.summary, though ai_config asks for both', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob']);
    setAiConfig(t, meetingId, { transcription: { language: 'en-US' }, summarization: { word_limit: 150 } });
    const payloads = webhookPayloads(t);
    await leave(t, meetingId, ids.alice!);
    await leave(t, meetingId, ids.bob!);
    expect(payloads.map((p) => p.event)).toEqual(['meeting.participantLeft', 'meeting.participantLeft', 'meeting.ended']);
    expect((await get(t, `/v2/sessions/${sessionId}/summary`).expect(404)).body).toEqual(
      v2Error(404, `No summary found for session_id ${sessionId}; POST /v2/sessions/${sessionId}/summary generates one`),
    );
  });

  it('the summary: 404 until generated; POST makes it from the transcript (meeting.summary); GET links to it', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob']);
    expect((await get(t, `/v2/sessions/${sessionId}/summary`).expect(404)).body).toEqual(
      v2Error(404, `No summary found for session_id ${sessionId}; POST /v2/sessions/${sessionId}/summary generates one`),
    );
    expect((await t.api.post(`/v2/sessions/${sessionId}/summary`).set('Authorization', BASIC).expect(404)).body).toEqual(
      v2Error(404, `No transcript found for session_id ${sessionId}; there is nothing to summarize`),
    );
    await speak(t, meetingId, ids.alice!, 'Good morning everyone');
    await speak(t, meetingId, ids.bob!, 'Morning, the build is green');
    const payloads = webhookPayloads(t);
    const post = await t.api.post(`/v2/sessions/${sessionId}/summary`).set('Authorization', BASIC).expect(200);
    expect(post.body).toEqual({ success: true, data: { success: true, message: 'Success' } });
    expect(payloads.map((p) => p.event)).toEqual(['meeting.summary']);
    expect(payloads[0]).toMatchObject({ meeting: { sessionId, status: 'LIVE', endedAt: null }, summaryDownloadUrlExpiry: '2026-01-08 00:00:00.000000Z' });

    const res = await get(t, `/v2/sessions/${sessionId}/summary`).expect(200);
    expect(res.body.data).toEqual({
      sessionId,
      summaryDownloadUrl: expect.stringContaining(`/media/sessions/${sessionId}/summary.txt?expires=`),
      summaryDownloadUrlExpiry: iso(START + 7 * DAY),
    });
    const file = await download(t, res.body.data.summaryDownloadUrl).expect(200);
    expect(file.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(file.text).toBe(
      [
        '# Summary of Standup',
        '',
        '2 transcript lines from 2 speakers.',
        '',
        '## Speakers',
        '- alice: 1 line, 3 words',
        '- bob: 1 line, 5 words',
        '',
        '## What was said',
        '- alice: Good morning everyone',
        '- bob: Morning, the build is green',
        '',
      ].join('\n'),
    );
  });

  it('summarize_on_end: the summary is made and announced when the session ends', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice'], { title: 'Sync', summarize_on_end: true });
    await speak(t, meetingId, ids.alice!, 'Ship it');
    const payloads = webhookPayloads(t);
    t.advance(MINUTE);
    await leave(t, meetingId, ids.alice!);
    expect(payloads.map((p) => p.event)).toEqual(['meeting.participantLeft', 'meeting.ended', 'meeting.summary']);
    expect(payloads[2]).toMatchObject({ meeting: { sessionId, status: 'LIVE', endedAt: '2026-01-01T00:01:00.000Z' } });
    const link = (await get(t, `/v2/sessions/${sessionId}/summary`).expect(200)).body.data.summaryDownloadUrl;
    expect((await download(t, link).expect(200)).text).toContain('- alice: Ship it');
  });
});

describe('the history in the state', () => {
  it('survives export → import; an organization reset drops its sessions only', async () => {
    const t = makeTestApp();
    const { sessionId } = await liveMeeting(t, ['alice']);
    const other = await otherOrgAuth(t);
    const otherMeeting = (await t.api.post('/v2/meetings').set('Authorization', other.auth).send({ title: 'Theirs' }).expect(201)).body.data.id;
    const otherPid = (
      await t.api
        .post(`/v2/meetings/${otherMeeting}/participants`)
        .set('Authorization', other.auth)
        .send({ preset_name: 'group_call_host', custom_participant_id: 'x' })
        .expect(201)
    ).body.data.id;
    const otherSession = await join(t, otherMeeting, otherPid);

    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    await t.api.put('/_emulator/state').send(state).expect(200);
    expect((await t.api.get('/_emulator/state').expect(200)).body).toEqual(state);
    expect((await get(t, `/v2/sessions/${sessionId}`).expect(200)).body.data.session.status).toBe('LIVE');

    await t.api.post(`/_emulator/orgs/${other.id}/reset`).expect(200);
    await get(t, `/v2/sessions/${otherSession}`, other.auth).expect(404);
    await get(t, `/v2/sessions/${sessionId}`).expect(200);
  });

  it('a summary link handed out before an import that has no summary for the session answers 404', async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice']);
    const before = (await t.api.get('/_emulator/state').expect(200)).body;
    await speak(t, meetingId, ids.alice!, 'Ship it');
    await t.api.post(`/v2/sessions/${sessionId}/summary`).set('Authorization', BASIC).expect(200);
    const link = (await get(t, `/v2/sessions/${sessionId}/summary`).expect(200)).body.data.summaryDownloadUrl;
    await t.api.put('/_emulator/state').send(before).expect(200);
    expect((await download(t, link).expect(404)).body).toEqual({ error: { code: 'NOT_FOUND', message: `No summary found for session_id ${sessionId}` } });
  });

  it('an import whose session names a meeting of another organization is refused', async () => {
    const t = makeTestApp();
    await liveMeeting(t, ['alice']);
    const state = (await t.api.get('/_emulator/state').expect(200)).body;
    state.organizations[0].sessions[0].meetingId = MISSING_ID;
    const res = await t.api.put('/_emulator/state').send(state).expect(400);
    expect(res.body.error.message).toMatch(/organizations\[0\]\.sessions\[0\]\.meetingId: not a meeting of this organization/);
  });

  it('a meeting created before anyone joined has no sessions', async () => {
    const t = makeTestApp();
    const meetingId = (await createMeeting(t.api)).id;
    expect((await get(t, `/v2/sessions?associated_id=${meetingId}`).expect(200)).body.data.sessions).toEqual([]);
  });
});
