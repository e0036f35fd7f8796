// The rooms of the web SDK: every connected page's signalling socket, grouped by meeting. This
// module keeps the sockets (connect, ping, flood limit, token expiry, close) and hands each
// request to the feature that answers it (dispatch.ts) and each domain event to every feature;
// the features share the rooms through RoomState.
import type { DomainEvent } from '../domain/events.js';
import type { ParticipantClaims } from '../domain/participants/participant-tokens.js';
import type { Livestream, Meeting, Participant } from '../domain/models.js';
import { realNow } from '../core/clock.js';
import type { MediaListening } from './media/media-network.js';
import type { BotMediaWish, MediaCounts, MediaKind } from './media/media-types.js';
import { dispatchTable, roomFeatures, type RoomFeatures } from './dispatch.js';
import type { RecorderView } from './media/room-recordings.js';
import type { IngestConnection, IngestSink, LivestreamPlayback } from './media/room-livestreams.js';
import { MAX_FRAMES_PER_SECOND, Peer, Unserved, CLOSE, type PageSocket } from './peer.js';
import { ProtocolError, decodeEnvelope } from './protocol/codec.js';
import { SDK_EVENT_NAMES, SDK_EVENTS } from './protocol/events.js';
import { RoomState, type Handler, type RoomFeature, type RoomsDeps } from './room-state.js';
import type { NetworkRooms } from './network/network-trouble.js';

export type { RoomsDeps } from './room-state.js';

/** The SDK closes a socket that stays silent for 30 s: the emulator pings well within that (real ms). */
const PING_EVERY_MS = 10_000;

const { cfMedia: MEDIA } = SDK_EVENTS;

/** What ws reports for a connection that ended without a close frame. */
const CLOSE_ABNORMAL = 1006;

export class RealtimeRooms {
  private readonly state: RoomState;
  private readonly features: RoomFeatures;
  private readonly featureList: RoomFeature[];
  private readonly handlers: ReadonlyMap<number, Handler>;
  private ping: NodeJS.Timeout | undefined;
  private expiryQueued = false;

  constructor(private readonly deps: RoomsDeps) {
    this.state = new RoomState(deps);
    this.features = roomFeatures(this.state, {
      dropPage: (peer, code, reason) => this.drop(peer, code, reason),
      peerLeft: (meetingId, peerId) => {
        for (const f of this.featureList) f.onPeerLeft?.(meetingId, peerId);
      },
      realNow,
    });
    this.featureList = Object.values(this.features);
    this.handlers = dispatchTable(this.featureList);
    deps.bus.subscribe((e) => this.onDomainEvent(e));
    deps.onClockChange(() => this.queueExpiryCheck());
    deps.network.attach(this.networkRooms());
  }

  /** How many transports, producers and consumers the media room holds open. */
  mediaCounts(): MediaCounts {
    return this.features.media.counts();
  }

  /** The media plane's own process while one runs. */
  mediaPlanePid(): number | null {
    return this.features.media.planePid;
  }

  /** How many recordings the media plane's recorder is making now. */
  recordersRunning(): number {
    return this.features.recordings.recording;
  }

  /** Where the media plane's sockets listen while they are open. */
  mediaListening(): MediaListening | null {
    return this.features.media.listening;
  }

  /** What a recording's recorder takes now, while one runs. */
  recorderView(recordingId: string): Promise<RecorderView | undefined> {
    return this.features.recordings.status(recordingId);
  }

  /** What a livestream with real media serves to its viewers (undefined: none is being made). */
  livestreamPlayback(livestreamId: string): LivestreamPlayback | undefined {
    return this.features.livestreams.playback(livestreamId);
  }

  /** An encoder's push to a livestream, its key checked: where its stream goes (undefined: livestreams are simulated). */
  ingest(livestream: Livestream, connection: IngestConnection): IngestSink | undefined {
    return this.features.livestreams.ingest(livestream, connection);
  }

  /** How many livestreams are being packaged, and their files on disk. */
  livestreamCounts(): { packaging: number; files: number; bytes: number } {
    return this.features.livestreams.counts();
  }

  /** Releases all media and ends the media plane (the emulator's stop); resolves once its process has exited. */
  async closeMedia(): Promise<void> {
    this.features.livestreams.onReset();
    await this.features.media.close();
    await this.features.livestreams.removed();
  }

  /** Turns a scripted participant's camera or microphone on or off (the sample clip). */
  botMedia(participant: Participant, wish: BotMediaWish): Promise<Record<MediaKind, boolean>> {
    return this.features.media.botMedia(participant, wish);
  }

  /** The peer id a participant has in a meeting's rooms: their page's, or their participant id without one. */
  peerIdOf(meetingId: string, participantId: string): string {
    return this.state.peerIdOf(meetingId, participantId);
  }

  /** Whether a participant is in a meeting through a page (joined to its socket room). */
  hasPage(meetingId: string, participantId: string): boolean {
    for (const p of this.state.pages(meetingId)) if (p.participantId === participantId && p.roomJoined && !p.gone) return true;
    return false;
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
      // room, and the participant does not leave the meeting (nobody else hears of it). Its media
      // stays: the SDK keeps its transports across a reconnect and publishes on them again. A page
      // whose socket was lost comes back this way within its reconnect window.
      room.delete(old);
      old.close(CLOSE.replaced, 'Another socket connected as this peer');
      peer.roomJoined = old.roomJoined;
      peer.mediaJoined = old.mediaJoined;
      if (old.lost) this.returned(old);
    } else if (old) {
      this.drop(old, CLOSE.replaced, 'Another socket connected as this peer');
    }
    // A lost page of the participant under another peer id is not coming back as itself: it goes
    // (the participant leaves, unless this page is already in), and this page joins anew.
    for (const lost of [...room].filter((p) => p.lost && p.participantId === claims.participantId && p.peerId !== peerId)) this.drop(lost, null, null);
    this.roomOf(claims.meetingId).add(peer);
    this.ping ??= setInterval(() => this.pingAll(), PING_EVERY_MS).unref();
    ws.on('message', (data, isBinary) => void this.onFrame(peer, data, isBinary));
    ws.on('close', (code: number) => this.socketClosed(peer, code));
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
    for (const room of [...this.state.rooms.values()]) for (const peer of [...room]) this.drop(peer, code, reason, depart);
    this.state.rooms.clear();
    for (const f of this.featureList) f.onReset?.();
    clearInterval(this.ping);
    this.ping = undefined;
  }

  /** Closes the sockets of one organization's pages (its reset). */
  closeOrg(orgId: string, code: number, reason: string): void {
    for (const room of [...this.state.rooms.values()]) for (const peer of [...room]) if (peer.claims.orgId === orgId) this.drop(peer, code, reason, false);
    for (const f of this.featureList) f.onOrgReset?.(orgId);
  }

  /**
   * A page's socket closed. One the page closed (1000, or 1001 as a tab closes) leaves the meeting
   * now; one lost without a word (no close frame: a failed network, a dropped connection) while in
   * the meeting keeps its participant there for the reconnect window, in case it comes back.
   */
  private socketClosed(peer: Peer, code: number): void {
    if (!this.state.rooms.get(peer.meetingId)?.has(peer) || peer.lost) return;
    if (!peer.roomJoined || peer.gone || code === CLOSE.normal || code === CLOSE.goingAway) return this.drop(peer, null, null);
    const participant = this.deps.participants.find(peer.claims.orgId, peer.participantId);
    let meeting: Meeting | undefined;
    try {
      meeting = this.deps.sessions.locateMeeting(peer.meetingId);
    } catch {
      meeting = undefined;
    }
    if (!participant || !meeting) return this.drop(peer, null, null);
    peer.lose();
    const until = this.deps.network.pageLost(meeting, participant, peer.peerId);
    this.deps.logger.info(
      { meeting: peer.meetingId, participant: peer.participantId, peer: peer.peerId, code, until },
      'SDK socket lost; the page may reconnect',
    );
  }

  /** A lost page's socket is back (the same peer reconnected). */
  private returned(old: Peer): void {
    const participant = this.deps.participants.find(old.claims.orgId, old.participantId);
    let meeting: Meeting | undefined;
    try {
      meeting = this.deps.sessions.locateMeeting(old.meetingId);
    } catch {
      meeting = undefined;
    }
    if (participant && meeting) this.deps.network.pageReturned(meeting, participant, old.peerId);
    this.deps.logger.info({ meeting: old.meetingId, participant: old.participantId, peer: old.peerId }, 'SDK socket back within its reconnect window');
  }

  /** What the network scenarios do through the rooms: cut sockets, see who is connected, end a reconnect window, shape media. */
  private networkRooms(): NetworkRooms {
    const media = this.features.media;
    const pagesOf = (meetingId: string, participantId: string | null) =>
      [...this.state.pages(meetingId)].filter((p) => participantId === null || p.participantId === participantId);
    return {
      cutSockets: (meetingId, participantId) => {
        const live = pagesOf(meetingId, participantId).filter((p) => !p.gone);
        // Lost at once, as the server of a failed network would find it: the answer already says so.
        for (const p of live) {
          p.cut();
          this.socketClosed(p, CLOSE_ABNORMAL);
        }
        return live.length;
      },
      connectionOf: (meetingId, participantId) => {
        const pages = pagesOf(meetingId, participantId);
        if (pages.some((p) => !p.gone)) return 'connected';
        return pages.some((p) => p.lost) ? 'reconnecting' : 'none';
      },
      windowEnded: (meetingId, peerId) => {
        const lost = pagesOf(meetingId, null).find((p) => p.lost && p.peerId === peerId);
        if (!lost) return;
        this.deps.logger.info(
          { meeting: meetingId, participant: lost.participantId, peer: peerId },
          'SDK socket lost and not back within its reconnect window; the page left',
        );
        this.drop(lost, null, null);
      },
      mediaParticipants: (meetingId) => media.participantsWithMedia(meetingId),
      mediaOf: (meetingId, participantId) => media.mediaOf(meetingId, participantId),
      relink: (meetingId, participantId) => media.relink(meetingId, participantId),
      cutPaths: (meetingId, participantId) => media.cutPaths(meetingId, participantId),
      restorePaths: (ids) => media.restorePaths(ids),
    };
  }

  private roomOf(meetingId: string): Set<Peer> {
    let room = this.state.rooms.get(meetingId);
    if (!room) this.state.rooms.set(meetingId, (room = new Set()));
    return room;
  }

  private pingAll(): void {
    for (const room of this.state.rooms.values()) for (const peer of room) peer.ping();
  }

  /**
   * A socket is gone (closed by the page, replaced, removed): its peer leaves the meeting if it
   * was in, unless `depart` is false (the organization's state is being replaced: nothing to leave).
   */
  private drop(peer: Peer, code: number | null, reason: string | null, depart = true): void {
    const room = this.state.rooms.get(peer.meetingId);
    if (!room?.delete(peer)) return;
    if (peer.lost) this.deps.network.pageForgotten(peer.meetingId, peer.peerId);
    if (code !== null) peer.close(code, reason ?? '');
    peer.closed();
    for (const f of this.featureList) f.onPeerGone?.(peer, depart);
    if (room.size === 0) {
      this.state.rooms.delete(peer.meetingId);
      for (const f of this.featureList) f.onRoomEmpty?.(peer.meetingId);
    }
    if (this.state.rooms.size === 0) {
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
      else if (text === '3') peer.pong();
      else if (peer.once('text')) this.deps.logger.info({ peer: peer.peerId }, 'SDK socket sent a text frame other than a ping; ignored');
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

  /**
   * A domain event of a meeting reaches every feature, whether or not a page of the meeting is
   * connected (a bot publishing in a meeting no page has joined must still be released when it
   * leaves); one feature's failure does not stop the others. The livestreams' pictures follow
   * every livestream, one of its own (no meeting) too.
   */
  private onDomainEvent(e: DomainEvent): void {
    const meeting = 'meeting' in e && e.meeting;
    const features = meeting ? this.featureList : e.type === 'livestream.statusChanged' || e.type === 'livestream.enabled' ? [this.features.livestreams] : [];
    for (const f of features) {
      try {
        f.onDomainEvent?.(e);
      } catch (err) {
        this.deps.logger.error({ err, event: e.type }, 'SDK rooms could not tell the pages');
      }
    }
  }

  // --- token expiry on the emulator's clock ---------------------------------------------------

  private queueExpiryCheck(): void {
    if (this.expiryQueued || this.state.rooms.size === 0) return;
    this.expiryQueued = true;
    queueMicrotask(() => {
      this.expiryQueued = false;
      const now = this.deps.clock.now();
      for (const room of [...this.state.rooms.values()])
        for (const peer of [...room]) if (peer.claims.exp * 1000 <= now) this.drop(peer, CLOSE.expired, 'The participant token expired');
    });
  }
}

function isApiError(err: unknown): err is Error & { status: number } {
  return err instanceof Error && typeof (err as { status?: unknown }).status === 'number';
}
