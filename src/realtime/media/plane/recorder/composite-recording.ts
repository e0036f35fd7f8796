// A composite recording: the room's picture and mix, written on the recording's timeline into one
// ffmpeg (timeline-encoder.ts) that makes its files in production's formats — H.264 and AAC (or
// MP3) in MP4, or VP8 and Vorbis in WebM, at the size asked, a watermark drawn over it, and the
// separate audio file (AAC in M4A, MP3, or Vorbis in Ogg) when one is asked for.
import { stat } from 'node:fs/promises';
import type { RecorderResult, RecorderSpec } from '../../media-types.js';
import { RecordingOutput, type RecordingCallbacks } from './recording-output.js';
import { FRAME_RATE, type CompositeTick } from './room-composite.js';
import { FILL_SILENCE, TimelineEncoder } from './timeline-encoder.js';

/** The ffmpeg arguments (after its input) that make a recording's files from the composite's pictures and sound. */
export function encoderArgs(spec: RecorderSpec): string[] {
  const args: string[] = [];
  const { video, audio } = spec;
  const wm = video.path ? video.watermark : null;
  if (wm) args.push('-i', wm.file);
  const fill = FILL_SILENCE;
  const audioFormat = audio.codec === 'VORBIS' ? 'ogg' : audio.codec === 'MP3' ? 'mp3' : 'ipod';
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
    const vp8 = video.codec === 'VP8';
    const picture = vp8
      ? [
          ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1500k', '-g', String(FRAME_RATE * 4)],
          // No hidden (alt-ref) frames: their reordering and a held picture's long gap do not mix.
          ...['-auto-alt-ref', '0', '-lag-in-frames', '0'],
        ]
      : [
          // ultrafast: on a meeting's picture about two thirds of superfast's CPU (and half of
          // veryfast's) for a file about 1.5× as large, which at this quality is still under 1 Mb/s
          // (bench/RECORDER.md). The recorder encodes while the meeting runs, beside the pages and the
          // media plane on the same cores, so its CPU is taken from theirs. The picture is the same
          // to the eye; the stream's profile is Constrained Baseline, which every player decodes.
          // Stryker disable next-line StringLiteral,ArrayDeclaration: the preset (or x264's default without it) sets the encoder's speed and the file's size, not its format; bench/recorder.ts measures it.
          ...['-preset', 'ultrafast'],
          ...['-c:v', 'libx264', '-crf', '23', '-pix_fmt', 'yuv420p', '-g', String(FRAME_RATE * 4)],
          // No B-frames: their reordering and a held picture's long gap give the MP4 a broken duration.
          // Stryker disable next-line ArrayDeclaration: ultrafast makes none either; the pair keeps them out whatever the preset.
          ...['-bf', '0'],
        ];
    const sound = vp8 ? ['-c:a', 'libvorbis', '-q:a', '5', '-ac', String(audio.channels)] : audioCodecArgs(audio.codec, audio.channels);
    const format = vp8 ? 'webm' : 'mp4';
    args.push(...picture, ...sound, ...fill);
    if (!vp8 && audio.path) {
      // The separate audio file holds the same sound, encoded the same way (audioCodecArgs): it is
      // encoded once and written to both files (the tee muxer), not twice (on a quiet meeting the
      // sound's encoding was most of the encoder's work). The same packets as two outputs make, and
      // the same M4A or MP3; only the MP4's interleaving of sound and picture may differ. The codecs'
      // headers go in the files' headers, as the MP4 muxer has them on its own. WebM stays with two
      // outputs: through the tee its timestamps came out a millisecond later.
      args.push(
        ...['-flags:v', '+global_header', '-flags:a', '+global_header', '-f', 'tee'],
        `${teeSlave(format, '', video.path)}|${teeSlave(audioFormat, 'a', audio.path)}`,
      );
      return args;
    }
    args.push(...(vp8 ? [] : ['-movflags', '+faststart']), '-f', format, video.path);
  }
  if (audio.path) {
    args.push(
      '-map',
      '0:a',
      ...audioCodecArgs(audio.codec, audio.channels),
      ...fill,
      ...(audioFormat === 'ipod' ? ['-movflags', '+faststart'] : []),
      '-f',
      audioFormat,
      audio.path,
    );
  }
  return args;
}

/**
 * One file of the tee muxer's list: `[options]path`, its streams chosen by `select` (all when
 * empty). ffmpeg reads the list with its own escaping (backslash and single quotes; `|` parts it,
 * white space at its ends is dropped), so those characters of a path are escaped.
 */
function teeSlave(format: string, select: string, file: string): string {
  const options = [`f=${format}`, ...(format === 'mp4' || format === 'ipod' ? ['movflags=+faststart'] : []), ...(select ? [`select=${select}`] : [])];
  return `[${options.join(':')}]${file.replace(/[\\'|\s]/g, '\\$&')}`;
}

function audioCodecArgs(codec: RecorderSpec['audio']['codec'], channels: number): string[] {
  const rate = ['-ac', String(channels)];
  if (codec === 'MP3') return ['-c:a', 'libmp3lame', '-b:a', channels === 1 ? '128k' : '192k', ...rate];
  if (codec === 'VORBIS') return ['-c:a', 'libvorbis', '-q:a', '5', ...rate];
  // Production's default: AAC at 384 kbps (in stereo; half of it in mono). ffmpeg's default AAC
  // coder (twoloop) encodes that rate at about 5× real time on one core, slower than the picture;
  // its fast coder about 13×, at no audible cost at this rate (bench/RECORDER.md).
  return ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', channels === 1 ? '192k' : '384k', ...rate];
}

export class CompositeRecording extends RecordingOutput {
  private readonly encoder: TimelineEncoder;

  constructor(spec: RecorderSpec, callbacks: RecordingCallbacks) {
    super(spec, callbacks);
    const { video } = spec;
    this.encoder = new TimelineEncoder({
      ffmpeg: spec.ffmpeg,
      outputArgs: encoderArgs(spec),
      video: video.path ? { width: video.width, height: video.height } : undefined,
      onFailed: (reason) => this.fail(reason),
    });
  }

  get writtenTo(): number {
    return this.encoder.writtenTo;
  }

  protected writeAt(position: number, t: CompositeTick, always: boolean): void {
    this.encoder.write(position, () => this.picture(t), t.mix(), always);
  }

  protected async finish(finalMs: number, last: CompositeTick): Promise<RecorderResult> {
    await this.encoder.finish(finalMs, () => this.picture(last));
    const sizeOf = async (path: string | null) => (path ? { path, bytes: (await stat(path)).size } : null);
    return { video: await sizeOf(this.spec.video.path), audio: await sizeOf(this.spec.audio.path), durationMs: Math.max(finalMs, this.encoder.writtenTo) };
  }

  protected cancelEncoders(): void {
    this.encoder.cancel();
  }

  protected files(): string[] {
    return [this.spec.video.path, this.spec.audio.path].filter((p): p is string => p !== null);
  }

  private picture(t: CompositeTick): Uint8Array {
    return t.picture(this.spec.video.width, this.spec.video.height).data;
  }
}
