// The waiting room as the pages see it. A page whose participant must wait (the meeting's
// `waiting_room`, the preset's `waiting_room_type`: domain/meetings/waiting-room.service.ts) hears
// its join answered with `waitlisted: true`, and the SDK shows its waiting state; the pages whose
// preset may accept waiting requests get the whole list whenever it changes (the SDK replaces its
// list with each one) and admit or reject by user id (participant id). An admitted page hears
// waitingRoomRequestAccepted and joins again, this time into the meeting; a rejected one hears
// waitingRoomRequestDenied and the SDK ends its join with the state `rejected`.
//
// A rejected page's socket stays open: RealtimeKit leaves it to the page (its "rejected" screen
// would turn into "disconnected" if the emulator closed it), and the page is in no room.
import type { DomainEvent } from '../../domain/events.js';
import type { Participant } from '../../domain/models.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';

const { room: ROOM } = SDK_EVENTS;

export class WaitingRoomFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [ROOM.getWaitingRoomRequests, (p, id) => this.requests(p, id)],
    [ROOM.acceptWaitingRoomRequests, (p, _id, b) => this.decide(p, b, 'admit')],
    [ROOM.denyWaitingRoomRequests, (p, _id, b) => this.decide(p, b, 'reject')],
  ];

  /** The pages that wait (their join was answered `waitlisted`). */
  private readonly waiting = new Set<Peer>();
  /** Admitted pages, until they are gone: one gone before it joined gives its pass back. */
  private readonly admitted = new Set<Peer>();

  constructor(private readonly state: RoomState) {}

  /** A page's join put it in the waiting room: it hears so as the answer to its join. */
  waits(peer: Peer, id: string): void {
    for (const p of this.waiting) if (p.gone && p.peerId === peer.peerId) this.waiting.delete(p);
    this.waiting.add(peer);
    peer.send(ROOM.joinRoom, id, 'socket.room.PeerInfoResponse', {
      peer: { ...this.state.view(this.state.participantOf(peer), peer.peerId), waitlisted: true },
    });
  }

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'waitingRoom.changed') return;
    const mine = [...this.waiting].filter((p) => p.meetingId === e.meeting.id && p.participantId === e.participant.id);
    if (e.change === 'admitted' || e.change === 'rejected') {
      for (const page of mine) {
        this.waiting.delete(page);
        if (e.change === 'admitted' && !page.gone) this.admitted.add(page);
        if (!page.gone) page.send(e.change === 'admitted' ? ROOM.waitingRoomRequestAccepted : ROOM.waitingRoomRequestDenied, this.state.newId(), null);
      }
    } else if (e.change === 'left') {
      for (const page of mine) this.waiting.delete(page);
    }
    this.tellHosts(e.meeting.id);
  }

  /** A waiting page is gone: its participant stops waiting when it was their last waiting page. */
  onPeerGone(peer: Peer): void {
    if (this.admitted.delete(peer)) {
      const another = [...this.admitted].some((p) => p.meetingId === peer.meetingId && p.participantId === peer.participantId && !p.gone);
      if (!peer.roomJoined && !another) this.state.deps.waitingRoom.dropPass(peer.meetingId, peer.participantId);
    }
    if (!this.waiting.delete(peer)) return;
    const others = [...this.waiting].some((p) => p.meetingId === peer.meetingId && p.participantId === peer.participantId && !p.gone);
    if (others) return;
    try {
      this.state.deps.waitingRoom.leave(peer.meetingId, peer.participantId);
    } catch (err) {
      this.state.deps.logger.info({ err: (err as Error).message, peer: peer.peerId }, 'SDK peer could not leave the waiting room');
    }
  }

  onOrgReset(orgId: string): void {
    for (const p of this.waiting) if (p.claims.orgId === orgId) this.waiting.delete(p);
    for (const p of this.admitted) if (p.claims.orgId === orgId) this.admitted.delete(p);
  }

  onReset(): void {
    this.waiting.clear();
    this.admitted.clear();
  }

  // --- what a host's page asks ----------------------------------------------------------------

  /** The waiting list (the SDK asks when it joins with the permission, and reads every push of it the same way). */
  private requests(peer: Peer, id: string): void {
    this.mayAdmit(peer, 'see the waiting room');
    peer.send(ROOM.getWaitingRoomRequests, id, 'socket.room.GetWaitingRoomRequests', this.list(peer.meetingId));
  }

  /** Admits or rejects by user id (the participant id); the SDK waits for no answer. */
  private decide(peer: Peer, payload: Uint8Array, verb: 'admit' | 'reject'): void {
    const type = verb === 'admit' ? 'socket.room.AcceptWaitingRoomRequests' : 'socket.room.DenyWaitingRoomRequests';
    const { user_ids: userIds } = decodeAs<{ user_ids: string[] }>(type, payload);
    this.mayAdmit(peer, `${verb} waiting participants`);
    const { waitingRoom } = this.state.deps;
    if (verb === 'admit') waitingRoom.admit(peer.meetingId, userIds, peer.participantId);
    else waitingRoom.reject(peer.meetingId, userIds, peer.participantId);
  }

  private mayAdmit(peer: Peer, what: string): void {
    if (!peer.roomJoined) throw new Unserved(`Join the meeting before you ${what}`);
    const participant = this.state.participantOf(peer);
    if (!this.state.deps.waitingRoom.mayAdmit(this.state.meeting(peer.meetingId), participant)) {
      const preset = this.state.deps.participants.presetById(peer.claims.orgId, participant.presetId);
      throw new Unserved(`The preset ${preset?.name ?? '(none)'} may not ${what} (permissions.accept_waiting_requests is false)`);
    }
  }

  // --- what the hosts are told ------------------------------------------------------------------

  /** The whole list, to every joined page that may admit (the SDK adds and drops to match it). */
  private tellHosts(meetingId: string): void {
    let body: ProtoObject | undefined;
    const meeting = this.state.meeting(meetingId);
    for (const page of this.state.pages(meetingId)) {
      if (!page.roomJoined || page.gone) continue;
      const participant = this.state.deps.participants.find(page.claims.orgId, page.participantId);
      if (!participant || !this.state.deps.waitingRoom.mayAdmit(meeting, participant)) continue;
      body ??= this.list(meetingId);
      page.send(ROOM.getWaitingRoomRequests, this.state.newId(), 'socket.room.GetWaitingRoomRequests', body);
    }
  }

  private list(meetingId: string): ProtoObject {
    return { requests: this.state.deps.waitingRoom.list(meetingId).map((w) => this.request(meetingId, w.participant)) };
  }

  /**
   * One who waits, under the peer id of their (first) waiting page, or their participant id when
   * scripted. A page whose join is being served is told it waits after the hosts are.
   */
  private request(meetingId: string, participant: Participant): ProtoObject {
    const joining = this.state.acting?.peer;
    const page =
      [...this.waiting].find((p) => p.meetingId === meetingId && p.participantId === participant.id && !p.gone) ??
      (joining?.meetingId === meetingId && joining.participantId === participant.id ? joining : undefined);
    return {
      peer_id: page?.peerId ?? participant.id,
      user_id: participant.id,
      display_name: participant.name ?? 'Participant',
      ...(participant.picture ? { picture: participant.picture } : {}),
      custom_participant_id: participant.customParticipantId,
      preset_name: participant.presetName,
    };
  }
}
