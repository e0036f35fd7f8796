// The media plane's livestreams: each one ffmpeg that packages HLS (a live playlist and its MPEG-TS
// segments, in a folder the emulator gave), fed either by the meeting's composite (the room as the
// recorder draws it, a picture of the kits' layout and the voices mixed, in real time: one more
// output of the composite a recording takes) or by what an RTMP encoder sends (FLV, its H.264
// copied, its sound made AAC). The emulator serves the playlist and the segments from the folder.
import type { LivestreamSpec, PlaneLogger, RecorderEvent, RoomScene } from '../../media-types.js';
import { realMonotonicNow } from '../../../../core/clock.js';
import { FfmpegProcess } from '../recorder/ffmpeg-process.js';
import type { Recorder } from '../recorder/recorder.js';
import { FRAME_RATE, type CompositeOutput, type CompositeTick } from '../recorder/room-composite.js';
import { FILL_SILENCE, TimelineEncoder } from '../recorder/timeline-encoder.js';
import path from 'node:path';

/** Segments a live playlist lists (the rest are deleted as they slide out). */
export const LIVE_PLAYLIST_SEGMENTS = 6;

/** The HLS muxer's arguments: a sliding live playlist of `segmentSeconds` segments, each one written whole before it is listed. */
export function hlsArgs(spec: LivestreamSpec): string[] {
  return [
    ...['-f', 'hls', '-hls_time', String(spec.segmentSeconds), '-hls_list_size', String(LIVE_PLAYLIST_SEGMENTS)],
    ...['-hls_flags', 'delete_segments+independent_segments+temp_file', '-hls_delete_threshold', '2'],
    ...['-start_number', String(spec.firstSegment), '-hls_segment_filename', path.join(spec.dir, 'seg%d.ts')],
    path.join(spec.dir, spec.playlist),
  ];
}

/** The room's picture and mix, encoded for viewers: H.264 (a key frame starting every segment) and AAC. */
export function roomLivestreamArgs(spec: LivestreamSpec): string[] {
  const gop = String(FRAME_RATE * spec.segmentSeconds);
  return [
    ...['-map', '0:v', '-map', '0:a', '-r', String(FRAME_RATE)],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-b:v', '2000k', '-maxrate', '2500k', '-bufsize', '2500k'],
    ...['-g', gop, '-keyint_min', gop, '-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${spec.segmentSeconds})`],
    ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2', ...FILL_SILENCE],
    ...hlsArgs(spec),
  ];
}

/** An encoder's stream: its H.264 as it is (segments start at its key frames), its sound made AAC. */
export function encoderLivestreamArgs(spec: LivestreamSpec): string[] {
  return [
    // A second of the stream tells its streams (an encoder sends its sound's and picture's headers first); ffmpeg's 5 s would hold the first segment back.
    ...['-analyzeduration', '1000000', '-f', 'flv', '-i', 'pipe:0', '-map', '0:v?', '-map', '0:a?'],
    ...['-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
    ...hlsArgs(spec),
  ];
}

interface Packager {
  /** Ends it now; answers once its ffmpeg has exited. */
  stop(): Promise<void>;
}

/** A livestream of the room: the composite's picture at the asked size and its mix, on a timeline of real time. */
class RoomLivestream implements CompositeOutput, Packager {
  readonly active = true;
  private readonly encoder: TimelineEncoder;
  private readonly startedAt = realMonotonicNow();

  constructor(
    private readonly spec: LivestreamSpec & { source: { kind: 'room' } },
    onFailed: (reason: string) => void,
  ) {
    const { width, height } = spec.source;
    this.encoder = new TimelineEncoder({ ffmpeg: spec.ffmpeg, outputArgs: roomLivestreamArgs(spec), video: { width, height }, onFailed });
  }

  tick(t: CompositeTick): void {
    const { width, height } = this.spec.source;
    this.encoder.write(Math.floor(t.now - this.startedAt), () => t.picture(width, height).data, t.mix());
  }

  stop(): Promise<void> {
    this.encoder.cancel();
    return this.encoder.exited;
  }
}

/** A livestream fed by an encoder: its FLV bytes go to ffmpeg as they come (a slow ffmpeg slows nothing but its own pipe). */
class EncoderLivestream implements Packager {
  private readonly process: FfmpegProcess;
  private stopped = false;

  constructor(spec: LivestreamSpec, onFailed: (reason: string) => void) {
    this.process = new FfmpegProcess(spec.ffmpeg, encoderLivestreamArgs(spec));
    void this.process.exited.then((exit) => {
      if (!this.stopped) onFailed(`the packager ended (${exit.code ?? exit.signal}): ${exit.stderr || 'no message'}`);
    });
  }

  feed(bytes: Uint8Array): void {
    if (!this.stopped) void this.process.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.process.kill();
    return this.process.exited.then(() => undefined);
  }
}

export interface PlaneLivestreamsContext {
  recorder: Recorder;
  logger: PlaneLogger;
  /** Told of a livestream whose packaging failed (by the run's id). */
  events(event: RecorderEvent): void;
}

export class PlaneLivestreams {
  private readonly running = new Map<string, { packager: Packager; meetingId: string | null; output?: RoomLivestream }>();

  constructor(private readonly ctx: PlaneLivestreamsContext) {}

  /** How many livestreams are being packaged (the plane's process lives while any is). */
  get holds(): number {
    return this.running.size;
  }

  async start(spec: LivestreamSpec, scene: RoomScene | null): Promise<void> {
    void this.stop(spec.id);
    const failed = (reason: string) => {
      if (!this.running.has(spec.id)) return;
      this.ctx.logger.error({ livestream: spec.id, reason }, 'livestream: the packaging failed');
      void this.stop(spec.id);
      this.ctx.events({ id: spec.id, failed: reason });
    };
    if (spec.source.kind === 'encoder') {
      this.running.set(spec.id, { packager: new EncoderLivestream(spec, failed), meetingId: null });
      return;
    }
    const source = spec.source;
    const output = new RoomLivestream({ ...spec, source }, failed);
    this.running.set(spec.id, { packager: output, meetingId: source.meetingId, output });
    try {
      await this.ctx.recorder.attach(scene ?? { meetingId: source.meetingId, tiles: [], pinned: [] }, spec.ffmpeg, output);
    } catch (err) {
      void this.stop(spec.id);
      throw err;
    }
    // Stopped while the composite was being made.
    if (this.running.get(spec.id)?.output !== output) this.ctx.recorder.detach(source.meetingId, output);
  }

  feed(id: string, bytes: Uint8Array): void {
    const packager = this.running.get(id)?.packager;
    if (packager instanceof EncoderLivestream) packager.feed(bytes);
  }

  /** Ends a livestream's packaging; answers once its packager has exited. */
  stop(id: string): Promise<void> {
    const run = this.running.get(id);
    if (!run) return Promise.resolve();
    this.running.delete(id);
    if (run.output && run.meetingId) this.ctx.recorder.detach(run.meetingId, run.output);
    return run.packager.stop();
  }

  reset(): void {
    for (const id of [...this.running.keys()]) void this.stop(id);
  }
}
