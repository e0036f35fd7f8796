// The stage of a webinar, driven from Node the way the web SDK drives the socket: who joins on it
// and off it (each peer's stage_type), a viewer's request and its cancellation, a host's grant (also
// an invitation), denial and removal, the page's own join and leave, the lists the SDK asks for,
// and publishing only from the stage. Every move reaches every page as peerStageStatusUpdate; the
// hosts get the requests as they change. Each bad request (a preset that may not ask, a grant to a
// peer that may not go on the stage, a join not let on, a participant of another meeting, a host
// move from a preset that does not manage the stage) gets the SDK's error reply with a reason,
// changes nothing, and is logged once. Scripted participants move through the control API.
// A network test: real sockets on 127.0.0.1, manual clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MediaStreamTrack, RTCPeerConnection } from 'werift';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import type { ProtoObject } from '../../../src/realtime/protocol/codec.js';
import { SDK_EVENTS } from '../../../src/realtime/protocol/events.js';
import { PageSockets, type SdkSocket } from '../../helpers/sdk-socket.js';
import { addPerson, addPreset, controlOf, restOf, type Person } from '../../helpers/web-sdk.js';

const { room: ROOM, cfMedia: MEDIA } = SDK_EVENTS;
/** socket.room.StageType */
const ON = 1;
const APPROVED = 2;
const REQUESTED = 3;
const OFF = 4;
/** A viewer who may ask for the stage: audio and video CAN_REQUEST. */
const SPEAKER = 'webinar_speaker';

let emu: RunningEmulator;
const sockets = new PageSockets();
const pcs: RTCPeerConnection[] = [];

beforeEach(async () => {
  emu = await startEmulator({ seed: 'stage', clock: 'manual' });
  await addPreset(emu, SPEAKER, 'webinar_viewer', {
    media: { audio: { can_produce: 'CAN_REQUEST' }, video: { can_produce: 'CAN_REQUEST' }, screenshare: { can_produce: 'NOT_ALLOWED' } },
  });
});

afterEach(async () => {
  sockets.terminate();
  for (const pc of pcs.splice(0)) await pc.close();
  await emu.close();
});

const rest = <T>(method: string, route: string, body?: unknown): Promise<T> => restOf(emu)<T>(method, route, body);

const control = (method: string, route: string, body?: unknown) => controlOf(emu)(method, route, body);

async function webinar(title = 'Webinar'): Promise<string> {
  return (await rest<{ id: string }>('POST', '/v2/meetings', { title })).id;
}

interface Page {
  s: SdkSocket;
  p: Person;
  /** Its own view, as the join answered it. */
  peer: ProtoObject;
}

/** A page in the meeting: socket room and media room, as the SDK joins. */
async function page(meetingId: string, name: string, preset: string): Promise<Page> {
  const p = await addPerson(emu, meetingId, name, preset);
  const s = await sockets.open(emu.url, meetingId, p);
  const answer = await s.joinRoom(p);
  await s.completeJoin();
  return { s, p, peer: answer.peer as ProtoObject };
}

/** The next peerStageStatusUpdate a page gets about a peer with a stage type. */
function update(s: SdkSocket, peerId: string, stageType: number): Promise<ProtoObject> {
  return s.push(ROOM.peerStageStatusUpdate, 'socket.room.PeerStatusUpdate', (b) => b.peer_id === peerId && b.stage_type === stageType);
}

/** The next list of stage requests pushed to a page that names these peers. */
function requests(s: SdkSocket, peerIds: string[]): Promise<ProtoObject[]> {
  return s
    .push(ROOM.getStageRequests, 'socket.livestreaming.GetStageRequestsResponse', (b) =>
      sameList(
        (b.stage_requests as { peer_id: string }[]).map((r) => r.peer_id),
        peerIds,
      ),
    )
    .then((b) => b.stage_requests as ProtoObject[]);
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

async function stageOf(meetingId: string): Promise<Record<string, string>> {
  const { body } = await control('GET', `/_emulator/meetings/${meetingId}/stage`);
  return Object.fromEntries((body.participants as { name: string; status: string }[]).map((p) => [p.name, p.status]));
}

describe('who joins on the stage and off it', () => {
  it("a presenter joins on it, a viewer off it, and every page reads each peer's stage_type", async () => {
    const m = await webinar();
    const host = await page(m, 'Hana', 'webinar_presenter');
    const vic = await page(m, 'Vic', SPEAKER);
    expect(host.peer.stage_type).toBe(ON);
    expect(vic.peer.stage_type).toBe(OFF);
    expect((await host.s.push(ROOM.joinRoom, 'socket.room.PeerInfoResponse')).peer).toMatchObject({ peer_id: 'peer-vic', stage_type: OFF });
    const peers = await vic.s.request(ROOM.getRoomPeersInfo, 'socket.room.RoomPeersInfoRequest', {}, 'socket.room.RoomPeersInfoResponse');
    expect(peers.peers).toMatchObject([{ peer_id: 'peer-hana', stage_type: ON }]);
    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE', Vic: 'OFF_STAGE' });
    // A group call has no stage: everyone is on it.
    const call = await webinar('Group call');
    expect((await page(call, 'Gus', 'group_call_participant')).peer.stage_type).toBe(ON);
  });
});

describe('a viewer asks for the stage', () => {
  it('a request reaches every page and the host, a cancel withdraws it; the host lets the next one on, the viewer joins, then leaves', async () => {
    const m = await webinar();
    const host = await page(m, 'Hana', 'webinar_presenter');
    const vic = await page(m, 'Vic', SPEAKER);

    vic.s.fire(ROOM.requestStageAccess, null);
    expect(await update(host.s, 'peer-vic', REQUESTED)).toEqual({ peer_id: 'peer-vic', user_id: vic.p.id, stage_type: REQUESTED });
    await update(vic.s, 'peer-vic', REQUESTED);
    expect(await requests(host.s, ['peer-vic'])).toEqual([{ display_name: 'Vic', user_id: vic.p.id, peer_id: 'peer-vic' }]);
    expect(await host.s.request(ROOM.getStageRequests, null, {}, 'socket.livestreaming.GetStageRequestsResponse')).toEqual({
      stage_requests: [{ display_name: 'Vic', user_id: vic.p.id, peer_id: 'peer-vic' }],
    });
    expect(await vic.s.request(ROOM.getRoomStageState, null, {}, 'socket.room.GetRoomStageStateResponse')).toEqual({
      on_stage_peers: ['peer-hana'],
      approved_stage_peers: [],
      requested_stage_peers: ['peer-vic'],
    });

    vic.s.fire(ROOM.cancelStageRequest, null);
    await update(host.s, 'peer-vic', OFF);
    await requests(host.s, []);
    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE', Vic: 'OFF_STAGE' });

    vic.s.fire(ROOM.requestStageAccess, null);
    await requests(host.s, ['peer-vic']);
    host.s.fire(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest', { user_ids: [vic.p.id] });
    await vic.s.push(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest');
    await update(host.s, 'peer-vic', APPROVED);
    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE', Vic: 'ACCEPTED_TO_JOIN_STAGE' });

    // The SDK's join waits for its answer on peerStageStatusUpdate.
    expect(await vic.s.request(ROOM.joinStage, null, {}, 'socket.room.PeerStatusUpdate')).toEqual({ peer_id: 'peer-vic', user_id: vic.p.id, stage_type: ON });
    await update(host.s, 'peer-vic', ON);
    expect(await host.s.request(ROOM.getStagePeers, null, {}, 'socket.livestreaming.GetStagePeersResponse')).toEqual({
      stage_peers: ['peer-hana', 'peer-vic'],
    });

    expect(await vic.s.request(ROOM.leaveStage, 'socket.livestreaming.LeaveStageRequest', { user_ids: [vic.p.id] }, 'socket.room.PeerStatusUpdate')).toEqual({
      peer_id: 'peer-vic',
      user_id: vic.p.id,
      stage_type: OFF,
    });
    await update(host.s, 'peer-vic', OFF);
    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE', Vic: 'OFF_STAGE' });
  });

  it('a host turns a request down: the viewer hears it, and stays off the stage', async () => {
    const m = await webinar();
    const host = await page(m, 'Hana', 'webinar_presenter');
    const vic = await page(m, 'Vic', SPEAKER);
    vic.s.fire(ROOM.requestStageAccess, null);
    await requests(host.s, ['peer-vic']);
    host.s.fire(ROOM.denyStageAccess, 'socket.livestreaming.DenyStageAccessRequest', { user_ids: [vic.p.id] });
    await vic.s.push(ROOM.denyStageAccess, 'socket.livestreaming.DenyStageAccessRequest');
    await update(vic.s, 'peer-vic', OFF);
    await requests(host.s, []);
    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE', Vic: 'OFF_STAGE' });
  });

  it('a host invites a viewer who did not ask, and removes them from the stage; the removed page leaves by itself', async () => {
    const m = await webinar();
    const host = await page(m, 'Hana', 'webinar_presenter');
    const vic = await page(m, 'Vic', SPEAKER);
    host.s.fire(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest', { user_ids: [vic.p.id] });
    await vic.s.push(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest');
    await vic.s.request(ROOM.joinStage, null, {}, 'socket.room.PeerStatusUpdate');
    await update(host.s, 'peer-vic', ON);

    // A removal is a leaveStage naming someone else, answered on its own event.
    await host.s.request(ROOM.leaveStage, 'socket.livestreaming.LeaveStageRequest', { user_ids: [vic.p.id] }, null);
    await update(vic.s, 'peer-vic', OFF);
    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE', Vic: 'OFF_STAGE' });
    // The SDK mends the difference with a leave of its own, which is answered though it moves nothing.
    expect(
      await vic.s.request(ROOM.leaveStage, 'socket.livestreaming.LeaveStageRequest', { user_ids: [vic.p.id] }, 'socket.room.PeerStatusUpdate'),
    ).toMatchObject({
      stage_type: OFF,
    });
    expect(host.s.frames.filter((f) => f.event === ROOM.peerStageStatusUpdate)).toHaveLength(3);
  });

  it('a presenter off the stage joins it again without asking', async () => {
    const m = await webinar();
    const host = await page(m, 'Hana', 'webinar_presenter');
    await host.s.request(ROOM.leaveStage, 'socket.livestreaming.LeaveStageRequest', { user_ids: [host.p.id] }, 'socket.room.PeerStatusUpdate');
    expect(await stageOf(m)).toEqual({ Hana: 'OFF_STAGE' });
    expect(await host.s.request(ROOM.joinStage, null, {}, 'socket.room.PeerStatusUpdate')).toMatchObject({ stage_type: ON });
    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE' });
  });
});

describe('the stage refuses', () => {
  it("a preset that may not ask, a join not let on, a grant to one who may not go on, a host move from a viewer, another meeting's participant: the SDK's error reply with a reason, nothing changes, each logged once", async () => {
    const m = await webinar();
    const other = await webinar('Elsewhere');
    const host = await page(m, 'Hana', 'webinar_presenter');
    const vic = await page(m, 'Vic', SPEAKER);
    const wes = await page(m, 'Wes', 'webinar_viewer');
    const olga = await page(other, 'Olga', SPEAKER);
    olga.s.fire(ROOM.requestStageAccess, null);
    await update(olga.s, 'peer-olga', REQUESTED);
    const info = vi.spyOn(emu.deps.logger, 'info');

    expect(await wes.s.errorReply(wes.s.fire(ROOM.requestStageAccess, null))).toBe(
      `Participant ${wes.p.id} may not go on the stage (stage access is NOT_ALLOWED)`,
    );
    expect(await vic.s.errorReply(vic.s.fire(ROOM.joinStage, null))).toBe(`Participant ${vic.p.id} must be let on the stage first (OFF_STAGE)`);
    expect(await vic.s.errorReply(vic.s.fire(ROOM.cancelStageRequest, null))).toBe(`Participant ${vic.p.id} has no stage request to cancel (OFF_STAGE)`);
    expect(
      await host.s.errorReply(host.s.fire(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest', { user_ids: [vic.p.id, wes.p.id] })),
    ).toBe(`Participant ${wes.p.id} may not go on the stage (stage access is NOT_ALLOWED)`);
    expect(await host.s.errorReply(host.s.fire(ROOM.denyStageAccess, 'socket.livestreaming.DenyStageAccessRequest', { user_ids: [olga.p.id] }))).toBe(
      `Participant ${olga.p.id} is not in meeting ${m}`,
    );
    expect(await vic.s.errorReply(vic.s.fire(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest', { user_ids: [vic.p.id] }))).toBe(
      'The preset webinar_speaker may not manage the stage (it needs a stage, and permissions.accept_stage_requests or can_accept_production_requests)',
    );
    expect(await vic.s.errorReply(vic.s.fire(ROOM.getStageRequests, null))).toBe(
      'The preset webinar_speaker may not see the stage requests (it does not manage the stage)',
    );
    expect(await host.s.errorReply(host.s.fire(ROOM.leaveStage, 'socket.livestreaming.LeaveStageRequest', { user_ids: [vic.p.id] }))).toBe(
      `Participant ${vic.p.id} is not on the stage (OFF_STAGE)`,
    );

    expect(await stageOf(m)).toEqual({ Hana: 'ON_STAGE', Vic: 'OFF_STAGE', Wes: 'OFF_STAGE' });
    expect(await stageOf(other)).toEqual({ Olga: 'REQUESTED_TO_JOIN_STAGE' });
    expect(olga.s.frames.some((f) => f.event === ROOM.denyStageAccess)).toBe(false);
    for (const p of [host, vic, wes]) expect(p.s.frames.filter((f) => f.event === ROOM.peerStageStatusUpdate)).toEqual([]);
    const refused = info.mock.calls.filter(([, msg]) => msg === 'SDK request refused');
    expect(refused.map(([fields]) => [(fields as { peer: string }).peer, (fields as { event: number }).event])).toEqual([
      ['peer-wes', ROOM.requestStageAccess],
      ['peer-vic', ROOM.joinStage],
      ['peer-vic', ROOM.cancelStageRequest],
      ['peer-hana', ROOM.grantStageAccess],
      ['peer-hana', ROOM.denyStageAccess],
      ['peer-vic', ROOM.grantStageAccess],
      ['peer-vic', ROOM.getStageRequests],
      ['peer-hana', ROOM.leaveStage],
    ]);
  });

  it('a group call has no stage: a request is refused', async () => {
    const m = await webinar('Group call');
    const gus = await page(m, 'Gus', 'group_call_participant');
    expect(await gus.s.errorReply(gus.s.fire(ROOM.requestStageAccess, null))).toBe(`The preset group_call_participant of participant ${gus.p.id} has no stage`);
  });
});

// --- publishing follows the stage ------------------------------------------------------------------

interface Transport {
  pc: RTCPeerConnection;
  id: string;
}

/** The page's send transport, opened as the SDK opens it. */
async function sendTransport(s: SdkSocket): Promise<Transport> {
  const pc = new RTCPeerConnection({ iceServers: [] });
  pcs.push(pc);
  pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const answer = (await s.request(
    MEDIA.createWebRTCTransport,
    'media.CreateTransportRequest',
    { consuming: false, description: { type: 'offer', sdp: pc.localDescription!.sdp, target: 0 }, producers: [] },
    'media.CreateTransportResponse',
  )) as { transport_id: string; description: { sdp: string } };
  await pc.setRemoteDescription({ type: 'answer', sdp: answer.description.sdp });
  return { pc, id: answer.transport_id };
}

/** Publishes the camera as the SDK does: its producer id, or the refusal's message. */
async function camera(s: SdkSocket, send: Transport): Promise<string> {
  const t = send.pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
  await send.pc.setLocalDescription(await send.pc.createOffer());
  const request = {
    kind: 'video',
    paused: false,
    screen_share: false,
    description: { type: 'offer', sdp: send.pc.localDescription!.sdp, target: 0 },
    msid: 'stream track',
    app_data: JSON.stringify({ mid: t.mid }),
    mime_type: 'video/VP8',
    producing_transport_id: send.id,
  };
  return s.request(MEDIA.produce, 'media.edge.ProducerCreateRequest', request, 'media.edge.ProducerCreateResponse').then(
    async (answer) => {
      await send.pc.setRemoteDescription({ type: 'answer', sdp: (answer.description as { sdp: string }).sdp });
      return String(answer.producer_id);
    },
    (e: Error) => e.message,
  );
}

async function producers(): Promise<number> {
  return ((await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { producers: number } }).media.producers;
}

describe('only the stage publishes', () => {
  it('a viewer off the stage may not publish; let on and joined, it does; removed, it may not resume', async () => {
    const m = await webinar();
    const host = await page(m, 'Hana', 'webinar_presenter');
    const vic = await page(m, 'Vic', SPEAKER);
    const send = await sendTransport(vic.s);
    expect(await camera(vic.s, send)).toBe(
      'Only the stage publishes: the preset webinar_speaker may produce video once on the stage, and this participant is OFF_STAGE',
    );
    expect(await producers()).toBe(0);

    host.s.fire(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest', { user_ids: [vic.p.id] });
    await vic.s.push(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest');
    expect(await camera(vic.s, send)).toBe(
      'Only the stage publishes: the preset webinar_speaker may produce video once on the stage, and this participant is ACCEPTED_TO_JOIN_STAGE',
    );
    await vic.s.request(ROOM.joinStage, null, {}, 'socket.room.PeerStatusUpdate');
    const producerId = await camera(vic.s, send);
    expect(await producers()).toBe(1);
    expect((await host.s.push(MEDIA.peerProducerCreateBroadcast, 'media.edge.PeerProducerCreateBroadcastResponse')).participant_id).toBe('peer-vic');

    // Removed from the stage, the page pauses its camera (the SDK does so as it leaves); a resume is refused.
    await host.s.request(ROOM.leaveStage, 'socket.livestreaming.LeaveStageRequest', { user_ids: [vic.p.id] }, null);
    vic.s.fire(MEDIA.toggleProducer, 'media.edge.ProducerToggleRequest', { producer_id: producerId, pause: true });
    await host.s.push(MEDIA.peerProducerToggleBroadcast, 'media.edge.PeerProducerToggleBroadcastResponse');
    expect(await vic.s.errorReply(vic.s.fire(MEDIA.toggleProducer, 'media.edge.ProducerToggleRequest', { producer_id: producerId, pause: false }))).toBe(
      'Only the stage publishes: the preset webinar_speaker may produce video once on the stage, and this participant is OFF_STAGE',
    );
    expect(host.s.frames.filter((f) => f.event === MEDIA.peerProducerToggleBroadcast)).toHaveLength(1);
  });
});

describe('the control API', () => {
  it('a scripted viewer asks, a host page lets it on, it joins and publishes its clip; a host bot removes it and its clip stops', async () => {
    const m = await webinar();
    const host = await page(m, 'Hana', 'webinar_presenter');
    const bob = await addPerson(emu, m, 'Bob', 'webinar_presenter');
    const vic = await addPerson(emu, m, 'Vic', SPEAKER);
    await control('POST', `/_emulator/meetings/${m}/participants/${bob.id}/join`);
    await control('POST', `/_emulator/meetings/${m}/participants/${vic.id}/join`);
    const media = `/_emulator/meetings/${m}/participants/${vic.id}/media`;
    expect(await control('POST', media, { video: true })).toEqual({
      status: 409,
      body: {
        error: {
          code: 'CONFLICT',
          message: 'Only the stage publishes: the preset webinar_speaker may produce video once on the stage, and this participant is OFF_STAGE',
        },
      },
    });

    const stage = `/_emulator/meetings/${m}/participants/${vic.id}/stage`;
    expect((await control('POST', stage, { action: 'request' })).body).toMatchObject({
      participants: [
        { name: 'Hana', status: 'ON_STAGE' },
        { name: 'Bob', status: 'ON_STAGE' },
        { name: 'Vic', status: 'REQUESTED_TO_JOIN_STAGE' },
      ],
    });
    // A scripted participant's peer id is its participant id.
    expect(await requests(host.s, [vic.id])).toEqual([{ display_name: 'Vic', user_id: vic.id, peer_id: vic.id }]);
    host.s.fire(ROOM.grantStageAccess, 'socket.livestreaming.GrantStageAccessRequest', { user_ids: [vic.id] });
    await update(host.s, vic.id, APPROVED);
    expect((await control('POST', stage, { action: 'join' })).status).toBe(200);
    await update(host.s, vic.id, ON);
    expect(await control('POST', media, { video: true })).toEqual({ status: 200, body: { audio: false, video: true } });
    await host.s.push(MEDIA.peerProducerCreateBroadcast, 'media.edge.PeerProducerCreateBroadcastResponse', (b) => b.participant_id === vic.id);

    const refused = await control('POST', `/_emulator/meetings/${m}/participants/${vic.id}/stage`, { action: 'kick', participant_ids: [bob.id] });
    expect(refused.status).toBe(403);
    expect((await control('POST', `/_emulator/meetings/${m}/participants/${bob.id}/stage`, { action: 'kick' })).status).toBe(400);
    expect((await control('POST', `/_emulator/meetings/${m}/participants/${bob.id}/stage`, { action: 'kick', participant_ids: [vic.id] })).body).toMatchObject({
      participants: [
        { name: 'Hana', status: 'ON_STAGE' },
        { name: 'Bob', status: 'ON_STAGE' },
        { name: 'Vic', status: 'OFF_STAGE' },
      ],
    });
    await update(host.s, vic.id, OFF);
    const paused = await host.s.push(MEDIA.peerProducerToggleBroadcast, 'media.edge.PeerProducerToggleBroadcastResponse', (b) => b.participant_id === vic.id);
    expect(paused.producer_state).toMatchObject({ pause: true });
  });
});
