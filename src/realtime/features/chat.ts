// The meeting's chat as the pages see it: the session's messages each page may see (everyone's,
// the private ones it is part of, its channels'), sending to everyone, to some peers or to a
// channel (text, images, files, custom payloads), its sender's edits and deletes, pins, pages of
// the history and search. Every change is told to the pages that see the message, whether a page,
// a scripted participant or the REST API caused it. The rules are the session history's
// (domain/sessions/chat-rules.ts); this module speaks the SDK's protocol.
import type { DomainEvent } from '../../domain/events.js';
import type { Session, SessionChatMessage } from '../../domain/models.js';
import { CHAT_PAYLOAD_TYPES, sees, type ChatContent, type ChatPageQuery } from '../../domain/sessions/chat-rules.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { chatView } from '../room-views.js';

const { chat: CHAT } = SDK_EVENTS;

/** What socket.chat.GetMessages answers: the most recent messages, as production caps them. */
export const MAX_HISTORY_MESSAGES = 1000;

/** The SDK sends a message's payload type as its number; protobuf's default (0) is text. */
function contentOf(payloadType: number, payload: string): ChatContent {
  const type = CHAT_PAYLOAD_TYPES[payloadType];
  if (type === undefined) throw new Unserved(`Unknown chat payload_type ${payloadType}: 0 text, 1 image, 2 file, 3 custom`);
  return { type, payload };
}

/** An optional channel id as the SDKs send it: web-core sends an empty one for "no channel". */
const channelOf = (id: string | undefined): string | undefined => (id ? id : undefined);

interface PageRequest {
  time_stamp: number;
  size: number;
  from: number;
  reversed: boolean;
  channel_id?: string;
  filters?: { pinned?: boolean; user_id?: string };
  search_term?: string;
}

export class ChatFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [CHAT.getMessages, (p, id) => p.send(CHAT.getMessages, id, 'socket.chat.GetChatMessagesResponse', { messages: this.historyOf(p) })],
    [CHAT.getPaginatedMessages, (p, id, b) => this.page(p, id, b)],
    [CHAT.searchChannelMessages, (p, id, b) => this.search(p, id, b)],
    [CHAT.sendMessageToRoom, (p, id, b) => this.sendToRoom(p, id, b)],
    [CHAT.sendMessageToPeers, (p, id, b) => this.sendToPeers(p, id, b)],
    [CHAT.sendMessageToChannel, (p, id, b) => this.sendToChannel(p, id, b)],
    [CHAT.editMessage, (p, id, b) => this.edit(p, id, b)],
    [CHAT.deleteMessage, (p, id, b) => this.remove(p, id, b)],
    [CHAT.pinMessage, (p, id, b) => this.pin(p, id, b)],
  ];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'chat.sent' && e.type !== 'chat.updated') return;
    const m = e.message;
    const message = this.view(e.session.meetingId, m);
    const channel = m.channelId === null ? {} : { channel_id: m.channelId };
    if (e.type === 'chat.sent') {
      if (m.targets.length > 0) this.tellSeers(e.session, m, CHAT.sendMessageToPeers, 'socket.chat.SendChatMessageToPeersResponse', { message });
      // A channel's message comes as a room message with its channel: the SDK files it under the channel.
      else this.tellSeers(e.session, m, CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse', { message });
    } else if (e.change === 'edited') this.tellSeers(e.session, m, CHAT.editMessage, 'socket.chat.EditChatMessageResponse', { message });
    else if (e.change === 'pinned')
      this.tellSeers(e.session, m, CHAT.pinMessage, 'socket.chat.PinChatMessageResponse', { chat_id: m.id, pinned: m.pinned, ...channel, message });
    else this.tellSeers(e.session, m, CHAT.deleteMessage, 'socket.chat.DeleteChatMessageResponse', { chat_id: m.id, ...channel });
  }

  /** A message as the pages see it: sent by the acting page's peer when it is the sender's, else by the sender's peer in the room. */
  private view(meetingId: string, m: SessionChatMessage): ProtoObject {
    const acting = this.state.acting?.peer;
    return chatView(m, acting?.participantId === m.participantId ? acting.peerId : this.state.peerIdOf(meetingId, m.participantId));
  }

  /** One push to every joined page whose participant sees the message; the page that caused it hears it as the answer. */
  private tellSeers(session: Session, m: SessionChatMessage, event: number, type: string, body: ProtoObject): void {
    const acting = this.state.acting;
    for (const peer of this.state.pages(session.meetingId))
      if (peer.roomJoined && !peer.gone && sees(session, m, peer.participantId))
        peer.send(event, peer === acting?.peer ? acting.id : this.state.newId(), type, body);
  }

  private joined(peer: Peer, what: string): void {
    if (!peer.roomJoined) throw new Unserved(`Join the room before ${what}`);
  }

  private sendToRoom(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ payload_type: number; payload: string }>('socket.chat.SendChatMessageToRoomRequest', payload);
    this.joined(peer, 'sending chat messages');
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () => this.state.deps.history.sendChat(meeting, peer.participantId, contentOf(r.payload_type, r.payload)));
  }

  /**
   * A private message (the SDK's sendTextMessage(text, peerIds) and the like): the SDK names the
   * recipients' peer ids and its own. Each must be someone in the meeting: a page by its peer id,
   * a scripted participant by their participant id.
   */
  private sendToPeers(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ peer_ids: string[]; payload_type: number; payload: string }>('socket.chat.SendChatMessageToPeersRequest', payload);
    this.joined(peer, 'sending chat messages');
    const content = contentOf(r.payload_type, r.payload);
    if (r.peer_ids.length === 0) throw new Unserved('A private message names at least one peer');
    const present = this.state.present(peer.meetingId);
    const to = r.peer_ids.map((peerId) => {
      const p = present.find((x) => x.peerId === peerId);
      if (!p) throw new Unserved(`Peer ${peerId} is not in this meeting`);
      return p.peer.user_id as string;
    });
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () => this.state.deps.history.sendChat(meeting, peer.participantId, content, { to }));
  }

  private sendToChannel(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ channel_id: string; payload_type: number; payload: string }>('socket.chat.SendChatMessageToChannelRequest', payload);
    this.joined(peer, 'sending chat messages');
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () =>
      this.state.deps.history.sendChat(meeting, peer.participantId, contentOf(r.payload_type, r.payload), { channelId: r.channel_id }),
    );
  }

  /** The SDKs edit a message's content, and web-core may pin with the same request. The answer is the message as it is now. */
  private edit(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ chat_id: string; payload_type?: number; payload?: string; pinned?: boolean }>('socket.chat.EditChatMessageRequest', payload);
    this.joined(peer, 'editing chat messages');
    const { history } = this.state.deps;
    const meeting = this.state.meeting(peer.meetingId);
    if (r.payload === undefined && r.pinned === undefined) throw new Unserved('An edit changes the payload or the pin');
    if (r.payload !== undefined) {
      const content = contentOf(r.payload_type ?? 0, r.payload);
      this.state.actingFor(peer, id, () => history.editChat(meeting, peer.participantId, r.chat_id, content));
    }
    if (r.pinned !== undefined) {
      // The pin is told as pins are (pinMessage, to everyone who sees it); the edit's own answer follows.
      const m = history.pinChat(meeting, peer.participantId, r.chat_id, r.pinned);
      if (r.payload === undefined) peer.send(CHAT.editMessage, id, 'socket.chat.EditChatMessageResponse', { message: chatView(m, peer.peerId) });
    }
  }

  private remove(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ chat_id: string }>('socket.chat.DeleteChatMessageRequest', payload);
    this.joined(peer, 'deleting chat messages');
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () => this.state.deps.history.deleteChat(meeting, peer.participantId, r.chat_id));
  }

  private pin(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ chat_id: string; pinned: boolean }>('socket.chat.PinChatMessageRequest', payload);
    this.joined(peer, 'pinning chat messages');
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () => this.state.deps.history.pinChat(meeting, peer.participantId, r.chat_id, r.pinned));
  }

  /** A page of the history (the kits' chat lists, private conversations and pinned messages). */
  private page(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<PageRequest>('socket.chat.GetPaginatedChatMessageRoomRequest', payload);
    const { messages, next } = this.query(peer, r);
    peer.send(CHAT.getPaginatedMessages, id, 'socket.chat.GetPaginatedChatMessageRoomResponse', { messages, next });
  }

  private search(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<PageRequest>('socket.chat.SearchChatMessagesRequest', payload);
    peer.send(CHAT.searchChannelMessages, id, 'socket.chat.GetChatMessagesResponse', { messages: this.query(peer, r).messages });
  }

  private query(peer: Peer, r: PageRequest): { messages: ProtoObject[]; next: boolean } {
    // A kit may ask before its page has joined (web-core's chat toggle counts unread messages):
    // there is nothing it may see yet.
    if (!peer.roomJoined) return { messages: [], next: false };
    const q: ChatPageQuery = { timestamp: r.time_stamp, size: r.size, from: r.from, reversed: r.reversed };
    const channelId = channelOf(r.channel_id);
    if (channelId !== undefined) q.channelId = channelId;
    if (r.filters?.pinned !== undefined) q.pinned = r.filters.pinned;
    if (r.filters?.user_id !== undefined) q.withUser = r.filters.user_id;
    if (r.search_term !== undefined) q.search = r.search_term;
    const meeting = this.state.meeting(peer.meetingId);
    const { messages, next } = this.state.deps.history.chatPage(meeting, peer.participantId, q);
    return { messages: messages.map((m) => chatView(m, this.state.peerIdOf(meeting.id, m.participantId))), next };
  }

  /** The SDK's whole history on joining: the most recent messages outside channels that the page sees. */
  private historyOf(peer: Peer): ProtoObject[] {
    const meeting = this.state.meeting(peer.meetingId);
    const session = this.state.sessionOf(meeting);
    // A page not in the meeting (waiting, rejected) reads none of its chat.
    if (!session || !peer.roomJoined) return [];
    return session.chat
      .filter((m) => m.channelId === null && sees(session, m, peer.participantId))
      .slice(-MAX_HISTORY_MESSAGES)
      .map((m) => chatView(m, this.state.peerIdOf(meeting.id, m.participantId)));
  }
}
