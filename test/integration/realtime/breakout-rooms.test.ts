// Breakout rooms from the page, driven from Node the way the web SDK drives the socket
// (meeting.connectedMeetings): a host opens rooms (real meetings the REST API lists), moves
// people into them and back, and closes them; a participant switches by themselves where the
// preset allows; every page of the family hears the dump as people come and go. A page asked to
// move hears transferPeer with a token for the same person in the destination, and follows as the
// SDK does (leaves, opens a socket with that token, joins). Each bad request gets the SDK's error
// reply with a reason and changes nothing. A network test: real sockets on 127.0.0.1, manual clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import type { ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, restOf, type Person } from '../../helpers/web-sdk.js';

const { room: ROOM } = SDK_EVENTS;
const DUMP = 'socket.room.GetConnectedRoomsDumpResponse';

let emu: RunningEmulator;
const sockets = new PageSockets();

beforeEach(async () => {
  emu = await startEmulator({ seed: 'breakout rooms', clock: 'manual' });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

async function meeting(title = 'All hands'): Promise<string> {
  return (await rest<{ id: string }>('POST', '/v2/meetings', { title })).id;
}

interface Page {
  s: SdkSocket;
  id: string;
  meetingId: string;
}

let peers = 0;
/** A page joined to a meeting as the SDK joins, with a participant token. */
async function join(meetingId: string, participantId: string, token: string, name: string): Promise<Page> {
  const s = await sockets.open(emu.url, meetingId, { token, name }, `peer-${name.toLowerCase()}-${++peers}`);
  await s.joinMedia(meetingId, name);
  await s.joinRoom({ id: participantId, name });
  return { s, id: participantId, meetingId };
}

async function page(meetingId: string, name: string, preset = 'group_call_host'): Promise<Page & { p: Person }> {
  const p = await addPerson(emu, meetingId, name, preset);
  return { ...(await join(meetingId, p.id, p.token, name)), p };
}

/** What the SDK does on transferPeer: leave, then init with the token it was given and join the destination. */
async function follow(from: Page, name: string): Promise<Page> {
  const t = await from.s.push(ROOM.transferPeer, 'socket.room.TransferPeer');
  await from.s.request(ROOM.leaveRoom, null, {}, null);
  await from.s.close();
  const meetingId = String(t.meeting_id);
  const claims = JSON.parse(Buffer.from(String(t.auth_token).split('.')[1]!, 'base64url').toString('utf8')) as { meetingId: string; participantId: string };
  expect(claims.meetingId).toBe(meetingId);
  return join(meetingId, claims.participantId, String(t.auth_token), name);
}

const dump = (s: SdkSocket) => s.request(ROOM.getConnectedRoomsDump, null, {}, DUMP);

/** A dump as names per meeting id: {parent: [...], rooms: {id: [...]}}. */
function who(d: ProtoObject): { parent: string[]; rooms: Record<string, string[]> } {
  const names = (m: ProtoObject) => ((m.participants as ProtoObject[] | undefined) ?? []).map((p) => String(p.display_name));
  return {
    parent: names(d.parent_meeting as ProtoObject),
    rooms: Object.fromEntries(((d.meetings as ProtoObject[] | undefined) ?? []).map((m) => [String(m.id), names(m)])),
  };
}

/** The next dump pushed to a page that shows `expected`. */
function pushedDump(s: SdkSocket, expected: ReturnType<typeof who>): Promise<ProtoObject> {
  return s.push(ROOM.getConnectedRoomsDump, DUMP, (d) => JSON.stringify(who(d)) === JSON.stringify(expected));
}

const open = (s: SdkSocket, titles: string[]) =>
  s.request(
    ROOM.createConnectedRooms,
    'socket.room.CreateConnectedRoomsRequest',
    { payloads: titles.map((title) => ({ title })) },
    'socket.room.CreateConnectedRoomsResponse',
  );
const move = (s: SdkSocket, source: string, destination: string, ids: string[], presetId?: string) =>
  s.request(
    ROOM.movePeers,
    'socket.room.MovePeersBetweenRoomsRequest',
    { source_meeting_id: source, destination_meeting_id: destination, participants: ids.map((id) => ({ id, ...(presetId ? { preset_id: presetId } : {}) })) },
    'socket.room.MovePeersBetweenRoomsResponse',
  );
const close = (s: SdkSocket, ids: string[]) =>
  s.request(
    ROOM.deleteConnectedRooms,
    'socket.room.DisableConnectedRoomsRequest',
    { payloads: ids.map((id) => ({ id })) },
    'socket.room.DisableConnectedRoomsResponse',
  );

async function refusal(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => {
      throw new Error('the request was answered, not refused');
    },
    (e: Error) => e.message,
  );
}

type Delivery = { event: string; payload: { meeting: { id: string }; participant: { customParticipantId: string } } };
async function moves(): Promise<[string, string, string][]> {
  return ((await emu.deliveries()) as unknown as Delivery[])
    .reverse()
    .map((d) => [d.event.replace('meeting.participant', ''), d.payload.meeting.id, d.payload.participant.customParticipantId]);
}

describe('a host opens a room, moves a page into it and back, and closes it', () => {
  it('the room is a meeting of the organization; the moved page follows with a token for the same person there; dumps, presence and webhooks follow every step', async () => {
    await rest('POST', '/v2/webhooks', { name: 'moves', url: 'http://127.0.0.1:9/hook', events: ['meeting.participantJoined', 'meeting.participantLeft'] });
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob', 'group_call_participant');
    expect(who(await dump(bob.s))).toEqual({ parent: ['Ada', 'Bob'], rooms: {} });

    const opened = await open(ada.s, ['Design']);
    const room = String((opened.payloads as ProtoObject[])[0]!.id);
    expect(opened.payloads).toEqual([{ id: room, title: 'Design' }]);
    // Every page of the family hears the new room.
    expect(await bob.s.push(ROOM.connectedRoomsUpdated, 'socket.room.CreateConnectedRoomsResponse')).toEqual({ payloads: [{ id: room, title: 'Design' }] });
    expect(await rest('GET', `/v2/meetings/${room}`)).toMatchObject({ id: room, title: 'Design', status: 'ACTIVE' });

    const answer = await move(ada.s, m, room, [bob.id]);
    expect(answer.payloads).toEqual([{ meeting_id: room, custom_participant_id: 'bob' }]);
    const bobInRoom = await follow(bob, 'Bob');
    expect(bobInRoom.meetingId).toBe(room);
    expect(bobInRoom.id).not.toBe(bob.id);
    // The same person in the room: the REST API lists them there, with the same custom id and preset.
    const inRoom = await rest<{ custom_participant_id: string; preset_name: string; name: string }[]>('GET', `/v2/meetings/${room}/participants`);
    expect(inRoom.map((p) => [p.name, p.custom_participant_id, p.preset_name])).toEqual([['Bob', 'bob', 'group_call_participant']]);
    await pushedDump(ada.s, { parent: ['Ada'], rooms: { [room]: ['Bob'] } });
    expect(who(await dump(bobInRoom.s))).toEqual({ parent: ['Ada'], rooms: { [room]: ['Bob'] } });
    expect(await moves()).toEqual([
      ['Joined', m, 'ada'],
      ['Joined', m, 'bob'],
      ['Left', m, 'bob'],
      ['Joined', room, 'bob'],
    ]);

    // Back to the parent: the participant they were there.
    await move(ada.s, room, m, [bobInRoom.id]);
    const bobBack = await follow(bobInRoom, 'Bob');
    expect([bobBack.meetingId, bobBack.id]).toEqual([m, bob.id]);
    await pushedDump(ada.s, { parent: ['Ada', 'Bob'], rooms: { [room]: [] } });

    const closed = await close(ada.s, [room]);
    expect(closed.payloads).toEqual([{ id: room, title: 'Design', status: 'INACTIVE' }]);
    expect(await bobBack.s.push(ROOM.connectedRoomsDeleted, 'socket.room.DisableConnectedRoomsResponse')).toEqual({
      payloads: [{ id: room, title: 'Design', status: 'INACTIVE' }],
    });
    expect(who(await dump(bobBack.s))).toEqual({ parent: ['Ada', 'Bob'], rooms: {} });
    expect(await rest('GET', `/v2/meetings/${room}`)).toMatchObject({ status: 'INACTIVE' });
    expect((await moves()).slice(4)).toEqual([
      ['Left', room, 'bob'],
      ['Joined', m, 'bob'],
    ]);
  });

  it('a scripted participant is moved at once (a leave and a join); a move with a custom preset gives that preset in the room', async () => {
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const carl = await addPerson(emu, m, 'Carl', 'group_call_participant');
    await fetch(`${emu.url}/_emulator/meetings/${m}/participants/${carl.id}/join`, { method: 'POST' });
    const [room] = ((await open(ada.s, ['Solo'])).payloads as ProtoObject[]).map((r) => String(r.id));
    const presets = await rest<{ id: string; name: string }[]>('GET', '/v2/presets');
    const viewer = presets.find((p) => p.name === 'webinar_viewer')!;

    await move(ada.s, m, room!, [carl.id], viewer.id);
    const presence = (await (await fetch(`${emu.url}/_emulator/meetings/${room}/presence`)).json()) as { participants: { id: string; name: string }[] };
    expect(presence.participants.map((p) => p.name)).toEqual(['Carl']);
    const carlThere = await rest<{ preset_name: string; custom_participant_id: string }>(
      'GET',
      `/v2/meetings/${room}/participants/${presence.participants[0]!.id}`,
    );
    expect(carlThere).toMatchObject({ preset_name: 'webinar_viewer', custom_participant_id: 'carl' });
    await pushedDump(ada.s, { parent: ['Ada'], rooms: { [room!]: ['Carl'] } });
  });

  it('closing a room with people still in it moves them back to the parent first', async () => {
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob', 'group_call_participant');
    const [room] = ((await open(ada.s, ['Left open'])).payloads as ProtoObject[]).map((r) => String(r.id));
    await move(ada.s, m, room!, [bob.id]);
    const bobInRoom = await follow(bob, 'Bob');
    await pushedDump(ada.s, { parent: ['Ada'], rooms: { [room!]: ['Bob'] } });

    await close(ada.s, [room!]);
    const bobBack = await follow(bobInRoom, 'Bob');
    expect(bobBack.meetingId).toBe(m);
    await pushedDump(ada.s, { parent: ['Ada', 'Bob'], rooms: {} });
  });

  it("a page hears its transfer only after it answers a ping: what it asked before is answered first, and a host in a room closes the rooms as the kits' Close Breakout does", async () => {
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const [room] = ((await open(ada.s, ['Design'])).payloads as ProtoObject[]).map((r) => String(r.id));
    await move(ada.s, m, room!, [ada.id]);
    const inRoom = await follow(ada, 'Ada');

    // The kit moves the host back to the parent, and the SDK's deleteMeetings moves the room's
    // participants again before either answer is read; once both are answered it closes the room.
    inRoom.s.answerPings = false;
    const pinged = inRoom.s.pinged();
    const back = move(inRoom.s, room!, m, [inRoom.id]);
    const again = refusal(move(inRoom.s, room!, m, [inRoom.id]));
    await back;
    expect(await again).toBe(`Participant ${inRoom.id} is already moving to meeting ${m}`);
    await pinged;
    expect((await close(inRoom.s, [room!])).payloads).toEqual([{ id: room, title: 'Design', status: 'INACTIVE' }]);
    // No transfer yet: the page has not answered the ping sent after the answer to its move.
    expect(inRoom.s.frames.some((f) => f.event === ROOM.transferPeer)).toBe(false);

    inRoom.s.pong();
    const home = await follow(inRoom, 'Ada');
    expect(home.meetingId).toBe(m);
    expect(who(await dump(home.s))).toEqual({ parent: ['Ada'], rooms: {} });
    expect(await rest('GET', `/v2/meetings/${room}`)).toMatchObject({ status: 'INACTIVE' });
  });
});

describe('a participant switches by themselves where the preset allows', () => {
  it('with can_switch_connected_meetings and can_switch_to_parent_meeting: into a room and back; without: refused', async () => {
    const presets = await rest<{ id: string; name: string; permissions: Record<string, unknown> }[]>('GET', '/v2/presets');
    const base = presets.find((p) => p.name === 'group_call_participant')!;
    const full = await rest<{ id: string; name: string }>('GET', `/v2/presets/${base.id}`);
    await rest('POST', '/v2/presets', {
      ...full,
      id: undefined,
      name: 'roamer',
      permissions: {
        ...(full as unknown as { permissions: Record<string, unknown> }).permissions,
        connected_meetings: { can_alter_connected_meetings: false, can_switch_connected_meetings: true, can_switch_to_parent_meeting: true },
      },
    });
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const dan = await page(m, 'Dan', 'roamer');
    const bob = await page(m, 'Bob', 'group_call_participant');
    const [room] = ((await open(ada.s, ['Open floor'])).payloads as ProtoObject[]).map((r) => String(r.id));

    expect(await refusal(move(bob.s, m, room!, [bob.id]))).toBe(
      'The preset group_call_participant may not switch to a breakout room (permissions.connected_meetings.can_switch_connected_meetings is false)',
    );
    expect(await refusal(move(dan.s, m, room!, [bob.id]))).toBe(
      'The preset roamer may not move other participants (permissions.connected_meetings.can_alter_connected_meetings is false)',
    );
    await move(dan.s, m, room!, [dan.id]);
    const danInRoom = await follow(dan, 'Dan');
    await move(danInRoom.s, room!, m, [danInRoom.id]);
    const danBack = await follow(danInRoom, 'Dan');
    expect([danBack.meetingId, danBack.id]).toEqual([m, dan.id]);
  });
});

describe('bad requests: the error reply with a reason, nothing changed, no other room touched', () => {
  it.each([
    ['open rooms without can_alter_connected_meetings', 'bob-open'],
    ['close rooms without it', 'bob-close'],
    ["move someone into another meeting's room", 'other-family'],
    ['move someone from a room they are not in', 'not-in-source'],
    ['close a room that is not one of the family', 'unknown-room'],
    ['move nobody', 'empty'],
    ['move someone to where they are', 'same'],
    ['a custom preset that does not exist', 'bad-preset'],
  ])('%s', async (_what, kind) => {
    const m = await meeting();
    const other = await meeting('Elsewhere');
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob', 'group_call_participant');
    const eve = await page(other, 'Eve');
    const [room] = ((await open(ada.s, ['Ours'])).payloads as ProtoObject[]).map((r) => String(r.id));
    const [theirs] = ((await open(eve.s, ['Theirs'])).payloads as ProtoObject[]).map((r) => String(r.id));
    const before = { ours: who(await dump(ada.s)), theirs: who(await dump(eve.s)), deliveries: (await emu.deliveries()).length };

    const expected: Record<string, [() => Promise<unknown>, string]> = {
      'bob-open': [
        () => open(bob.s, ['Mine']),
        'The preset group_call_participant may not open breakout rooms (permissions.connected_meetings.can_alter_connected_meetings is false)',
      ],
      'bob-close': [
        () => close(bob.s, [room!]),
        'The preset group_call_participant may not close breakout rooms (permissions.connected_meetings.can_alter_connected_meetings is false)',
      ],
      'other-family': [() => move(ada.s, m, theirs!, [bob.id]), `Meeting ${theirs} is neither meeting ${m} nor one of its open breakout rooms`],
      'not-in-source': [() => move(ada.s, room!, m, [bob.id]), `Participant ${bob.id} is not in meeting ${room}`],
      'unknown-room': [() => close(ada.s, [theirs!]), `Meeting ${theirs} is not an open breakout room of meeting ${m}`],
      empty: [() => move(ada.s, m, room!, []), 'move at least one participant'],
      same: [() => move(ada.s, m, m, [bob.id]), `the source and the destination are the same meeting (${m})`],
      'bad-preset': [
        () => move(ada.s, m, room!, [bob.id], '00000000-0000-4000-8000-000000000000'),
        'No preset found with id 00000000-0000-4000-8000-000000000000',
      ],
    };
    const [request, reason] = expected[kind]!;
    expect(await refusal(request())).toBe(reason);

    expect({ ours: who(await dump(ada.s)), theirs: who(await dump(eve.s)), deliveries: (await emu.deliveries()).length }).toEqual(before);
    expect(bob.s.frames.some((f) => f.event === ROOM.transferPeer)).toBe(false);
    expect(await rest('GET', `/v2/meetings/${room}`)).toMatchObject({ status: 'ACTIVE' });
    expect(await rest('GET', `/v2/meetings/${theirs}`)).toMatchObject({ status: 'ACTIVE' });
  });
});
