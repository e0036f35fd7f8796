// Who is in the meeting, as every page sees it: joining and leaving the socket room, the peers'
// views, and the announcements of every join and leave, whoever caused them.
//
// There is one presence model. A page that joins calls the same sessions service a scripted
// join does (the session opens, meeting.started, participantJoined, record_on_start, …) and a
// page that leaves or closes its socket leaves through it. The rooms learn every join and leave
// from the domain's events, whoever caused them, so a scripted participant appears in every page
// and a REST kick reaches the page it removes.
//
// Peer ids: a page names itself (the SDK's peerID); a scripted participant's peer id is its
// participant id, as in the REST session history.
import type { DomainEvent } from '../../domain/events.js';
import type { Participant } from '../../domain/models.js';
import { CLOSE, type Peer } from '../peer.js';
import { decode, decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import type { RoomControls } from '../dispatch.js';
import type { WaitingRoomFeature } from './waiting-room.js';
import { BROWSER_RECORDING } from '../room-views.js';

const { room: ROOM, cfMedia: MEDIA } = SDK_EVENTS;

/** How long a removed page gets to hear why and leave by itself before its socket is closed (real ms). */
const REMOVAL_GRACE_MS = 1_000;

export class PresenceFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [ROOM.joinRoom, (p, id, b) => this.joinRoom(p, id, b)],
    [ROOM.getRoomInfo, (p, id) => p.send(ROOM.getRoomInfo, id, 'socket.room.RoomInfoResponse', { room: this.roomView(p.meetingId) })],
    [ROOM.getRoomPeersInfo, (p, id, b) => this.roomPeers(p, id, b)],
    [ROOM.getPeerInfo, (p, id, b) => this.peerInfo(p, id, b)],
    [ROOM.leaveRoom, (p, id) => this.leave(p, id, ROOM.leaveRoom, null)],
    [MEDIA.leaveRoom, (p, id) => this.leave(p, id, MEDIA.leaveRoom, 'media.edge.PeerLeaveResponse')],
  ];

  constructor(
    private readonly state: RoomState,
    private readonly controls: Pick<RoomControls, 'dropPage' | 'peerLeft'>,
    private readonly waitingRoom: Pick<WaitingRoomFeature, 'waits'>,
  ) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type === 'participant.joined')
      this.announceJoin(e.participant, this.state.acting?.peer.participantId === e.participant.id ? this.state.acting.peer : null);
    else if (e.type === 'participant.left') this.onLeft(e.participant, e.cause);
  }

  onPeerGone(peer: Peer, depart: boolean): void {
    if (depart) this.depart(peer);
  }

  // --- what a page asks -----------------------------------------------------------------------

  private joinRoom(peer: Peer, id: string, payload: Uint8Array): void {
    // Read to refuse a malformed request; the peer's name and ids are the participant's own.
    decode('socket.room.JoinRoomRequest', payload);
    const participant = this.state.participantOf(peer);
    if (peer.roomJoined) return peer.send(ROOM.joinRoom, id, 'socket.room.PeerInfoResponse', { peer: this.state.view(participant, peer.peerId) });
    peer.roomJoined = true;
    let waits = false;
    try {
      this.state.actingFor(peer, id, () => {
        // A join may end in the meeting's waiting room (waiting-room.ts answers it then).
        if (participant.joinedAt === null) waits = this.state.deps.waitingRoom.enter(peer.meetingId, peer.participantId, 'page') === 'waiting';
        else this.announceJoin(participant, peer);
      });
    } catch (err) {
      peer.roomJoined = false;
      throw err;
    }
    if (waits) {
      peer.roomJoined = false;
      return this.waitingRoom.waits(peer, id);
    }
    peer.send(ROOM.joinRoom, id, 'socket.room.PeerInfoResponse', { peer: this.state.view(this.state.participantOf(peer), peer.peerId) });
  }

  private leave(peer: Peer, id: string, event: number, answer: string | null): void {
    // `closed` says the media room itself closed; the SDK finds it odd when a peer's own leave says so.
    peer.send(event, id, answer, answer ? { closed: false } : {});
    this.depart(peer);
  }

  /** Everyone else present; a page of them when the SDK asks by limit and offset, filtered by a name search when it gives one. */
  private roomPeers(peer: Peer, id: string, payload: Uint8Array): void {
    const {
      seach_query: search,
      limit,
      offset,
    } = decodeAs<{ seach_query: string; limit: number; offset: number }>('socket.room.RoomPeersInfoRequest', payload);
    const needle = search.trim().toLowerCase();
    // A page not in the meeting (waiting, rejected) sees nobody in it.
    const all = (peer.roomJoined ? this.state.others(peer) : []).filter((o) => needle === '' || o.peer.display_name.toLowerCase().includes(needle));
    const from = Math.max(0, offset);
    const page = limit > 0 ? all.slice(from, from + limit) : all.slice(from);
    peer.send(ROOM.getRoomPeersInfo, id, 'socket.room.RoomPeersInfoResponse', { peers: page.map((o) => o.peer) });
  }

  private peerInfo(peer: Peer, id: string, payload: Uint8Array): void {
    const { peer_id } = decodeAs<{ peer_id: string }>('socket.room.GetPeerInfoRequest', payload);
    const found = peer.roomJoined ? this.state.present(peer.meetingId).find((o) => o.peerId === peer_id) : undefined;
    peer.send(ROOM.getPeerInfo, id, 'socket.room.PeerInfoResponse', found ? { peer: found.peer } : {});
  }

  private roomView(meetingId: string): ProtoObject {
    const meeting = this.state.meeting(meetingId);
    const live = meeting.session !== null && meeting.session.endedAt === null;
    return {
      room_id: meeting.id,
      title: meeting.title ?? '',
      // Seconds (the SDK multiplies by 1000): the start of the LIVE session, which the meeting
      // timer counts up from; the meeting's creation when no session is live.
      created_at: Math.floor((live ? meeting.session!.startedAt : meeting.createdAt) / 1000),
      active_recordings: this.state.deps.recordings
        .forMeetingWithStatus(meeting.orgId, meeting.id, ['RECORDING', 'PAUSED'])
        .map((r) => ({ recording_id: r.id, recording_type: BROWSER_RECORDING, recording_status: r.status })),
      ...(live ? { room_uuid: meeting.session!.id } : {}),
    };
  }

  // --- what the meeting tells every page -------------------------------------------------------

  /** Tells every joined page but the newcomer that a participant is in the socket room (the media room tells its own). */
  private announceJoin(participant: Participant, sdkPeer: Peer | null): void {
    const view = this.state.view(participant, sdkPeer?.peerId ?? participant.id);
    for (const other of this.state.pages(participant.meetingId)) {
      if (other === sdkPeer || !other.roomJoined || other.gone) continue;
      other.send(ROOM.joinRoom, this.state.newId(), 'socket.room.PeerInfoResponse', { peer: view });
    }
  }

  private onLeft(participant: Participant, cause: string): void {
    // The page leaving by itself (depart) is no longer joined; any other page of the
    // participant was removed by someone else (a kick, kick-all, a deletion, a scripted leave).
    const departing = this.state.departing?.participantId === participant.id ? this.state.departing : null;
    const removed = [...this.state.pages(participant.meetingId)].filter((p) => p.participantId === participant.id && p.roomJoined);
    for (const peer of removed) {
      peer.roomJoined = false;
      peer.mediaJoined = false;
      // The page hears why, then its socket closes (unless it leaves first).
      // The host's own page, ending the meeting for all, hears its ending as the answer to its request.
      const id = peer === this.state.acting?.peer ? this.state.acting.id : this.state.newId();
      peer.send(cause === 'ended' ? ROOM.kickAll : ROOM.kick, id, 'socket.room.PeerInfoResponse', {
        peer: this.state.view(participant, peer.peerId),
      });
      peer.gone = true;
      setTimeout(
        () => this.controls.dropPage(peer, CLOSE.removed, cause === 'ended' ? 'The host ended the meeting' : 'Removed from the meeting'),
        REMOVAL_GRACE_MS,
      ).unref();
    }
    const peerIds = [...(departing ? [departing.peerId] : []), ...removed.map((p) => p.peerId)];
    for (const peerId of peerIds.length > 0 ? peerIds : [participant.id]) this.announceLeave(participant, peerId);
  }

  /** Tells every joined page that a peer left the socket room, then every feature (the media room tells its own). */
  private announceLeave(participant: Participant, peerId: string): void {
    const view = this.state.view(participant, peerId);
    for (const other of this.state.pages(participant.meetingId)) {
      if (!other.roomJoined || other.gone) continue;
      other.send(ROOM.leaveRoom, this.state.newId(), 'socket.room.PeerInfoResponse', { peer: view });
    }
    this.controls.peerLeft(participant.meetingId, peerId);
  }

  // --- the domain side of a page --------------------------------------------------------------

  /** A page leaves: the participant leaves the meeting when it was their last page in it. */
  private depart(peer: Peer): void {
    if (!peer.roomJoined) return;
    peer.roomJoined = false;
    peer.mediaJoined = false;
    const participant = this.state.deps.participants.find(peer.claims.orgId, peer.participantId);
    if (!participant) return;
    const stillIn = [...this.state.pages(peer.meetingId)].some((p) => p !== peer && p.participantId === peer.participantId && p.roomJoined);
    this.state.departing = peer;
    try {
      if (participant.joinedAt !== null && !stillIn) this.state.deps.sessions.leave(peer.meetingId, peer.participantId);
      else this.announceLeave(participant, peer.peerId);
    } catch (err) {
      this.state.deps.logger.info({ err: (err as Error).message, peer: peer.peerId }, 'SDK peer could not leave the meeting');
    } finally {
      this.state.departing = undefined;
    }
  }
}
