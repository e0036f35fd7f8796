// Chat channels (@dytesdk/web-core's meeting.chat.createChannel, updateChannel, getChannelMembers,
// markLastReadMessage; RealtimeKit has none): channels of the session whose members chat apart.
// Each page sees the channels its participant is a member of, with the latest message and how
// many it has not read; a channel made or changed is told to its members' pages. The messages
// themselves are the chat's (chat.ts: sendMessageToChannel, the paginated history by channel).
import type { DomainEvent } from '../../domain/events.js';
import type { Session, SessionChatChannel } from '../../domain/models.js';
import { unreadIn } from '../../domain/sessions/chat-rules.js';
import { Unserved, type Peer } from '../peer.js';
import { decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { chatView } from '../room-views.js';

const { chat: CHAT, chatChannel: CHANNEL } = SDK_EVENTS;
const CHANNELS = 'socket.chat.GetChatChannelResponse';

export class ChatChannelsFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [CHANNEL.createChatChannel, (p, id, b) => this.create(p, id, b)],
    [CHANNEL.updateChatChannel, (p, id, b) => this.update(p, id, b)],
    [CHANNEL.getChatChannel, (p, id, b) => this.one(p, id, b)],
    [CHANNEL.getChannelMembers, (p, id, b) => this.members(p, id, b)],
    [CHANNEL.deprecatedGetAllChatChannels, (p, id) => this.all(p, id, CHANNEL.deprecatedGetAllChatChannels)],
    [CHAT.getAllChatChannels, (p, id) => this.all(p, id, CHAT.getAllChatChannels)],
    [CHAT.markChannelIndexAsRead, (p, id, b) => this.markRead(p, id, b)],
  ];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'chat.channelChanged') return;
    const event = e.change === 'created' ? CHANNEL.createChatChannel : CHANNEL.updateChatChannel;
    const told = new Set([...e.channel.members, ...(e.before ?? [])]);
    const acting = this.state.acting;
    for (const peer of this.state.pages(e.meeting.id))
      if (peer.roomJoined && !peer.gone && told.has(peer.participantId))
        peer.send(event, peer === acting?.peer ? acting.id : this.state.newId(), CHANNELS, { chat_channels: [this.view(e.session, e.channel, peer)] });
  }

  /** A channel (socket.chat.ChatChannel) as a member's page sees it: its latest message and how many of its messages they have not read. */
  private view(s: Session, c: SessionChatChannel, peer: Peer): ProtoObject {
    const latest = s.chat.filter((m) => m.channelId === c.id).at(-1);
    return {
      chat_channel_id: c.id,
      display_name: c.name,
      ...(c.pictureUrl === null ? {} : { display_picture_url: c.pictureUrl }),
      visibility: c.visibility,
      is_direct_message: c.isDirectMessage,
      latest_message_and_unread_count: {
        ...(latest ? { message: chatView(latest, this.state.peerIdOf(s.meetingId, latest.participantId)) } : {}),
        unread_count: unreadIn(s, c, peer.participantId),
      },
      target_user_ids: c.members,
    };
  }

  private joined(peer: Peer): void {
    if (!peer.roomJoined) throw new Unserved('Join the room before using chat channels');
  }

  private session(peer: Peer): Session {
    const session = this.state.sessionOf(this.state.meeting(peer.meetingId));
    if (!session) throw new Unserved(`Meeting ${peer.meetingId} has no LIVE session`);
    return session;
  }

  private create(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ display_name: string; target_user_ids: string[]; display_picture_url?: string; visibility: string; is_direct_message: boolean }>(
      'socket.chat.CreateChatChannelRequest',
      payload,
    );
    this.joined(peer);
    const meeting = this.state.meeting(peer.meetingId);
    this.state.actingFor(peer, id, () =>
      this.state.deps.history.createChannel(meeting, peer.participantId, {
        name: r.display_name,
        members: r.target_user_ids,
        pictureUrl: r.display_picture_url ?? null,
        visibility: r.visibility,
        isDirectMessage: r.is_direct_message,
      }),
    );
  }

  private update(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ chat_channel_id: string; display_name?: string; target_user_ids: string[]; display_picture_url?: string; visibility?: string }>(
      'socket.chat.UpdateChatChannelRequest',
      payload,
    );
    this.joined(peer);
    const meeting = this.state.meeting(peer.meetingId);
    const patch = {
      ...(r.display_name === undefined ? {} : { name: r.display_name }),
      members: r.target_user_ids,
      ...(r.display_picture_url === undefined ? {} : { pictureUrl: r.display_picture_url }),
      ...(r.visibility === undefined ? {} : { visibility: r.visibility }),
    };
    this.state.actingFor(peer, id, () => this.state.deps.history.updateChannel(meeting, peer.participantId, r.chat_channel_id, patch));
  }

  private one(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ chat_channel_id: string }>('socket.chat.GetChatChannelRequest', payload);
    this.joined(peer);
    const channel = this.state.deps.history.channel(this.state.meeting(peer.meetingId), peer.participantId, r.chat_channel_id);
    peer.send(CHANNEL.getChatChannel, id, CHANNELS, { chat_channels: [this.view(this.session(peer), channel, peer)] });
  }

  private all(peer: Peer, id: string, event: number): void {
    this.joined(peer);
    const channels = this.state.deps.history.channelsOf(this.state.meeting(peer.meetingId), peer.participantId);
    const session = this.session(peer);
    peer.send(event, id, CHANNELS, { chat_channels: channels.map((c) => this.view(session, c, peer)) });
  }

  /** A channel's members (socket.chat.ChannelMember): their participant ids, names and pictures. */
  private members(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ chat_channel_id: string }>('socket.chat.GetChatChannelRequest', payload);
    this.joined(peer);
    const channel = this.state.deps.history.channel(this.state.meeting(peer.meetingId), peer.participantId, r.chat_channel_id);
    const members = channel.members.flatMap((pid) => {
      const p = this.state.deps.participants.find(peer.claims.orgId, pid);
      if (!p) return [];
      return [
        {
          id: p.id,
          ...(p.name === null ? {} : { name: p.name }),
          ...(p.picture === null ? {} : { picture: p.picture }),
          custom_participant_id: p.customParticipantId,
        },
      ];
    });
    peer.send(CHANNEL.getChannelMembers, id, 'socket.chat.GetChatChannelMembersResponse', { channel_members: members });
  }

  /** A page marks where its participant has read a channel up to (the SDK's markLastReadMessage). */
  private markRead(peer: Peer, id: string, payload: Uint8Array): void {
    const r = decodeAs<{ channel_id: string; user_id: string; channel_index: string }>('socket.chat.MarkChannelIndexAsReadRequest', payload);
    this.joined(peer);
    if (r.user_id !== '' && r.user_id !== peer.participantId) throw new Unserved(`A page marks its own participant's reads, not ${r.user_id}'s`);
    if (!/^\d{1,9}$/.test(r.channel_index)) throw new Unserved(`A channel index is a whole number (not "${r.channel_index}")`);
    const index = this.state.deps.history.markChannelRead(this.state.meeting(peer.meetingId), peer.participantId, r.channel_id, Number(r.channel_index));
    peer.send(CHAT.markChannelIndexAsRead, id, 'socket.chat.MarkChannelIndexAsReadResponse', { channel_index: String(index) });
  }
}
