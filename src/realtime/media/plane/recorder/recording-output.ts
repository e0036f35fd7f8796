// What every recording is as an output of its room's composite: its own timeline, moved by the
// emulator's clock (each move written at once, with the room as it stands) and by the composite's
// ticks while it records; how many bytes it has on disk, told every couple of seconds; a failure
// of its encoders told once; a stop that finishes its files, and a cancel that drops them. A
// composite recording and a track recording differ only in what they write.
import { stat } from 'node:fs/promises';
import type { RecorderClock, RecorderResult, RecorderSpec } from '../../media-types.js';
import { RecordingTimeline } from './recording-timeline.js';
import type { CompositeOutput, CompositeTick } from './room-composite.js';

export interface RecordingCallbacks {
  onProgress(bytes: number): void;
  onFailed(reason: string): void;
}

/** How often the bytes on disk are told (real ms): its file_size while UPLOADING, and the disk limit. */
const PROGRESS_EVERY_MS = 2_000;

export abstract class RecordingOutput implements CompositeOutput {
  private readonly timeline = new RecordingTimeline();
  protected stopping = false;
  protected failed = false;
  private readonly progressTimer: NodeJS.Timeout;

  constructor(
    readonly spec: RecorderSpec,
    private readonly callbacks: RecordingCallbacks,
  ) {
    this.progressTimer = setInterval(() => void this.reportBytes(), PROGRESS_EVERY_MS);
    this.progressTimer.unref();
  }

  /** Where its timeline has been written to (ms). */
  abstract get writtenTo(): number;

  get active(): boolean {
    return !this.timeline.paused && !this.stopping && !this.failed;
  }

  /**
   * The timeline moved (the clock advanced, a pause, a resume): the span up to where it stands now
   * is written at once with the room as it is (`room`), before anything in the room changes again.
   */
  setClock(clock: RecorderClock, room: CompositeTick): void {
    const position = this.timeline.set(clock, room.now);
    if (!this.stopping && !this.failed) this.writeAt(Math.floor(position), room, true);
  }

  tick(t: CompositeTick): void {
    if (this.active) this.writeAt(Math.floor(this.timeline.at(t.now)), t, false);
  }

  /** Ends the recording at `finalMs` of its timeline, the room as it stands now (`last`) holding to the end. */
  async stop(finalMs: number, last: CompositeTick): Promise<RecorderResult> {
    if (this.failed) throw new Error('the recording had already failed');
    this.stopping = true;
    clearInterval(this.progressTimer);
    return this.finish(finalMs, last);
  }

  /** Ends it now, files and all (a reset, the recording failed or was removed). */
  cancel(): void {
    this.stopping = true;
    clearInterval(this.progressTimer);
    this.cancelEncoders();
  }

  /** The timeline is at `position`: what the room shows now covers the span since the last write (`always`: even when behind). */
  protected abstract writeAt(position: number, t: CompositeTick, always: boolean): void;
  /** Finishes the files at `finalMs`. */
  protected abstract finish(finalMs: number, last: CompositeTick): Promise<RecorderResult>;
  protected abstract cancelEncoders(): void;
  /** The files it writes now. */
  protected abstract files(): string[];

  /** An encoder failed: the recording fails, once, and what it wrote goes. */
  protected fail(reason: string): void {
    if (this.failed || this.stopping) return;
    this.failed = true;
    clearInterval(this.progressTimer);
    this.cancelEncoders();
    this.callbacks.onFailed(reason);
  }

  private async reportBytes(): Promise<void> {
    let bytes = 0;
    for (const file of this.files()) {
      try {
        bytes += (await stat(file)).size;
      } catch {
        // Not made yet.
      }
    }
    if (!this.stopping) this.callbacks.onProgress(bytes);
  }
}
