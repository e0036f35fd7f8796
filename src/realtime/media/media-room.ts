// The media room of the SDK's Cloudflare-SFU mode: each page's two WebRTC transports, what it
// publishes (produce, pause and resume, close), what it receives (consume, close, layer choice),
// who speaks, and who else is in the room with which tracks. A scripted participant may publish
// the sample clip (bot-media.ts, plane/bot-clip.ts) and is then in the room like a page.
//
// The SDK's rules the answers follow: every negotiation is offered by the page except a consume,
// whose answer carries the emulator's offer and whose SDP answer comes back as a renegotiation;
// the page names a consumer by its section's mid; a page publishes what its preset allows and, where
// the preset has a stage, only from the stage; a paused video producer is closed and consumed
// again by every viewer, a paused audio one only muted; the page hears of a host's mute as a pause
// of its own producer that someone else made.
//
// With media off (--media off) a page's publish is still answered, so its own preview and the
// SDK's state stay as they would be, but nothing is forwarded or told to anyone, and a consume is
// refused with the SDK's error.
import type { DomainEvent } from '../../domain/events.js';
import type { Participant } from '../../domain/models.js';
import { publishRefusal } from '../../domain/meetings/stage-rules.js';
import type { Peer } from '../peer.js';
import { TransportClosed, Unserved } from '../unserved.js';
import { decodeAs, type ProtoObject } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';
import { mediaView, type PeerView } from '../room-views.js';
import { BotMedia } from './bot-media.js';
import type { MediaEngine } from './engine.js';
import type { MediaListening } from './media-network.js';
import {
  CLEAR_PATH as CLEAR,
  type BotMediaWish,
  type Direction,
  type LinkConditions,
  type MediaCounts,
  type MediaKind,
  type ProducerInfo,
  type RoomScene,
  type SceneTile,
} from './media-types.js';
import { ConsumerEntry, MediaLedger, ProducerEntry, TransportEntry, type PeerMedia } from './ledger.js';

const { cfMedia: MEDIA } = SDK_EVENTS;

/** media.Target */
const PUBLISHER = 0;
const SUBSCRIBER = 1;
/** media.ProducerKind */
const KIND_NUMBER = { audio: 0, video: 1 } as const;
/** A peer publishes at most this many tracks at once (camera, microphone, screen and its audio, and spares for codec switches). */
export const MAX_PRODUCERS_PER_PEER = 8;
/** A page receives at most this many tracks at once (the SDK asks for at most 35 at a time). */
export const MAX_CONSUMERS_PER_PEER = 100;
/** The SDK's consume error for a track that is not there: it does not ask again. */
const NOT_FOUND_TRACK = 'not_found_track_error';
/** The active speaker changes at most this often (real ms), so that two voices do not flood the pages. */
const SPEAKER_GAP_MS = 1_000;
/** Who a mute from the REST API comes from, as the muted page is told (any id but its own makes the SDK mute itself). */
const HOST_INITIATOR = 'host';
/** selectedPeerDiff priority 1: the loudest. */
const LOUDEST = 1;

interface Description {
  type?: string;
  sdp?: string;
  target?: number;
}

/** media.edge.ConsumePeersRequest */
interface ConsumeRequest {
  requests: { producing_peer_id: string; producer_id?: string; simulcast?: { preferred_rid?: string } }[];
  consuming_transport_id?: string;
}

export interface MediaRoomOptions {
  /** Whether media flows (--media). */
  enabled: boolean;
  /** Real time, for the active speaker's pace (tests give their own). */
  now: () => number;
  /** The peers pinned for everyone in a meeting, which a joining page is given. */
  pinned: (meetingId: string) => string[];
  /** Where the media goes: the engine in this process, or in one of its own. */
  engine: MediaEngine;
}

export class MediaRoomFeature implements RoomFeature {
  private readonly ledger = new MediaLedger();
  private readonly bots = new Map<string, BotMedia>();
  readonly engine: MediaEngine;
  /** Told when what a meeting shows changed: a track published, paused, resumed or ended. */
  private readonly trackListeners: Array<(meetingId: string) => void> = [];
  /** Meeting → its active speaker, and when it last changed. */
  private readonly speakers = new Map<string, { peerId: string; at: number }>();
  /** Transports whose path a media-drop cut, until the page replaces them (or restarts ICE). */
  private readonly cutTransports = new Set<string>();
  /** Pages (by meeting and peer) that joined the media room and have not asked for a transport yet: the plane is warmed for them. */
  private readonly awaited = new Set<string>();

  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [MEDIA.joinRoom, (p, id) => this.joinMediaRoom(p, id)],
    [MEDIA.createWebRTCTransport, (p, id, b) => this.createTransport(p, id, b)],
    [MEDIA.selfJoinComplete, (p, id) => this.selfJoinComplete(p, id)],
    [MEDIA.produce, (p, id, b) => this.produce(p, id, b)],
    [MEDIA.toggleProducer, (p, _id, b) => this.toggleProducer(p, b)],
    [MEDIA.closeProducer, (p, id, b) => this.closeProducer(p, id, b)],
    [MEDIA.consume, (p, id, b) => this.consume(p, id, b)],
    [MEDIA.renegotiateSessionDescription, (p, id, b) => this.renegotiate(p, id, b)],
    [MEDIA.closeConsumer, (p, id, b) => this.closeConsumers(p, id, b)],
    [MEDIA.updateConsumersSimulcastConfig, (p, id, b) => this.preferLayers(p, id, b)],
    [MEDIA.audioActivity, (p, _id, b) => this.audioActivity(p, b)],
  ];

  constructor(
    private readonly state: RoomState,
    private readonly options: MediaRoomOptions,
  ) {
    this.engine = options.engine;
    this.engine.onTransportFailed((transportId) => this.transportFailed(transportId));
    this.engine.onPlaneLost(() => this.planeLost());
    this.engine.onPathRecovered((transportId) => this.pathRecovered(transportId));
  }

  // --- the network between the participants and the plane (network scenarios) ---------------------

  /** The participants of a meeting whose media is in the room: pages with transports, bots with a clip. */
  participantsWithMedia(meetingId: string): string[] {
    const out = new Set<string>();
    for (const page of this.state.pages(meetingId)) if (this.ledger.find(meetingId, page.peerId)) out.add(page.participantId);
    for (const bot of this.bots.values()) if (bot.meetingId === meetingId) out.add(bot.participantId);
    return [...out];
  }

  /** What carries a participant's media: their page's transports, their clip, or nothing. */
  mediaOf(meetingId: string, participantId: string): 'page' | 'bot' | null {
    if (this.transportsOf(meetingId, participantId).length > 0) return 'page';
    return this.bots.has(botKey(meetingId, participantId)) ? 'bot' : null;
  }

  /** Shapes a participant's media by the link the network scenarios give them now (on each transport, and their clip). */
  relink(meetingId: string, participantId: string): void {
    const link = this.state.deps.network.linkOf(meetingId, participantId);
    for (const t of this.transportsOf(meetingId, participantId)) this.shape(t.id, link);
    this.engine.shape(botKey(meetingId, participantId), link);
  }

  /** Cuts the paths of a participant's pages' transports (a media-drop): their ids. Each stays cut until replaced. */
  cutPaths(meetingId: string, participantId: string): string[] {
    const ids = this.transportsOf(meetingId, participantId).map((t) => t.id);
    const link = this.state.deps.network.linkOf(meetingId, participantId);
    for (const id of ids) {
      this.cutTransports.add(id);
      this.shape(id, link);
    }
    return ids;
  }

  /** Lifts the cut of these transports (the media-drop was cleared before the page rebuilt them). */
  restorePaths(ids: readonly string[]): void {
    for (const id of ids) {
      if (!this.cutTransports.delete(id)) continue;
      const held = this.ledger.holderOf(id);
      const participantId = held && [...this.state.pages(held.media.meetingId)].find((p) => p.peerId === held.media.peerId)?.participantId;
      this.shape(id, participantId ? this.state.deps.network.linkOf(held.media.meetingId, participantId) : null);
    }
  }

  private shape(transportId: string, link: LinkConditions | null): void {
    const cut = this.cutTransports.has(transportId) ? 'path' : (link?.cut ?? 'none');
    this.engine.shape(transportId, link || cut !== 'none' ? { up: link?.up ?? CLEAR, down: link?.down ?? CLEAR, cut } : null);
  }

  private transportsOf(meetingId: string, participantId: string): TransportEntry[] {
    const out: TransportEntry[] = [];
    for (const page of this.state.pages(meetingId)) {
      if (page.participantId !== participantId) continue;
      const media = this.ledger.find(meetingId, page.peerId);
      for (const t of [media?.transports.send, media?.transports.recv]) if (t && !t.isClosed) out.push(t);
    }
    return out;
  }

  /** A transport a media-drop cut is gone or on a new path: the drop may be over. */
  private pathRecovered(transportId: string): void {
    if (this.cutTransports.delete(transportId)) this.state.deps.network.pathRecovered(transportId);
  }

  /** How many transports, producers and consumers are open. */
  counts(): MediaCounts {
    return this.ledger.counts();
  }

  /** The media plane's own process, while one runs. */
  get planePid(): number | null {
    return this.engine.pid;
  }

  /** `listener` hears of every meeting whose tracks changed (published, paused, resumed, ended). */
  onTracksChanged(listener: (meetingId: string) => void): void {
    this.trackListeners.push(listener);
  }

  /**
   * The meeting as a recording shows it: who is in it and on its stage, in the order they joined,
   * with the tracks they show (a paused track shows nothing), and who is pinned for everyone.
   */
  scene(meetingId: string): RoomScene {
    const meeting = this.state.meeting(meetingId);
    const tiles: SceneTile[] = [];
    for (const present of this.state.present(meetingId)) {
      const participantId = present.sdk?.participantId ?? present.peerId;
      const participant = this.state.deps.participants.find(meeting.orgId, participantId);
      if (!participant || this.state.deps.stage.statusOf(meeting, participant) !== 'ON_STAGE') continue;
      const tile: SceneTile = { key: present.peerId, name: present.peer.display_name, camera: null, microphone: null, screen: null, screenAudio: null };
      for (const p of this.options.enabled ? (this.ledger.find(meetingId, present.peerId)?.producers.values() ?? []) : []) {
        if (p.isPaused || p.isClosed) continue;
        const slot = p.info.screenShare ? (p.kind === 'video' ? 'screen' : 'screenAudio') : p.kind === 'video' ? 'camera' : 'microphone';
        tile[slot] = p.id;
      }
      tiles.push(tile);
    }
    return { meetingId, tiles, pinned: this.options.pinned(meetingId) };
  }

  private tracksChanged(meetingId: string): void {
    for (const listener of this.trackListeners) listener(meetingId);
  }

  /** Where the media plane's sockets listen while they are open. */
  get listening(): MediaListening | null {
    return this.engine.listening;
  }

  /** The emulator's stop: everything is released and the media plane ends. */
  close(): Promise<void> {
    this.releaseAll();
    return this.engine.close();
  }

  onDomainEvent(e: DomainEvent): void {
    if (e.type === 'participants.muted') return this.muteParticipants(e.meeting.id, new Set(e.participantIds), e.kind, e.by);
    // A bot that leaves the stage stops its clip (a page stops its own tracks when it leaves).
    if (e.type === 'stage.changed' && e.previous === 'ON_STAGE') return this.stopBot(e.meeting.id, e.participant.id);
    // A scripted participant is in the media room as soon as they join (a page is once its own join completes).
    if (e.type === 'participant.joined' && this.state.acting?.peer.participantId !== e.participant.id)
      this.tellMediaRoom(e.meeting.id, null, MEDIA.peerJoinedBroadcast, 'media.edge.PeerJoinBroadcastResponse', {
        participant: this.roomParticipant(e.participant, e.participant.id),
      });
  }

  /** A peer left the meeting (a page, or a scripted participant): what it held is released, and the media room is told. */
  onPeerLeft(meetingId: string, peerId: string): void {
    this.releasePeer(meetingId, peerId);
    this.tellMediaRoom(meetingId, null, MEDIA.peerLeaveBroadcast, 'media.edge.PeerLeaveBroadcastResponse', { participant_id: peerId });
  }

  onPeerGone(peer: Peer): void {
    this.releasePeer(peer.meetingId, peer.peerId);
  }

  onReset(): void {
    this.releaseAll();
    this.engine.reset();
  }

  private releaseAll(): void {
    for (const bot of this.bots.values()) bot.stop();
    this.bots.clear();
    this.ledger.releaseAll();
    this.speakers.clear();
    this.cutTransports.clear();
    this.awaited.clear();
  }

  /** An organization's reset: its bots stop (its pages are dropped by the rooms). */
  onOrgReset(orgId: string): void {
    for (const bot of [...this.bots.values()]) if (bot.orgId === orgId) this.releasePeer(bot.meetingId, bot.participantId);
  }

  /**
   * Turns a scripted participant's camera or microphone on or off: the sample clip, published like
   * a page's tracks and told to every page of the meeting. Answers what is on afterwards.
   */
  async botMedia(participant: Participant, wish: BotMediaWish): Promise<Record<MediaKind, boolean>> {
    if (!this.options.enabled) throw new Unserved('Media is off on this emulator (--media off): bots publish nothing');
    const key = botKey(participant.meetingId, participant.id);
    let bot = this.bots.get(key);
    if (!bot) {
      if (!wish.audio && !wish.video) return { audio: false, video: false };
      bot = new BotMedia(participant.meetingId, participant.orgId, participant.id, this.engine, () => this.state.newId());
      this.bots.set(key, bot);
    }
    const { created, toggled } = await bot.apply(wish);
    if (this.bots.get(key) !== bot) return { audio: false, video: false };
    // The clip goes through the bot's network (the plane may have started with this clip).
    if (created.length > 0) this.engine.shape(bot.key, this.state.deps.network.linkOf(participant.meetingId, participant.id));
    const media = this.ledger.peer(participant.meetingId, participant.id);
    for (const p of created) {
      media.producers.set(p.id, p);
      this.announceProducer(participant.meetingId, p, MEDIA.peerProducerCreateBroadcast, 'media.edge.PeerProducerCreateBroadcastResponse');
    }
    for (const p of toggled) this.announceToggle(participant.meetingId, p, null);
    if (bot.isOn('audio')) this.speaking(participant.meetingId, participant.id);
    return { audio: bot.isOn('audio'), video: bot.isOn('video') };
  }

  /**
   * A host turned participants' microphones or cameras off (the REST API, or a host's page): each
   * live track of that kind is paused, the others are told, and the publisher's page hears it as a
   * pause someone else made (the host's peer id, or `host` for the REST API), so the SDK turns its
   * microphone or camera off as it does for a host's mute. A bot's track goes off like a page's.
   */
  private muteParticipants(meetingId: string, participantIds: Set<string>, kind: MediaKind, by: string | null): void {
    const initiator = by === null ? HOST_INITIATOR : this.state.peerIdOf(meetingId, by);
    for (const page of this.state.pages(meetingId)) {
      if (!participantIds.has(page.participantId)) continue;
      for (const producer of this.ledger.find(meetingId, page.peerId)?.producers.values() ?? []) {
        if (producer.kind !== kind || producer.info.screenShare || producer.isPaused) continue;
        producer.setPaused(true);
        if (!this.options.enabled) continue;
        this.announceToggle(meetingId, producer, null);
        if (page.mediaJoined && !page.gone)
          page.send(MEDIA.peerProducerToggleBroadcast, this.state.newId(), 'media.edge.PeerProducerToggleBroadcastResponse', {
            participant_id: page.peerId,
            producer_state: this.producerState(producer),
            initiator_participant_id: initiator,
          });
      }
    }
    for (const id of participantIds) {
      const bot = this.bots.get(botKey(meetingId, id));
      if (bot?.isOn(kind)) void bot.apply({ [kind]: false }).then(({ toggled }) => toggled.forEach((p) => this.announceToggle(meetingId, p, null)));
    }
  }

  private stopBot(meetingId: string, participantId: string): void {
    const bot = this.bots.get(botKey(meetingId, participantId));
    if (bot) void bot.apply({ audio: false, video: false }).then(({ toggled }) => toggled.forEach((p) => this.announceToggle(meetingId, p, null)));
  }

  // --- joining ---------------------------------------------------------------------------------

  /** The media room's join; a page joining again (a reconnect that kept its transports) publishes anew, so its old tracks end. */
  private joinMediaRoom(peer: Peer, id: string): void {
    const media = this.ledger.find(peer.meetingId, peer.peerId);
    for (const p of [...(media?.producers.values() ?? [])]) this.endProducer(peer.meetingId, media!, p);
    // The page's transports follow once its SDK has made its offers: the plane starts meanwhile.
    if (this.options.enabled) {
      this.awaited.add(botKey(peer.meetingId, peer.peerId));
      void this.engine.warm();
    }
    peer.send(MEDIA.joinRoom, id, 'media.edge.PeerJoinResponse');
  }

  private async createTransport(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    this.awaited.delete(botKey(peer.meetingId, peer.peerId));
    const request = decodeAs<{ consuming: boolean; description?: Description }>('media.CreateTransportRequest', payload);
    const offer = request.description?.sdp;
    if (!offer) throw new Unserved('A transport needs an SDP offer');
    const direction: Direction = request.consuming ? 'recv' : 'send';
    await this.ledger
      .peer(peer.meetingId, peer.peerId)
      .inTurn(direction, () => this.openTransport(peer, id, direction, offer, request.description?.target ?? 0));
  }

  private async openTransport(peer: Peer, id: string, direction: Direction, offer: string, target: number): Promise<void> {
    // The page may have gone while an earlier transport of this direction was opened.
    if (peer.gone) return;
    const transport = new TransportEntry(this.state.newId(), direction, this.engine, (id) => this.pathRecovered(id));
    const answer = await this.engine.openTransport(transport.id, direction, offer);
    if (peer.gone) return transport.close();
    const link = this.state.deps.network.linkOf(peer.meetingId, peer.participantId);
    if (link) this.shape(transport.id, link);
    // A second transport of one direction replaces the first (the SDK rebuilds a failed one).
    const media = this.ledger.peer(peer.meetingId, peer.peerId);
    for (const p of media.closeTransport(direction))
      this.announceProducer(peer.meetingId, p, MEDIA.peerProducerCloseBroadcast, 'media.edge.PeerProducerCloseBroadcastResponse');
    media.transports[direction] = transport;
    peer.send(MEDIA.createWebRTCTransport, id, 'media.CreateTransportResponse', {
      transport_id: transport.id,
      description: { type: 'answer', sdp: answer, target },
      producer_ids: [],
    });
  }

  /** ICE or DTLS failed for good: the transport and what it carried are released (the SDK makes a new one if the page is still there). */
  private transportFailed(transportId: string): void {
    const held = this.ledger.holderOf(transportId);
    if (!held) return;
    this.state.deps.logger.info({ peer: held.media.peerId, direction: held.direction }, 'SDK media transport failed; released');
    this.releaseTransport(held.media, held.direction);
  }

  /** A transport released without its page's word: what it carried is closed and told to the others. */
  private releaseTransport(media: PeerMedia, direction: Direction): void {
    for (const p of media.closeTransport(direction))
      this.announceProducer(media.meetingId, p, MEDIA.peerProducerCloseBroadcast, 'media.edge.PeerProducerCloseBroadcastResponse');
  }

  /**
   * The plane's process died: every transport fails as for a lost network (the pages make new
   * ones), and the bots' clips end (a bot's camera and microphone are off until turned on again).
   */
  private planeLost(): void {
    for (const media of [...this.ledger.peers()]) for (const direction of ['send', 'recv'] as const) this.releaseTransport(media, direction);
    for (const [key, bot] of [...this.bots]) {
      this.bots.delete(key);
      const media = this.ledger.find(bot.meetingId, bot.participantId);
      if (media) for (const p of bot.producers.values()) this.endProducer(bot.meetingId, media, p);
      bot.stop();
    }
  }

  private selfJoinComplete(peer: Peer, id: string): void {
    const meeting = this.state.meeting(peer.meetingId);
    const others = this.state.others(peer).filter((o) => o.sdk === null || o.sdk.mediaJoined);
    peer.mediaJoined = true;
    const preset = this.presetOf(peer);
    peer.send(MEDIA.selfJoinComplete, id, 'media.edge.PeerJoinCompleteResponse', {
      room_state: {
        display_title: meeting.title ?? '',
        locked_mode: false,
        room_uuid: meeting.session?.id ?? '',
        room_name: meeting.id,
        current_peer_id: peer.peerId,
        pinned_peer_ids: this.options.pinned(peer.meetingId),
      },
      participants: others.map((o) => this.roomParticipantOf(peer.meetingId, o.peer.peer_id, o.peer)),
      selected_peers: { audio_peers: [], compulsory_peers: [] },
      // What the preset allows on a desktop (the SDK itself reads the preset).
      max_preferred_streams: preset?.config.max_video_streams.desktop ?? 0,
    });
    const self = this.state.view(this.state.participantOf(peer), peer.peerId);
    this.tellMediaRoom(peer.meetingId, peer, MEDIA.peerJoinedBroadcast, 'media.edge.PeerJoinBroadcastResponse', {
      participant: this.roomParticipantOf(peer.meetingId, peer.peerId, self),
    });
    const speaker = this.speakers.get(peer.meetingId);
    if (speaker)
      peer.send(MEDIA.selectedPeerDiff, this.state.newId(), 'media.edge.SelectedPeersDiffResponse', {
        entries: [{ peer_id: speaker.peerId, priority: LOUDEST }],
      });
  }

  // --- publishing ------------------------------------------------------------------------------

  private async produce(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    const request = decodeAs<{
      kind: string;
      paused: boolean;
      screen_share: boolean;
      description?: Description;
      app_data?: string;
      mime_type?: string;
      producing_transport_id?: string;
    }>('media.edge.ProducerCreateRequest', payload);
    const kind = request.kind;
    if (kind !== 'audio' && kind !== 'video') throw new Unserved(`A producer's kind is audio or video, not "${kind}"`);
    this.mayProduce(peer, kind, request.screen_share);
    const media = this.ledger.peer(peer.meetingId, peer.peerId);
    const transport = media.transport(request.producing_transport_id, 'send');
    if (!transport) throw new Unserved('Produce on this page’s own send transport (create it first)');
    if (media.producers.size >= MAX_PRODUCERS_PER_PEER) throw new Unserved(`A peer publishes at most ${MAX_PRODUCERS_PER_PEER} tracks at once`);
    const offer = request.description?.sdp;
    if (!offer || request.description?.type !== 'offer') throw new Unserved('A produce needs the send transport’s SDP offer');
    const mid = midOf(request.app_data);
    if (mid === undefined) throw new Unserved('A produce names its section’s mid in app_data');
    const info: ProducerInfo = {
      id: this.state.newId(),
      peerId: peer.peerId,
      participantId: peer.participantId,
      kind,
      screenShare: request.screen_share,
      appData: request.app_data ?? '{}',
      mimeType: request.mime_type || (kind === 'audio' ? 'audio/opus' : 'video/VP8'),
      transportId: transport.id,
    };
    const answer = await this.engine.produce(info, request.paused, offer, mid);
    const producer = new ProducerEntry(info, request.paused, this.engine);
    if (peer.gone || transport.isClosed) return producer.close();
    media.producers.set(producer.id, producer);
    peer.send(MEDIA.produce, id, 'media.edge.ProducerCreateResponse', {
      status: true,
      producer_id: producer.id,
      description: { type: 'answer', sdp: answer, target: PUBLISHER },
    });
    if (!this.options.enabled) return;
    this.announceProducer(peer.meetingId, producer, MEDIA.peerProducerCreateBroadcast, 'media.edge.PeerProducerCreateBroadcastResponse');
    if (kind === 'audio' && !request.paused && !request.screen_share) this.speaking(peer.meetingId, peer.peerId);
  }

  /** A page's camera or microphone off or on: no answer is awaited; the others are told. */
  private toggleProducer(peer: Peer, payload: Uint8Array): void {
    const { producer_id, pause } = decodeAs<{ producer_id: string; pause: boolean }>('media.edge.ProducerToggleRequest', payload);
    const producer = this.ownProducer(peer, producer_id);
    if (producer.isPaused === pause) return;
    // A resume publishes again: off the stage it is refused, as a new publish is.
    if (!pause) this.mayProduce(peer, producer.kind, producer.info.screenShare);
    producer.setPaused(pause);
    if (this.options.enabled) this.announceToggle(peer.meetingId, producer, peer);
  }

  private async closeProducer(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    const { producer_id, description } = decodeAs<{ producer_id: string; description?: Description }>('media.edge.ProducerCloseRequest', payload);
    const producer = this.ownProducer(peer, producer_id);
    const media = this.ledger.peer(peer.meetingId, peer.peerId);
    this.endProducer(peer.meetingId, media, producer);
    const transport = media.transport(producer.info.transportId, 'send');
    const answer = description?.sdp && transport ? await this.engine.answer(transport.id, description.sdp) : undefined;
    peer.send(MEDIA.closeProducer, id, 'media.edge.ProducerClosingResponse', answer ? { description: { type: 'answer', sdp: answer, target: PUBLISHER } } : {});
  }

  /** Refuses a publish the participant's preset does not allow, or off the stage (the SDK checks the same before it asks). */
  private mayProduce(peer: Peer, kind: MediaKind, screenShare: boolean): void {
    const preset = this.presetOf(peer);
    if (!preset) throw new Unserved(`Participant ${peer.participantId} has no preset`);
    const participant = this.state.participantOf(peer);
    const refusal = publishRefusal(preset, screenShare ? 'screenshare' : kind, this.state.deps.stage.statusOf(this.state.meeting(peer.meetingId), participant));
    if (refusal) throw new Unserved(refusal);
  }

  // --- receiving -------------------------------------------------------------------------------

  private async consume(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    const request = decodeAs<ConsumeRequest>('media.edge.ConsumePeersRequest', payload);
    if (!this.options.enabled) throw new Unserved('Media is off on this emulator (--media off): no track can be received');
    const media = this.ledger.peer(peer.meetingId, peer.peerId);
    await media.inTurn('consume', () => this.consumeNow(peer, id, request, media));
  }

  private async consumeNow(peer: Peer, id: string, request: ConsumeRequest, media: PeerMedia): Promise<void> {
    // The page may have gone, or its transport been replaced, while an earlier consume was served.
    if (peer.gone) return;
    const transport = media.transport(request.consuming_transport_id, 'recv');
    if (!transport) throw new Unserved('Consume on this page’s own receive transport (create it first)');
    const map: Record<string, ProtoObject> = {};
    const added: { producer: ProducerEntry; consumerId: string; layer: string }[] = [];
    const consumed = new Set([...media.consumers.values()].map((c) => c.producer.id));
    for (const r of request.requests) {
      const producerId = r.producer_id ?? '';
      const producer = this.ledger.producer(peer.meetingId, producerId);
      if (!producer || producer.info.peerId === peer.peerId || producer.isClosed) {
        map[producerId] = { consumer_id: '', producer_track: { track_id: '', producer_id: producerId, stream_id: '' }, error_code: NOT_FOUND_TRACK };
        continue;
      }
      if (consumed.has(producer.id)) continue;
      if (media.consumers.size + added.length >= MAX_CONSUMERS_PER_PEER) throw new Unserved(`A page receives at most ${MAX_CONSUMERS_PER_PEER} tracks at once`);
      consumed.add(producer.id);
      added.push({ producer, consumerId: this.state.newId(), layer: r.simulcast?.preferred_rid || 'f' });
    }
    let offer: string | undefined;
    const consumers: ConsumerEntry[] = [];
    if (added.length > 0) {
      const made = await this.engine.consume(
        transport.id,
        added.map((a) => ({ consumerId: a.consumerId, producerId: a.producer.id, layer: a.layer })),
      );
      offer = made.offer;
      added.forEach((a, i) => consumers.push(new ConsumerEntry(a.consumerId, made.mids[i] ?? '', a.producer, this.engine)));
      // Released while the offer was made (the transport closes first, but a finished offer stays finished).
      if (peer.gone || transport.isClosed) {
        for (const consumer of consumers) consumer.close();
        throw new TransportClosed();
      }
      for (const consumer of consumers) {
        const { producer } = consumer;
        media.consumers.set(consumer.mid, consumer);
        map[producer.id] = {
          consumer_id: consumer.id,
          producer_state: this.producerState(producer),
          producer_track: { track_id: consumer.id, producer_id: producer.id, stream_id: consumer.mid },
        };
      }
    }
    this.state.deps.logger.debug(
      { peer: peer.peerId, asked: request.requests.map((r) => r.producer_id), added: consumers.map((c) => c.mid), open: [...media.consumers.keys()] },
      'SDK media consume',
    );
    peer.send(MEDIA.consume, id, 'media.edge.ConsumePeerResponse', {
      status: true,
      consumer_ids_map: { map },
      ...(offer ? { description: { type: 'offer', sdp: offer, target: SUBSCRIBER } } : {}),
    });
  }

  /** The page's answer to the emulator's consume offer (or, should it offer, its offer answered). */
  private async renegotiate(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    const { transport_id, description } = decodeAs<{ transport_id: string; description?: Description }>('media.RenegotiateRequest', payload);
    const media = this.ledger.find(peer.meetingId, peer.peerId);
    const transport = media?.transport(transport_id, 'recv') ?? media?.transport(transport_id, 'send');
    if (!transport || transport.id !== transport_id) throw new Unserved(`Transport ${transport_id} is not this page’s`);
    if (!description?.sdp) throw new Unserved('A renegotiation needs an SDP description');
    if (description.type === 'answer') {
      await this.engine.accept(transport.id, description.sdp);
      return peer.send(MEDIA.renegotiateSessionDescription, id, 'media.RenegotiateResponse', { transport_id });
    }
    const answer = await this.engine.answer(transport.id, description.sdp);
    peer.send(MEDIA.renegotiateSessionDescription, id, 'media.RenegotiateResponse', {
      transport_id,
      description: { type: 'answer', sdp: answer, target: description.target ?? SUBSCRIBER },
    });
  }

  /** The page stopped receiving some tracks (named by their sections' mids) and offers the change. */
  private async closeConsumers(peer: Peer, id: string, payload: Uint8Array): Promise<void> {
    const { consumer_ids, description, consuming_transport_id } = decodeAs<{
      consumer_ids: string[];
      description?: Description;
      consuming_transport_id?: string;
    }>('media.edge.ConsumerCloseRequest', payload);
    const media = this.ledger.find(peer.meetingId, peer.peerId);
    const transport = media?.transport(consuming_transport_id, 'recv');
    if (!media || !transport) throw new Unserved('Close consumers on this page’s own receive transport');
    for (const mid of consumer_ids) {
      media.consumers.get(mid)?.close();
      media.consumers.delete(mid);
    }
    const answer = description?.sdp && description.type === 'offer' ? await this.engine.answer(transport.id, description.sdp) : undefined;
    peer.send(
      MEDIA.closeConsumer,
      id,
      'media.edge.ConsumerClosingResponse',
      answer ? { description: { type: 'answer', sdp: answer, target: SUBSCRIBER } } : {},
    );
  }

  /** The page shows a tile smaller than the video: a lower simulcast layer is enough (by mid; the SDK puts the consumer id where the producer id goes). */
  private preferLayers(peer: Peer, id: string, payload: Uint8Array): void {
    const { requests } = decodeAs<{ requests: { mid: string; simulcast?: { preferred_rid?: string } }[] }>(
      'media.edge.UpdateConsumersSimulcastConfigRequest',
      payload,
    );
    const media = this.ledger.find(peer.meetingId, peer.peerId);
    for (const r of requests) if (r.simulcast?.preferred_rid) media?.consumers.get(r.mid)?.prefer(r.simulcast.preferred_rid);
    peer.send(MEDIA.updateConsumersSimulcastConfig, id, null);
  }

  /** The page's microphone level (every 400 ms while it is live): a voice makes its peer the active speaker. */
  private audioActivity(peer: Peer, payload: Uint8Array): void {
    const { producer_id, silent } = decodeAs<{ producer_id: string; silent: boolean }>('media.AudioActivityRequest', payload);
    const producer = this.ledger.find(peer.meetingId, peer.peerId)?.producers.get(producer_id);
    if (!producer || producer.kind !== 'audio' || producer.isPaused || silent || !this.options.enabled) return;
    this.speaking(peer.meetingId, peer.peerId);
  }

  private speaking(meetingId: string, peerId: string): void {
    const now = this.options.now();
    const current = this.speakers.get(meetingId);
    if (current?.peerId === peerId || (current && now - current.at < SPEAKER_GAP_MS)) return;
    this.speakers.set(meetingId, { peerId, at: now });
    this.tellMediaRoom(meetingId, null, MEDIA.selectedPeerDiff, 'media.edge.SelectedPeersDiffResponse', { entries: [{ peer_id: peerId, priority: LOUDEST }] });
  }

  // --- what the media room is told ---------------------------------------------------------------

  private announceProducer(meetingId: string, producer: ProducerEntry, event: number, type: string): void {
    this.tracksChanged(meetingId);
    this.tellMediaRoom(meetingId, producer.info.peerId, event, type, { participant_id: producer.info.peerId, producer_state: this.producerState(producer) });
  }

  /** A pause or resume, told to the others; a pause by someone else (`initiator`) is told to the publisher too, whose page then mutes itself. */
  private announceToggle(meetingId: string, producer: ProducerEntry, initiator: Peer | null): void {
    this.tracksChanged(meetingId);
    const body = {
      participant_id: producer.info.peerId,
      producer_state: this.producerState(producer),
      ...(initiator ? { initiator_participant_id: initiator.peerId } : {}),
    };
    this.tellMediaRoom(meetingId, producer.info.peerId, MEDIA.peerProducerToggleBroadcast, 'media.edge.PeerProducerToggleBroadcastResponse', body);
  }

  /** One push to every page in the media room, but the one named (by peer id or page). */
  private tellMediaRoom(meetingId: string, except: Peer | string | null, event: number, type: string, body: ProtoObject): void {
    for (const other of this.state.pages(meetingId)) {
      if (!other.mediaJoined || other.gone || other === except || other.peerId === except) continue;
      other.send(event, this.state.newId(), type, body);
    }
  }

  private endProducer(meetingId: string, media: PeerMedia, producer: ProducerEntry): void {
    media.producers.delete(producer.id);
    producer.close();
    if (this.options.enabled) this.announceProducer(meetingId, producer, MEDIA.peerProducerCloseBroadcast, 'media.edge.PeerProducerCloseBroadcastResponse');
  }

  private releasePeer(meetingId: string, peerId: string): void {
    const key = botKey(meetingId, peerId);
    // The last page the plane was warmed for left before asking for a transport: a plane that holds nothing may end.
    if (this.awaited.delete(key) && this.awaited.size === 0) this.engine.cool();
    this.bots.get(key)?.stop();
    this.bots.delete(key);
    this.ledger.release(meetingId, peerId);
    if (this.speakers.get(meetingId)?.peerId === peerId) this.speakers.delete(meetingId);
    this.tracksChanged(meetingId);
  }

  // --- views -----------------------------------------------------------------------------------

  private producerState(producer: ProducerEntry): ProtoObject {
    const { info } = producer;
    return {
      producer_id: info.id,
      kind: KIND_NUMBER[info.kind],
      pause: producer.isPaused,
      screen_share: info.screenShare,
      app_data: info.appData,
      producing_transport_id: info.transportId,
      mime_type: info.mimeType,
    };
  }

  /** A peer of the media room (media.edge.RoomParticipants), with the tracks it publishes. */
  private roomParticipantOf(meetingId: string, peerId: string, view: PeerView & ProtoObject): ProtoObject {
    const producers = this.options.enabled ? [...(this.ledger.find(meetingId, peerId)?.producers.values() ?? [])] : [];
    return mediaView(
      view,
      producers.map((p) => this.producerState(p)),
    );
  }

  private roomParticipant(participant: Participant, peerId: string): ProtoObject {
    return this.roomParticipantOf(participant.meetingId, peerId, this.state.view(participant, peerId));
  }

  private ownProducer(peer: Peer, producerId: string): ProducerEntry {
    const producer = this.ledger.find(peer.meetingId, peer.peerId)?.producers.get(producerId);
    if (!producer) throw new Unserved(`Producer ${producerId} is not one of this page’s`);
    return producer;
  }

  private presetOf(peer: Peer) {
    return this.state.deps.participants.presetById(peer.claims.orgId, this.state.participantOf(peer).presetId);
  }
}

/** The mid the SDK puts in a producer's app_data (its JSON). */
function midOf(appData: string | undefined): string | undefined {
  if (!appData) return undefined;
  try {
    const parsed: unknown = JSON.parse(appData);
    const mid = parsed && typeof parsed === 'object' ? (parsed as { mid?: unknown }).mid : undefined;
    return typeof mid === 'string' || typeof mid === 'number' ? String(mid) : undefined;
  } catch {
    return undefined;
  }
}

function botKey(meetingId: string, participantId: string): string {
  return `${meetingId}\u0000${participantId}`;
}
