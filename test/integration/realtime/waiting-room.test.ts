// The waiting room, driven from Node the way the web SDK drives the socket: a page whose preset
// waits in a meeting with `waiting_room: true` hears its join answered `waitlisted`, the hosts'
// pages get the list as it changes, and a host admits (the page joins again, into the meeting) or
// rejects (the page is told). The session history and the webhooks know the participant only once
// they are in. Each bad request (a preset that may not admit, someone who does not wait, a
// participant of another meeting) gets the SDK's error reply with a reason, changes nothing, and
// is logged once. A network test: real sockets on 127.0.0.1, manual clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { decode, type ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, controlOf, restOf, type Person } from '../../helpers/web-sdk.js';

const { room: ROOM, chat: CHAT, polls: POLLS } = SDK_EVENTS;

let emu: RunningEmulator;
const sockets = new PageSockets();

beforeEach(async () => {
  emu = await startEmulator({ seed: 'waiting room', clock: 'manual' });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

const control = (method: string, route: string, body?: unknown) => controlOf(emu)(method, route, body);

/** The ordinary participant's preset, made to wait the given way. */
async function presetWaits(type: 'SKIP' | 'SKIP_ON_ACCEPT' | 'ON_PRIVILEGED_USER_ENTRY', name = 'group_call_participant'): Promise<void> {
  const presets = await rest<{ id: string; name: string }[]>('GET', '/v2/presets?per_page=100');
  const preset = presets.find((p) => p.name === name)!;
  await rest('PATCH', `/v2/presets/${preset.id}`, { permissions: { waiting_room_type: type } });
}

async function meeting(waitingRoom = true, title = 'Clinic'): Promise<string> {
  return (await rest<{ id: string }>('POST', '/v2/meetings', { title, waiting_room: waitingRoom })).id;
}

/** The room join the SDK sends: the peer it is answered with. */
async function join(s: SdkSocket, p: Person): Promise<ProtoObject> {
  return (await s.joinRoom(p)).peer as ProtoObject;
}

/** A page in the meeting: socket room and media room, as the SDK joins. */
async function page(meetingId: string, name: string, preset = 'group_call_host'): Promise<{ s: SdkSocket; p: Person }> {
  const p = await addPerson(emu, meetingId, name, preset);
  const s = await sockets.open(emu.url, meetingId, p);
  const peer = await join(s, p);
  expect(peer.waitlisted).toBe(false);
  await s.completeJoin();
  return { s, p };
}

/** A page whose join puts it in the waiting room. */
async function waiter(meetingId: string, name: string, preset = 'group_call_participant'): Promise<{ s: SdkSocket; p: Person }> {
  const p = await addPerson(emu, meetingId, name, preset);
  const s = await sockets.open(emu.url, meetingId, p);
  const peer = await join(s, p);
  expect(peer).toMatchObject({ peer_id: s.peerId, user_id: p.id, waitlisted: true });
  return { s, p };
}

/** The next waiting list pushed to a page that matches. */
function list(s: SdkSocket, where: (requests: ProtoObject[]) => boolean): Promise<ProtoObject[]> {
  return s
    .push(ROOM.getWaitingRoomRequests, 'socket.room.GetWaitingRoomRequests', (b) => where(b.requests as ProtoObject[]))
    .then((b) => b.requests as ProtoObject[]);
}

/** The pushes of the waiting list a page got so far, each as the user ids it names. */
function lists(s: SdkSocket): string[][] {
  return s.frames
    .filter((f) => f.event === ROOM.getWaitingRoomRequests)
    .map((f) => (decode('socket.room.GetWaitingRoomRequests', f.payload).requests as { user_id: string }[]).map((r) => r.user_id));
}

async function liveNames(meetingId: string): Promise<string[]> {
  const session = await rest<{ id: string }>('GET', `/v2/meetings/${meetingId}/active-session`);
  const { participants } = await rest<{ participants: { display_name: string; left_at?: string }[] }>('GET', `/v2/sessions/${session.id}/participants`);
  return participants.filter((p) => p.left_at === undefined).map((p) => p.display_name);
}

/** Who participantJoined named, oldest first (the delivery log is newest first). */
async function joinedWebhooks(): Promise<string[]> {
  return (await emu.deliveries())
    .reverse()
    .filter((d) => d.event === 'meeting.participantJoined')
    .map((d) => (d.payload as { participant: { customParticipantId: string } }).participant.customParticipantId);
}

describe('a page waits, and a host admits it', () => {
  it('the join answers waitlisted, the host sees the request, admits it, and the page joins: only then do the session and participantJoined know it', async () => {
    await rest('POST', '/v2/webhooks', { name: 'joined', url: 'http://127.0.0.1:9/hook', events: ['meeting.participantJoined'] });
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const host = await page(m, 'Hana');
    const gus = await waiter(m, 'Gus');

    const requests = await list(host.s, (r) => r.length === 1);
    expect(requests).toEqual([
      { peer_id: 'peer-gus', user_id: gus.p.id, display_name: 'Gus', custom_participant_id: 'gus', preset_name: 'group_call_participant' },
    ]);
    // The waiting page is in no room: the host hears of no join, the session has only the host.
    expect(host.s.frames.filter((f) => f.event === ROOM.joinRoom)).toHaveLength(1);
    expect(await liveNames(m)).toEqual(['Hana']);
    expect(await joinedWebhooks()).toEqual(['hana']);
    expect((await control('GET', `/_emulator/meetings/${m}/waiting-room`)).body).toMatchObject({
      waiting: [{ participant_id: gus.p.id, name: 'Gus', via: 'page', preset_name: 'group_call_participant' }],
    });

    host.s.fire(ROOM.acceptWaitingRoomRequests, 'socket.room.AcceptWaitingRoomRequests', { user_ids: [gus.p.id] });
    await gus.s.push(ROOM.waitingRoomRequestAccepted, 'socket.room.GetWaitingRoomRequests');
    expect(await list(host.s, (r) => r.length === 0)).toEqual([]);

    // The SDK joins again when it hears it was accepted: this time into the meeting.
    const peer = await join(gus.s, gus.p);
    expect(peer).toMatchObject({ peer_id: 'peer-gus', waitlisted: false });
    // The pass was for that one join.
    expect(emu.deps.services.waitingRoom.holdsPass(m, gus.p.id)).toBe(false);
    expect((await host.s.push(ROOM.joinRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-gus', user_id: gus.p.id });
    expect(await liveNames(m)).toEqual(['Hana', 'Gus']);
    expect(await joinedWebhooks()).toEqual(['hana', 'gus']);
    expect((await control('GET', `/_emulator/meetings/${m}/waiting-room`)).body).toEqual({ meeting_id: m, waiting: [] });
  });

  it('an admitted page that goes away before it joins takes its pass with it: the next page of that participant waits again', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const host = await page(m, 'Hana');
    const gus = await waiter(m, 'Gus');
    await list(host.s, (r) => r.length === 1);
    host.s.fire(ROOM.acceptWaitingRoomRequests, 'socket.room.AcceptWaitingRoomRequests', { user_ids: [gus.p.id] });
    await gus.s.push(ROOM.waitingRoomRequestAccepted, 'socket.room.GetWaitingRoomRequests');
    const { waitingRoom } = emu.deps.services;
    expect(waitingRoom.holdsPass(m, gus.p.id)).toBe(true);
    await gus.s.close();
    await expect.poll(() => waitingRoom.holdsPass(m, gus.p.id)).toBe(false);
    const again = await sockets.open(emu.url, m, gus.p);
    expect(await join(again, gus.p)).toMatchObject({ user_id: gus.p.id, waitlisted: true });
    expect(await liveNames(m)).toEqual(['Hana']);
  });

  it('a host who joins later is given the list when it asks (the SDK asks on joining with the permission)', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const gus = await waiter(m, 'Gus');
    const host = await page(m, 'Hana');
    const answer = await host.s.request(ROOM.getWaitingRoomRequests, null, {}, 'socket.room.GetWaitingRoomRequests');
    expect(answer.requests).toMatchObject([{ peer_id: 'peer-gus', user_id: gus.p.id }]);
  });

  it('a rejected page hears so; it never joins, and its socket stays open', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const host = await page(m, 'Hana');
    const gus = await waiter(m, 'Gus');
    await list(host.s, (r) => r.length === 1);

    host.s.fire(ROOM.denyWaitingRoomRequests, 'socket.room.DenyWaitingRoomRequests', { user_ids: [gus.p.id] });
    await gus.s.push(ROOM.waitingRoomRequestDenied, 'socket.room.GetWaitingRoomRequests');
    await list(host.s, (r) => r.length === 0);
    expect(gus.s.ws.readyState).toBe(gus.s.ws.OPEN);
    expect(gus.s.frames.some((f) => f.event === ROOM.waitingRoomRequestAccepted)).toBe(false);
    expect(await liveNames(m)).toEqual(['Hana']);
    expect((await control('GET', `/_emulator/meetings/${m}/waiting-room`)).body).toEqual({ meeting_id: m, waiting: [] });
  });

  it('a waiting page, and a rejected one, read nothing of the meeting: its chat, peers, polls, who is in its breakout rooms', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const host = await page(m, 'Hana');
    await control('POST', `/_emulator/meetings/${m}/participants/${host.p.id}/chat`, { message: 'secret plan' });
    await rest('POST', `/v2/meetings/${m}/active-session/poll`, { question: 'Ship it?', options: ['yes', 'no'] });
    const reads = async (s: SdkSocket) => ({
      chat: (await s.request(CHAT.getMessages, null, {}, 'socket.chat.GetChatMessagesResponse')).messages ?? [],
      peers: (await s.request(ROOM.getRoomPeersInfo, null, {}, 'socket.room.RoomPeersInfoResponse')).peers ?? [],
      peer: await s.request(ROOM.getPeerInfo, 'socket.room.GetPeerInfoRequest', { peer_id: host.s.peerId }, 'socket.room.PeerInfoResponse'),
      polls: (await s.request(POLLS.getPolls, null, {}, 'socket.polls.GetPollsResponse')).polls ?? [],
      members: (((await s.request(ROOM.getConnectedRoomsDump, null, {}, 'socket.room.GetConnectedRoomsDumpResponse')).parent_meeting as ProtoObject)
        ?.participants ?? []) as unknown[],
    });
    // The host reads them all: the reads can tell.
    expect(await reads(host.s)).toMatchObject({ chat: [expect.anything()], polls: [expect.anything()], members: [expect.anything()] });
    const nothing = { chat: [], peers: [], peer: {}, polls: [], members: [] };
    const gus = await waiter(m, 'Gus');
    expect(await reads(gus.s)).toEqual(nothing);
    await list(host.s, (r) => r.length === 1);
    host.s.fire(ROOM.denyWaitingRoomRequests, 'socket.room.DenyWaitingRoomRequests', { user_ids: [gus.p.id] });
    await gus.s.push(ROOM.waitingRoomRequestDenied, 'socket.room.GetWaitingRoomRequests');
    expect(await reads(gus.s)).toEqual(nothing);
  });

  it('a waiting page that goes away leaves the list', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const host = await page(m, 'Hana');
    const gus = await waiter(m, 'Gus');
    await list(host.s, (r) => r.length === 1);
    await gus.s.close();
    await list(host.s, (r) => r.length === 0);
    expect((await control('GET', `/_emulator/meetings/${m}/waiting-room`)).body).toEqual({ meeting_id: m, waiting: [] });
    expect(lists(host.s)).toEqual([[gus.p.id], []]);
  });

  it('ON_PRIVILEGED_USER_ENTRY: the page waits while nobody may admit, and is let in when a host joins; later ones join at once', async () => {
    await presetWaits('ON_PRIVILEGED_USER_ENTRY');
    const m = await meeting();
    const gus = await waiter(m, 'Gus');
    await page(m, 'Hana');
    await gus.s.push(ROOM.waitingRoomRequestAccepted, 'socket.room.GetWaitingRoomRequests');
    expect((await join(gus.s, gus.p)).waitlisted).toBe(false);
    expect(await liveNames(m)).toEqual(['Hana', 'Gus']);
    // With the host in, the next one does not wait.
    await page(m, 'Ivy', 'group_call_participant');
    expect(await liveNames(m)).toEqual(['Hana', 'Gus', 'Ivy']);
    expect((await control('GET', `/_emulator/meetings/${m}/waiting-room`)).body).toEqual({ meeting_id: m, waiting: [] });
  });

  it('nobody waits without the meeting’s waiting room, nor with a preset that skips it', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const open = await meeting(false, 'Open house');
    await page(open, 'Gus', 'group_call_participant');
    const guarded = await meeting(true, 'Guarded');
    await page(guarded, 'Hana', 'group_call_host');
    await presetWaits('SKIP');
    await page(guarded, 'Ivy', 'group_call_participant');
    expect(await liveNames(open)).toEqual(['Gus']);
    expect(await liveNames(guarded)).toEqual(['Hana', 'Ivy']);
  });
});

describe('the waiting room refuses', () => {
  it("a preset that may not admit, someone who does not wait, and a waiter of another meeting: the SDK's error reply with a reason, nothing changes, each logged once", async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const other = await meeting(true, 'Elsewhere');
    const host = await page(m, 'Hana');
    const ivy = await page(m, 'Ivy', 'group_call_host');
    const gus = await waiter(m, 'Gus');
    const olga = await waiter(other, 'Olga');
    await page(other, 'Omar');
    await list(host.s, (r) => r.length === 1);
    // A participant without the permission: group_call_participant joins this meeting only once admitted.
    host.s.fire(ROOM.acceptWaitingRoomRequests, 'socket.room.AcceptWaitingRoomRequests', { user_ids: [gus.p.id] });
    await gus.s.push(ROOM.waitingRoomRequestAccepted, 'socket.room.GetWaitingRoomRequests');
    await join(gus.s, gus.p);
    const frank = await waiter(m, 'Frank');
    await list(host.s, (r) => r.length === 1 && r[0]!.user_id === frank.p.id);
    const info = vi.spyOn(emu.deps.logger, 'info');

    const noPermission = gus.s.fire(ROOM.acceptWaitingRoomRequests, 'socket.room.AcceptWaitingRoomRequests', { user_ids: [frank.p.id] });
    expect(await gus.s.errorReply(noPermission)).toBe(
      'The preset group_call_participant may not admit waiting participants (permissions.accept_waiting_requests is false)',
    );
    const noPermissionAgain = gus.s.fire(ROOM.denyWaitingRoomRequests, 'socket.room.DenyWaitingRoomRequests', { user_ids: [frank.p.id] });
    expect(await gus.s.errorReply(noPermissionAgain)).toBe(
      'The preset group_call_participant may not reject waiting participants (permissions.accept_waiting_requests is false)',
    );
    const list1 = gus.s.fire(ROOM.getWaitingRoomRequests, 'socket.room.GetWaitingRoomRequests', {});
    expect(await gus.s.errorReply(list1)).toBe('The preset group_call_participant may not see the waiting room (permissions.accept_waiting_requests is false)');
    // Someone in the meeting is not waiting: nobody is admitted, Frank included.
    const notWaiting = host.s.fire(ROOM.acceptWaitingRoomRequests, 'socket.room.AcceptWaitingRoomRequests', { user_ids: [frank.p.id, ivy.p.id] });
    expect(await host.s.errorReply(notWaiting)).toBe(`Participant ${ivy.p.id} is not waiting in meeting ${m}`);
    // Olga waits in another meeting: she is neither admitted nor rejected from here.
    const elsewhere = host.s.fire(ROOM.denyWaitingRoomRequests, 'socket.room.DenyWaitingRoomRequests', { user_ids: [olga.p.id] });
    expect(await host.s.errorReply(elsewhere)).toBe(`Participant ${olga.p.id} is not waiting in meeting ${m}`);
    const elsewhereAgain = host.s.fire(ROOM.acceptWaitingRoomRequests, 'socket.room.AcceptWaitingRoomRequests', { user_ids: [olga.p.id] });
    expect(await host.s.errorReply(elsewhereAgain)).toBe(`Participant ${olga.p.id} is not waiting in meeting ${m}`);

    const room = (await control('GET', `/_emulator/meetings/${m}/waiting-room`)).body as { waiting: { participant_id: string }[] };
    expect(room.waiting.map((w) => w.participant_id)).toEqual([frank.p.id]);
    const otherRoom = (await control('GET', `/_emulator/meetings/${other}/waiting-room`)).body as { waiting: { participant_id: string }[] };
    expect(otherRoom.waiting.map((w) => w.participant_id)).toEqual([olga.p.id]);
    expect(olga.s.frames.some((f) => f.event === ROOM.waitingRoomRequestAccepted || f.event === ROOM.waitingRoomRequestDenied)).toBe(false);
    expect(frank.s.frames.some((f) => f.event === ROOM.waitingRoomRequestAccepted || f.event === ROOM.waitingRoomRequestDenied)).toBe(false);
    expect(await liveNames(m)).toEqual(['Hana', 'Ivy', 'Gus']);
    const refused = info.mock.calls.filter(([, msg]) => msg === 'SDK request refused');
    expect(refused.map(([fields]) => [(fields as { peer: string }).peer, (fields as { event: number }).event])).toEqual([
      ['peer-gus', ROOM.acceptWaitingRoomRequests],
      ['peer-gus', ROOM.denyWaitingRoomRequests],
      ['peer-gus', ROOM.getWaitingRoomRequests],
      ['peer-hana', ROOM.acceptWaitingRoomRequests],
      ['peer-hana', ROOM.denyWaitingRoomRequests],
    ]);
  });
});

describe('the control API', () => {
  it('a scripted participant waits (202), a host bot admits it and it joins; an operator rejects another; a bot without the permission is 403', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const host = await page(m, 'Hana');
    const bot = await addPerson(emu, m, 'Bob', 'group_call_host');
    expect((await control('POST', `/_emulator/meetings/${m}/participants/${bot.id}/join`)).status).toBe(200);
    const gus = await addPerson(emu, m, 'Gus', 'group_call_participant');
    const lee = await addPerson(emu, m, 'Lee', 'group_call_participant');
    const waits = await control('POST', `/_emulator/meetings/${m}/participants/${gus.id}/join`);
    expect(waits.status).toBe(202);
    expect(waits.body).toMatchObject({ meeting_id: m, waiting: [{ participant_id: gus.id, via: 'scripted', name: 'Gus' }] });
    expect((await control('POST', `/_emulator/meetings/${m}/participants/${gus.id}/join`)).status).toBe(409);
    await control('POST', `/_emulator/meetings/${m}/participants/${lee.id}/join`);
    const scripted = await list(host.s, (r) => r.length === 2);
    // A scripted participant waits under their participant id.
    expect(scripted.map((r) => r.peer_id)).toEqual([gus.id, lee.id]);

    const refused = await control('POST', `/_emulator/meetings/${m}/waiting-room/admit`, { participant_ids: [gus.id], by: lee.id });
    expect(refused.status).toBe(409);
    const ivy = await addPerson(emu, m, 'Ivy', 'webinar_viewer');
    await control('POST', `/_emulator/meetings/${m}/participants/${ivy.id}/join`);
    const forbidden = await control('POST', `/_emulator/meetings/${m}/waiting-room/admit`, { participant_ids: [gus.id], by: ivy.id });
    expect(forbidden).toEqual({
      status: 403,
      body: {
        error: { code: 'FORBIDDEN', message: 'The preset webinar_viewer may not admit waiting participants (permissions.accept_waiting_requests is false)' },
      },
    });

    const admitted = await control('POST', `/_emulator/meetings/${m}/waiting-room/admit`, { participant_ids: [gus.id], by: bot.id });
    expect(admitted.status).toBe(200);
    expect(admitted.body).toMatchObject({ waiting: [{ participant_id: lee.id }] });
    expect((await host.s.push(ROOM.joinRoom, 'socket.room.PeerInfoResponse', (b) => (b.peer as ProtoObject).user_id === gus.id)).peer).toMatchObject({
      peer_id: gus.id,
    });
    expect(await liveNames(m)).toEqual(['Hana', 'Bob', 'Ivy', 'Gus']);

    expect((await control('POST', `/_emulator/meetings/${m}/waiting-room/reject`, { participant_ids: [lee.id] })).body).toEqual({ meeting_id: m, waiting: [] });
    expect((await control('POST', `/_emulator/meetings/${m}/waiting-room/reject`, { participant_ids: [lee.id] })).status).toBe(409);
    expect(await liveNames(m)).toEqual(['Hana', 'Bob', 'Ivy', 'Gus']);
  });

  it('a scripted participant who waits can leave the waiting room', async () => {
    await presetWaits('SKIP_ON_ACCEPT');
    const m = await meeting();
    const host = await page(m, 'Hana');
    const gus = await addPerson(emu, m, 'Gus', 'group_call_participant');
    await control('POST', `/_emulator/meetings/${m}/participants/${gus.id}/join`);
    await list(host.s, (r) => r.length === 1);
    expect((await control('POST', `/_emulator/meetings/${m}/participants/${gus.id}/leave`)).status).toBe(200);
    await list(host.s, (r) => r.length === 0);
    expect((await control('POST', `/_emulator/meetings/${m}/participants/${gus.id}/leave`)).status).toBe(409);
  });
});
