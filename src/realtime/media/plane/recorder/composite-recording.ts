// A composite recording: the room's picture and mix, written on the recording's timeline into one
// ffmpeg that makes its files in production's formats — H.264 and AAC (or MP3) in MP4, or VP8 and
// Vorbis in WebM, at the size asked, a watermark drawn over it, and the separate audio file (AAC
// in M4A, MP3, or Vorbis in Ogg) when one is asked for.
//
// The encoder's input is Matroska: raw pictures and sound, each stamped with its place on the
// timeline. On each tick the recording writes the room as it stands at the timeline's position:
// a picture (when the encoder keeps up; the last one holds otherwise) and the tick's sound. A span
// the timeline jumps (a manual clock advanced) is one picture held and silence, which ffmpeg fills
// in (aresample's async mode), so a jump of an hour costs one picture and the encoding of an hour
// of silence, not an hour of pictures.
import type { RecorderResult, RecorderSpec } from '../../media-types.js';
import type { CompositeOutput, CompositeTick } from './room-composite.js';
import { FRAME_RATE } from './room-composite.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { MatroskaWriter } from './matroska.js';
import { BYTES_PER_SAMPLE, CHANNELS, SAMPLE_RATE } from './track-decoders.js';
import { RecordingTimeline } from './recording-timeline.js';
import type { RecorderClock } from '../../media-types.js';
import { stat } from 'node:fs/promises';

/** A gap of the timeline's sound longer than this is left for ffmpeg to fill with silence (ms). */
const FILL_GAP_MS = 1_000;
/** The sound may run ahead of or behind the timeline by this much before it is cut or padded (ms). */
const SOUND_SLACK_MS = 100;
/** The most an encoder may take to finish once its input ended (real ms), beyond the recording's own length / 20. */
const FINISH_LIMIT_MS = 60_000;

export interface EncoderOptions {
  ffmpeg: string;
  /** The picture size the composite is drawn at (the spec's, unless there is no video). */
  onProgress(bytes: number): void;
  onFailed(reason: string): void;
}

/** The ffmpeg arguments that make a recording's files from the Matroska on its input. */
export function encoderArgs(spec: RecorderSpec): string[] {
  const args = ['-f', 'matroska', '-i', 'pipe:0'];
  const { video, audio } = spec;
  const wm = video.path ? video.watermark : null;
  if (wm) args.push('-i', wm.file);
  const fill = ['-af', `aresample=async=1:first_pts=0`];
  if (video.path) {
    if (wm) {
      const size = wm.width || wm.height ? `scale=${wm.width ?? -1}:${wm.height ?? -1}` : 'null';
      const [horizontal, vertical] = wm.position.split(' ');
      const x = horizontal === 'left' ? '10' : 'W-w-10';
      const y = vertical === 'top' ? '10' : 'H-h-10';
      args.push('-filter_complex', `[1:v]${size}[wm];[0:v][wm]overlay=${x}:${y}:format=auto,format=yuv420p[v]`, '-map', '[v]');
    } else args.push('-map', '0:v');
    // The pictures keep their own times (ms): a held picture is one frame, however long it holds.
    args.push('-map', '0:a', '-fps_mode', 'passthrough', '-enc_time_base:v', '-1');
    if (video.codec === 'VP8')
      args.push(
        ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1500k', '-g', String(FRAME_RATE * 4)],
        ...['-c:a', 'libvorbis', '-q:a', '5', '-ac', String(audio.channels), ...fill, '-f', 'webm', video.path],
      );
    else
      args.push(
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-g', String(FRAME_RATE * 4)],
        ...audioCodecArgs(audio.codec, audio.channels),
        ...fill,
        ...['-movflags', '+faststart', '-f', 'mp4', video.path],
      );
  }
  if (audio.path) {
    const format = audio.codec === 'VORBIS' ? 'ogg' : audio.codec === 'MP3' ? 'mp3' : 'ipod';
    args.push(
      '-map',
      '0:a',
      ...audioCodecArgs(audio.codec, audio.channels),
      ...fill,
      ...(format === 'ipod' ? ['-movflags', '+faststart'] : []),
      '-f',
      format,
      audio.path,
    );
  }
  return args;
}

function audioCodecArgs(codec: RecorderSpec['audio']['codec'], channels: number): string[] {
  const rate = ['-ac', String(channels)];
  if (codec === 'MP3') return ['-c:a', 'libmp3lame', '-b:a', channels === 1 ? '128k' : '192k', ...rate];
  if (codec === 'VORBIS') return ['-c:a', 'libvorbis', '-q:a', '5', ...rate];
  // Production's default: AAC at 384 kbps (in stereo; half of it in mono).
  return ['-c:a', 'aac', '-b:a', channels === 1 ? '192k' : '384k', ...rate];
}

export class CompositeRecording implements CompositeOutput {
  private readonly timeline = new RecordingTimeline();
  private readonly encoder: FfmpegProcess;
  private readonly writer: MatroskaWriter;
  private readonly videoTrack: number | undefined;
  private readonly audioTrack: number;
  /** Where the pictures have got to on the timeline (ms), and the sound (samples per channel). */
  private videoMs = -1;
  private soundSamples = 0;
  /** The timeline's position when the room was last written: the next picture covers from there. */
  private spanStart = -1;
  private stopping = false;
  private failed = false;
  private bytesTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly spec: RecorderSpec,
    private readonly options: EncoderOptions,
  ) {
    const { video } = spec;
    const tracks = [];
    if (video.path)
      tracks.push({
        kind: 'video' as const,
        codecId: 'V_UNCOMPRESSED',
        width: video.width,
        height: video.height,
        colourSpace: 'I420',
        defaultDurationMs: 1000 / FRAME_RATE,
      });
    tracks.push({ kind: 'audio' as const, codecId: 'A_PCM/INT/LIT', sampleRate: SAMPLE_RATE, channels: CHANNELS, bitDepth: 16 });
    this.videoTrack = video.path ? 1 : undefined;
    this.audioTrack = video.path ? 2 : 1;
    this.encoder = new FfmpegProcess(options.ffmpeg, encoderArgs(spec));
    this.writer = new MatroskaWriter(tracks, (b) => void this.encoder.write(b));
    void this.encoder.exited.then((exit) => {
      if (this.stopping || this.failed) return;
      this.fail(`the encoder ended unexpectedly (${exit.code ?? exit.signal}): ${exit.stderr || 'no message'}`);
    });
    // How much is written, for the recording's file_size while it is UPLOADING (files grow in steps).
    this.bytesTimer = setInterval(() => void this.reportBytes(), 2_000);
    this.bytesTimer.unref();
  }

  get active(): boolean {
    return !this.timeline.paused && !this.stopping && !this.failed;
  }

  setClock(clock: RecorderClock, now: number): void {
    this.timeline.set(clock, now);
  }

  tick(t: CompositeTick): void {
    if (!this.active) return;
    const position = Math.floor(this.timeline.at(t.now));
    this.writeUpTo(position, t, t.mix());
  }

  /**
   * Ends the recording at `finalMs` of its timeline: the picture as it stands holds to the end,
   * silence fills what sound is missing, and the encoder finishes its files.
   */
  async stop(finalMs: number, last: CompositeTick | undefined): Promise<RecorderResult> {
    if (this.failed) throw new Error('the recording had already failed');
    this.stopping = true;
    clearInterval(this.bytesTimer);
    const end = Math.max(finalMs, this.videoMs + 1, Math.ceil((this.soundSamples * 1000) / SAMPLE_RATE));
    if (last) this.writeUpTo(end, last, Buffer.alloc(0));
    // The last picture again and a short silence stamped at the end, so each stream lasts to it.
    const frameMs = Math.round(1000 / FRAME_RATE);
    if (this.videoTrack && last && end - frameMs > this.videoMs) this.writePicture(end - frameMs, last);
    const tail = Math.round((20 * SAMPLE_RATE) / 1000);
    const endSamples = Math.round((end * SAMPLE_RATE) / 1000);
    if (endSamples - tail > this.soundSamples) {
      this.soundSamples = endSamples - tail;
      this.writeSound(Buffer.alloc(tail * BYTES_PER_SAMPLE));
    }
    this.encoder.end();
    const limit = FINISH_LIMIT_MS + end / 20;
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      this.encoder.exited,
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), limit);
      }),
    ]);
    clearTimeout(timer);
    if (exit === 'timeout') {
      this.encoder.kill();
      throw new Error(`the encoder did not finish within ${Math.round(limit / 1000)} s`);
    }
    if (exit.code !== 0) throw new Error(`the encoder failed (${exit.code ?? exit.signal}): ${exit.stderr || 'no message'}`);
    const sizeOf = async (path: string | null) => (path ? { path, bytes: (await stat(path)).size } : null);
    return { video: await sizeOf(this.spec.video.path), audio: await sizeOf(this.spec.audio.path), durationMs: end };
  }

  /** Ends it now, files and all (a reset, the recording failed or was removed). */
  cancel(): void {
    this.stopping = true;
    clearInterval(this.bytesTimer);
    this.encoder.kill();
  }

  /**
   * The timeline moved to `position`: the room as it stands now covers the span since the last
   * position written (a tick's 40 ms on the real clock, the whole of a manual clock's jump).
   */
  private writeUpTo(position: number, t: CompositeTick, sound: Buffer): void {
    if (position <= this.spanStart) return;
    // A picture only when the encoder keeps up: the one before holds meanwhile.
    if (this.videoTrack && (this.encoder.writable || this.videoMs < 0)) this.writePicture(Math.max(this.videoMs + 1, this.spanStart), t);
    this.writeTickSound(position, sound);
    this.spanStart = position;
  }

  private writePicture(ms: number, t: CompositeTick): void {
    const { width, height } = this.spec.video;
    const picture = t.picture(width, height);
    this.videoMs = ms;
    this.writer.frame(this.videoTrack!, ms, Buffer.from(picture.data.buffer, picture.data.byteOffset, picture.data.byteLength), true);
  }

  /** The tick's sound at the sound's place, kept within the slack of the timeline's `position`. */
  private writeTickSound(position: number, sound: Buffer): void {
    const target = Math.round((position * SAMPLE_RATE) / 1000);
    const slack = (SOUND_SLACK_MS * SAMPLE_RATE) / 1000;
    const behind = target - this.soundSamples;
    if (behind > (FILL_GAP_MS * SAMPLE_RATE) / 1000) {
      // A jump: ffmpeg fills the gap with silence; the tick's sound starts where the jump ends.
      this.soundSamples = target;
    } else if (behind - sound.length / BYTES_PER_SAMPLE > slack) {
      this.writeSound(Buffer.alloc((behind - sound.length / BYTES_PER_SAMPLE) * BYTES_PER_SAMPLE));
    }
    const room = target + slack - this.soundSamples;
    if (room <= 0) return;
    this.writeSound(sound.length / BYTES_PER_SAMPLE > room ? sound.subarray(0, room * BYTES_PER_SAMPLE) : sound);
  }

  private writeSound(pcm: Buffer): void {
    if (pcm.length === 0) return;
    this.writer.frame(this.audioTrack, (this.soundSamples * 1000) / SAMPLE_RATE, pcm, true);
    this.soundSamples += pcm.length / BYTES_PER_SAMPLE;
  }

  private async reportBytes(): Promise<void> {
    let bytes = 0;
    for (const path of [this.spec.video.path, this.spec.audio.path]) {
      if (!path) continue;
      try {
        bytes += (await stat(path)).size;
      } catch {
        // Not made yet.
      }
    }
    if (!this.stopping) this.options.onProgress(bytes);
  }

  private fail(reason: string): void {
    if (this.failed) return;
    this.failed = true;
    clearInterval(this.bytesTimer);
    this.encoder.kill();
    this.options.onFailed(reason);
  }
}
