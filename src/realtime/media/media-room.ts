// The media room of the SDK's Cloudflare-SFU mode: the page's WebRTC transports, its join of the
// media room, and who else is in it.
import { Unserved, type Peer } from '../peer.js';
import { decodeAs } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { mediaView, peerView } from '../room-views.js';
import { MediaTransports } from './transports.js';

const { cfMedia: MEDIA } = SDK_EVENTS;

export class MediaRoomFeature implements RoomFeature {
  private readonly transports = new MediaTransports();
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [MEDIA.joinRoom, (p, id) => p.send(MEDIA.joinRoom, id, 'media.edge.PeerJoinResponse')],
    [MEDIA.createWebRTCTransport, (p, id, b) => this.createTransport(p, id, b)],
    [MEDIA.selfJoinComplete, (p, id) => this.selfJoinComplete(p, id)],
    [MEDIA.produce, () => Promise.reject(new Unserved('The emulator carries no audio or video: producing media is not emulated'))],
  ];

  constructor(private readonly state: RoomState) {}

  /** How many WebRTC endpoints are open. */
  get openEndpoints(): number {
    return this.transports.size;
  }

  onPeerGone(peer: Peer): void {
    for (const t of peer.transports) this.transports.close(t);
    peer.transports.clear();
  }

  onReset(): void {
    this.transports.closeAll();
  }

  private async createTransport(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    const request = decodeAs<{ consuming: boolean; description?: { sdp?: string; target?: number } }>('media.CreateTransportRequest', payload);
    const offer = request.description?.sdp;
    if (!offer) throw new Unserved('A transport needs an SDP offer');
    const transportId = this.state.newId();
    peer.transports.add(transportId);
    let answer;
    try {
      answer = await this.transports.answer(transportId, offer);
    } catch (err) {
      peer.transports.delete(transportId);
      throw new Unserved(`The SDP offer could not be answered (${(err as Error).message})`);
    }
    if (peer.gone) return this.transports.close(transportId);
    peer.send(MEDIA.createWebRTCTransport, id, 'media.CreateTransportResponse', {
      transport_id: transportId,
      description: { type: 'answer', sdp: answer.sdp, target: request.description?.target ?? 0 },
      producer_ids: [],
    });
  }

  private selfJoinComplete(peer: Peer, id: string): void {
    const meeting = this.state.meeting(peer.meetingId);
    const others = this.state.others(peer).filter((o) => o.sdk === null || o.sdk.mediaJoined);
    peer.mediaJoined = true;
    peer.send(MEDIA.selfJoinComplete, id, 'media.edge.PeerJoinCompleteResponse', {
      room_state: {
        display_title: meeting.title ?? '',
        locked_mode: false,
        room_uuid: meeting.session?.id ?? '',
        room_name: meeting.id,
        current_peer_id: peer.peerId,
        pinned_peer_ids: [],
      },
      participants: others.map((o) => mediaView(o.peer)),
      selected_peers: { audio_peers: [], compulsory_peers: [] },
      max_preferred_streams: 0,
    });
    const self = peerView(this.state.participantOf(peer), peer.peerId);
    for (const other of this.state.pages(peer.meetingId))
      if (other !== peer && other.mediaJoined)
        other.send(MEDIA.peerJoinedBroadcast, this.state.newId(), 'media.edge.PeerJoinBroadcastResponse', { participant: mediaView(self) });
  }
}
