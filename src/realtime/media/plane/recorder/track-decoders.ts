// A published track decoded for the composite: a camera or screen share to pictures (the latest
// one is what its tile shows), a microphone to sound (a queue the mixer draws from). Each runs one
// ffmpeg that reads the track's frames as sent (Matroska on its input) and writes raw pictures
// (I420, of one fixed size) or raw sound (16-bit stereo at 48 kHz) on its output. A decoder that
// dies is started again on the track's next keyframe, a few times at most.
import type { PlaneLogger } from '../../media-types.js';
import type { Producer } from '../producer.js';
import { FfmpegProcess, type FfmpegExit } from './ffmpeg-process.js';
import { MatroskaWriter, opusHead, type MatroskaTrack } from './matroska.js';
import { i420Bytes, type Frame } from './picture.js';
import { TrackTap, type TappedFrame, type TrackCodec } from './track-tap.js';

type TapWerift = ConstructorParameters<typeof TrackTap>[2];

/** A decoder that fails this many times is given up: its tile shows the participant's name. */
const MAX_STARTS = 5;

export const SAMPLE_RATE = 48_000;
export const CHANNELS = 2;
/** Bytes of one sample of every channel (s16le stereo). */
export const BYTES_PER_SAMPLE = 2 * CHANNELS;

export interface DecoderContext {
  ffmpeg: string;
  /** werift's depacketizers, asked for when a track is to be decoded. */
  werift(): TapWerift;
  logger: PlaneLogger;
}

/** What a picture is in a VP8 or VP9 keyframe: its size, when the header says it. */
export function keyframeSize(codec: TrackCodec, frame: Buffer): { width: number; height: number } | undefined {
  if (codec === 'VP8') {
    // RFC 6386 §9.1: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (frame.length < 10 || frame[3] !== 0x9d || frame[4] !== 0x01 || frame[5] !== 0x2a) return undefined;
    return { width: frame.readUInt16LE(6) & 0x3fff, height: frame.readUInt16LE(8) & 0x3fff };
  }
  if (codec === 'VP9') return vp9KeyframeSize(frame);
  return undefined;
}

/** The frame size of a VP9 keyframe's uncompressed header (VP9 bitstream spec §6.2), profiles 0 to 3. */
function vp9KeyframeSize(frame: Buffer): { width: number; height: number } | undefined {
  let bit = 0;
  const read = (n: number): number => {
    let v = 0;
    for (let i = 0; i < n; i++, bit++) {
      const byte = frame[bit >> 3];
      if (byte === undefined) throw new RangeError('short');
      v = (v << 1) | ((byte >> (7 - (bit & 7))) & 1);
    }
    return v;
  };
  try {
    if (read(2) !== 2) return undefined;
    const profile = read(1) | (read(1) << 1);
    if (profile === 3) read(1);
    if (read(1)) return undefined; // show_existing_frame
    if (read(1) !== 0) return undefined; // not a keyframe
    read(2); // show_frame, error_resilient_mode
    if (read(24) !== 0x498342) return undefined;
    if (profile >= 2) read(1); // ten_or_twelve_bit
    const colorSpace = read(3);
    if (colorSpace !== 7) {
      read(1); // color_range
      if (profile === 1 || profile === 3) read(3); // subsampling_x, subsampling_y, reserved
    } else if (profile === 1 || profile === 3) read(1);
    return { width: read(16) + 1, height: read(16) + 1 };
  } catch {
    return undefined;
  }
}

/**
 * What both kinds of decoder share: the track taken from its producer, one ffmpeg fed its frames as
 * sent (Matroska, each frame later than the one before), started on the first frame it can begin
 * with and again after it dies, a few times at most.
 */
abstract class TrackDecoder {
  protected readonly tap: TrackTap;
  private process: FfmpegProcess | undefined;
  private writer: MatroskaWriter | undefined;
  private starts = 0;
  private origin = 0;
  /** The last frame's time (ms): each is later than the one before, as ffmpeg wants. */
  private lastMs = -1;
  protected closed = false;

  constructor(
    producer: Producer,
    codec: TrackCodec,
    protected readonly ctx: DecoderContext,
  ) {
    this.tap = new TrackTap(producer, codec, ctx.werift(), (frame) => this.frame(frame));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.tap.close();
    this.process?.kill();
    this.process = undefined;
  }

  /** Whether a decoder may start with this frame (a picture: a keyframe). */
  protected abstract canStartWith(frame: TappedFrame): boolean;
  /** The track as the decoder's input names it. */
  protected abstract inputTrack(first: TappedFrame): MatroskaTrack;
  /** ffmpeg's arguments after its input. */
  protected abstract outputArgs(): string[];
  /** What the decoder writes out. */
  protected abstract output(chunk: Buffer): void;
  /** Told of each frame before it goes in; false: leave it out. */
  protected accept(_frame: TappedFrame, _process: FfmpegProcess): boolean {
    return true;
  }
  /** Its decoder ended without being asked to: what to say, and what to do before it starts again. */
  protected abstract restarting(exit: FfmpegExit): void;

  private frame(frame: TappedFrame): void {
    if (this.closed) return;
    if (!this.process && (!this.canStartWith(frame) || !this.start(frame))) return;
    if (!this.accept(frame, this.process!)) return;
    this.lastMs = Math.max(this.lastMs + 1, Math.round(frame.at - this.origin));
    this.writer!.frame(1, this.lastMs, frame.data, frame.keyframe);
  }

  private start(first: TappedFrame): boolean {
    if (this.starts >= MAX_STARTS) return false;
    this.starts += 1;
    // Not -fflags nobuffer: it drops what the stream's analysis read, the first keyframe with it.
    // -fpsprobesize 0: the stream's analysis does not wait for frames to guess a frame rate that
    // nothing here uses (pictures pass through as they come); on Matroska's millisecond timestamps
    // it would hold the first 40 pictures back, over two seconds of a camera at 15 fps.
    const input = ['-f', 'matroska', '-fpsprobesize', '0', '-flags', 'low_delay', '-i', 'pipe:0'];
    const process = new FfmpegProcess(this.ctx.ffmpeg, [...input, ...this.outputArgs()]);
    this.process = process;
    this.origin = first.at;
    this.lastMs = -1;
    this.writer = new MatroskaWriter([this.inputTrack(first)], (b) => void process.write(b));
    process.onData((chunk) => this.output(chunk));
    void process.exited.then((exit) => {
      if (this.process !== process) return;
      this.process = undefined;
      if (!this.closed) this.restarting(exit);
    });
    return true;
  }
}

/** A camera or a screen share, decoded to pictures of `width` × `height` (squeezed: `aspect` is the picture's own). */
export class VideoDecoder extends TrackDecoder {
  private incoming: Uint8Array;
  private filled = 0;
  private current: Frame | null = null;
  /** The picture's own width / height (from its keyframes). */
  aspect = 16 / 9;
  /** Pictures decoded so far. */
  decoded = 0;

  constructor(
    producer: Producer,
    private readonly codec: 'VP8' | 'VP9',
    private readonly width: number,
    private readonly height: number,
    ctx: DecoderContext,
  ) {
    super(producer, codec, ctx);
    this.incoming = new Uint8Array(i420Bytes(width, height));
  }

  /** The latest decoded picture, if there is one yet. */
  get latest(): Frame | null {
    return this.current;
  }

  protected canStartWith(frame: TappedFrame): boolean {
    return frame.keyframe;
  }

  protected inputTrack(first: TappedFrame): MatroskaTrack {
    this.filled = 0;
    const size = keyframeSize(this.codec, first.data) ?? { width: this.width, height: this.height };
    return { kind: 'video', codecId: `V_${this.codec}`, width: size.width, height: size.height };
  }

  protected outputArgs(): string[] {
    return [
      ...['-an', '-vf', `scale=${this.width}:${this.height}:flags=bilinear`, '-pix_fmt', 'yuv420p', '-fps_mode', 'passthrough'],
      ...['-f', 'rawvideo', 'pipe:1'],
    ];
  }

  protected override accept(frame: TappedFrame, process: FfmpegProcess): boolean {
    if (frame.keyframe) {
      const size = keyframeSize(this.codec, frame.data);
      if (size && size.width > 0 && size.height > 0) this.aspect = size.width / size.height;
    }
    // The decoder is behind: skip to the next keyframe rather than queue pictures it will show late.
    if (!process.writable && !frame.keyframe) {
      this.tap.requestKeyframe();
      return false;
    }
    return true;
  }

  protected restarting(exit: FfmpegExit): void {
    this.ctx.logger.warn({ codec: this.codec, code: exit.code, stderr: exit.stderr }, 'recorder: a video decoder ended; it starts again on the next keyframe');
    this.tap.requestKeyframe();
  }

  /** Raw pictures arrive in pieces: a full one becomes the latest. */
  protected output(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(chunk.length - at, this.incoming.length - this.filled);
      this.incoming.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.incoming.length) {
        const done = this.incoming;
        // The picture on show is kept until the next is whole: two buffers, swapped.
        this.incoming = this.current?.data instanceof Uint8Array && this.current.data.length === done.length ? this.current.data : new Uint8Array(done.length);
        this.current = { width: this.width, height: this.height, data: done };
        this.filled = 0;
        this.decoded += 1;
      }
    }
  }
}

/** How much sound is kept ahead of the mixer at most (real ms): more is late, and dropped. */
const MAX_QUEUED_MS = 300;
/** How much sound a track gathers before the mixer starts taking it (real ms): arrival is bursty. */
const PRIME_MS = 60;

/** A microphone (or a screen share's sound), decoded to 16-bit stereo at 48 kHz, queued for the mixer. */
export class AudioDecoder extends TrackDecoder {
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private primed = false;
  /** The bytes of a sample split across two reads. */
  private partial: Buffer = Buffer.alloc(0);
  /** Samples (per channel) decoded so far. */
  decoded = 0;

  constructor(producer: Producer, ctx: DecoderContext) {
    super(producer, 'OPUS', ctx);
  }

  /**
   * Adds up to `samples` samples of its sound into `mix` (interleaved stereo, 32-bit sums); fewer
   * when it has fewer (the rest stays silent).
   */
  mixInto(mix: Int32Array, samples: number): void {
    const want = samples * BYTES_PER_SAMPLE;
    if (!this.primed) {
      if (this.queued < (PRIME_MS * SAMPLE_RATE * BYTES_PER_SAMPLE) / 1000) return;
      this.primed = true;
    }
    let offset = 0;
    while (offset < want && this.queue.length > 0) {
      const head = this.queue[0]!;
      const n = Math.min(head.length, want - offset);
      for (let i = 0; i < n; i += 2) mix[(offset + i) >> 1]! += head.readInt16LE(i);
      offset += n;
      if (n === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(n);
      this.queued -= n;
    }
    // Ran dry: gather again before giving more, so that one late burst is not heard as crackle.
    if (this.queued === 0) this.primed = false;
  }

  override close(): void {
    super.close();
    this.queue.length = 0;
    this.queued = 0;
  }

  protected canStartWith(): boolean {
    return true;
  }

  protected inputTrack(): MatroskaTrack {
    return { kind: 'audio', codecId: 'A_OPUS', sampleRate: SAMPLE_RATE, channels: CHANNELS, codecPrivate: opusHead(CHANNELS, 0) };
  }

  protected outputArgs(): string[] {
    return ['-vn', '-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', String(CHANNELS), '-flush_packets', '1', 'pipe:1'];
  }

  protected restarting(exit: FfmpegExit): void {
    this.ctx.logger.warn({ code: exit.code, stderr: exit.stderr }, 'recorder: an audio decoder ended; it starts again with the next packet');
  }

  protected output(data: Buffer): void {
    const joined = this.partial.length > 0 ? Buffer.concat([this.partial, data]) : data;
    const whole = joined.length - (joined.length % BYTES_PER_SAMPLE);
    this.partial = joined.subarray(whole);
    if (whole === 0) return;
    const chunk = joined.subarray(0, whole);
    this.queue.push(chunk);
    this.queued += chunk.length;
    this.decoded += chunk.length / BYTES_PER_SAMPLE;
    const max = (MAX_QUEUED_MS * SAMPLE_RATE * BYTES_PER_SAMPLE) / 1000;
    while (this.queued > max && this.queue.length > 1) this.queued -= this.queue.shift()!.length;
  }
}
