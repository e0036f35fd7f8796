// The files a recording leaves behind. With a recorder (ffmpeg found, --recordings real) each
// recording gets a folder of its own under one temporary directory of the emulator's, where the
// media plane writes what it makes; without one (--recordings sample, or no ffmpeg) every
// recording is the bundled sample. This module keeps, per recording, where its files are, how
// far the recorder got, and whether they are complete; it frees them on a reset, an
// organization's reset, an eviction and the emulator's stop, and it keeps the disk they take
// within --recording-disk-limit by letting go of the oldest finished recordings first.
//
// The files are not part of a state export: an imported recording that has none is served the
// sample, as a recording made without a recorder is.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Recording } from '../models.js';
import type { MediaFiles } from '../media/media-links.js';
import { audioFileName, FORMATS } from './recording-formats.js';
import { fetchWatermark, type WatermarkFetch, type WatermarkImage } from './watermark.js';

/** One file of a recording, as it lies on disk. */
export interface RecordingFile {
  /** Absolute path. */
  path: string;
  /** Its name in links and downloads (the output file name, or its audio counterpart). */
  name: string;
  bytes: number;
  contentType: string;
}

/** What a recording left: its video (or composite) file and its separate audio file, each when made. */
export interface RecordingArtifacts {
  video: RecordingFile | null;
  audio: RecordingFile | null;
}

type Entry =
  | {
      state: 'recording';
      orgId: string;
      dir: string;
      bytes: number;
      settled: Promise<RecordingArtifacts>;
      settle: Settle;
      /** No recorder has begun it yet: one is on its way (expect). */
      expected?: true;
    }
  | { state: 'ready'; orgId: string; dir: string; bytes: number; artifacts: RecordingArtifacts; finishedSeq: number }
  | { state: 'failed'; orgId: string; dir: string; bytes: number; reason: string };

interface Settle {
  resolve(a: RecordingArtifacts): void;
  reject(e: Error): void;
}

/** The recorder's verdict on a recording it could not finish: the reason it ends ERRORED. */
export class RecordingFailed extends Error {}

/** The recording's files were let go to stay within the disk limit: their links answer 410. */
export class RecordingEvicted extends Error {}

export interface RecordingFilesOptions {
  /** Whether a recorder makes real files (else every recording is the sample). */
  real: boolean;
  /** Why there is no recorder, in one sentence (health and the start line), when there is none. */
  why?: string;
  /** The ffmpeg the recorder runs, when there is one. */
  ffmpeg?: string;
  /** The most bytes the recordings' files may take together. */
  limitBytes: number;
  /** The sample files served when a recording has none of its own. */
  sample: MediaFiles;
  /** How a watermark image is fetched (tests give their own). */
  fetchWatermark?: WatermarkFetch;
}

export class RecordingFiles {
  private readonly entries = new Map<string, Entry>();
  private readonly evicted = new Set<string>();
  /** Watermark images fetched when a recording was started through the API, until its recorder starts. */
  private readonly watermarks = new Map<string, { orgId: string; image: WatermarkImage }>();
  private root: string | undefined;
  /** The emulator stopped (close): no folder is made any more. */
  private closed = false;
  private finishedSeq = 0;
  /** Numbers each recording's folder: ids repeat after a reset (seeded), and a folder let go is removed later. */
  private folderSeq = 0;
  /** Told when recordings in progress take more than the limit: the one to stop (the largest). */
  private overLimitListener: ((recordingId: string) => void) | undefined;

  constructor(private readonly options: RecordingFilesOptions) {}

  /** Whether recordings hold the meeting (a recorder runs) rather than the sample. */
  get real(): boolean {
    return this.options.real;
  }

  /** The ffmpeg executable the recorder runs (when it runs). */
  get ffmpeg(): string | undefined {
    return this.options.real ? this.options.ffmpeg : undefined;
  }

  /** Why recordings are the sample, when they are. */
  get why(): string | undefined {
    return this.options.real ? undefined : this.options.why;
  }

  get limitBytes(): number {
    return this.options.limitBytes;
  }

  /** Bytes on disk now, over every recording (finished and in progress). */
  get bytes(): number {
    let total = 0;
    for (const e of this.entries.values()) total += e.bytes;
    return total;
  }

  /** How many recordings are being written now. */
  get recording(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.state === 'recording') n += 1;
    return n;
  }

  onOverLimit(listener: (recordingId: string) => void): void {
    this.overLimitListener = listener;
  }

  /** Fetches a watermark image (rejects with WatermarkUnusable saying why it cannot be used). */
  fetchWatermark(url: string): Promise<WatermarkImage> {
    return (this.options.fetchWatermark ?? fetchWatermark)(url);
  }

  /** Keeps the watermark fetched when the recording was started, for its recorder. */
  keepWatermark(r: Pick<Recording, 'id' | 'orgId'>, image: WatermarkImage): void {
    this.watermarks.set(r.id, { orgId: r.orgId, image });
  }

  /** The recording's watermark image: the one kept at its start, or fetched now. */
  watermarkFor(recordingId: string, url: string): Promise<WatermarkImage> {
    const kept = this.watermarks.get(recordingId);
    this.watermarks.delete(recordingId);
    return kept ? Promise.resolve(kept.image) : this.fetchWatermark(url);
  }

  /**
   * A recording began and its recorder is on its way but not begun (what runs it is still being
   * loaded): its files are to come, so whoever waits for them (its upload) waits for the recorder
   * instead of being given the sample. Nothing when the recording has files already.
   */
  expect(r: Pick<Recording, 'id' | 'orgId'>): void {
    if (!this.options.real || this.closed || this.entries.has(r.id)) return;
    this.entries.set(r.id, { ...this.pending(r), expected: true });
  }

  /** The recordings expected (expect) whose recorder has not begun. */
  expected(): string[] {
    // Stryker disable next-line ConditionalExpression: only an entry being written is ever marked expected
    return [...this.entries].filter(([, e]) => e.state === 'recording' && e.expected).map(([id]) => id);
  }

  /** A recorder starts writing a recording: the folder its files go to (made now). */
  async begin(r: Pick<Recording, 'id' | 'orgId'>): Promise<string> {
    if (this.closed) throw new RecordingFailed('The emulator stopped');
    const e = this.entries.get(r.id);
    // The recorder that was expected: whoever waits for the files keeps waiting on the same promise.
    if (e?.state === 'recording' && e.expected) delete e.expected;
    else {
      this.forget(r.id);
      this.entries.set(r.id, this.pending(r));
    }
    const { dir } = this.entries.get(r.id)!;
    // Not recursive: the recordings' folder exists (rootDir made it), unless the emulator stopped
    // meanwhile and removed it, which must not make it again.
    await mkdir(dir).catch((err: unknown) => {
      if (!this.closed) throw err;
    });
    if (this.closed) throw new RecordingFailed('The emulator stopped');
    return dir;
  }

  /** A recording's entry while its files are being written. */
  private pending(r: Pick<Recording, 'id' | 'orgId'>): Extract<Entry, { state: 'recording' }> {
    let settle!: Settle;
    const settled = new Promise<RecordingArtifacts>((resolve, reject) => (settle = { resolve, reject }));
    // Nobody may wait on a recording that fails before its upload comes due.
    settled.catch(() => undefined);
    // A folder of its own each time: the same id after a reset must not meet the removal of the folder its namesake had.
    return { state: 'recording', orgId: r.orgId, dir: path.join(this.rootDir(), `${r.id}-${++this.folderSeq}`), bytes: 0, settled, settle };
  }

  /** How many bytes the recorder has written so far. */
  progress(recordingId: string, bytes: number): void {
    const e = this.entries.get(recordingId);
    if (e?.state !== 'recording') return;
    e.bytes = bytes;
    this.keepWithinLimit();
  }

  /** The recorder finished: the files are complete. */
  ready(recordingId: string, artifacts: RecordingArtifacts): void {
    const e = this.entries.get(recordingId);
    if (e?.state !== 'recording') return;
    const bytes = (artifacts.video?.bytes ?? 0) + (artifacts.audio?.bytes ?? 0);
    this.entries.set(recordingId, { state: 'ready', orgId: e.orgId, dir: e.dir, bytes, artifacts, finishedSeq: this.finishedSeq++ });
    e.settle.resolve(artifacts);
    this.keepWithinLimit();
  }

  /** The recorder could not finish: the recording ends ERRORED with `reason`. */
  failed(recordingId: string, reason: string): void {
    const e = this.entries.get(recordingId);
    if (e?.state !== 'recording') return;
    this.entries.set(recordingId, { state: 'failed', orgId: e.orgId, dir: e.dir, bytes: 0, reason });
    e.settle.reject(new RecordingFailed(reason));
    void rm(e.dir, { recursive: true, force: true });
  }

  /** Whether a recorder is writing the recording now. */
  isRecording(recordingId: string): boolean {
    return this.entries.get(recordingId)?.state === 'recording';
  }

  /**
   * Bytes written so far by the recorder (its file_size while UPLOADING), read from its folder now;
   * undefined when none writes it.
   */
  bytesOf(recordingId: string): number | undefined {
    const e = this.entries.get(recordingId);
    if (!e || e.state === 'failed') return undefined;
    if (e.state !== 'recording') return e.bytes;
    let bytes = 0;
    try {
      for (const name of readdirSync(e.dir)) if (!name.startsWith('watermark.')) bytes += statSync(path.join(e.dir, name)).size;
    } catch {
      return e.bytes;
    }
    return Math.max(bytes, e.bytes);
  }

  /**
   * The recording's files once complete: at once when they are (or when it has none of its own,
   * the sample's), a promise while the recorder still writes them. Rejects (or throws) with
   * RecordingFailed when the recorder failed.
   */
  whenComplete(r: Pick<Recording, 'id' | 'outputFileName'>): RecordingArtifacts | Promise<RecordingArtifacts> {
    const e = this.entries.get(r.id);
    if (!e) return this.sampleFor(r);
    if (e.state === 'recording') return e.settled;
    if (e.state === 'failed') throw new RecordingFailed(e.reason);
    return e.artifacts;
  }

  /**
   * The file a download link names: the recording's own by name, the sample's for a recording
   * that has none. Throws RecordingEvicted when they were let go.
   */
  fileFor(r: Pick<Recording, 'id' | 'outputFileName'>, name: string): RecordingFile | undefined {
    if (this.evicted.has(r.id)) throw new RecordingEvicted(`The files of recording ${r.id} were removed to stay within the emulator's recording disk limit`);
    const e = this.entries.get(r.id);
    const artifacts = e === undefined ? this.sampleFor(r) : e.state === 'ready' ? e.artifacts : undefined;
    if (!artifacts) return undefined;
    return [artifacts.video, artifacts.audio].find((f) => f?.name === name) ?? undefined;
  }

  /** The sample files under a recording's names (a recording made without a recorder). */
  sampleFor(r: Pick<Recording, 'outputFileName'>): RecordingArtifacts {
    const { video, audio } = this.options.sample;
    return {
      video: { path: video.file, name: r.outputFileName, bytes: video.bytes, contentType: video.contentType },
      audio: { path: audio.file, name: audioFileName(r.outputFileName, FORMATS.m4a), bytes: audio.bytes, contentType: audio.contentType },
    };
  }

  /** Frees one recording's files (it was deleted, or failed). */
  forget(recordingId: string): void {
    this.watermarks.delete(recordingId);
    const e = this.entries.get(recordingId);
    if (!e) return;
    this.entries.delete(recordingId);
    if (e.state === 'recording') e.settle.reject(new RecordingFailed('The recording was removed'));
    void rm(e.dir, { recursive: true, force: true });
  }

  /** An organization's reset: its recordings' files go. */
  resetOrg(orgId: string): void {
    for (const [id, e] of [...this.entries]) if (e.orgId === orgId) this.forget(id);
    for (const [id, kept] of [...this.watermarks]) if (kept.orgId === orgId) this.watermarks.delete(id);
  }

  /** Everything goes (a reset, a state import). */
  reset(): void {
    for (const id of [...this.entries.keys()]) this.forget(id);
    this.evicted.clear();
    this.watermarks.clear();
  }

  /** The emulator's stop: the whole directory goes, synchronously (nothing else will), and no recorder makes one again. */
  close(): void {
    this.closed = true;
    for (const e of this.entries.values()) if (e.state === 'recording') e.settle.reject(new RecordingFailed('The emulator stopped'));
    this.entries.clear();
    if (this.root) removeWhole(this.root);
    this.root = undefined;
  }

  private rootDir(): string {
    this.root ??= mkdtempSync(path.join(os.tmpdir(), 'meetings-emulator-recordings-'));
    return this.root;
  }

  /**
   * Over the limit, the oldest finished recordings' files go first (their links then answer 410);
   * when what is being written alone is over it, the largest recording in progress is stopped.
   */
  private keepWithinLimit(): void {
    let total = this.bytes;
    if (total <= this.options.limitBytes) return;
    const finished = [...this.entries].filter((x): x is [string, Extract<Entry, { state: 'ready' }>] => x[1].state === 'ready');
    finished.sort((a, b) => a[1].finishedSeq - b[1].finishedSeq);
    for (const [id, e] of finished) {
      if (total <= this.options.limitBytes) return;
      total -= e.bytes;
      this.forget(id);
      this.evicted.add(id);
    }
    if (total <= this.options.limitBytes) return;
    const writing = [...this.entries].filter(([, e]) => e.state === 'recording').sort((a, b) => b[1].bytes - a[1].bytes);
    if (writing[0]) this.overLimitListener?.(writing[0][0]);
  }
}

/**
 * Removes a folder and everything in it. A recorder's folder that is made while the removal runs
 * (its mkdir was already on its way) leaves the folder not empty at the end: the removal is tried
 * again, and the mkdir, once done, has nothing to make it in.
 */
function removeWhole(dir: string): void {
  for (let tries = 1; ; tries++) {
    try {
      return rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || tries === 5) throw err;
    }
  }
}
