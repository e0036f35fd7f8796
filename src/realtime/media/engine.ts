// The media plane's one door: everything that touches werift (the WebRTC endpoints, the published
// tracks they or a bot's clip feed, each viewer's copy of a track) behind calls that name things by
// the ids the media room gave them. The media room (media-room.ts) keeps the ledger (ledger.ts) and
// the rules (who may publish, whose track a page may receive, what the pages are told); the engine
// only carries media. The engine itself lives in plane/, the only folder that loads werift: in the
// emulator's process (plane/local-engine.ts, --media-plane inline) or in a child process of its own
// (process-engine.ts starts plane/plane-process.ts), whose memory goes back to the system when it ends.
import { TransportClosed, Unserved } from '../unserved.js';
import type { MediaListening } from './media-network.js';
import type {
  Direction,
  LinkConditions,
  LivestreamSpec,
  ProducerInfo,
  RecorderClock,
  RecorderEvent,
  RecorderResult,
  RecorderSpec,
  RecorderStatus,
  RoomScene,
} from './media-types.js';

/** One viewer's copy of a track, as the media room orders it. */
export interface ConsumerOrder {
  consumerId: string;
  producerId: string;
  /** The simulcast layer the viewer asked for ('f' unless it said otherwise). */
  layer: string;
}

/** What an engine holds open: while it holds nothing, a plane of its own may end. */
export interface EngineHolds {
  transports: number;
  producers: number;
  consumers: number;
  /** Recordings being made. */
  recordings: number;
  /** Livestreams being packaged (absent: none). */
  livestreams?: number;
}

export interface MediaEngine {
  /**
   * A page joined the media room: its transports are on their way. The plane gets ready for them
   * (its process started and werift loaded) while the page prepares its offers, so that the first
   * transport does not wait for that. Answers once it is ready (it never fails: the transport that
   * follows reports what went wrong).
   */
  warm(): Promise<void>;
  /** The pages that warmed the plane are gone: one that holds nothing may end, as it would after its last transport. */
  cool(): void;
  /** Opens an endpoint with the page's first offer; answers the SDP answer. */
  openTransport(id: string, direction: Direction, offer: string): Promise<string>;
  /** Answers an offer of the page on its transport (a produce, a close, a renegotiation). */
  answer(transportId: string, offer: string): Promise<string>;
  /** The page's answer to the engine's last offer on its transport. */
  accept(transportId: string, answer: string): Promise<void>;
  /** Ends an endpoint and frees its UDP sockets, with the tracks it carried. */
  closeTransport(id: string): void;
  /**
   * Answers a produce's offer and publishes the track of the section `mid` as producer `info.id`;
   * refused when the offer has no section of that kind with that mid.
   */
  produce(info: ProducerInfo, paused: boolean, offer: string, mid: string): Promise<string>;
  /** Publishes a track of a bot's clip (the bot is one player however many tracks it has). */
  botTrack(botId: string, info: ProducerInfo): Promise<void>;
  pauseProducer(id: string, paused: boolean): void;
  closeProducer(id: string): void;
  /** Adds the viewers' copies to a receive transport and answers the engine's offer with their sections' mids, in order. */
  consume(transportId: string, orders: ConsumerOrder[]): Promise<{ offer: string; mids: string[] }>;
  closeConsumer(id: string): void;
  preferLayer(consumerId: string, layer: string): void;
  /** Starts recording a meeting's room: `scene` is who is in it now, `clock` where the recording's timeline stands. */
  startRecorder(spec: RecorderSpec, scene: RoomScene, clock: RecorderClock): Promise<void>;
  /** Who is in a meeting and what they show changed (it matters while one of its recordings runs). */
  setScene(scene: RoomScene): void;
  /** A recording's timeline moved on (the clock, a pause, a resume). */
  setRecorderClock(id: string, clock: RecorderClock): void;
  /** Ends a recording at `finalMs` of its timeline; answers once its files are complete. */
  stopRecorder(id: string, finalMs: number): Promise<RecorderResult>;
  /** Ends a recording and what it was writing, now. */
  cancelRecorder(id: string): void;
  /** How a recording is going (null when none is being made of that id). */
  recorderStatus(id: string): Promise<RecorderStatus | null>;
  /** Starts packaging a livestream as HLS: from the meeting's composite (`scene` is who is in it now), or from an encoder's bytes. */
  startLivestream(spec: LivestreamSpec, scene: RoomScene | null): Promise<void>;
  /** An encoder's bytes (FLV) for a livestream packaged from them. */
  feedLivestream(id: string, bytes: Uint8Array): void;
  /** Ends a livestream's packaging now; answers once its packager has exited (nothing more is written to its folder). */
  stopLivestream(id: string): Promise<void>;
  /** `listener` is told how far each recording got, and of a recording (or a livestream's packaging, by its id) that failed. */
  onRecorderEvent(listener: (event: RecorderEvent) => void): void;
  /** `listener` is told each transport that failed for good (ICE or DTLS). */
  onTransportFailed(listener: (transportId: string) => void): void;
  /** `listener` is told when the plane's process died, with every transport and track it carried. */
  onPlaneLost(listener: () => void): void;
  /**
   * Sets the network between a participant and the plane (network scenarios) on one of its
   * transports, or on a bot's clip (by the bot's key, also before it publishes); null: a clear one.
   */
  shape(id: string, link: LinkConditions | null): void;
  /** `listener` is told each transport whose cut path the page left for a new one (it restarted ICE). */
  onPathRecovered(listener: (transportId: string) => void): void;
  /** Closes everything (a reset). */
  reset(): void;
  /** Closes everything and ends the plane (the emulator's stop). */
  close(): Promise<void>;
  /** The plane's process, while one runs (null in the emulator's own process). */
  readonly pid: number | null;
  /** Where the plane's sockets listen while they are open (from the first transport to the last), else null. */
  readonly listening: MediaListening | null;
}

// --- the child process's channel (process-engine.ts and plane/plane-process.ts) ----------------

/** The engine's operations the child serves, by name (the rest of the interface stays in the emulator). */
const ENGINE_OP_NAMES = [
  'warm',
  'openTransport',
  'answer',
  'accept',
  'closeTransport',
  'produce',
  'botTrack',
  'pauseProducer',
  'closeProducer',
  'consume',
  'closeConsumer',
  'preferLayer',
  'startRecorder',
  'setScene',
  'setRecorderClock',
  'stopRecorder',
  'cancelRecorder',
  'recorderStatus',
  'shape',
  'startLivestream',
  'feedLivestream',
  'stopLivestream',
] as const satisfies ReadonlyArray<keyof MediaEngine>;
export type EngineOp = (typeof ENGINE_OP_NAMES)[number];
export const ENGINE_OPS: ReadonlySet<string> = new Set(ENGINE_OP_NAMES);

/** A call to the child. */
export interface EngineCall {
  id: number;
  op: EngineOp;
  args: unknown[];
}

/** A line the plane's process logs, through the emulator's logger. */
export interface PlaneLogLine {
  level: 'info' | 'warn' | 'error';
  fields: object;
  message: string;
}

/**
 * The child's answer to a call, or its word that a transport failed, how a recording is going, a
 * line to log, or that its sockets opened (where they listen) or closed (null).
 */
export type EngineReply =
  | { id: number; value?: unknown; error?: { name: string; message: string }; holds: EngineHolds }
  | { failed: string }
  | { recovered: string }
  | { recorder: RecorderEvent; holds: EngineHolds }
  | { log: PlaneLogLine }
  | { listening: MediaListening | null };

/** An error as it crosses the channel: the class the caller tells apart, and the message. */
export function onTheWire(err: unknown): { name: string; message: string } {
  const name = err instanceof TransportClosed ? 'TransportClosed' : err instanceof Unserved ? 'Unserved' : 'Error';
  return { name, message: (err as Error).message };
}

/** The error a call ended in, as the caller's own class. */
export function revived(error: { name: string; message: string }): Error {
  if (error.name === 'TransportClosed') return new TransportClosed();
  if (error.name === 'Unserved') return new Unserved(error.message);
  return new Error(error.message);
}
