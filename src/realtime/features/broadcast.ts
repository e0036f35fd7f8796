// A page's custom message to everyone in the meeting (the SDK's participants.broadcastMessage, and
// what the SDK itself sends when a screen share starts): every joined page hears it, the sender
// included, as production does when no target is named.
import { Unserved, type Peer } from '../peer.js';
import { decodeAs } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';

const { room: ROOM } = SDK_EVENTS;

export class BroadcastFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [[ROOM.broadcastMessage, (p, id, b) => this.broadcast(p, id, b)]];

  constructor(private readonly state: RoomState) {}

  private broadcast(peer: Peer, id: string, payload: Uint8Array): void {
    const message = decodeAs<{ type: string; payload: Uint8Array; timestamp: number }>('socket.room.BroadcastMessage', payload);
    if (!peer.roomJoined) throw new Unserved('Join the room before broadcasting');
    if (message.type === '') throw new Unserved('A broadcast message needs a type');
    this.state.actingFor(peer, id, () =>
      this.state.tell(peer.meetingId, ROOM.broadcastMessage, 'socket.room.BroadcastMessage', {
        type: message.type,
        payload: message.payload,
        timestamp: message.timestamp,
        ids: [],
      }),
    );
  }
}
