// A host's controls from the page, driven from Node the way the web SDK drives the socket: remove
// one participant, end the meeting for all, turn someone's (or everyone's) microphone or camera
// off, pin for everyone. Each lands where its REST twin lands (the session, the webhooks, every
// page), and each bad request (a preset without the permission, a peer not in the meeting or in
// another one, a second removal) gets the SDK's error reply with a reason and changes nothing.
// A network test: real sockets on 127.0.0.1, manual clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { decode, type ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, controlOf, restOf, type Person } from '../../helpers/web-sdk.js';

const { room: ROOM, cfMedia: MEDIA } = SDK_EVENTS;
const REMOVED = 4003;

let emu: RunningEmulator;
const sockets = new PageSockets();

beforeEach(async () => {
  emu = await startEmulator({ seed: 'host controls', clock: 'manual' });
});

afterEach(async () => {
  sockets.terminate();
  await emu.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

async function meeting(title = 'Standup'): Promise<string> {
  return (await rest<{ id: string }>('POST', '/v2/meetings', { title })).id;
}

/** A page joined to the meeting's socket room and media room, as the SDK joins. */
async function page(meetingId: string, name: string, preset = 'group_call_host'): Promise<{ s: SdkSocket; p: Person }> {
  const p = await addPerson(emu, meetingId, name, preset);
  const s = await sockets.open(emu.url, meetingId, p);
  await s.joinMedia(meetingId, name);
  await s.joinRoom(p);
  await s.completeJoin();
  return { s, p };
}

/** The message of a request's error reply (it must be one). */
async function refused(s: SdkSocket, event: number, type: string, body: ProtoObject, answerType: string): Promise<string> {
  return s.request(event, type, body, answerType).then(
    () => {
      throw new Error('the request was answered, not refused');
    },
    (e: Error) => e.message,
  );
}

interface ActiveSession {
  status: string;
  live_participants: number;
}

async function liveNames(meetingId: string): Promise<string[]> {
  const session = await rest<{ id: string }>('GET', `/v2/meetings/${meetingId}/active-session`);
  const { participants } = await rest<{ participants: { display_name: string; left_at?: string }[] }>('GET', `/v2/sessions/${session.id}/participants`);
  return participants.filter((p) => p.left_at === undefined).map((p) => p.display_name);
}

const hostControl = (participantId: string, kind: 'audio' | 'video') => ({
  participant_id: participantId,
  audio: kind === 'audio',
  video: kind === 'video',
  scree_share: false,
});

describe('a host removes a participant, or everyone', () => {
  it('a removal: the page hears it was kicked and closes, the others see them leave, the session and participantLeft agree; the host hears no answer, and a second removal is refused', async () => {
    await rest('POST', '/v2/webhooks', { name: 'left', url: 'http://127.0.0.1:9/hook', events: ['meeting.participantLeft'] });
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    const carl = await page(m, 'Carl', 'group_call_participant');

    const first = ada.s.fire(ROOM.kick, 'socket.room.RemoveParticipantsRequest', { peer_ids: ['peer-bob'] });
    expect((await bob.s.push(ROOM.kick, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-bob' });
    expect((await bob.s.closed).code).toBe(REMOVED);
    expect((await carl.s.push(ROOM.leaveRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-bob' });
    expect(await liveNames(m)).toEqual(['Ada', 'Carl']);
    const left = await emu.deliveries();
    expect(left.map((d) => [d.event, (d.payload as { participant: { customParticipantId: string } }).participant.customParticipantId])).toEqual([
      ['meeting.participantLeft', 'bob'],
    ]);

    // The SDK sends each removal twice: the second names someone already gone.
    const second = ada.s.fire(ROOM.kick, 'socket.room.RemoveParticipantsRequest', { peer_ids: ['peer-bob'] });
    expect(await ada.s.errorReply(second)).toBe('Peer peer-bob is not in this meeting');
    // An answer on the removal's own event would reach the host's page as its own removal: none comes.
    expect(ada.s.frames.some((f) => f.id === first)).toBe(false);
    expect(ada.s.frames.some((f) => f.event === ROOM.kick)).toBe(false);
    expect(await liveNames(m)).toEqual(['Ada', 'Carl']);
    expect(await emu.deliveries()).toHaveLength(1);
  });

  it('the end for all: every page hears the meeting ended (the host as the answer), the session ends HOST_ENDED_MEETING, the recording stops as when everyone leaves', async () => {
    await rest('POST', '/v2/webhooks', { name: 'end', url: 'http://127.0.0.1:9/hook', events: ['meeting.ended', 'recording.statusUpdate'] });
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    const recording = await rest<{ id: string }>('POST', '/v2/recordings', { meeting_id: m });
    await emu.advance(10_000);
    expect((await rest<{ status: string }>('GET', `/v2/recordings/${recording.id}`)).status).toBe('RECORDING');
    const session = await rest<{ id: string }>('GET', `/v2/meetings/${m}/active-session`);

    const id = ada.s.fire(ROOM.kickAll, 'media.edge.KickAllPeersRequest', { propagate_kick_across_rooms: false });
    const answer = await ada.s.next((f) => f.id === id);
    expect(answer.event).toBe(ROOM.kickAll);
    expect((await bob.s.push(ROOM.kickAll, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-bob' });
    expect((await ada.s.closed).code).toBe(REMOVED);
    expect((await bob.s.closed).code).toBe(REMOVED);

    const ended = await rest<{ session: { status: string; live_participants: number } }>('GET', `/v2/sessions/${session.id}`);
    expect(ended.session).toMatchObject({ status: 'ENDED', live_participants: 0 });
    // As when everyone leaves: the recorder stops 60 s after the end, and the file uploads.
    await emu.advance(60_000);
    expect(await rest<{ status: string; stop_reason: { reason: string } }>('GET', `/v2/recordings/${recording.id}`)).toMatchObject({
      status: expect.stringMatching(/^UPLOAD/),
      stop_reason: { reason: 'ALL_PEERS_LEFT' },
    });
    const events = (await emu.deliveries()).map((d) => [
      d.event,
      (d.payload as { reason?: string; status?: string }).reason ?? (d.payload as { status?: string }).status,
    ]);
    expect(events).toContainEqual(['meeting.ended', 'HOST_ENDED_MEETING']);
  });
});

describe("a host turns others' microphones and cameras off", () => {
  it("one participant's, then everyone else's: answered \"success\", and a bot's tracks go off", async () => {
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const bot = await addPerson(emu, m, 'Bot');
    const control = controlOf(emu);
    expect((await control('POST', `/_emulator/meetings/${m}/participants/${bot.id}/join`, { media: { audio: true, video: true } })).status).toBe(200);
    const botMedia = async () => (await control('POST', `/_emulator/meetings/${m}/participants/${bot.id}/media`, {})).body;
    expect(await botMedia()).toEqual({ audio: true, video: true });

    const one = await ada.s.request(
      MEDIA.hostControlPeer,
      'media.edge.HostMediaControlForPeerRequest',
      hostControl(bot.id, 'audio'),
      'media.edge.HostMediaControlForPeerResponse',
    );
    expect(one).toEqual({ status: 'success' });
    await expect.poll(botMedia).toEqual({ audio: false, video: true });

    const all = await ada.s.request(
      MEDIA.hostControlAllPeers,
      'media.edge.HostMediaControlForAllPeerRequest',
      { audio: false, video: true, screen_share: false },
      'media.edge.HostMediaControlForAllPeerResponse',
    );
    expect(all).toEqual({ status: 'success' });
    await expect.poll(botMedia).toEqual({ audio: false, video: false });
  });
});

describe('a pin for everyone', () => {
  it('is told to every page (the host too), given to a page that joins later, and undone by an unpin or the pinned peer leaving', async () => {
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const bob = await page(m, 'Bob');
    const pinned = (s: SdkSocket, who: string) =>
      s.push(MEDIA.globalPeerPinBroadcast, 'media.edge.GlobalPeerPinningBroadcastResponse', (b) => b.participant_id === who);

    await ada.s.request(MEDIA.globalPinPeer, 'media.edge.GlobalPeerPinningRequest', { participant_id: 'peer-bob' }, 'media.edge.GlobalPeerPinningResponse');
    await pinned(ada.s, 'peer-bob');
    await pinned(bob.s, 'peer-bob');
    const carl = await page(m, 'Carl', 'group_call_participant');
    const late = carl.s.frames.find((f) => f.event === MEDIA.selfJoinComplete)!;
    expect(decode('media.edge.PeerJoinCompleteResponse', late.payload)).toMatchObject({ room_state: { pinned_peer_ids: ['peer-bob'] } });

    await ada.s.request(MEDIA.globalPinPeer, 'media.edge.GlobalPeerPinningRequest', { participant_id: '' }, 'media.edge.GlobalPeerPinningResponse');
    await pinned(carl.s, '');
    await ada.s.request(MEDIA.globalPinPeer, 'media.edge.GlobalPeerPinningRequest', { participant_id: 'peer-bob' }, 'media.edge.GlobalPeerPinningResponse');
    await bob.s.request(ROOM.leaveRoom, 'socket.room.LeaveRoomRequest', {}, null);
    // Carl saw the pin, the unpin, the pin again, and the unpin of the peer who left.
    await expect
      .poll(() =>
        carl.s.frames
          .filter((f) => f.event === MEDIA.globalPeerPinBroadcast)
          .map((f) => decode('media.edge.GlobalPeerPinningBroadcastResponse', f.payload).participant_id),
      )
      .toEqual(['', 'peer-bob', '']);
    const dave = await page(m, 'Dave', 'group_call_participant');
    const daveJoin = dave.s.frames.find((f) => f.event === MEDIA.selfJoinComplete)!;
    expect(decode('media.edge.PeerJoinCompleteResponse', daveJoin.payload)).toMatchObject({ room_state: { pinned_peer_ids: [] } });
  });
});

describe('bad input: the SDK error reply with a reason, and nothing changes', () => {
  it('a preset without the host permission', async () => {
    const m = await meeting();
    const ada = await page(m, 'Ada');
    const carl = await page(m, 'Carl', 'group_call_participant');
    const before = await rest<ActiveSession>('GET', `/v2/meetings/${m}/active-session`);

    const kick = carl.s.fire(ROOM.kick, 'socket.room.RemoveParticipantsRequest', { peer_ids: ['peer-ada'] });
    expect(await carl.s.errorReply(kick)).toBe('The preset group_call_participant may not remove participants (permissions.kick_participant is false)');
    const kickAll = carl.s.fire(ROOM.kickAll, 'media.edge.KickAllPeersRequest', {});
    expect(await carl.s.errorReply(kickAll)).toBe(
      'The preset group_call_participant may not end the meeting for everyone (permissions.kick_participant is false)',
    );
    expect(
      await refused(
        carl.s,
        MEDIA.hostControlPeer,
        'media.edge.HostMediaControlForPeerRequest',
        hostControl('peer-ada', 'audio'),
        'media.edge.HostMediaControlForPeerResponse',
      ),
    ).toBe("The preset group_call_participant may not turn others' microphone off (permissions.disable_participant_audio is false)");
    expect(
      await refused(
        carl.s,
        MEDIA.hostControlAllPeers,
        'media.edge.HostMediaControlForAllPeerRequest',
        { video: true },
        'media.edge.HostMediaControlForAllPeerResponse',
      ),
    ).toBe("The preset group_call_participant may not turn others' camera off (permissions.disable_participant_video is false)");
    expect(
      await refused(carl.s, MEDIA.globalPinPeer, 'media.edge.GlobalPeerPinningRequest', { participant_id: 'peer-ada' }, 'media.edge.GlobalPeerPinningResponse'),
    ).toBe('The preset group_call_participant may not pin participants (permissions.pin_participant is false)');

    expect(await rest<ActiveSession>('GET', `/v2/meetings/${m}/active-session`)).toEqual(before);
    const news: number[] = [ROOM.kick, ROOM.kickAll, MEDIA.globalPeerPinBroadcast, MEDIA.peerProducerToggleBroadcast];
    expect(ada.s.frames.some((f) => news.includes(f.event))).toBe(false);
  });

  it('a peer not in the meeting, or in another one; oneself; a screen share; neither or both kinds', async () => {
    const m = await meeting();
    const other = await meeting('Other');
    const ada = await page(m, 'Ada');
    const eve = await page(other, 'Eve');
    const before = await rest<ActiveSession>('GET', `/v2/meetings/${other}/active-session`);

    const kick = ada.s.fire(ROOM.kick, 'socket.room.RemoveParticipantsRequest', { peer_ids: ['peer-eve'] });
    expect(await ada.s.errorReply(kick)).toBe('Peer peer-eve is not in this meeting');
    const nobody = ada.s.fire(ROOM.kick, 'socket.room.RemoveParticipantsRequest', { peer_ids: [] });
    expect(await ada.s.errorReply(nobody)).toBe('A removal names at least one peer');
    const control = (body: ProtoObject) =>
      refused(ada.s, MEDIA.hostControlPeer, 'media.edge.HostMediaControlForPeerRequest', body, 'media.edge.HostMediaControlForPeerResponse');
    expect(await control(hostControl('peer-eve', 'audio'))).toBe('Peer peer-eve is not in this meeting');
    expect(await control(hostControl('peer-ada', 'video'))).toBe("Turn your own camera off with your own controls, not a host's");
    expect(await control({ participant_id: 'peer-ada', scree_share: true })).toBe("A host cannot stop another participant's screen share");
    expect(await control({ participant_id: 'peer-ada', audio: true, video: true })).toBe('A host control turns off either the microphone or the camera');
    expect(
      await refused(ada.s, MEDIA.globalPinPeer, 'media.edge.GlobalPeerPinningRequest', { participant_id: 'peer-eve' }, 'media.edge.GlobalPeerPinningResponse'),
    ).toBe('Peer peer-eve is not in this meeting');

    expect(await rest<ActiveSession>('GET', `/v2/meetings/${other}/active-session`)).toEqual(before);
    const news: number[] = [ROOM.kick, MEDIA.globalPeerPinBroadcast, MEDIA.peerProducerToggleBroadcast];
    expect(eve.s.frames.some((f) => news.includes(f.event))).toBe(false);
  });
});
