// Plays a clip (clip.ts) in a loop, in real time, as RTP: VP8 video (90 kHz clock) and Opus audio
// (48 kHz clock), each kind on its own loop. Packets are werift RtpPackets, ready for a werift
// track's writeRtp, made with the classes of the werift its caller loaded (transport.ts's
// loadWerift): this module loads none itself, so that one copy of werift serves every packet.
//
// Continuity: sequence numbers go up by one per packet sent (wrapping at 65535) and timestamps
// follow the media time since start, across loops, pauses and keyframe jumps; neither ever goes
// backwards. Time comes from an injected Ticker, so tests drive it by hand.
import type { RtpPacket } from 'werift';
import { realNow } from '../../../core/clock.js';
import type { Werift } from './transport.js';
import type { MediaKind } from '../media-types.js';

export type { MediaKind } from '../media-types.js';
import { VP8_MAX_PAYLOAD, opusPacketSamples, opusPayload, vp8Payloads, type Clip } from './clip.js';

export const MEDIA_KINDS: readonly MediaKind[] = ['video', 'audio'];

/** What a kind's RTP stream is called (the SDP's payload type, the sender's SSRC). */
export interface RtpStreamParams {
  ssrc: number;
  payloadType: number;
}

/** Where a kind's numbering starts (RFC 3550 wants random starts; the caller draws them). */
export interface RtpOrigin {
  sequenceNumber: number;
  timestamp: number;
}

/** A clock and a repeating timer. */
export interface Ticker {
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Milliseconds, any origin. */
  now(): number;
}

/** Real time: setInterval, unref'd so a playing clip never keeps the process alive. */
export const realTicker: Ticker = {
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  now: realNow,
};

export type RtpSink = (kind: MediaKind, packet: RtpPacket) => void;

/** werift's RTP classes, from the werift the caller loaded. */
export type RtpClasses = Pick<Werift, 'RtpHeader' | 'RtpPacket'>;

export interface ClipPlayerOptions {
  /** A kind with no stream yet plays silently (time moves on) until setStream. */
  video?: RtpStreamParams;
  audio?: RtpStreamParams;
  /** Numbering starts; 0 and 0 by default. */
  origin?: Partial<Record<MediaKind, RtpOrigin>>;
  /** The first VP8 PictureID (15 bits); 0 by default. */
  firstPictureId?: number;
  ticker?: Ticker;
  /** How often the ticker wakes the player; 10 ms by default. */
  tickMs?: number;
  /** Largest RTP payload of a video packet, descriptor included; 1100 by default. */
  maxPayloadSize?: number;
  /**
   * A frame later than this (the process stalled) is skipped rather than sent in a burst, as a
   * paused one is; 500 ms by default.
   */
  maxLagMs?: number;
}

export const VIDEO_CLOCK_RATE = 90_000;
export const AUDIO_CLOCK_RATE = 48_000;
const DEFAULT_TICK_MS = 10;
const DEFAULT_MAX_LAG_MS = 500;

interface TrackFrame {
  data: Buffer;
  keyframe: boolean;
  /** In clock-rate ticks. */
  duration: number;
}

interface Track {
  readonly kind: MediaKind;
  readonly clockRate: number;
  readonly frames: readonly TrackFrame[];
  readonly origin: RtpOrigin;
  stream: RtpStreamParams | undefined;
  /** The clip frame to play next. */
  index: number;
  /** Media time of the next frame since start, in clock-rate ticks. */
  mediaTime: number;
  /** Sequence number of the next packet. */
  sequenceNumber: number;
  paused: boolean;
  /** The last frame was not sent: video must restart on a keyframe, audio marks a talkspurt. */
  broken: boolean;
}

/** The video frames with durations in 90 kHz ticks, from the IVF pts (the last lasts as long as the one before). */
function videoFrames(clip: Clip): TrackFrame[] {
  const { frames, header } = clip.video;
  const ticksPerPts = (VIDEO_CLOCK_RATE * header.timebase.num) / header.timebase.den;
  return frames.map((frame, i) => {
    const next = frames[i + 1];
    const previous = frames[i - 1];
    const ptsDelta = next ? next.pts - frame.pts : previous ? frame.pts - previous.pts : 1;
    if (ptsDelta <= 0) throw new Error(`clip video: frame ${i + (next ? 1 : 0)} pts does not increase`);
    return { data: frame.data, keyframe: frame.keyframe, duration: Math.round(ptsDelta * ticksPerPts) };
  });
}

function audioFrames(clip: Clip): TrackFrame[] {
  return clip.audio.packets.map((data) => ({ data, keyframe: true, duration: opusPacketSamples(data) }));
}

export class ClipPlayer {
  private readonly ticker: Ticker;
  private readonly tickMs: number;
  private readonly maxPayloadSize: number;
  private readonly maxLagMs: number;
  private readonly tracks: Record<MediaKind, Track>;
  private pictureId: number;
  private startedAt: number | undefined;
  private cancelTicker: (() => void) | undefined;
  private ended = false;

  constructor(
    clip: Clip,
    private readonly rtp: RtpClasses,
    private readonly onPacket: RtpSink,
    options: ClipPlayerOptions = {},
  ) {
    if (!clip.video.frames[0]?.keyframe) throw new Error('clip video: the first frame is not a keyframe');
    this.ticker = options.ticker ?? realTicker;
    this.tickMs = options.tickMs ?? DEFAULT_TICK_MS;
    this.maxPayloadSize = options.maxPayloadSize ?? VP8_MAX_PAYLOAD;
    this.maxLagMs = options.maxLagMs ?? DEFAULT_MAX_LAG_MS;
    this.pictureId = (options.firstPictureId ?? 0) & 0x7fff;
    const track = (kind: MediaKind, clockRate: number, frames: TrackFrame[]): Track => {
      const origin = options.origin?.[kind] ?? { sequenceNumber: 0, timestamp: 0 };
      return {
        kind,
        clockRate,
        frames,
        origin,
        stream: options[kind],
        index: 0,
        mediaTime: 0,
        sequenceNumber: origin.sequenceNumber & 0xffff,
        paused: false,
        broken: true,
      };
    };
    this.tracks = { video: track('video', VIDEO_CLOCK_RATE, videoFrames(clip)), audio: track('audio', AUDIO_CLOCK_RATE, audioFrames(clip)) };
  }

  /** Starts playing (sends the first frames at once). Again while playing: nothing. */
  start(): void {
    if (this.ended) throw new Error('ClipPlayer: stopped; make a new one');
    if (this.startedAt !== undefined) return;
    this.startedAt = this.ticker.now();
    this.cancelTicker = this.ticker.every(this.tickMs, () => this.tick());
    this.tick();
  }

  /** Names a kind's stream (or renames it: numbering carries on). */
  setStream(kind: MediaKind, stream: RtpStreamParams): void {
    this.tracks[kind].stream = stream;
  }

  /** A viewer lost the picture (PLI/FIR): the next video frame sent is a keyframe. Rate limits are the caller's. */
  requestKeyframe(): void {
    this.tracks.video.broken = true;
  }

  /** Camera or microphone off (or on again): frames due meanwhile are skipped, numbering stays continuous. */
  setPaused(kind: MediaKind, paused: boolean): void {
    this.tracks[kind].paused = paused;
  }

  isPaused(kind: MediaKind): boolean {
    return this.tracks[kind].paused;
  }

  get playing(): boolean {
    return this.cancelTicker !== undefined;
  }

  /** Ends playing for good and frees the timer. */
  stop(): void {
    this.ended = true;
    this.cancelTicker?.();
    this.cancelTicker = undefined;
  }

  /** Sends (or skips) every frame that is due by now. */
  private tick(): void {
    if (this.startedAt === undefined || this.ended) return;
    const elapsed = this.ticker.now() - this.startedAt;
    for (const kind of MEDIA_KINDS) {
      const track = this.tracks[kind];
      for (let due = dueAt(track); due <= elapsed && !this.ended; due = dueAt(track)) {
        this.step(track, !track.paused && track.stream !== undefined && elapsed - due <= this.maxLagMs);
      }
    }
  }

  /** Plays the track's next frame: sent, or skipped with its time gone by. */
  private step(track: Track, send: boolean): void {
    if (send && track.kind === 'video' && track.broken) track.index = nextKeyframe(track.frames, track.index);
    const frame = track.frames[track.index];
    if (!frame) throw new Error(`ClipPlayer: no ${track.kind} frame ${track.index}`); // unreachable: index stays in range
    const stream = track.stream;
    if (send && stream) {
      const timestamp = (track.origin.timestamp + track.mediaTime) % 2 ** 32;
      const video = track.kind === 'video';
      const payloads = video ? vp8Payloads(frame.data, this.pictureId, this.maxPayloadSize) : [opusPayload(frame.data)];
      const talkspurt = track.broken;
      track.broken = false;
      if (video) this.pictureId = (this.pictureId + 1) & 0x7fff;
      for (let i = 0; i < payloads.length && !this.ended; i++) {
        // Video: the marker ends a frame (RFC 7741 §4.1). Audio: it starts a talkspurt (RFC 3551 §4.1).
        const marker = video ? i === payloads.length - 1 : talkspurt;
        const header = new this.rtp.RtpHeader({ payloadType: stream.payloadType, ssrc: stream.ssrc, sequenceNumber: track.sequenceNumber, timestamp, marker });
        track.sequenceNumber = (track.sequenceNumber + 1) & 0xffff;
        this.onPacket(track.kind, new this.rtp.RtpPacket(header, payloads[i] as Buffer));
      }
    } else {
      track.broken = true;
    }
    track.mediaTime += frame.duration;
    track.index = (track.index + 1) % track.frames.length;
  }
}

/** When the track's next frame is due, in ms since start. */
function dueAt(track: Track): number {
  return (track.mediaTime * 1000) / track.clockRate;
}

/** The first keyframe at or after `index`, wrapping to the clip's start (which is one). */
function nextKeyframe(frames: readonly TrackFrame[], index: number): number {
  for (let i = index; i < frames.length; i++) if (frames[i]?.keyframe) return i;
  return 0;
}
