// What every feature of a room shares: the connected pages of each meeting, the page whose request
// is being served, and the views of who is present. Features (presence, chat, polls, …, the media
// room) each live in a module of their own and see the rooms only through this one type; the
// dispatch table (dispatch.ts) lists them.
import type { Clock } from '../core/clock.js';
import type { EventBus } from '../core/events.js';
import type { IdGenerator } from '../core/ids.js';
import type { DomainEvent } from '../domain/events.js';
import type { SessionsService } from '../domain/meetings/sessions.service.js';
import type { ConnectedMeetingsService } from '../domain/meetings/connected-meetings.service.js';
import type { Meeting, Participant, Session } from '../domain/models.js';
import type { ParticipantsService } from '../domain/participants/participants.service.js';
import type { RecordingsService } from '../domain/recordings/recordings.service.js';
import type { LivestreamsService } from '../domain/livestreams/livestreams.service.js';
import type { LivestreamMediaOptions } from './media/room-livestreams.js';
import type { SessionHistoryService } from '../domain/sessions/session-history.service.js';
import type { WaitingRoomService } from '../domain/meetings/waiting-room.service.js';
import type { StageService } from '../domain/meetings/stage.service.js';
import type { Logger } from '../logger.js';
import type { MediaNetwork } from './media/media-network.js';
import type { NetworkTrouble } from './network/network-trouble.js';
import { Unserved, type Peer } from './peer.js';
import type { ProtoObject } from './protocol/codec.js';
import { peerView, type PeerView } from './room-views.js';

/** What the chat features ask of the session history. */
type ChatOperations =
  'sendChat' | 'editChat' | 'pinChat' | 'deleteChat' | 'chatPage' | 'createChannel' | 'updateChannel' | 'markChannelRead' | 'channelsOf' | 'channel';

export interface RoomsDeps {
  bus: EventBus<DomainEvent>;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** Told of every move of the clock: tokens expire on the emulator's clock. */
  onClockChange(listener: () => void): void;
  /** Participants, and their presets (what they may publish). */
  participants: Pick<ParticipantsService, 'find' | 'presetById' | 'newToken'>;
  /** Whether audio and video flow between the pages (--media). */
  media: 'on' | 'off';
  /** Where the media plane runs (--media-plane). */
  mediaPlane: 'process' | 'inline';
  /** How long the plane's process stays once it holds nothing (--media-plane-idle-ms, real ms). */
  mediaPlaneIdleMs: number;
  /** Where the media plane listens (--host, --media-port, --media-announce). */
  mediaNetwork: MediaNetwork;
  sessions: Pick<SessionsService, 'leave' | 'kick' | 'kickAll' | 'locateMeeting'>;
  /** Who waits to join a meeting with a waiting room; a page joins through it. */
  waitingRoom: Pick<WaitingRoomService, 'enter' | 'admit' | 'reject' | 'leave' | 'dropPass' | 'list' | 'mayAdmit'>;
  /** Who stands where on a meeting's stage, and the moves on it. */
  stage: Pick<StageService, 'statusOf' | 'mayManage' | 'own' | 'manage'>;
  history: Pick<SessionHistoryService, 'get' | 'createPoll' | 'vote' | 'mute' | 'muteAll' | ChatOperations>;
  /** Recordings: the room's state of them, and what the recorder makes of them. */
  recordings: Pick<RecordingsService, 'forMeetingWithStatus' | 'allWithStatus' | 'find' | 'fail' | 'files' | 'fileNames'>;
  /** Livestreams: what makes them LIVE and IDLE once their picture is real. */
  livestreams: Pick<LivestreamsService, 'allInState' | 'find' | 'goLive' | 'endIngest' | 'fail'>;
  /** How livestreams' pictures are packaged (the ffmpeg, the segments' length); null: the simulator carries them. */
  livestreamMedia: LivestreamMediaOptions | null;
  /** Emulated ms per real ms on a real clock (--time-scale): how fast a recording's timeline moves. */
  timeScale: number;
  /** Breakout rooms: the families of meetings and the moves between them. */
  connectedMeetings: ConnectedMeetingsService;
  /** A livestream's HLS playback URL (the one the REST API hands out). */
  playbackUrl(livestreamId: string): string;
  /** An organization's name: who started a poll through the REST API, as the pages name them. */
  organizationName(orgId: string): string;
  /** The network scenarios of the control API: what they do to the pages' sockets and media, and the reconnect window of a lost page. */
  network: NetworkTrouble;
}

/** Answers one request of a page: `id` is the request's, for the answer. */
export type Handler = (peer: Peer, id: string, payload: Uint8Array) => void | Promise<void>;

/** One participant present in a meeting, as the pages see them. */
export interface Presence {
  peerId: string;
  /** Their page, or null for a scripted participant. */
  sdk: Peer | null;
  peer: ProtoObject & PeerView;
}

/** A feature of a room: the socket events it answers, and what it does when the meeting or a page changes. */
export interface RoomFeature {
  readonly handlers: ReadonlyArray<readonly [event: number, handler: Handler]>;
  /** A domain event (of any meeting: a feature ignores those with no pages of its own). */
  onDomainEvent?(e: DomainEvent): void;
  /** A page's socket is gone (closed or removed); `depart` is false when its state is being replaced (reset, import). */
  onPeerGone?(peer: Peer, depart: boolean): void;
  /** A peer left the meeting: a page (by its peer id) or a scripted participant (by their participant id). */
  onPeerLeft?(meetingId: string, peerId: string): void;
  /** One organization's state is being replaced (its pages are dropped as well). */
  onOrgReset?(orgId: string): void;
  /** The last page of a meeting is gone. */
  onRoomEmpty?(meetingId: string): void;
  /** Every room is forgotten (shutdown, reset). */
  onReset?(): void;
}

export class RoomState {
  /** Meeting id → its connected pages. */
  readonly rooms = new Map<string, Set<Peer>>();
  /** The page whose request is being served: its own announcement reaches it as the answer, not as news. */
  acting: { peer: Peer; id: string } | undefined;
  /** The page that is leaving by itself: the leave the domain announces is its own. */
  departing: Peer | undefined;

  constructor(readonly deps: RoomsDeps) {}

  /** A fresh id for a push the page did not ask for. */
  newId(): string {
    return this.deps.ids.uuid();
  }

  pages(meetingId: string): Iterable<Peer> {
    return this.rooms.get(meetingId) ?? [];
  }

  /** Runs a domain call on behalf of a page's request, so that what it announces reaches that page as the answer. */
  actingFor<T>(peer: Peer, id: string, run: () => T): T {
    this.acting = { peer, id };
    try {
      return run();
    } finally {
      this.acting = undefined;
    }
  }

  /** One push to every joined page of a meeting; the page whose request caused it hears it as the answer (its request's id). */
  tell(meetingId: string, event: number, type: string, body: ProtoObject): void {
    for (const peer of this.pages(meetingId))
      if (peer.roomJoined && !peer.gone) peer.send(event, peer === this.acting?.peer ? this.acting.id : this.newId(), type, body);
  }

  meeting(meetingId: string): Meeting {
    return this.deps.sessions.locateMeeting(meetingId);
  }

  participantOf(peer: Peer): Participant {
    const p = this.deps.participants.find(peer.claims.orgId, peer.participantId);
    if (!p) throw new Unserved(`Participant ${peer.participantId} no longer exists`);
    return p;
  }

  /** The peer id a participant has in a meeting's rooms: their page's, or their participant id when scripted. */
  peerIdOf(meetingId: string, participantId: string): string {
    for (const p of this.pages(meetingId)) if (p.participantId === participantId && p.roomJoined) return p.peerId;
    return participantId;
  }

  /** Everyone present in the meeting: its pages by their peer ids, scripted participants by their participant ids. */
  present(meetingId: string): Presence[] {
    const meeting = this.meeting(meetingId);
    const out: Presence[] = [];
    // A page whose socket was lost is still present (with its peer id) while it may come back.
    const pages = [...this.pages(meetingId)].filter((p) => p.roomJoined && (!p.gone || p.lost));
    for (const participant of this.presentParticipants(meeting)) {
      const own = pages.filter((p) => p.participantId === participant.id);
      if (own.length === 0) out.push({ peerId: participant.id, sdk: null, peer: this.view(participant, participant.id) });
      for (const p of own) out.push({ peerId: p.peerId, sdk: p, peer: this.view(participant, p.peerId) });
    }
    return out;
  }

  /** A participant as a peer of the socket room, under a peer id, standing where they stand on the stage. */
  view(participant: Participant, peerId: string): ProtoObject & PeerView {
    return peerView(participant, peerId, this.deps.stage.statusOf(this.meeting(participant.meetingId), participant));
  }

  /** Everyone present but the page itself. */
  others(peer: Peer): Presence[] {
    return this.present(peer.meetingId).filter((o) => o.sdk !== peer);
  }

  /** The meeting's LIVE session, if it has one. */
  sessionOf(meeting: Meeting): Session | undefined {
    if (!meeting.session || meeting.session.endedAt !== null) return undefined;
    return this.deps.history.get(meeting.orgId, meeting.session.id);
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
}
