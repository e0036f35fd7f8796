// Breakout rooms for scripts and bots through the control API (open, rename, move, close), and
// the v2 session with include_breakout_rooms=true, which lists the rooms' sessions as production's
// ActiveSession.breakout_rooms does. Scripted participants have no page: a move moves them at once.
import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/test-app.js';
import { BASIC, ORG_ID } from '../../helpers/test-app.js';
import { MINUTE } from '../../helpers/lifecycle-helpers.js';
import { join, leave, liveMeeting, webhookPayloads } from '../../helpers/session-helpers.js';

const base = (meetingId: string) => `/_emulator/meetings/${meetingId}/breakout-rooms`;
const get = (t: TestApp, path: string) => t.api.get(path).set('Authorization', BASIC);

async function openRooms(t: TestApp, meetingId: string, titles: (string | undefined)[]): Promise<string[]> {
  const res = await t.api
    .post(base(meetingId))
    .send({ rooms: titles.map((title) => (title === undefined ? {} : { title })) })
    .expect(201);
  return res.body.rooms.map((r: { id: string }) => r.id);
}

async function move(t: TestApp, family: string, source: string, destination: string, ids: string[]) {
  return (
    await t.api
      .post(`${base(family)}/move`)
      .send({ source_meeting_id: source, destination_meeting_id: destination, participants: ids.map((id) => ({ id })) })
      .expect(200)
  ).body.moves as { participant_id: string; destination_participant_id: string; custom_participant_id: string; moved_by: string }[];
}

const names = (f: { participants: { name: string }[] }) => f.participants.map((p) => p.name);

describe('breakout rooms through the control API', () => {
  it('opens rooms (meetings the REST API lists), renames one, moves scripted participants at once with their webhooks, closes with a move back', async () => {
    const t = makeTestApp();
    const seen = webhookPayloads(t);
    const { meetingId, ids } = await liveMeeting(t, ['alice', 'bob'], { title: 'Offsite' });
    const [red, blue] = await openRooms(t, meetingId, ['Red', undefined]);
    expect((await get(t, `/v2/meetings/${blue}`).expect(200)).body.data).toMatchObject({ id: blue, title: 'Room 2', status: 'ACTIVE' });
    await t.api
      .patch(`${base(meetingId)}/${blue}`)
      .send({ title: 'Blue' })
      .expect(200, { id: blue, title: 'Blue', status: 'ACTIVE' });

    const moves = await move(t, meetingId, meetingId, red!, [ids.bob!]);
    expect(moves).toEqual([{ participant_id: ids.bob, destination_participant_id: expect.any(String), custom_participant_id: 'bob', moved_by: 'emulator' }]);
    const family = (await t.api.get(base(red!)).expect(200)).body;
    expect([names(family.parent), family.rooms.map((r: { title: string; participants: { name: string }[] }) => [r.title, names(r)])]).toEqual([
      ['alice'],
      [
        ['Red', ['bob']],
        ['Blue', []],
      ],
    ]);
    expect(
      seen
        .slice(3)
        .map((p) => [
          p.event,
          (p as { meeting: { id: string } }).meeting.id,
          (p as { participant?: { customParticipantId: string } }).participant?.customParticipantId,
        ]),
    ).toEqual([
      ['meeting.participantLeft', meetingId, 'bob'],
      ['meeting.started', red, undefined],
      ['meeting.participantJoined', red, 'bob'],
    ]);

    const closed = await t.api
      .post(`${base(meetingId)}/close`)
      .send({ room_ids: [red, blue] })
      .expect(200);
    expect(closed.body.rooms.map((r: { status: string }) => r.status)).toEqual(['INACTIVE', 'INACTIVE']);
    const after = (await t.api.get(base(meetingId)).expect(200)).body;
    expect([names(after.parent), after.rooms]).toEqual([['alice', 'bob'], []]);
    // Back in the parent as the participant they were there.
    expect(after.parent.participants.map((p: { id: string }) => p.id)).toEqual([ids.alice, ids.bob]);
    // The dashboard's overview names each room's parent.
    const overview = (await t.api.get(`/_emulator/orgs/${ORG_ID}/overview`).expect(200)).body;
    expect(overview.meetings.map((m: { id: string; parent_meeting_id: string | null }) => [m.id, m.parent_meeting_id])).toEqual([
      [blue, meetingId],
      [red, meetingId],
      [meetingId, null],
    ]);
  });

  it.each([
    ['a room of another meeting', 'other-room'],
    ['a participant not in the source', 'not-in-source'],
    ['the same meeting twice', 'same'],
    ['closing a closed room', 'closed'],
  ])('refuses %s with a reason and changes nothing', async (_what, kind) => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice', 'bob']);
    const other = await liveMeeting(t, ['eve'], { title: 'Other' });
    const [room] = await openRooms(t, meetingId, ['Ours']);
    const [theirs] = await openRooms(t, other.meetingId, ['Theirs']);
    const [gone] = await openRooms(t, meetingId, ['Gone']);
    await t.api
      .post(`${base(meetingId)}/close`)
      .send({ room_ids: [gone] })
      .expect(200);
    const before = [(await t.api.get(base(meetingId))).body, (await t.api.get(base(other.meetingId))).body];

    const body = (source: string, destination: string, pid: string) => ({
      source_meeting_id: source,
      destination_meeting_id: destination,
      participants: [{ id: pid }],
    });
    const cases: Record<string, () => Promise<{ status: number; body: { error: { message: string } } }>> = {
      'other-room': () => t.api.post(`${base(meetingId)}/move`).send(body(meetingId, theirs!, ids.bob!)),
      'not-in-source': () => t.api.post(`${base(meetingId)}/move`).send(body(room!, meetingId, ids.bob!)),
      same: () => t.api.post(`${base(meetingId)}/move`).send(body(meetingId, meetingId, ids.bob!)),
      closed: () => t.api.post(`${base(meetingId)}/close`).send({ room_ids: [gone] }),
    };
    const messages: Record<string, [number, string]> = {
      'other-room': [409, `Meeting ${theirs} is neither meeting ${meetingId} nor one of its open breakout rooms`],
      'not-in-source': [409, `Participant ${ids.bob} is not in meeting ${room}`],
      same: [400, `the source and the destination are the same meeting (${meetingId})`],
      closed: [409, `Meeting ${gone} is not an open breakout room of meeting ${meetingId}`],
    };
    const res = await cases[kind]!();
    expect([res.status, res.body.error.message]).toEqual(messages[kind]);
    expect([(await t.api.get(base(meetingId))).body, (await t.api.get(base(other.meetingId))).body]).toEqual(before);
  });
});

describe('a parent made INACTIVE over REST', () => {
  it('takes nobody back: moving there and closing a room someone is in are refused, and nothing changes', async () => {
    const t = makeTestApp();
    const { meetingId, ids } = await liveMeeting(t, ['alice', 'bob']);
    const [room] = await openRooms(t, meetingId, ['Ours']);
    const [moved] = await move(t, meetingId, meetingId, room!, [ids.bob!]);
    await t.api.patch(`/v2/meetings/${meetingId}`).set('Authorization', BASIC).send({ status: 'INACTIVE' }).expect(200);
    const before = (await t.api.get(base(meetingId)).expect(200)).body;
    const refusal = { error: { code: 'CONFLICT', message: `Meeting ${meetingId} is INACTIVE; nobody can move into it` } };
    await t.api
      .post(`${base(meetingId)}/move`)
      .send({ source_meeting_id: room, destination_meeting_id: meetingId, participants: [{ id: moved!.destination_participant_id }] })
      .expect(409, refusal);
    await t.api
      .post(`${base(meetingId)}/close`)
      .send({ room_ids: [room] })
      .expect(409, refusal);
    expect((await t.api.get(base(meetingId)).expect(200)).body).toEqual(before);
    expect(names(before.rooms[0])).toEqual(['bob']);
  });
});

describe("a breakout room's title", () => {
  it('a title at its limit opens a room, one over is refused', async () => {
    const t = makeTestApp();
    const { meetingId } = await liveMeeting(t, ['alice']);
    const [room] = await openRooms(t, meetingId, ['x'.repeat(1024)]);
    expect((await get(t, `/v2/meetings/${room}`).expect(200)).body.data.title).toHaveLength(1024);
    const before = (await t.api.get(base(meetingId)).expect(200)).body;
    const res = await t.api
      .post(base(meetingId))
      .send({ rooms: [{ title: 'x'.repeat(1025) }] })
      .expect(400);
    expect(res.body.error.message).toMatch(/rooms\[0\]\.title/);
    expect((await t.api.get(base(meetingId)).expect(200)).body).toEqual(before);
  });
});

describe('GET /v2/sessions/{session_id}?include_breakout_rooms=true', () => {
  it("lists the sessions of the meeting's rooms that started during this session, each as a session of its room; a later session of the meeting gets the later ones", async () => {
    const t = makeTestApp();
    const { meetingId, sessionId, ids } = await liveMeeting(t, ['alice', 'bob'], { title: 'Offsite' });
    const [red] = await openRooms(t, meetingId, ['Red']);
    t.advance(MINUTE);
    const [moved] = await move(t, meetingId, meetingId, red!, [ids.bob!]);
    t.advance(2 * MINUTE);
    await move(t, meetingId, red!, meetingId, [moved!.destination_participant_id]);

    const res = await get(t, `/v2/sessions/${sessionId}?include_breakout_rooms=true`).expect(200);
    const redSession = (await get(t, `/v2/meetings/${red}/active-session`)).body;
    expect(redSession.success).toBe(false); // The room's session ended when bob went back.
    expect(res.body.data.session.breakout_rooms).toEqual([
      {
        id: expect.any(String),
        associated_id: red,
        meeting_display_name: 'Red',
        type: 'meeting',
        status: 'ENDED',
        live_participants: 0,
        max_concurrent_participants: 1,
        minutes_consumed: 2,
        organization_id: res.body.data.session.organization_id,
        started_at: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        ended_at: expect.any(String),
      },
    ]);
    expect((await get(t, `/v2/sessions/${sessionId}`).expect(200)).body.data.session.breakout_rooms).toBeUndefined();
    // The room's own session has no rooms.
    const roomSessionId = res.body.data.session.breakout_rooms[0].id;
    expect((await get(t, `/v2/sessions/${roomSessionId}?include_breakout_rooms=true`).expect(200)).body.data.session.breakout_rooms).toEqual([]);

    // A later session of the meeting: the earlier room session is not its.
    await leave(t, meetingId, ids.alice!);
    await leave(t, meetingId, ids.bob!);
    t.advance(MINUTE);
    const later = await join(t, meetingId, ids.alice!);
    expect((await get(t, `/v2/sessions/${later}?include_breakout_rooms=true`).expect(200)).body.data.session.breakout_rooms).toEqual([]);
    await move(t, meetingId, meetingId, red!, [ids.alice!]);
    const laterRooms = (await get(t, `/v2/sessions/${later}?include_breakout_rooms=true`).expect(200)).body.data.session.breakout_rooms;
    expect(laterRooms.map((s: { associated_id: string; status: string }) => [s.associated_id, s.status])).toEqual([[red, 'LIVE']]);
    expect((await get(t, `/v2/sessions/${sessionId}?include_breakout_rooms=true`).expect(200)).body.data.session.breakout_rooms).toHaveLength(1);
  });
});
