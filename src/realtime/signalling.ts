// The web SDK's signalling socket: wss://socket-edge.<base>/ws?roomID&peerID&authToken&…
// The listeners hand every HTTP upgrade here. An upgrade for another path, or one whose token
// does not admit it, is answered with a plain HTTP error before any WebSocket exists, so a
// stray client learns why instead of hanging. An admitted socket carries binary frames (a
// protobuf envelope per frame, see protocol/codec.ts) and the text pings "2"/"3"; the room it
// joins (rooms.ts, and the room features of dispatch.ts) answers its requests from the emulator's state.
//
// ws, protobufjs and werift are loaded on the first upgrade: most runs never open a socket.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Clock } from '../core/clock.js';
import type { Scheduler } from '../core/scheduler.js';
import type { Logger } from '../logger.js';
import type { ParticipantClaims } from '../domain/participants/participant-tokens.js';
import type { Livestream, Organization, Participant } from '../domain/models.js';
import { NetworkTrouble, type NetworkView } from './network/network-trouble.js';
import type { ScenarioRequest } from './network/network-conditions.js';
import type { MediaListening } from './media/media-network.js';
import type { BotMediaWish, MediaCounts, MediaKind } from './media/media-types.js';
import type { RealtimeRooms, RoomsDeps } from './rooms.js';
import type { RecorderView } from './media/room-recordings.js';
import type { IngestConnection, IngestSink, LivestreamPlayback } from './media/room-livestreams.js';

export interface SignallingServer {
  /** Takes over an HTTP upgrade request (the `upgrade` event of a listener). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (shutdown). */
  close(): Promise<void>;
  /** Closes every socket and forgets every room (a reset or a state import: the sockets' peers are gone). */
  reset(): void;
  /** Closes the sockets of one organization's pages (its reset: their participants are gone). */
  resetOrg(orgId: string): void;
  /** How many transports, producers and consumers the media room holds open (zeros before the first socket). */
  mediaCounts(): MediaCounts;
  /** The media plane's own process while one runs (--media-plane process), else null. */
  mediaPlanePid(): number | null;
  /** How many recordings the media plane's recorder is making now. */
  recordersRunning(): number;
  /** Where the media plane's sockets listen while they are open (from the first transport to the last), else null. */
  mediaListening(): MediaListening | null;
  /** What a recording's recorder takes now, while one runs (undefined otherwise). */
  recorderView(recordingId: string): Promise<RecorderView | undefined>;
  /** Turns a scripted participant's camera or microphone on or off: the sample clip, seen by every page. */
  botMedia(participant: Participant, wish: BotMediaWish): Promise<Record<MediaKind, boolean>>;
  /** Whether a participant is in a meeting through a page (false before the first socket). */
  hasPage(meetingId: string, participantId: string): boolean;
  /** The peer id a participant has in a meeting's rooms: their page's, or their participant id without one. */
  peerIdOf(meetingId: string, participantId: string): string;
  /**
   * Network trouble on demand: sets a scenario on a meeting (participantId null) or a participant
   * in it (a signalling socket dropped or refused, media cut, lost, delayed or capped), or clears
   * them; answers what is in force afterwards. Refused with an ApiError, nothing applied.
   */
  setNetwork(meetingId: string, participantId: string | null, request: ScenarioRequest): NetworkView;
  /** What the network scenarios do to a meeting, or to a participant in it, now; and how their pages' sockets stand. */
  network(meetingId: string, participantId: string | null): NetworkView;
  /** What a livestream with real media serves to its viewers (undefined: none is being made). */
  livestreamPlayback(livestreamId: string): LivestreamPlayback | undefined;
  /** An encoder pushes to a livestream (its key checked): where its stream goes; undefined when livestreams are simulated or the emulator stops. */
  ingest(livestream: Livestream, connection: IngestConnection): Promise<IngestSink | undefined>;
  /** How many livestreams are being packaged now, and their files on disk. */
  livestreamCounts(): { packaging: number; files: number; bytes: number };
}

/** Frames above this size close the socket (1009): the SDK's largest, a chat message with its text, stays far below. */
export const MAX_FRAME_BYTES = 256 * 1024;

/** The close code and reason of a page whose state was reset (peer.ts names the others). */
const CLOSE_RESET = 4000;
const RESET_REASON = 'The emulator was reset; join again';

export type SignallingDeps = Omit<RoomsDeps, 'network'> & {
  logger: Logger;
  clock: Clock;
  /** Where a network scenario's end and a lost page's reconnect window fall due. */
  scheduler: Scheduler;
  verifyToken(token: string, now: number): Promise<ParticipantClaims>;
  /** The organization a meeting is in (the live feed names it). */
  organization(orgId: string): Organization;
  /** Who is in a meeting now. */
  presentIn(meetingId: string): Participant[];
};

interface Admission {
  claims: ParticipantClaims;
  peerId: string;
}

/** A refused upgrade: the status and the one-line reason, logged once and sent as the body. */
class Refusal extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_TEXT = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' } as const;

/** SDK peer ids are UUIDs (a reconnecting SDK may append a suffix); anything else is refused before it names a peer. */
const PEER_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function createSignallingServer(signallingDeps: SignallingDeps): SignallingServer {
  // The network scenarios exist before any socket: a test may set one on a meeting no page has joined yet.
  const network = new NetworkTrouble({
    clock: signallingDeps.clock,
    scheduler: signallingDeps.scheduler,
    bus: signallingDeps.bus,
    logger: signallingDeps.logger,
    locateMeeting: (id) => signallingDeps.sessions.locateMeeting(id),
    findParticipant: (orgId, id) => signallingDeps.participants.find(orgId, id),
    organization: (orgId) => signallingDeps.organization(orgId),
    presentIn: (id) => signallingDeps.presentIn(id),
  });
  const deps: SignallingDeps & RoomsDeps = { ...signallingDeps, network };
  let loaded: Promise<{ wss: WebSocketServer; rooms: RealtimeRooms }> | undefined;
  /** The refusals of a network outage, logged once per participant until their outage ends. */
  const outageLogged = new Set<string>();
  /** The rooms once loaded, for what is asked synchronously (counts). */
  let ready: RealtimeRooms | undefined;
  let closed = false;
  const pending = new Set<Duplex>();

  const load = () =>
    (loaded ??= Promise.all([import('ws'), import('./rooms.js')]).then(([ws, rooms]) => ({
      wss: new ws.WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false }),
      rooms: (ready = new rooms.RealtimeRooms(deps)),
    })));

  async function admit(req: IncomingMessage): Promise<Admission> {
    const url = new URL(req.url ?? '/', 'http://socket');
    if (url.pathname !== '/ws') throw new Refusal(404, `no WebSocket is served at ${url.pathname}; the SDK's socket is /ws`);
    const token = url.searchParams.get('authToken');
    if (!token) throw new Refusal(401, 'the authToken query parameter is missing');
    const peerId = url.searchParams.get('peerID') ?? '';
    if (!PEER_ID.test(peerId)) throw new Refusal(400, 'the peerID query parameter must be 1 to 100 letters, digits, - or _');
    let claims: ParticipantClaims;
    try {
      claims = await deps.verifyToken(token, deps.clock.now());
    } catch {
      throw new Refusal(401, 'the authToken is not a valid participant token of this emulator, or it expired');
    }
    const roomId = url.searchParams.get('roomID');
    if (roomId && roomId !== claims.meetingId) throw new Refusal(403, `the authToken is for meeting ${claims.meetingId}, not ${roomId}`);
    return { claims, peerId };
  }

  function refuse(socket: Duplex, refusal: Refusal): void {
    const body = JSON.stringify({ success: false, error: { code: refusal.status, message: refusal.message } });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }

  // A recording that starts recording has the rooms made (a meeting may be recorded before any
  // page joins it: scripted participants, or nobody): the room's recorder is theirs. Until they
  // are made its files are expected, so that an upload that comes due meanwhile (a manual clock
  // moved past the stop at once) waits for the recorder instead of taking the sample.
  deps.bus.subscribe((e) => {
    if (e.type === 'recording.statusChanged' && e.recording.status === 'RECORDING' && deps.recordings.files.real && !ready && !closed) {
      deps.recordings.files.expect(e.recording);
      load().catch((err: Error) => {
        for (const id of deps.recordings.files.expected()) deps.recordings.files.failed(id, `The recorder could not start: ${err.message}`);
      });
    }
    // A meeting's livestream with real media shows the room from its start: the rooms make it.
    if (e.type === 'livestream.statusChanged' && e.previous === null && e.meeting && deps.livestreamMedia && !loaded && !closed) void load();
  });

  return {
    upgrade(req, socket, head) {
      if (closed) {
        socket.destroy();
        return;
      }
      pending.add(socket);
      socket.on('error', () => socket.destroy());
      void (async () => {
        try {
          const admission = await admit(req);
          const { wss, rooms } = await load();
          if (closed || socket.destroyed) return socket.destroy();
          // A network outage (a network scenario): the connection is dropped without an answer,
          // as an unreachable network would drop it, and the SDK counts a failed attempt.
          const { meetingId, participantId } = admission.claims;
          if (network.refuses(meetingId, participantId)) {
            if (!outageLogged.has(participantId)) {
              outageLogged.add(participantId);
              deps.logger.info({ meeting: meetingId, participant: participantId }, 'SDK socket refused: a network outage is in force');
            }
            return socket.destroy();
          }
          outageLogged.delete(participantId);
          // The room's own checks (the participant and meeting still exist) come first, so a
          // refused peer never sees a socket open and close.
          const refusal = rooms.refusal(admission.claims);
          if (refusal) throw new Refusal(refusal.status, refusal.message);
          wss.handleUpgrade(req, socket, head, (ws: WebSocket) => rooms.connect(ws, admission.claims, admission.peerId));
        } catch (err) {
          if (err instanceof Refusal) {
            deps.logger.info({ status: err.status, reason: err.message }, 'SDK socket refused');
            refuse(socket, err);
          } else {
            deps.logger.error({ err }, 'SDK socket upgrade failed');
            socket.destroy();
          }
        } finally {
          pending.delete(socket);
        }
      })();
    },
    async close() {
      closed = true;
      for (const s of pending) s.destroy();
      if (!loaded) return;
      const { wss, rooms } = await loaded;
      rooms.closeAll(1001, 'The emulator is shutting down', true);
      await Promise.all([rooms.closeMedia(), new Promise<void>((resolve) => wss.close(() => resolve()))]);
    },
    reset() {
      network.reset();
      outageLogged.clear();
      void loaded?.then(({ rooms }) => rooms.closeAll(CLOSE_RESET, RESET_REASON, false));
    },
    resetOrg(orgId) {
      network.resetOrg(orgId);
      void loaded?.then(({ rooms }) => rooms.closeOrg(orgId, CLOSE_RESET, RESET_REASON));
    },
    mediaCounts() {
      return ready?.mediaCounts() ?? { transports: 0, producers: 0, consumers: 0 };
    },
    mediaPlanePid() {
      return ready?.mediaPlanePid() ?? null;
    },
    recordersRunning() {
      return ready?.recordersRunning() ?? 0;
    },
    mediaListening() {
      return ready?.mediaListening() ?? null;
    },
    async recorderView(recordingId) {
      return ready?.recorderView(recordingId);
    },
    async botMedia(participant, wish) {
      if (closed) throw new Error('The emulator is shutting down');
      const { rooms } = await load();
      return rooms.botMedia(participant, wish);
    },
    hasPage(meetingId, participantId) {
      return ready?.hasPage(meetingId, participantId) ?? false;
    },
    peerIdOf(meetingId, participantId) {
      return ready?.peerIdOf(meetingId, participantId) ?? participantId;
    },
    setNetwork(meetingId, participantId, request) {
      return network.apply(meetingId, participantId, request);
    },
    network(meetingId, participantId) {
      return network.view(meetingId, participantId);
    },
    livestreamPlayback(livestreamId) {
      return ready?.livestreamPlayback(livestreamId);
    },
    async ingest(livestream, connection) {
      if (closed || !deps.livestreamMedia) return undefined;
      const { rooms } = await load();
      return closed ? undefined : rooms.ingest(livestream, connection);
    },
    livestreamCounts() {
      return ready?.livestreamCounts() ?? { packaging: 0, files: 0, bytes: 0 };
    },
  };
}
