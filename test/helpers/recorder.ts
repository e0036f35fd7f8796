// Steps the recorder's tests share: a meeting with scripted participants who publish the sample
// clip, a recording started and moved along on the manual clock, a wait for the recorder to have
// the tracks it should show (its state in the control API: no sleeping), the files downloaded, and
// what a picture of them shows where a tile should be.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../src/index.js';
import { CLIP_DIR, CLIP_VIDEO_FILE } from '../../src/realtime/media/plane/clip.js';
import { addPerson, controlOf, readUntil, restOf, type Person } from './web-sdk.js';

export interface RecordingDto {
  id: string;
  status: string;
  output_file_name: string;
  file_size: number | null;
  recording_duration: number | null;
  download_url: string | null;
  audio_download_url: string | null;
  error_reason?: string;
}

export interface RecorderTile {
  peer_id: string;
  name: string;
  pinned: boolean;
  camera: { producer_id: string; decoded: number } | null;
  microphone: { producer_id: string; decoded: number } | null;
  screen: { producer_id: string; decoded: number } | null;
}

export class RecorderWorld {
  readonly rest: ReturnType<typeof restOf>;
  readonly control: ReturnType<typeof controlOf>;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'recorder-test-'));
  private files = 0;

  constructor(readonly emu: RunningEmulator) {
    this.rest = restOf(emu);
    this.control = controlOf(emu);
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  async meeting(title = 'Recorded'): Promise<string> {
    return (await this.rest<{ id: string }>('POST', '/v2/meetings', { title })).id;
  }

  /** What the recorder's tests read of the emulator's health check: the recordings' disk use, the media plane's process. */
  async health(): Promise<{ recordings: { disk_bytes: number }; media: { plane_pid: number | null } }> {
    const res = await this.control('GET', '/_emulator/health');
    expect(res.status).toBe(200);
    return res.body as unknown as { recordings: { disk_bytes: number }; media: { plane_pid: number | null } };
  }

  /** A scripted participant joins, publishing the clip's camera and/or microphone. */
  async bot(meetingId: string, name: string, media: { audio?: boolean; video?: boolean } = {}): Promise<Person> {
    const person = await addPerson(this.emu, meetingId, name);
    const joined = await this.control('POST', `/_emulator/meetings/${meetingId}/participants/${person.id}/join`, { media });
    expect(joined.status, `${name} joins`).toBe(200);
    return person;
  }

  async botMedia(meetingId: string, person: Person, media: { audio?: boolean; video?: boolean }): Promise<void> {
    const res = await this.control('POST', `/_emulator/meetings/${meetingId}/participants/${person.id}/media`, media);
    expect(res.status, `${person.name}'s media`).toBe(200);
  }

  async leave(meetingId: string, person: Person): Promise<void> {
    const res = await this.control('POST', `/_emulator/meetings/${meetingId}/participants/${person.id}/leave`);
    expect(res.status, `${person.name} leaves`).toBe(200);
  }

  /** Starts a recording and lets its recorder join (3 s on the manual clock): RECORDING. */
  async record(body: Record<string, unknown>, path = '/v2/recordings'): Promise<RecordingDto> {
    const started = await this.rest<RecordingDto>('POST', path, body);
    expect(started.status).toBe('INVOKED');
    await this.emu.advance(3_000);
    const r = await this.recording(started.id);
    expect(r.status).toBe('RECORDING');
    return r;
  }

  recording(id: string): Promise<RecordingDto> {
    return this.rest<RecordingDto>('GET', `/v2/recordings/${id}`);
  }

  /** The answer to the last stop: the recording UPLOADING, with the size written so far. */
  lastStopped: RecordingDto | undefined;

  /** Stops it and advances past the upload: the advance answers once the files are delivered. */
  async stopAndUpload(id: string): Promise<RecordingDto> {
    const stopped = await this.rest<RecordingDto>('PUT', `/v2/recordings/${id}`, { action: 'stop' });
    expect(stopped.status).toBe('UPLOADING');
    this.lastStopped = stopped;
    await this.emu.advance(10 * 60_000);
    return this.recording(id);
  }

  /** The recorder's view of the meeting once `done` accepts it (the tracks decoded, a tile gone). */
  async recorderUntil(id: string, done: (tiles: RecorderTile[]) => boolean): Promise<RecorderTile[]> {
    const read = async () => {
      const res = await this.control('GET', `/_emulator/recordings/${id}/recorder`);
      return res.status === 200 ? (res.body.tiles as RecorderTile[]) : [];
    };
    const tiles = await readUntil(read, done, 20_000, 50);
    expect(done(tiles), `the recorder's view: ${JSON.stringify(tiles)}`).toBe(true);
    return tiles;
  }

  /** Waits until each named participant's camera has pictures in the recorder (and only those show). */
  async camerasDecoded(id: string, names: string[]): Promise<void> {
    await this.recorderUntil(id, (tiles) => names.every((n) => (tiles.find((t) => t.name === n)?.camera?.decoded ?? 0) > 0));
  }

  /** Downloads a link into the test's folder: its path, status and headers. */
  async download(url: string): Promise<{ file: string; status: number; contentType: string | null; contentLength: number; bytes: number }> {
    const res = await fetch(url);
    const body = Buffer.from(await res.arrayBuffer());
    const file = path.join(this.dir, `${++this.files}-${new URL(url).pathname.split('/').pop()}`);
    writeFileSync(file, body);
    return {
      file,
      status: res.status,
      contentType: res.headers.get('content-type'),
      contentLength: Number(res.headers.get('content-length')),
      bytes: body.length,
    };
  }

  /** A small picture file (PNG) of one colour, served as a watermark would be. */
  pngFile(width: number, height: number, colour: string): string {
    const file = path.join(this.dir, `${++this.files}-${colour}.png`);
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=${width}x${height}`, '-frames:v', '1', '-y', file]);
    return file;
  }
}

/** A rectangle of a picture, in pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * What `box` of the picture shown at `seconds` (whole) of a video file looks like, shrunk to 32 × 18
 * RGB. A recording holds a picture as long as the room stood still (a clock's jump is one picture),
 * so the picture shown at a moment is the last one that started before it: ffmpeg's fps filter
 * gives it (`-ss` would give the next picture to start).
 */
export function thumbnail(file: string, seconds: number, box: Box): Buffer {
  return execFileSync(
    'ffmpeg',
    [
      ...['-v', 'error', '-i', file, '-frames:v', '1'],
      ...['-vf', `fps=1,select=eq(n\\,${seconds}),crop=${box.w}:${box.h}:${box.x}:${box.y},scale=32:18`],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { maxBuffer: 1 << 20 },
  );
}

let clipThumbs: Buffer[] | undefined;

/** Every picture of the bots' clip, shrunk to 32 × 18 RGB (its counter and its colour band change as it plays). */
export function clipThumbnails(): Buffer[] {
  if (!clipThumbs) {
    const all = execFileSync(
      'ffmpeg',
      ['-v', 'error', '-i', path.join(CLIP_DIR, CLIP_VIDEO_FILE), '-vf', 'scale=32:18', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      { maxBuffer: 1 << 24 },
    );
    const size = 32 * 18 * 3;
    clipThumbs = Array.from({ length: all.length / size }, (_, i) => all.subarray(i * size, (i + 1) * size));
  }
  return clipThumbs;
}

/** The mean difference of two same-sized RGB pictures, 0..255 per channel. */
export function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** How many pixels of two same-sized RGB pictures differ by more than `over` (their three channels' differences summed). */
export function pixelsChanged(a: Buffer, b: Buffer, over: number): number {
  let changed = 0;
  for (let i = 0; i < a.length; i += 3) if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > over) changed++;
  return changed;
}

/** One of the bots' clip's pictures is what `box` shows at `seconds` (not a name tile, another camera, or black). */
export function showsClip(file: string, seconds: number, box: Box): boolean {
  const shown = thumbnail(file, seconds, box);
  return Math.min(...clipThumbnails().map((t) => meanDifference(shown, t))) < 20;
}

/**
 * A name tile is what `box` shows at `seconds`: its corners are the tile's plain grey (rgb 44 44
 * 46) and its middle holds the participant's coloured disc, no picture of a camera.
 */
export function showsNameTile(file: string, seconds: number, box: Box): boolean {
  const t = thumbnail(file, seconds, box);
  const at = (x: number, y: number) => [t[(y * 32 + x) * 3]!, t[(y * 32 + x) * 3 + 1]!, t[(y * 32 + x) * 3 + 2]!];
  const grey = (p: number[]) => p.every((c, i) => Math.abs(c - [44, 44, 46][i]!) < 12);
  return grey(at(1, 1)) && grey(at(30, 1)) && grey(at(30, 16)) && !grey(at(16, 9));
}
