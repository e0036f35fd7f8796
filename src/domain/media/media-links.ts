// Signed, expiring links to the sample media the emulator serves for every recording and
// livestream (fixtures/media). A link carries its expiry (epoch ms) and an HMAC over the path
// and the expiry; the media routes check both against the emulator's clock.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface MediaFiles {
  dir: string;
  video: { file: string; bytes: number; contentType: 'video/mp4' };
  audio: { file: string; bytes: number; contentType: 'audio/mp4' };
  /** The HLS segments a live playlist loops over (hls/segments.json), in order. */
  hls: { file: string; durationMs: number }[];
}

function hlsSegmentsIn(dir: string): MediaFiles['hls'] {
  try {
    const list = JSON.parse(readFileSync(path.join(dir, 'hls', 'segments.json'), 'utf8')) as { file: string; duration: number }[];
    return list.map((s) => ({ file: path.join(dir, 'hls', path.basename(s.file)), durationMs: Math.round(s.duration * 1000) }));
  } catch {
    return [];
  }
}

export function mediaFilesIn(dir: string): MediaFiles {
  const size = (name: string) => {
    try {
      return statSync(path.join(dir, name)).size;
    } catch {
      return 0;
    }
  };
  return {
    dir,
    video: { file: path.join(dir, 'recording.mp4'), bytes: size('recording.mp4'), contentType: 'video/mp4' },
    // Stryker disable next-line StringLiteral: nothing reads the audio file's size: a recording's file_size is the video's.
    audio: { file: path.join(dir, 'recording-audio.m4a'), bytes: size('recording-audio.m4a'), contentType: 'audio/mp4' },
    hls: hlsSegmentsIn(dir),
  };
}

export class MediaLinks {
  /** The sample files' bytes, read once: a few small files, served on every download. */
  private readonly contents = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly publicUrl: string,
    private readonly secret: string,
    readonly files: MediaFiles,
    /** The RTMPS and plain RTMP ingest URLs (`rtmps://host:port/app/`), null where one is off. */
    private readonly ingest: { rtmps: string | null; rtmp: string | null } = { rtmps: null, rtmp: null },
  ) {}

  private sign(pathname: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${pathname}\n${expires}`).digest('base64url');
  }

  signed(pathname: string, expires: number): string {
    return `${this.publicUrl}${this.signedPath(pathname, expires)}`;
  }

  /** The path with its expiry and signature, for a link on another origin (the TLS listener's hosts). */
  signedPath(pathname: string, expires: number): string {
    return `${pathname}?expires=${expires}&signature=${this.sign(pathname, expires)}`;
  }

  /** The path of one of a recording's files (its output file, or its audio file), by the file's name. */
  recordingFilePath(recordingId: string, fileName: string): string {
    return `/media/recordings/${recordingId}/${encodeURIComponent(fileName)}`;
  }

  playbackUrl(livestreamId: string): string {
    return `${this.publicUrl}/media/livestreams/${livestreamId}/index.m3u8`;
  }

  /** Production's form: `rtmps://<host>:<port>/app/`; the plain RTMP one when RTMPS is off (and RTMPS on 443 when both are). */
  ingestServer(): string {
    return this.ingest.rtmps ?? this.ingest.rtmp ?? `rtmps://${new URL(this.publicUrl).hostname}:443/app/`;
  }

  /** The bytes of one of the sample files (`files`), read on first use and then kept. */
  read(file: string): Promise<Buffer> {
    let bytes = this.contents.get(file);
    if (!bytes) {
      bytes = readFile(file);
      // A failed read is not kept: the next download tries again.
      bytes.catch(() => this.contents.delete(file));
      this.contents.set(file, bytes);
    }
    return bytes;
  }

  /** 'ok', 'expired' or 'invalid' for a link's path, expiry and signature at `now`. */
  check(pathname: string, expires: string | undefined, signature: string | undefined, now: number): 'ok' | 'expired' | 'invalid' {
    if (!expires || !signature || !/^\d{1,16}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.sign(pathname, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return now > Number(expires) ? 'expired' : 'ok';
  }
}
