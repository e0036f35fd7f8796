// A track recording: every track of the meeting on its own, on the recording's timeline. Each
// camera, microphone and screen share gets an encoder of its own (timeline-encoder.ts) from the
// composite's decoded pictures and sound: VP8 at the track's own shape, Opus. A track starts where
// it was first published during the recording and runs to the end (its last picture held, silence
// after its sound ends), so every stream lasts as long as the recording. At the stop the tracks
// are put together, as they are, into the layer's one WebM file, each stream named after its
// participant and kind; a meeting where nobody published gets one silent stream of its length.
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RecorderResult, RecorderSpec } from '../../media-types.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { evenFloor, Picture } from './picture.js';
import { RecordingOutput, type RecordingCallbacks } from './recording-output.js';
import type { CompositeTick } from './room-composite.js';
import { FILL_SILENCE, TimelineEncoder } from './timeline-encoder.js';

/** The largest a track's video is written (its own shape within it). */
const MAX_TRACK_SIZE = { width: 1280, height: 720 };
const CAMERA_SIZE_LIMIT = { width: 640, height: 360 };

type Slot = 'camera' | 'microphone' | 'screen' | 'screenAudio';
const SLOTS: readonly Slot[] = ['camera', 'microphone', 'screen', 'screenAudio'];
const SLOT_TITLE: Record<Slot, string> = { camera: 'camera', microphone: 'microphone', screen: 'screen share', screenAudio: 'screen share audio' };

interface Track {
  producerId: string;
  title: string;
  file: string;
  kind: 'video' | 'audio';
  /** Where on the timeline it started (ms). */
  startMs: number;
  encoder: TimelineEncoder;
  /** A video track's last picture (its size is the track's). */
  picture?: Picture;
  aspect?: number;
}

export class TrackRecording extends RecordingOutput {
  private readonly tracks = new Map<string, Track>();
  private seq = 0;

  constructor(
    spec: RecorderSpec,
    private readonly dir: string,
    callbacks: RecordingCallbacks,
  ) {
    super(spec, callbacks);
  }

  get writtenTo(): number {
    return Math.max(0, ...[...this.tracks.values()].map((t) => t.startMs + t.encoder.writtenTo));
  }

  protected writeAt(position: number, t: CompositeTick, always: boolean): void {
    // Each track seen in the meeting starts a stream of its own.
    for (const tile of t.scene.tiles)
      for (const slot of SLOTS) {
        const id = tile[slot];
        if (!id || this.tracks.has(id)) continue;
        // A camera or screen share starts with its first decoded picture; a voice at once.
        const video = slot === 'camera' || slot === 'screen';
        const frame = video ? t.frame(id) : undefined;
        if (video && !frame) continue;
        this.tracks.set(id, this.startTrack(id, `${tile.name} ${SLOT_TITLE[slot]}`, video ? 'video' : 'audio', position, frame?.aspect, slot === 'screen'));
      }
    // Each track's file starts where the track did: its times count from there.
    for (const track of this.tracks.values())
      track.encoder.write(position - track.startMs, () => this.pictureOf(track, t), t.sound(track.producerId) ?? Buffer.alloc(0), always);
  }

  protected async finish(finalMs: number, last: CompositeTick): Promise<RecorderResult> {
    const end = Math.max(finalMs, ...[...this.tracks.values()].map((t) => t.startMs + t.encoder.writtenTo));
    if (this.tracks.size === 0) this.tracks.set('', this.startTrack('', 'silence', 'audio', 0, undefined, false));
    await Promise.all([...this.tracks.values()].map((t) => t.encoder.finish(end - t.startMs, () => this.pictureOf(t, last))));
    const out = this.spec.video.path!;
    await this.merge(out);
    await Promise.all([...this.tracks.values()].map((t) => rm(t.file, { force: true })));
    return { video: { path: out, bytes: (await stat(out)).size }, audio: null, durationMs: end };
  }

  protected cancelEncoders(): void {
    for (const t of this.tracks.values()) t.encoder.cancel();
  }

  protected files(): string[] {
    return [...this.tracks.values()].map((t) => t.file);
  }

  private startTrack(producerId: string, title: string, kind: 'video' | 'audio', startMs: number, aspect: number | undefined, screen: boolean): Track {
    const file = path.join(this.dir, `track-${++this.seq}.webm`);
    const onFailed = (reason: string) => this.fail(`the track "${title}" ${reason}`);
    const track = { producerId, title, file, kind, startMs };
    if (kind === 'audio') {
      const outputArgs = ['-map', '0:a', '-c:a', 'libopus', '-b:a', '64k', ...FILL_SILENCE, '-f', 'webm', file];
      return { ...track, encoder: new TimelineEncoder({ ffmpeg: this.spec.ffmpeg, outputArgs, onFailed }) };
    }
    const limit = screen ? MAX_TRACK_SIZE : CAMERA_SIZE_LIMIT;
    const shape = aspect ?? 16 / 9;
    const width = evenFloor(Math.min(limit.width, limit.height * shape));
    const height = evenFloor(Math.min(limit.height, limit.width / shape));
    // Only the picture is kept of this stream; its sound track (silent) is left out.
    const outputArgs = [
      ...['-map', '0:v', '-fps_mode', 'passthrough', '-enc_time_base:v', '-1'],
      ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '800k', '-auto-alt-ref', '0', '-lag-in-frames', '0'],
      ...['-f', 'webm', file],
    ];
    return {
      ...track,
      aspect: shape,
      picture: new Picture(width, height),
      encoder: new TimelineEncoder({ ffmpeg: this.spec.ffmpeg, video: { width, height }, outputArgs, onFailed }),
    };
  }

  /**
   * A video track's picture now: its latest decoded one drawn at the track's size, or, once it
   * ended, the last one again. A picture handed to an encoder is never drawn into again (its pipe
   * may still hold it): each new one is drawn into a picture of its own.
   */
  private pictureOf(track: Track, t: CompositeTick): Uint8Array {
    if (!track.picture) return new Uint8Array(0);
    const frame = t.frame(track.producerId);
    if (frame) {
      const picture = new Picture(track.picture.width, track.picture.height);
      picture.drawFrame(frame.frame, { x: 0, y: 0, w: picture.width, h: picture.height }, 'cover', frame.aspect);
      track.picture = picture;
    }
    return track.picture.data;
  }

  /** The tracks as they are, one stream each, into the layer's file: their times kept, each named. */
  private async merge(out: string): Promise<void> {
    const tracks = [...this.tracks.values()];
    const args: string[] = [];
    for (const t of tracks) args.push('-itsoffset', `${t.startMs}ms`, '-i', t.file);
    tracks.forEach((_, i) => args.push('-map', `${i}`));
    args.push('-c', 'copy');
    tracks.forEach((t, i) => args.push(`-metadata:s:${i}`, `title=${t.title}`));
    args.push('-f', 'webm', '-y', out);
    const merge = new FfmpegProcess(this.spec.ffmpeg, args);
    merge.end();
    const exit = await merge.exited;
    if (exit.code !== 0) throw new Error(`the tracks could not be put together (${exit.code ?? exit.signal}): ${exit.stderr || 'no message'}`);
  }
}
