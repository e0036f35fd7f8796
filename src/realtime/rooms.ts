// The rooms of the web SDK: what each connected page asks over its signalling socket, answered
// from the emulator's state, and what the meeting's presence tells every page.
//
// There is one presence model. A page that joins calls the same sessions service a scripted
// join does (the session opens, meeting.started, participantJoined, record_on_start, …) and a
// page that leaves or closes its socket leaves through it. The rooms learn every join and leave
// from the domain's events, whoever caused them, so a scripted participant appears in every page
// and a REST kick reaches the page it removes.
//
// Peer ids: a page names itself (the SDK's peerID); a scripted participant's peer id is its
// participant id, as in the REST session history.
import type { Clock } from '../core/clock.js';
import type { EventBus } from '../core/events.js';
import type { IdGenerator } from '../core/ids.js';
import type { DomainEvent } from '../domain/events.js';
import type { SessionsService } from '../domain/meetings/sessions.service.js';
import type { Livestream, LivestreamState, Meeting, Participant, RecordingStatus, Session } from '../domain/models.js';
import type { ParticipantClaims } from '../domain/participants/participant-tokens.js';
import type { ParticipantsService } from '../domain/participants/participants.service.js';
import type { RecordingsService } from '../domain/recordings/recordings.service.js';
import type { SessionHistoryService } from '../domain/sessions/session-history.service.js';
import type { Logger } from '../logger.js';
import { MediaTransports } from './media.js';
import { MAX_FRAMES_PER_SECOND, Peer, Unserved, CLOSE, type PageSocket } from './peer.js';
import { PluginStores, type StoreChange } from './plugin-stores.js';
import { ProtocolError, decode, decodeAs, decodeEnvelope, type ProtoObject } from './protocol/codec.js';
import { BROWSER_RECORDING, CHAT_TEXT, chatView, mediaView, peerView, pollView, type PeerView } from './room-views.js';
import { SDK_EVENT_NAMES, SDK_EVENTS } from './protocol/events.js';

export interface RoomsDeps {
  bus: EventBus<DomainEvent>;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** Told of every move of the clock: tokens expire on the emulator's clock. */
  onClockChange(listener: () => void): void;
  participants: Pick<ParticipantsService, 'find'>;
  sessions: Pick<SessionsService, 'join' | 'leave' | 'locateMeeting'>;
  history: Pick<SessionHistoryService, 'sendChat' | 'get' | 'createPoll'>;
  recordings: Pick<RecordingsService, 'forMeetingWithStatus'>;
  /** A livestream's HLS playback URL (the one the REST API hands out). */
  playbackUrl(livestreamId: string): string;
}

/** The SDK closes a socket that stays silent for 30 s: the emulator pings well within that (real ms). */
const PING_EVERY_MS = 10_000;
/** How long a removed page gets to hear why and leave by itself before its socket is closed (real ms). */
const REMOVAL_GRACE_MS = 1_000;

const { room: ROOM, chat: CHAT, plugin: PLUGIN, polls: POLLS, cfMedia: MEDIA } = SDK_EVENTS;

type Handler = (peer: Peer, id: string, payload: Uint8Array) => void | Promise<void>;

export class RealtimeRooms {
  private readonly rooms = new Map<string, Set<Peer>>();
  private readonly media = new MediaTransports();
  private readonly stores = new PluginStores();
  private ping: NodeJS.Timeout | undefined;
  private expiryQueued = false;
  /** The page whose request is being served: its own announcement reaches it as the answer, not as news. */
  private acting: { peer: Peer; id: string } | undefined;
  /** The page that is leaving by itself: the leave the domain announces is its own. */
  private departing: Peer | undefined;
  private readonly handlers: ReadonlyMap<number, Handler>;

  constructor(private readonly deps: RoomsDeps) {
    deps.bus.subscribe((e) => this.onDomainEvent(e));
    deps.onClockChange(() => this.queueExpiryCheck());
    this.handlers = new Map<number, Handler>([
      [ROOM.joinRoom, (p, id, b) => this.joinRoom(p, id, b)],
      [ROOM.getRoomInfo, (p, id) => p.send(ROOM.getRoomInfo, id, 'socket.room.RoomInfoResponse', { room: this.roomView(p.meetingId) })],
      [ROOM.getRoomPeersInfo, (p, id, b) => this.roomPeers(p, id, b)],
      [ROOM.getPeerInfo, (p, id, b) => this.peerInfo(p, id, b)],
      [ROOM.getConnectedRoomsDump, (p, id) => this.connectedRooms(p, id)],
      [ROOM.leaveRoom, (p, id) => this.leave(p, id, ROOM.leaveRoom, null)],
      // No waiting room is emulated: nobody ever waits.
      [ROOM.getWaitingRoomRequests, (p, id) => p.send(ROOM.getWaitingRoomRequests, id, null)],
      [CHAT.getMessages, (p, id) => p.send(CHAT.getMessages, id, 'socket.chat.GetChatMessagesResponse', { messages: this.chatOf(p) })],
      [
        CHAT.getPaginatedMessages,
        (p, id) => p.send(CHAT.getPaginatedMessages, id, 'socket.chat.GetPaginatedChatMessageRoomResponse', { messages: this.chatOf(p), next: false }),
      ],
      [CHAT.sendMessageToRoom, (p, id, b) => this.sendChat(p, id, b)],
      [POLLS.getPolls, (p, id) => p.send(POLLS.getPolls, id, 'socket.polls.GetPollsResponse', { polls: this.pollsOf(p) })],
      [POLLS.createPoll, (p, id, b) => this.createPoll(p, id, b)],
      [POLLS.votePoll, () => Promise.reject(new Unserved('Voting in polls is not emulated'))],
      [PLUGIN.getPlugins, (p, id) => p.send(PLUGIN.getPlugins, id, 'socket.plugin.EnablePluginsResponse', { plugins: [] })],
      [PLUGIN.storeGetKeys, (p, id, b) => this.storeGet(p, id, b)],
      [PLUGIN.storeInsertKeys, (p, id, b) => this.storeChange(p, id, b, PLUGIN.storeInsertKeys, 'socket.plugin.PluginStoreInsertKeysRequest')],
      [PLUGIN.storeDeleteKeys, (p, id, b) => this.storeChange(p, id, b, PLUGIN.storeDeleteKeys, 'socket.plugin.PluginStoreDeleteKeysRequest')],
      [PLUGIN.storeDelete, (p, id, b) => this.storeChange(p, id, b, PLUGIN.storeDelete, 'socket.plugin.PluginStoreDeleteRequest')],
      [MEDIA.joinRoom, (p, id) => p.send(MEDIA.joinRoom, id, 'media.edge.PeerJoinResponse')],
      [MEDIA.createWebRTCTransport, (p, id, b) => this.createTransport(p, id, b)],
      [MEDIA.selfJoinComplete, (p, id) => this.selfJoinComplete(p, id)],
      [MEDIA.leaveRoom, (p, id) => this.leave(p, id, MEDIA.leaveRoom, 'media.edge.PeerLeaveResponse')],
      [MEDIA.produce, () => Promise.reject(new Unserved('The emulator carries no audio or video: producing media is not emulated'))],
    ]);
  }

  // --- sockets --------------------------------------------------------------------------------

  /** Why a verified token still may not open a socket (its participant or meeting is gone), or undefined. */
  refusal(claims: ParticipantClaims): { status: 403 | 404; message: string } | undefined {
    const participant = this.deps.participants.find(claims.orgId, claims.participantId);
    if (!participant || participant.meetingId !== claims.meetingId) return { status: 404, message: `participant ${claims.participantId} no longer exists` };
    let meeting: Meeting;
    try {
      meeting = this.deps.sessions.locateMeeting(claims.meetingId);
    } catch {
      return { status: 404, message: `meeting ${claims.meetingId} no longer exists` };
    }
    if (meeting.status === 'INACTIVE') return { status: 403, message: `meeting ${meeting.id} is INACTIVE; participants cannot join` };
    return undefined;
  }

  connect(ws: PageSocket, claims: ParticipantClaims, peerId: string): void {
    const peer = new Peer(ws, claims, peerId);
    const room = this.roomOf(claims.meetingId);
    const old = [...room].find((p) => p.peerId === peerId);
    if (old && old.participantId === claims.participantId) {
      // The SDK reconnecting names the same peer: the newer socket takes the page's place in the
      // room, and the participant does not leave the meeting (nobody else hears of it).
      room.delete(old);
      for (const t of old.transports) this.media.close(t);
      old.close(CLOSE.replaced, 'Another socket connected as this peer');
      peer.roomJoined = old.roomJoined;
      peer.mediaJoined = old.mediaJoined;
    } else if (old) {
      this.drop(old, CLOSE.replaced, 'Another socket connected as this peer');
    }
    this.roomOf(claims.meetingId).add(peer);
    this.ping ??= setInterval(() => this.pingAll(), PING_EVERY_MS).unref();
    ws.on('message', (data, isBinary) => void this.onFrame(peer, data, isBinary));
    ws.on('close', () => this.drop(peer, null, null));
    ws.on('error', (err) => {
      if (peer.once('socket-error')) this.deps.logger.info({ err: err.message, peer: peerId }, 'SDK socket error');
    });
    this.deps.logger.info({ meeting: claims.meetingId, participant: claims.participantId, peer: peerId }, 'SDK socket connected');
  }

  /**
   * Closes every socket with one code and forgets every room. On a shutdown (`depart`) each page
   * leaves the meeting, as a page whose socket closes does; on a reset or import the state the
   * pages were in is being replaced, so there is nothing to leave.
   */
  closeAll(code: number, reason: string, depart: boolean): void {
    for (const room of [...this.rooms.values()]) for (const peer of [...room]) this.drop(peer, code, reason, depart);
    this.rooms.clear();
    this.stores.clear();
    this.media.closeAll();
    clearInterval(this.ping);
    this.ping = undefined;
  }

  /** Closes the sockets of one organization's pages (its reset). */
  closeOrg(orgId: string, code: number, reason: string): void {
    for (const room of [...this.rooms.values()]) for (const peer of [...room]) if (peer.claims.orgId === orgId) this.drop(peer, code, reason, false);
  }

  private roomOf(meetingId: string): Set<Peer> {
    let room = this.rooms.get(meetingId);
    if (!room) this.rooms.set(meetingId, (room = new Set()));
    return room;
  }

  private pingAll(): void {
    for (const room of this.rooms.values()) for (const peer of room) if (peer.ws.readyState === peer.ws.OPEN) peer.ws.send('2');
  }

  /**
   * A socket is gone (closed by the page, replaced, removed): its peer leaves the meeting if it
   * was in, unless `depart` is false (the organization's state is being replaced: nothing to leave).
   */
  private drop(peer: Peer, code: number | null, reason: string | null, depart = true): void {
    const room = this.rooms.get(peer.meetingId);
    if (!room?.delete(peer)) return;
    if (code !== null) peer.close(code, reason ?? '');
    peer.gone = true;
    for (const t of peer.transports) this.media.close(t);
    if (depart) this.departDomain(peer);
    if (room.size === 0) {
      this.rooms.delete(peer.meetingId);
      this.stores.forget(peer.meetingId);
    }
    if (this.rooms.size === 0) {
      clearInterval(this.ping);
      this.ping = undefined;
    }
  }

  private async onFrame(peer: Peer, data: Buffer, isBinary: boolean): Promise<void> {
    if (peer.gone) return;
    if (peer.flooding()) {
      if (peer.once('flood')) this.deps.logger.warn({ peer: peer.peerId }, `SDK socket sent more than ${MAX_FRAMES_PER_SECOND} frames in a second; closed`);
      return this.drop(peer, CLOSE.policy, `More than ${MAX_FRAMES_PER_SECOND} frames in a second`);
    }
    if (!isBinary) {
      const text = data.toString('utf8');
      if (text === '2') peer.ws.send('3');
      // "3" answers the emulator's ping; nothing else is said in text.
      else if (text !== '3' && peer.once('text')) this.deps.logger.info({ peer: peer.peerId }, 'SDK socket sent a text frame other than a ping; ignored');
      return;
    }
    let envelope;
    try {
      envelope = decodeEnvelope(data);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      this.deps.logger.info({ peer: peer.peerId }, 'SDK socket sent a frame that is not a socket message; closed');
      return this.drop(peer, CLOSE.malformed, 'A frame that is not a socket message');
    }
    const id = envelope.id ?? '';
    const handler = this.handlers.get(envelope.event);
    this.deps.logger.debug({ peer: peer.peerId, event: SDK_EVENT_NAMES.get(envelope.event) ?? envelope.event, id }, 'SDK request');
    try {
      if (!handler) {
        const name = SDK_EVENT_NAMES.get(envelope.event);
        throw new Unserved(name ? `${name} is not emulated` : `Unknown event ${envelope.event}`);
      }
      await handler(peer, id, envelope.payload);
    } catch (err) {
      const message =
        err instanceof Unserved ? err.message : err instanceof ProtocolError ? `Malformed ${err.typeName}` : 'The emulator could not serve this request';
      if (!(err instanceof Unserved) && !(err instanceof ProtocolError) && !isApiError(err))
        this.deps.logger.error({ err, peer: peer.peerId }, 'SDK request failed');
      else if (peer.once(`error:${envelope.event}`))
        this.deps.logger.info({ peer: peer.peerId, event: envelope.event, reason: isApiError(err) ? err.message : message }, 'SDK request refused');
      peer.send(MEDIA.errorResponse, id, 'media.edge.ErrorResponse', { error_message: isApiError(err) ? err.message : message, event_id: envelope.event });
    }
  }

  // --- what a page asks -----------------------------------------------------------------------

  private joinRoom(peer: Peer, id: string, payload: Uint8Array): void {
    // Read to refuse a malformed request; the peer's name and ids are the participant's own.
    decode('socket.room.JoinRoomRequest', payload);
    const participant = this.participantOf(peer);
    if (peer.roomJoined) return peer.send(ROOM.joinRoom, id, 'socket.room.PeerInfoResponse', { peer: peerView(participant, peer.peerId) });
    peer.roomJoined = true;
    this.acting = { peer, id };
    try {
      if (participant.joinedAt === null) this.deps.sessions.join(peer.meetingId, peer.participantId);
      else this.announceJoin(participant, peer);
    } catch (err) {
      peer.roomJoined = false;
      throw err;
    } finally {
      this.acting = undefined;
    }
    peer.send(ROOM.joinRoom, id, 'socket.room.PeerInfoResponse', { peer: peerView(this.participantOf(peer), peer.peerId) });
  }

  private leave(peer: Peer, id: string, event: number, answer: string | null): void {
    peer.send(event, id, answer, answer ? { closed: true } : {});
    this.departDomain(peer);
  }

  /** Everyone else present; a page of them when the SDK asks by limit and offset, filtered by a name search when it gives one. */
  private roomPeers(peer: Peer, id: string, payload: Uint8Array): void {
    const {
      seach_query: search,
      limit,
      offset,
    } = decodeAs<{ seach_query: string; limit: number; offset: number }>('socket.room.RoomPeersInfoRequest', payload);
    const needle = search.trim().toLowerCase();
    const all = this.others(peer).filter((o) => needle === '' || o.peer.display_name.toLowerCase().includes(needle));
    const from = Math.max(0, offset);
    const page = limit > 0 ? all.slice(from, from + limit) : all.slice(from);
    peer.send(ROOM.getRoomPeersInfo, id, 'socket.room.RoomPeersInfoResponse', { peers: page.map((o) => o.peer) });
  }

  private peerInfo(peer: Peer, id: string, payload: Uint8Array): void {
    const { peer_id } = decodeAs<{ peer_id: string }>('socket.room.GetPeerInfoRequest', payload);
    const found = this.present(peer.meetingId).find((o) => o.peerId === peer_id);
    peer.send(ROOM.getPeerInfo, id, 'socket.room.PeerInfoResponse', found ? { peer: found.peer } : {});
  }

  private connectedRooms(peer: Peer, id: string): void {
    const meeting = this.deps.sessions.locateMeeting(peer.meetingId);
    const participants = this.present(peer.meetingId).map((o) => ({
      id: o.peerId,
      display_name: o.peer.display_name,
      custom_participant_id: o.peer.custom_participant_id,
      preset_id: o.peer.preset_id,
      ...(o.peer.display_picture_url ? { display_picture_url: o.peer.display_picture_url } : {}),
    }));
    peer.send(ROOM.getConnectedRoomsDump, id, 'socket.room.GetConnectedRoomsDumpResponse', {
      parent_meeting: { id: meeting.id, title: meeting.title ?? '', participants },
      meetings: [],
    });
  }

  private sendChat(peer: Peer, id: string, payload: Uint8Array): void {
    const { payload_type, payload: text } = decodeAs<{ payload_type: number; payload: string }>('socket.chat.SendChatMessageToRoomRequest', payload);
    if (payload_type !== CHAT_TEXT) throw new Unserved('Only text chat messages are emulated');
    if (!peer.roomJoined) throw new Unserved('Join the room before sending chat messages');
    const meeting = this.deps.sessions.locateMeeting(peer.meetingId);
    this.acting = { peer, id };
    try {
      this.deps.history.sendChat(meeting, peer.participantId, text);
    } finally {
      this.acting = undefined;
    }
  }

  private async createTransport(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    const request = decodeAs<{ consuming: boolean; description?: { sdp?: string; target?: number } }>('media.CreateTransportRequest', payload);
    const offer = request.description?.sdp;
    if (!offer) throw new Unserved('A transport needs an SDP offer');
    const transportId = this.deps.ids.uuid();
    peer.transports.add(transportId);
    let answer;
    try {
      answer = await this.media.answer(transportId, offer);
    } catch (err) {
      peer.transports.delete(transportId);
      throw new Unserved(`The SDP offer could not be answered (${(err as Error).message})`);
    }
    if (peer.gone) return this.media.close(transportId);
    peer.send(MEDIA.createWebRTCTransport, id, 'media.CreateTransportResponse', {
      transport_id: transportId,
      description: { type: 'answer', sdp: answer.sdp, target: request.description?.target ?? 0 },
      producer_ids: [],
    });
  }

  private selfJoinComplete(peer: Peer, id: string): void {
    const meeting = this.deps.sessions.locateMeeting(peer.meetingId);
    const others = this.others(peer).filter((o) => o.sdk === null || o.sdk.mediaJoined);
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
    const self = peerView(this.participantOf(peer), peer.peerId);
    for (const other of this.rooms.get(peer.meetingId) ?? [])
      if (other !== peer && other.mediaJoined)
        other.send(MEDIA.peerJoinedBroadcast, this.deps.ids.uuid(), 'media.edge.PeerJoinBroadcastResponse', { participant: mediaView(self) });
  }

  /** A page reads a store: the answer is its own. */
  private storeGet(peer: Peer, id: string, payload: Uint8Array): void {
    peer.send(
      PLUGIN.storeGetKeys,
      id,
      'socket.plugin.PluginStoreResponse',
      this.stores.read(peer.meetingId, decodeAs('socket.plugin.PluginStoreGetKeysRequest', payload)),
    );
  }

  /** A page changes a store: every page of the meeting is told (the SDK ignores its own change). */
  private storeChange(peer: Peer, id: string, payload: Uint8Array, event: StoreChange, type: string): void {
    const answer = this.stores.change(peer.meetingId, peer.peerId, event, decodeAs(type, payload), new Date(this.deps.clock.now()).toISOString());
    for (const other of this.rooms.get(peer.meetingId) ?? [])
      if (!other.gone) other.send(event, other === peer ? id : this.deps.ids.uuid(), 'socket.plugin.PluginStoreResponse', answer);
  }

  // --- what the meeting tells every page -------------------------------------------------------

  private onDomainEvent(e: DomainEvent): void {
    if (!('meeting' in e) || !e.meeting || !this.rooms.has(e.meeting.id)) return;
    try {
      switch (e.type) {
        case 'participant.joined':
          return this.announceJoin(e.participant, this.acting?.peer.participantId === e.participant.id ? this.acting.peer : null);
        case 'participant.left':
          return this.onLeft(e.participant, e.cause);
        case 'poll.created':
          return this.tell(e.meeting.id, POLLS.createPoll, 'socket.polls.UpdatePollResponse', { poll: pollView(e.poll) });
        case 'chat.sent':
          return this.announceChat(e.meeting.id, e.message.participantId, e.message.id, e.message.payload, e.message.createdAt, e.message.displayName);
        case 'recording.statusChanged':
          return this.announceRecording(e.meeting.id, e.recording.id, e.recording.status, e.previous);
        case 'livestream.statusChanged':
          return this.announceLivestream(e.meeting.id, e.livestream, e.previous);
        default:
          return;
      }
    } catch (err) {
      this.deps.logger.error({ err, event: e.type }, 'SDK rooms could not tell the pages');
    }
  }

  /** Tells every joined page but the newcomer that a participant is in (the socket room, then the media room). */
  private announceJoin(participant: Participant, sdkPeer: Peer | null): void {
    const view = peerView(participant, sdkPeer?.peerId ?? participant.id);
    for (const other of this.rooms.get(participant.meetingId) ?? []) {
      if (other === sdkPeer || !other.roomJoined || other.gone) continue;
      other.send(ROOM.joinRoom, this.deps.ids.uuid(), 'socket.room.PeerInfoResponse', { peer: view });
      // A scripted participant is in the media room at once; a page is once its own join completes.
      if (!sdkPeer && other.mediaJoined)
        other.send(MEDIA.peerJoinedBroadcast, this.deps.ids.uuid(), 'media.edge.PeerJoinBroadcastResponse', { participant: mediaView(view) });
    }
  }

  private onLeft(participant: Participant, cause: string): void {
    const room = this.rooms.get(participant.meetingId)!;
    // The page leaving by itself (departDomain) is no longer joined; any other page of the
    // participant was removed by someone else (a kick, kick-all, a deletion, a scripted leave).
    const departing = this.departing?.participantId === participant.id ? this.departing : null;
    const removed = [...room].filter((p) => p.participantId === participant.id && p.roomJoined);
    for (const peer of removed) {
      peer.roomJoined = false;
      peer.mediaJoined = false;
      // The page hears why, then its socket closes (unless it leaves first).
      peer.send(cause === 'ended' ? ROOM.kickAll : ROOM.kick, this.deps.ids.uuid(), 'socket.room.PeerInfoResponse', {
        peer: peerView(participant, peer.peerId),
      });
      peer.gone = true;
      setTimeout(() => this.drop(peer, CLOSE.removed, cause === 'ended' ? 'The host ended the meeting' : 'Removed from the meeting'), REMOVAL_GRACE_MS).unref();
    }
    const peerIds = [...(departing ? [departing.peerId] : []), ...removed.map((p) => p.peerId)];
    for (const peerId of peerIds.length > 0 ? peerIds : [participant.id]) this.announceLeave(participant, peerId);
  }

  /** Tells every joined page that a peer left (the socket room, then the media room). */
  private announceLeave(participant: Participant, peerId: string): void {
    const view = peerView(participant, peerId);
    for (const other of this.rooms.get(participant.meetingId) ?? []) {
      if (!other.roomJoined || other.gone) continue;
      other.send(ROOM.leaveRoom, this.deps.ids.uuid(), 'socket.room.PeerInfoResponse', { peer: view });
      if (other.mediaJoined) other.send(MEDIA.peerLeaveBroadcast, this.deps.ids.uuid(), 'media.edge.PeerLeaveBroadcastResponse', { participant_id: peerId });
    }
  }

  private announceChat(meetingId: string, participantId: string, chatId: string, text: string, at: number, name: string | null): void {
    const sender = this.acting?.peer.participantId === participantId ? this.acting.peer : undefined;
    const message = chatView({ chatId, peerId: sender?.peerId ?? this.peerIdOf(meetingId, participantId), userId: participantId, name, text, at });
    this.tell(meetingId, CHAT.sendMessageToRoom, 'socket.chat.SendChatMessageToRoomResponse', { message });
  }

  /** The SDK shows the meeting's recording state: started (or resumed), paused, stopped. */
  private announceRecording(meetingId: string, recordingId: string, status: RecordingStatus, previous: RecordingStatus | null): void {
    const event =
      status === 'RECORDING'
        ? ROOM.recordingStarted
        : status === 'PAUSED'
          ? ROOM.recordingPaused
          : previous === 'RECORDING' || previous === 'PAUSED'
            ? ROOM.recordingStopped
            : null;
    if (event === null) return;
    this.tell(meetingId, event, 'socket.recording.RecordingEvent', { recording_id: recordingId, recording_type: BROWSER_RECORDING });
  }

  /** The SDK shows the meeting's livestream: LIVE with its playback URL, then stopped or errored. */
  private announceLivestream(meetingId: string, livestream: Livestream, previous: LivestreamState | null): void {
    const event =
      livestream.state === 'LIVE'
        ? ROOM.startedLivestream
        : livestream.state === 'ERRORED'
          ? ROOM.erroredLivestream
          : previous === 'LIVE'
            ? ROOM.stoppedLivestream
            : null;
    if (event === null) return;
    this.tell(meetingId, event, 'socket.livestreaming.LiveStreamingEvent', {
      livestream_id: livestream.id,
      name: livestream.name ?? '',
      meeting_id: meetingId,
      org_id: livestream.orgId,
      room_name: meetingId,
      ...(livestream.state === 'LIVE' ? { playback_url: this.deps.playbackUrl(livestream.id) } : {}),
    });
  }

  /** One push to every joined page of a meeting; the page whose request caused it hears it as the answer (its request's id). */
  private tell(meetingId: string, event: number, type: string, body: ProtoObject): void {
    for (const peer of this.rooms.get(meetingId) ?? [])
      if (peer.roomJoined && !peer.gone) peer.send(event, peer === this.acting?.peer ? this.acting.id : this.deps.ids.uuid(), type, body);
  }

  // --- the domain side of a page --------------------------------------------------------------

  /** A page leaves: the participant leaves the meeting when it was their last page in it. */
  private departDomain(peer: Peer): void {
    if (!peer.roomJoined) return;
    peer.roomJoined = false;
    peer.mediaJoined = false;
    const participant = this.deps.participants.find(peer.claims.orgId, peer.participantId);
    if (!participant) return;
    const stillIn = [...(this.rooms.get(peer.meetingId) ?? [])].some((p) => p !== peer && p.participantId === peer.participantId && p.roomJoined);
    this.departing = peer;
    try {
      if (participant.joinedAt !== null && !stillIn) this.deps.sessions.leave(peer.meetingId, peer.participantId);
      else this.announceLeave(participant, peer.peerId);
    } catch (err) {
      this.deps.logger.info({ err: (err as Error).message, peer: peer.peerId }, 'SDK peer could not leave the meeting');
    } finally {
      this.departing = undefined;
    }
  }

  // --- views ------------------------------------------------------------------------------------

  private participantOf(peer: Peer): Participant {
    const p = this.deps.participants.find(peer.claims.orgId, peer.participantId);
    if (!p) throw new Unserved(`Participant ${peer.participantId} no longer exists`);
    return p;
  }

  private peerIdOf(meetingId: string, participantId: string): string {
    for (const p of this.rooms.get(meetingId) ?? []) if (p.participantId === participantId && p.roomJoined) return p.peerId;
    return participantId;
  }

  /** Everyone present in the meeting: its pages by their peer ids, scripted participants by their participant ids. */
  private present(meetingId: string): { peerId: string; sdk: Peer | null; peer: ProtoObject & PeerView }[] {
    const meeting = this.deps.sessions.locateMeeting(meetingId);
    const out: { peerId: string; sdk: Peer | null; peer: ProtoObject & PeerView }[] = [];
    const pages = [...(this.rooms.get(meetingId) ?? [])].filter((p) => p.roomJoined && !p.gone);
    for (const participant of this.presentParticipants(meeting)) {
      const own = pages.filter((p) => p.participantId === participant.id);
      if (own.length === 0) out.push({ peerId: participant.id, sdk: null, peer: peerView(participant, participant.id) });
      for (const p of own) out.push({ peerId: p.peerId, sdk: p, peer: peerView(participant, p.peerId) });
    }
    return out;
  }

  private others(peer: Peer) {
    return this.present(peer.meetingId).filter((o) => o.sdk !== peer);
  }

  private presentParticipants(meeting: Meeting): Participant[] {
    const session = this.sessionOf(meeting);
    if (!session) return [];
    const out: Participant[] = [];
    for (const sp of session.participants) {
      const p = this.deps.participants.find(meeting.orgId, sp.participantId);
      if (p && p.joinedAt !== null && !out.includes(p)) out.push(p);
    }
    return out;
  }

  private sessionOf(meeting: Meeting): Session | undefined {
    if (!meeting.session || meeting.session.endedAt !== null) return undefined;
    return this.deps.history.get(meeting.orgId, meeting.session.id);
  }

  private roomView(meetingId: string): ProtoObject {
    const meeting = this.deps.sessions.locateMeeting(meetingId);
    return {
      room_id: meeting.id,
      title: meeting.title ?? '',
      created_at: meeting.createdAt,
      active_recordings: this.deps.recordings
        .forMeetingWithStatus(meeting.orgId, meeting.id, ['RECORDING', 'PAUSED'])
        .map((r) => ({ recording_id: r.id, recording_type: BROWSER_RECORDING, recording_status: r.status })),
      ...(meeting.session && meeting.session.endedAt === null ? { room_uuid: meeting.session.id } : {}),
    };
  }

  private chatOf(peer: Peer): ProtoObject[] {
    const meeting = this.deps.sessions.locateMeeting(peer.meetingId);
    const session = this.sessionOf(meeting);
    return (session?.chat ?? []).map((m) =>
      chatView({
        chatId: m.id,
        peerId: this.peerIdOf(meeting.id, m.participantId),
        userId: m.participantId,
        name: m.displayName,
        text: m.payload,
        at: m.createdAt,
      }),
    );
  }

  private pollsOf(peer: Peer): ProtoObject[] {
    const meeting = this.deps.sessions.locateMeeting(peer.meetingId);
    return (this.sessionOf(meeting)?.polls ?? []).map(pollView);
  }

  /** A page starts a poll in the LIVE session: kept with the session, told to every page (the asker included). */
  private createPoll(peer: Peer, id: string, payload: Uint8Array): void {
    const request = decodeAs<{ question: string; options: string[]; anonymous: boolean; hide_votes: boolean }>('socket.polls.NewPollRequest', payload);
    if (!peer.roomJoined) throw new Unserved('Join the room before starting a poll');
    this.acting = { peer, id };
    try {
      this.deps.history.createPoll(
        peer.claims.orgId,
        peer.meetingId,
        { question: request.question, options: request.options, anonymous: request.anonymous, hideVotes: request.hide_votes },
        peer.participantId,
      );
    } finally {
      this.acting = undefined;
    }
  }

  // --- token expiry on the emulator's clock ---------------------------------------------------

  private queueExpiryCheck(): void {
    if (this.expiryQueued || this.rooms.size === 0) return;
    this.expiryQueued = true;
    queueMicrotask(() => {
      this.expiryQueued = false;
      const now = this.deps.clock.now();
      for (const room of [...this.rooms.values()])
        for (const peer of [...room]) if (peer.claims.exp * 1000 <= now) this.drop(peer, CLOSE.expired, 'The participant token expired');
    });
  }
}

function isApiError(err: unknown): err is Error & { status: number } {
  return err instanceof Error && typeof (err as { status?: unknown }).status === 'number';
}
