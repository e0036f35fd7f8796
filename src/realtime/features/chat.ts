// The meeting's chat as the pages see it: the session's messages, and each new one told to every
// page, whether a page, a scripted participant or the REST API sent it.
import type { DomainEvent } from '../../domain/events.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { CHAT_TEXT, chatView } from '../room-views.js';

const { chat: CHAT } = SDK_EVENTS;

export class ChatFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [CHAT.getMessages, (p, id) => p.send(CHAT.getMessages, id, 'socket.chat.GetChatMessagesResponse', { messages: this.messagesOf(p) })],
    [
      CHAT.getPaginatedMessages,
      (p, id) => p.send(CHAT.getPaginatedMessages, id, 'socket.chat.GetPaginatedChatMessageRoomResponse', { messages: this.messagesOf(p), next: false }),
    ],
    [CHAT.sendMessageToRoom, (p, id, b) => this.send(p, id, b)],
  ];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'chat.sent') return;
    const { message } = e;
    const sender = this.state.acting?.peer.participantId === message.participantId ? this.state.acting.peer : undefined;
    const view = chatView({
      chatId: message.id,
      peerId: sender?.peerId ?? this.state.peerIdOf(e.meeting.id, message.participantId),
      userId: message.participantId,
      name: message.displayName,
      text: message.payload,
      at: message.createdAt,
    });
    this.state.tell(e.meeting.id, CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse', { message: view });
  }

  private send(peer: Peer, id: string, payload: Uint8Array): void {
    const { payload_type, payload: text } = decodeAs<{ payload_type: number; payload: string }>('socket.chat.SendChatMessageToRoomRequest', payload);
    if (payload_type !== CHAT_TEXT) throw new Unserved('Only text chat messages are emulated');
    if (!peer.roomJoined) throw new Unserved('Join the room before sending chat messages');
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () => this.state.deps.history.sendChat(meeting, peer.participantId, text));
  }

  private messagesOf(peer: Peer): ProtoObject[] {
    const meeting = this.state.meeting(peer.meetingId);
    return (this.state.sessionOf(meeting)?.chat ?? []).map((m) =>
      chatView({
        chatId: m.id,
        peerId: this.state.peerIdOf(meeting.id, m.participantId),
        userId: m.participantId,
        name: m.displayName,
        text: m.payload,
        at: m.createdAt,
      }),
    );
  }
}
