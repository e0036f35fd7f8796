// The media plane's words that the rest of the emulator (and the package's public types) use, and
// that both sides of the plane's door (engine.ts) share. Kept apart from the modules that load
// werift (plane/), so that naming them never pulls in werift's types.

export type MediaKind = 'video' | 'audio';

/** A page's transport: the one it publishes on, or the one it receives on. */
export type Direction = 'send' | 'recv';

/** What the pages are told of a producer (media.ProducerState, and the consume answer). */
export interface ProducerInfo {
  id: string;
  /** The publisher's peer id (a page's, or a scripted participant's participant id). */
  peerId: string;
  participantId: string;
  kind: MediaKind;
  screenShare: boolean;
  /** The SDK's own JSON, given back verbatim to the consumers. */
  appData: string;
  mimeType: string;
  transportId: string;
}

/** A published track's name and state, as both the media room's ledger and the media plane keep it. */
export abstract class PublishedTrack {
  protected closed = false;

  constructor(
    readonly info: ProducerInfo,
    protected paused: boolean,
  ) {}

  get id(): string {
    return this.info.id;
  }

  get kind(): MediaKind {
    return this.info.kind;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** What the media room holds open: transports, published tracks, received tracks. */
export interface MediaCounts {
  transports: number;
  producers: number;
  consumers: number;
}

/** The camera and microphone a bot is asked to have on; an absent one is left as it is. */
export interface BotMediaWish {
  audio?: boolean;
  video?: boolean;
}

// --- the recorder: what the media room tells the plane of a meeting, and of each recording ------

/** One participant as a recording shows them: their tile, and the tracks it shows and plays. */
export interface SceneTile {
  /** The participant's peer id in the meeting (a page's, or a scripted participant's participant id). */
  key: string;
  name: string;
  /** The camera's producer while it is on. */
  camera: string | null;
  /** The microphone's producer while it is on. */
  microphone: string | null;
  /** A screen share's producer while one is shared, and its sound. */
  screen: string | null;
  screenAudio: string | null;
}

/** A meeting as its recordings show it: who is in it (in the order they joined), and who is pinned. */
export interface RoomScene {
  meetingId: string;
  tiles: SceneTile[];
  /** Keys of the tiles pinned for everyone. */
  pinned: string[];
}

/** How a recording's timeline stands: the recorded time when this was sent, and how fast it grows from then on. */
export interface RecorderClock {
  recordedMs: number;
  /** Recorded ms per real ms: the clock's time scale while recording, 0 while paused or on the manual clock. */
  rate: number;
  /** Paused: the recorder takes no tracks. */
  paused: boolean;
}

/** What a recording makes, and where (the emulator decides the names, the plane writes the files). */
export interface RecorderSpec {
  id: string;
  /** The ffmpeg executable that decodes and encodes. */
  ffmpeg: string;
  meetingId: string;
  kind: 'composite' | 'track';
  video: {
    codec: 'H264' | 'VP8';
    width: number;
    height: number;
    /** An image on disk, drawn over the picture. */
    watermark: { file: string; width: number | null; height: number | null; position: 'left top' | 'right top' | 'left bottom' | 'right bottom' } | null;
    /** Where the video (composite) file goes; null: none is made (an audio-only recording). */
    path: string | null;
  };
  audio: {
    codec: 'AAC' | 'MP3' | 'VORBIS';
    channels: 1 | 2;
    /** Where the separate audio file goes; null: none is made. */
    path: string | null;
  };
}

/** What a finished recording left: its files' sizes and the length of its timeline. */
export interface RecorderResult {
  video: { path: string; bytes: number } | null;
  audio: { path: string; bytes: number } | null;
  durationMs: number;
}

/** How a recording is going, as the recorder sees it: its timeline's position, and what each track has given it. */
export interface RecorderStatus {
  /** Where the recording's timeline has been written to (ms). */
  positionMs: number;
  /** The tracks it takes now: pictures decoded (video), samples decoded per channel (audio). */
  tracks: { producerId: string; kind: 'video' | 'audio'; decoded: number }[];
}

/** What the plane tells of a recording while it runs: how many bytes it has written, or that it failed. */
export type RecorderEvent = { id: string; bytes: number } | { id: string; failed: string };

/** What the media plane logs (the emulator's logger, or, from the plane's own process, the same through its channel). */
export interface PlaneLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

// --- the network between a participant and the media plane (the control API's network scenarios) ---

/** What the network does to one direction of a participant's media. */
export interface PathConditions {
  /** Each packet is lost with this chance (percent). */
  lossPercent: number;
  /** Each packet is held this long (ms). */
  latencyMs: number;
  /** Packets leave no faster than this (kbit/s); what would wait in the queue past its limit is dropped. Null: no cap. */
  bandwidthKbps: number | null;
}

/**
 * A participant's link to the media plane: `up` carries what they publish, `down` what they
 * receive. `cut`: their media's paths are gone (nothing passes either way): `path` until the page
 * restarts ICE on the transport (a new path), `all` until told otherwise.
 */
export interface LinkConditions {
  up: PathConditions;
  down: PathConditions;
  cut: 'none' | 'path' | 'all';
}

export const CLEAR_PATH: PathConditions = Object.freeze({ lossPercent: 0, latencyMs: 0, bandwidthKbps: null });

// --- livestreams: HLS made by the media plane -----------------------------------------------------

/**
 * One run of a livestream's HLS packaging: an ffmpeg writing `playlist` and its segments
 * (`seg<n>.ts`, numbered from `firstSegment`) into `dir`, fed by the meeting's composite (`room`)
 * or by the bytes an RTMP encoder sends (`encoder`: FLV, given to the plane as they come).
 */
export interface LivestreamSpec {
  /** The run's id (the livestream's id and the run's number). */
  id: string;
  ffmpeg: string;
  dir: string;
  /** The playlist's file name in `dir`. */
  playlist: string;
  firstSegment: number;
  segmentSeconds: number;
  source: { kind: 'room'; meetingId: string; width: number; height: number } | { kind: 'encoder' };
}
