// The stage as the pages see it (a webinar, a livestream, or any preset with stage_enabled): each
// peer's stage_type in the views, a viewer's request and its cancellation, a host's grant (also the
// SDK's invite), denial and removal ("kick from stage", which the SDK sends as a leaveStage naming
// others), the page's own join and leave, and the lists the SDK asks for. The moves are the
// domain's (domain/meetings/stage.service.ts); this module turns the SDK's requests into them and
// every move into what the pages expect:
// - everyone joined hears peerStageStatusUpdate for the peer that moved (the SDK's source of truth
//   for others; for itself it only mends a difference, joining or leaving the stage);
// - the one let on hears grantStageAccess, the one turned down denyStageAccess;
// - the pages that manage the stage get the list of requests whenever it changes.
// The SDK waits for the answer to its join and its own leave on peerStageStatusUpdate, and for a
// removal's on leaveStage; a request, a cancellation, a grant or a denial waits for none.
import type { DomainEvent } from '../../domain/events.js';
import type { StageStatus } from '../../domain/meetings/stage-rules.js';
import type { Participant } from '../../domain/models.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { STAGE_TYPE } from '../room-views.js';

const { room: ROOM } = SDK_EVENTS;

export class StageFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [ROOM.getStagePeers, (p, id) => this.stagePeers(p, id)],
    [ROOM.getStageRequests, (p, id) => this.requests(p, id)],
    [ROOM.getRoomStageState, (p, id) => this.roomStageState(p, id)],
    [ROOM.requestStageAccess, (p) => this.own(p, 'request')],
    [ROOM.cancelStageRequest, (p) => this.own(p, 'cancel')],
    [ROOM.grantStageAccess, (p, _id, b) => this.manage(p, b, 'grant', 'socket.livestreaming.GrantStageAccessRequest')],
    [ROOM.denyStageAccess, (p, _id, b) => this.manage(p, b, 'deny', 'socket.livestreaming.DenyStageAccessRequest')],
    [ROOM.joinStage, (p, id) => this.joinOrLeave(p, id, 'join')],
    [ROOM.leaveStage, (p, id, b) => this.leave(p, id, b)],
  ];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'stage.changed') return;
    const meetingId = e.meeting.id;
    const theirs = [...this.state.pages(meetingId)].filter((p) => p.participantId === e.participant.id && p.roomJoined && !p.gone);
    if (e.action === 'grant' || e.action === 'deny')
      for (const page of theirs) page.send(e.action === 'grant' ? ROOM.grantStageAccess : ROOM.denyStageAccess, this.state.newId(), null);
    const peerIds = theirs.length > 0 ? theirs.map((p) => p.peerId) : [e.participant.id];
    for (const page of this.state.pages(meetingId)) {
      if (!page.roomJoined || page.gone) continue;
      for (const peerId of peerIds) {
        // A page's own join or leave hears its answer: the update about itself, on its request's id.
        const answer = page === this.state.acting?.peer && peerId === page.peerId;
        page.send(ROOM.peerStageStatusUpdate, answer ? this.state.acting!.id : this.state.newId(), 'socket.room.PeerStatusUpdate', {
          peer_id: peerId,
          user_id: e.participant.id,
          stage_type: STAGE_TYPE[e.status],
        });
      }
    }
    if (e.status === 'REQUESTED_TO_JOIN_STAGE' || e.previous === 'REQUESTED_TO_JOIN_STAGE') this.tellManagers(meetingId);
  }

  // --- a participant's own moves ----------------------------------------------------------------

  private own(peer: Peer, action: 'request' | 'cancel'): void {
    this.joined(peer, 'move on the stage');
    this.state.deps.stage.own(peer.meetingId, peer.participantId, action);
  }

  /** The page's own join or leave: answered with its stage status, whether it moved or already stood there. */
  private joinOrLeave(peer: Peer, id: string, action: 'join' | 'leave'): void {
    this.joined(peer, `${action} the stage`);
    const before = this.statusOf(peer);
    const after = this.state.actingFor(peer, id, () => this.state.deps.stage.own(peer.meetingId, peer.participantId, action));
    if (before === after) this.answer(peer, id, after);
  }

  /** leaveStage: the page's own leave when it names only itself, else a removal of others from the stage. */
  private leave(peer: Peer, id: string, payload: Uint8Array): void {
    const { user_ids: userIds } = decodeAs<{ user_ids: string[] }>('socket.livestreaming.LeaveStageRequest', payload);
    if (userIds.length > 0 && userIds.every((u) => u === peer.participantId)) return this.joinOrLeave(peer, id, 'leave');
    this.manage(peer, payload, 'kick', 'socket.livestreaming.LeaveStageRequest');
    peer.send(ROOM.leaveStage, id, null);
  }

  // --- a host's moves on others -----------------------------------------------------------------

  /** Grants, denies or removes by user id (the participant id), all of them or none. */
  private manage(peer: Peer, payload: Uint8Array, action: 'grant' | 'deny' | 'kick', type: string): void {
    const { user_ids: userIds } = decodeAs<{ user_ids: string[] }>(type, payload);
    this.joined(peer, 'manage the stage');
    this.state.deps.stage.manage(peer.meetingId, peer.participantId, action, userIds);
  }

  // --- what a page asks -------------------------------------------------------------------------

  private stagePeers(peer: Peer, id: string): void {
    this.joined(peer, 'see the stage');
    peer.send(ROOM.getStagePeers, id, 'socket.livestreaming.GetStagePeersResponse', { stage_peers: this.peersWhere(peer.meetingId, 'ON_STAGE') });
  }

  private requests(peer: Peer, id: string): void {
    this.joined(peer, 'see the stage requests');
    const participant = this.state.participantOf(peer);
    if (!this.state.deps.stage.mayManage(this.state.meeting(peer.meetingId), participant)) {
      const preset = this.state.deps.participants.presetById(peer.claims.orgId, participant.presetId);
      throw new Unserved(`The preset ${preset?.name ?? '(none)'} may not see the stage requests (it does not manage the stage)`);
    }
    peer.send(ROOM.getStageRequests, id, 'socket.livestreaming.GetStageRequestsResponse', this.requestList(peer.meetingId));
  }

  private roomStageState(peer: Peer, id: string): void {
    this.joined(peer, 'see the stage');
    peer.send(ROOM.getRoomStageState, id, 'socket.room.GetRoomStageStateResponse', {
      on_stage_peers: this.peersWhere(peer.meetingId, 'ON_STAGE'),
      approved_stage_peers: this.peersWhere(peer.meetingId, 'ACCEPTED_TO_JOIN_STAGE'),
      requested_stage_peers: this.peersWhere(peer.meetingId, 'REQUESTED_TO_JOIN_STAGE'),
    });
  }

  // --- helpers ------------------------------------------------------------------------------------

  private joined(peer: Peer, what: string): void {
    if (!peer.roomJoined) throw new Unserved(`Join the meeting before you ${what}`);
  }

  private statusOf(peer: Peer): StageStatus {
    return this.state.deps.stage.statusOf(this.state.meeting(peer.meetingId), this.state.participantOf(peer));
  }

  private answer(peer: Peer, id: string, status: StageStatus): void {
    peer.send(ROOM.peerStageStatusUpdate, id, 'socket.room.PeerStatusUpdate', {
      peer_id: peer.peerId,
      user_id: peer.participantId,
      stage_type: STAGE_TYPE[status],
    });
  }

  /** The peer ids of everyone present who stands there. */
  private peersWhere(meetingId: string, status: StageStatus): string[] {
    return this.state
      .present(meetingId)
      .filter((o) => o.peer.stage_type === STAGE_TYPE[status])
      .map((o) => o.peerId);
  }

  private requestList(meetingId: string): ProtoObject {
    return {
      stage_requests: this.state
        .present(meetingId)
        .filter((o) => o.peer.stage_type === STAGE_TYPE.REQUESTED_TO_JOIN_STAGE)
        .map((o) => ({ display_name: o.peer.display_name, user_id: o.peer.user_id, peer_id: o.peerId })),
    };
  }

  /** The requests, to every joined page that manages the stage (the SDK shows them as they come). */
  private tellManagers(meetingId: string): void {
    const meeting = this.state.meeting(meetingId);
    let body: ProtoObject | undefined;
    for (const page of this.state.pages(meetingId)) {
      if (!page.roomJoined || page.gone) continue;
      const participant: Participant | undefined = this.state.deps.participants.find(page.claims.orgId, page.participantId);
      if (!participant || !this.state.deps.stage.mayManage(meeting, participant)) continue;
      body ??= this.requestList(meetingId);
      page.send(ROOM.getStageRequests, this.state.newId(), 'socket.livestreaming.GetStageRequestsResponse', body);
    }
  }
}
