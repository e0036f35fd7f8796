// Reading what the emulator made, the way a user's tools would: ffprobe for the streams and their
// lengths, ffmpeg for a picture at a moment, the loudness of the sound and an image's pixels. The
// recorder's tests run wherever ffmpeg is found; under CI, where it is installed, a missing ffmpeg is
// a failure rather than a skip (a test that skips in CI could never fail).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { locateExecutable } from '../../src/core/executables.js';
import { inCi } from './docker-engine.js';

const ffmpeg = locateExecutable('ffmpeg', undefined);
const ffprobe = locateExecutable('ffprobe', undefined);

/** Why the recorder's tests cannot run here, or undefined when ffmpeg and ffprobe are both found. */
export const ffmpegMissing: string | undefined = 'missing' in ffmpeg ? ffmpeg.missing : 'missing' in ffprobe ? ffprobe.missing : undefined;

/** Whether the tests that decode recordings run: with ffmpeg, and always under CI (where they fail without it). */
export const withFfmpeg = ffmpegMissing === undefined || inCi;

export interface ProbedStream {
  codec_type: 'video' | 'audio';
  codec_name: string;
  width?: number;
  height?: number;
  channels?: number;
  duration?: string;
  tags?: Record<string, string>;
}

export interface Probe {
  streams: ProbedStream[];
  format: { format_name: string; duration: string; size: string };
}

export function probe(file: string): Probe {
  return JSON.parse(
    execFileSync(
      'ffprobe',
      [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,width,height,channels,duration:stream_tags:format=format_name,duration,size',
        '-of',
        'json',
        file,
      ],
      {
        encoding: 'utf8',
      },
    ),
  ) as Probe;
}

/** The file's length in seconds, as its container says. */
export function probeDuration(file: string): number {
  return Number(probe(file).format.duration);
}

/** One picture of a video file at `seconds`, as RGB24 bytes at its own size. */
export function frameAt(file: string, seconds: number): { width: number; height: number; rgb: Buffer } {
  const video = probe(file).streams.find((s) => s.codec_type === 'video')!;
  const rgb = execFileSync('ffmpeg', ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return { width: video.width!, height: video.height!, rgb };
}

/** An image's pixels (a PNG's, say) as 8-bit grey, row by row: ffmpeg, without blocking the process (an emulator may run in it). */
export function greyPixels(image: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    ffmpeg.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    ffmpeg.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    ffmpeg.on('error', reject);
    // ffmpeg may stop reading before the whole image is in (a PNG it cannot decode); its exit says why.
    ffmpeg.stdin.on('error', () => undefined);
    ffmpeg.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg could not decode the image (${code}): ${Buffer.concat(err).toString()}`)),
    );
    ffmpeg.stdin.end(image);
  });
}

/**
 * The loudest and the mean level of a file's sound, dB (ffmpeg's volumedetect): -91 is digital silence.
 * `audioStream`: which of its sound streams (0 for the first), where it has several; ffmpeg's pick otherwise.
 */
export function loudness(file: string, from = 0, to?: number, audioStream?: number): { meanDb: number; maxDb: number } {
  const window = to === undefined ? [] : ['-t', String(to - from)];
  const select = audioStream === undefined ? ['-vn'] : ['-map', `0:a:${audioStream}`];
  const r = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-ss', String(from), ...window, '-i', file, ...select, '-af', 'volumedetect', '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  const level = (name: string) => Number(new RegExp(`${name}: (-?[\\d.]+) dB`).exec(r.stderr)?.[1] ?? NaN);
  return { meanDb: level('mean_volume'), maxDb: level('max_volume') };
}
