// What a host does to others from their page: remove one participant, end the meeting for all,
// turn someone's (or everyone's) microphone or camera off, pin a participant for everyone. Each
// control is checked against the host's preset, as production refuses a page whose preset lacks
// the permission, and lands in the same domain call as its REST twin (kick, kick-all, mute,
// mute-all), so that the REST API, webhooks, the dashboard and every page agree. A pin has no
// REST twin: the room keeps it, tells every page, and gives it to pages that join later.
import type { DomainEvent, MuteKind } from '../../domain/events.js';
import type { PresetPermissions } from '../../domain/presets/preset-document.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';

const { room: ROOM, cfMedia: MEDIA } = SDK_EVENTS;

/** The answer the SDK needs to a host's media control ("success", or it reports that the control failed). */
const SUCCESS = { status: 'success' };

type HostPermission = 'kick_participant' | 'pin_participant' | 'disable_participant_audio' | 'disable_participant_video';

export class HostControlsFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [ROOM.kick, (p, _id, b) => this.kick(p, b)],
    [ROOM.kickAll, (p, id, b) => this.kickAll(p, id, b)],
    [MEDIA.hostControlPeer, (p, id, b) => this.controlPeer(p, id, b)],
    [MEDIA.hostControlAllPeers, (p, id, b) => this.controlAll(p, id, b)],
    [MEDIA.globalPinPeer, (p, id, b) => this.pin(p, id, b)],
  ];

  /** Meeting id → the peer pinned for everyone, and the organization (for its reset). */
  private readonly pins = new Map<string, { peerId: string; orgId: string }>();
  private readonly pinListeners: Array<(meetingId: string) => void> = [];

  constructor(private readonly state: RoomState) {}

  /** The peers pinned for everyone in a meeting (none or one), for a page that joins. */
  pinnedIn(meetingId: string): string[] {
    const pin = this.pins.get(meetingId);
    return pin ? [pin.peerId] : [];
  }

  onDomainEvent(e: DomainEvent): void {
    if (e.type === 'meeting.ended') this.pins.delete(e.meeting.id);
  }

  /** A pinned peer who leaves is unpinned for everyone. */
  onPeerLeft(meetingId: string, peerId: string): void {
    if (this.pins.get(meetingId)?.peerId !== peerId) return;
    this.pins.delete(meetingId);
    this.tellPin(meetingId, '');
  }

  onRoomEmpty(meetingId: string): void {
    this.pins.delete(meetingId);
  }

  onOrgReset(orgId: string): void {
    for (const [meetingId, pin] of this.pins) if (pin.orgId === orgId) this.pins.delete(meetingId);
  }

  onReset(): void {
    this.pins.clear();
  }

  // --- remove one, end for all ----------------------------------------------------------------

  /**
   * Removes participants (the SDK's participant.kick()): a leave like the REST kick, so that the
   * removed page hears it was kicked and everyone else sees them go. Production answers nothing (the
   * SDK sends the request twice, over its two clients, and never reads an answer); an answer on
   * this event would reach the host's own page as its own removal, so none is sent. The second
   * request names someone already gone, and gets the error reply nobody waits for.
   */
  private kick(peer: Peer, payload: Uint8Array): void {
    const { peer_ids: peerIds } = decodeAs<{ peer_ids: string[] }>('socket.room.RemoveParticipantsRequest', payload);
    this.allow(peer, 'kick_participant', 'remove participants');
    if (peerIds.length === 0) throw new Unserved('A removal names at least one peer');
    const participantIds = [...new Set(peerIds.map((id) => this.participantIdOf(peer, id)))];
    const meeting = this.state.meeting(peer.meetingId);
    this.state.deps.sessions.kick(meeting.orgId, meeting.id, { participantIds, customParticipantIds: [] });
  }

  /**
   * Ends the meeting for everyone (the SDK's participants.kickAll()), as the REST kick-all does:
   * every page ends as the host ending the meeting makes it end, the host's own included, whose
   * ending is the answer to this request.
   */
  private kickAll(peer: Peer, id: string, payload: Uint8Array): void {
    decodeAs<{ propagate_kick_across_rooms: boolean }>('media.edge.KickAllPeersRequest', payload);
    this.allow(peer, 'kick_participant', 'end the meeting for everyone');
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () => this.state.deps.sessions.kickAll(meeting.orgId, meeting.id));
  }

  // --- microphones and cameras ------------------------------------------------------------------

  /** Turns one participant's microphone or camera off (participant.disableAudio() / disableVideo()). */
  private controlPeer(peer: Peer, id: string, payload: Uint8Array): void {
    const request = decodeAs<{ participant_id: string; audio: boolean; video: boolean; scree_share: boolean }>(
      'media.edge.HostMediaControlForPeerRequest',
      payload,
    );
    const kind = this.kindOf(request.audio, request.video, request.scree_share);
    this.allow(peer, kind === 'audio' ? 'disable_participant_audio' : 'disable_participant_video', `turn others' ${kindName(kind)} off`);
    const participantId = this.participantIdOf(peer, request.participant_id);
    if (participantId === peer.participantId) throw new Unserved(`Turn your own ${kindName(kind)} off with your own controls, not a host's`);
    const meeting = this.state.meeting(peer.meetingId);
    this.state.deps.history.mute(meeting.orgId, meeting.id, { participantIds: [participantId], customParticipantIds: [] }, { kind, by: peer.participantId });
    peer.send(MEDIA.hostControlPeer, id, 'media.edge.HostMediaControlForPeerResponse', SUCCESS);
  }

  /** Turns everyone else's microphones or cameras off (participants.disableAllAudio() / disableAllVideo()). */
  private controlAll(peer: Peer, id: string, payload: Uint8Array): void {
    const request = decodeAs<{ audio: boolean; video: boolean; screen_share: boolean }>('media.edge.HostMediaControlForAllPeerRequest', payload);
    const kind = this.kindOf(request.audio, request.video, request.screen_share);
    this.allow(peer, kind === 'audio' ? 'disable_participant_audio' : 'disable_participant_video', `turn others' ${kindName(kind)} off`);
    const meeting = this.state.meeting(peer.meetingId);
    // The SDK sends no allow-unmute choice in this mode: everyone may turn theirs on again.
    this.state.deps.history.muteAll(meeting.orgId, meeting.id, true, { kind, by: peer.participantId });
    peer.send(MEDIA.hostControlAllPeers, id, 'media.edge.HostMediaControlForAllPeerResponse', SUCCESS);
  }

  private kindOf(audio: boolean, video: boolean, screenShare: boolean): MuteKind {
    if (screenShare) throw new Unserved("A host cannot stop another participant's screen share");
    if (audio === video) throw new Unserved('A host control turns off either the microphone or the camera');
    return audio ? 'audio' : 'video';
  }

  // --- pin --------------------------------------------------------------------------------------

  /** Pins a participant for everyone (participant.pin()), or unpins (an empty id: participant.unpin()). */
  private pin(peer: Peer, id: string, payload: Uint8Array): void {
    const { participant_id: target } = decodeAs<{ participant_id: string }>('media.edge.GlobalPeerPinningRequest', payload);
    this.allow(peer, 'pin_participant', 'pin participants');
    if (!peer.mediaJoined) throw new Unserved('Join the meeting before pinning');
    if (target === '') this.pins.delete(peer.meetingId);
    else {
      this.participantIdOf(peer, target);
      this.pins.set(peer.meetingId, { peerId: target, orgId: peer.claims.orgId });
    }
    peer.send(MEDIA.globalPinPeer, id, 'media.edge.GlobalPeerPinningResponse', {});
    // The page that pinned learns it from the broadcast too, as every page does.
    this.tellPin(peer.meetingId, target);
  }

  /** `listener` hears of every meeting whose pin changed. */
  onPinChanged(listener: (meetingId: string) => void): void {
    this.pinListeners.push(listener);
  }

  private tellPin(meetingId: string, peerId: string): void {
    for (const listener of this.pinListeners) listener(meetingId);
    for (const page of this.state.pages(meetingId))
      if (page.mediaJoined && !page.gone)
        page.send(MEDIA.globalPeerPinBroadcast, this.state.newId(), 'media.edge.GlobalPeerPinningBroadcastResponse', { participant_id: peerId });
  }

  // --- who may, and whom ------------------------------------------------------------------------

  /** Refuses a page whose preset lacks the host permission, naming the preset and the permission. */
  private allow(peer: Peer, permission: HostPermission, what: string): void {
    if (!peer.roomJoined) throw new Unserved(`Join the meeting before you ${what}`);
    const preset = this.state.deps.participants.presetById(peer.claims.orgId, this.state.participantOf(peer).presetId);
    const permissions: Pick<PresetPermissions, HostPermission> | undefined = preset?.permissions;
    if (!permissions?.[permission]) throw new Unserved(`The preset ${preset?.name ?? '(none)'} may not ${what} (permissions.${permission} is false)`);
  }

  /** The participant behind a peer id of the page's meeting (a page's peer id, or a scripted participant's). */
  private participantIdOf(peer: Peer, peerId: string): string {
    const found = this.state.present(peer.meetingId).find((o) => o.peerId === peerId);
    if (!found) throw new Unserved(`Peer ${peerId} is not in this meeting`);
    return found.sdk?.participantId ?? found.peerId;
  }
}

function kindName(kind: MuteKind): string {
  return kind === 'audio' ? 'microphone' : 'camera';
}
