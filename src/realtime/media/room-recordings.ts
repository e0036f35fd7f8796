// The recordings of each room, as the media plane's recorder makes them: the emulator's side of
// the recorder, the way the media room is the signalling side of the SFU. Production records with
// an anonymous bot that joins the meeting and takes what it shows; here the recorder takes the
// meeting's tracks inside the media plane, like a viewer that is in no participant list, page or
// REST view.
//
// It starts a recorder when a recording starts RECORDING, tells it who is in the meeting and what
// they show whenever that changes (joins, leaves, cameras and microphones, screen shares, pins, the
// stage), moves the recording's timeline with the emulator's clock (its pauses left out), and at
// the stop has the recorder finish the files, which it hands to the recording's files for the
// upload. A recorder that fails ends its recording ERRORED, with the reason.
import { realMonotonicNow } from '../../core/clock.js';
import { recordedMsAt } from '../../domain/recordings/recording-machine.js';
import { recordingFormats } from '../../domain/recordings/recording-formats.js';
import type { RecordingArtifacts, RecordingFile } from '../../domain/recordings/recording-files.js';
import type { DomainEvent } from '../../domain/events.js';
import type { Recording } from '../../domain/models.js';
import type { RoomFeature, RoomState } from '../room-state.js';
import type { MediaRoomFeature } from './media-room.js';
import type { RecorderClock, RecorderSpec } from './media-types.js';
import type { RoomScenesFeature } from './room-scenes.js';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';

/** A running recorder as the control API shows it. */
export interface RecorderView {
  positionMs: number;
  tiles: {
    peerId: string;
    name: string;
    /** Pinned for everyone: the main area is theirs (unless a screen is shared). */
    pinned: boolean;
    camera: TrackView | null;
    microphone: TrackView | null;
    screen: TrackView | null;
    screenAudio: TrackView | null;
  }[];
}

/** A track the recorder takes, and how much of it it decoded (pictures, or samples per channel). */
export interface TrackView {
  producerId: string;
  decoded: number;
}

interface Active {
  recording: Recording;
  /** The recorder's start, which its stop waits for. */
  started: Promise<boolean>;
  /** The timeline last sent, and when (real ms): the plane moves it on by itself from there. */
  sent: { clock: RecorderClock; at: number } | undefined;
  /** What was recorded goes (the recording failed, its organization was reset): a start still on its way is not made. */
  dropped: boolean;
}

/** A timeline that strays this far (ms) from where the plane would have moved it is sent again (a real clock set forward). */
const CLOCK_STRAY_MS = 50;

export class RoomRecordingsFeature implements RoomFeature {
  readonly handlers = [];
  private readonly active = new Map<string, Active>();

  constructor(
    private readonly state: RoomState,
    private readonly media: MediaRoomFeature,
    private readonly scenes: RoomScenesFeature,
  ) {
    const engine = media.engine;
    engine.onRecorderEvent((e) => {
      const active = this.active.get(e.id);
      if (!active) return;
      if ('failed' in e) this.failed(active.recording, `The recorder failed: ${e.failed}`);
      else this.files.progress(e.id, e.bytes);
    });
    engine.onPlaneLost(() => {
      for (const { recording } of [...this.active.values()]) this.failed(recording, 'The media plane ended unexpectedly while recording');
    });
    state.deps.onClockChange(() => this.clockMoved());
    // Recordings that were already running when the rooms were made (a recording that starts loads
    // them), and those stopped meanwhile, whose files are still expected: each is made up to its
    // recorded time (what the clock skipped shows the room as it stands).
    for (const r of state.deps.recordings.allWithStatus(['RECORDING', 'PAUSED'])) this.begin(r);
    const expected = new Set(this.files.expected());
    for (const r of state.deps.recordings.allWithStatus(['UPLOADING'])) {
      if (!expected.has(r.id)) continue;
      this.begin(r);
      const active = this.active.get(r.id);
      if (active) void this.finish(active, r);
    }
    // Any other (ended otherwise meanwhile) has nothing to wait for.
    for (const id of this.files.expected()) this.files.failed(id, 'The recording ended before its recorder could start');
  }

  private get files() {
    return this.state.deps.recordings.files;
  }

  /** How many recordings are being recorded now. */
  get recording(): number {
    return this.active.size;
  }

  /**
   * What the recorder of a recording takes now: its timeline's position, and per tile of the
   * meeting each track it shows with how much of it was decoded. Undefined while none runs.
   */
  async status(recordingId: string): Promise<RecorderView | undefined> {
    const active = this.active.get(recordingId);
    if (!active || !(await active.started)) return undefined;
    const status = await this.media.engine.recorderStatus(recordingId);
    if (!status) return undefined;
    const decoded = new Map(status.tracks.map((t) => [t.producerId, t.decoded]));
    const track = (id: string | null) => (id === null ? null : { producerId: id, decoded: decoded.get(id) ?? 0 });
    const scene = this.scenes.sceneOf(active.recording.meetingId);
    return {
      positionMs: status.positionMs,
      tiles: scene.tiles.map((t) => ({
        peerId: t.key,
        name: t.name,
        pinned: scene.pinned.includes(t.key),
        camera: track(t.camera),
        microphone: track(t.microphone),
        screen: track(t.screen),
        screenAudio: track(t.screenAudio),
      })),
    };
  }

  onDomainEvent(e: DomainEvent): void {
    if (e.type === 'recording.statusChanged') this.recordingChanged(e.recording);
  }

  /** The engine is reset with the media room; what was recorded goes with the recordings' files. */
  onReset(): void {
    for (const active of this.active.values()) active.dropped = true;
    this.active.clear();
  }

  onOrgReset(orgId: string): void {
    for (const a of [...this.active.values()]) if (a.recording.orgId === orgId) this.let(a, true);
  }

  /** The recording is no longer this recorder's: its scene is no longer needed, and (`cancel`) what it wrote goes. */
  private let(active: Active, cancel: boolean): void {
    const r = active.recording;
    this.active.delete(r.id);
    this.scenes.unwatch(r.meetingId, r.id);
    if (!cancel) return;
    active.dropped = true;
    this.media.engine.cancelRecorder(r.id);
  }

  private recordingChanged(r: Recording): void {
    const active = this.active.get(r.id);
    if (r.status === 'RECORDING' || r.status === 'PAUSED') {
      if (!active) return this.begin(r);
      active.recording = r;
      return this.sendClock(active);
    }
    if (!active) return;
    if (r.status === 'UPLOADING') return void this.finish(active, r);
    // ERRORED (or anything else): what was recorded is dropped.
    this.let(active, true);
  }

  /** Starts the recorder of a recording that began RECORDING. */
  private begin(r: Recording): void {
    if (!this.files.real) return;
    const active: Active = { recording: r, started: Promise.resolve(false), sent: undefined, dropped: false };
    active.started = this.start(active).then(
      (made) => made,
      (err: Error) => {
        // Let go meanwhile (a reset, the emulator's stop): the recording is not this recorder's to fail.
        if (this.active.get(r.id) === active) this.failed(active.recording, `The recorder could not start: ${err.message}`);
        return false;
      },
    );
    this.active.set(r.id, active);
  }

  /**
   * Starts the plane's recorder; false when the recording was dropped first. A stop that comes
   * before the recorder is up (the manual clock moved and the recording stopped in one go) still
   * has it made: the stop waits for it, and it finishes the files at the stop's recorded time.
   */
  private async start(active: Active): Promise<boolean> {
    const r = active.recording;
    const dir = await this.files.begin(r);
    const formats = recordingFormats(r, true);
    const names = this.state.deps.recordings.fileNames(r);
    const watermark = r.video.watermark && formats.video ? await this.watermarkFile(r, dir) : null;
    const spec: RecorderSpec = {
      id: r.id,
      ffmpeg: this.files.ffmpeg!,
      meetingId: r.meetingId,
      kind: r.kind,
      video: {
        codec: r.video.codec,
        width: even(r.video.width),
        height: even(r.video.height),
        watermark,
        path: formats.video && names.video ? path.join(dir, fileNameOnDisk(names.video)) : null,
      },
      audio: {
        codec: r.video.codec === 'VP8' ? 'VORBIS' : r.audio.codec,
        channels: r.audio.channel === 'mono' ? 1 : 2,
        path: formats.audio && names.audio ? path.join(dir, fileNameOnDisk(names.audio)) : null,
      },
    };
    if (active.dropped) return false;
    await this.media.engine.startRecorder(spec, this.scenes.sceneOf(r.meetingId), this.clockOf(active.recording));
    // Dropped while the plane was starting it: the cancel may have come before the recorder was there.
    if (active.dropped) {
      this.media.engine.cancelRecorder(r.id);
      return false;
    }
    if (this.active.get(r.id) === active) this.scenes.watch(r.meetingId, r.id);
    this.sendClock(active);
    return true;
  }

  private async watermarkFile(r: Recording, dir: string): Promise<RecorderSpec['video']['watermark']> {
    const wm = r.video.watermark!;
    let image;
    try {
      image = await this.files.watermarkFor(r.id, wm.url);
    } catch (err) {
      throw new Error(`the watermark ${(err as Error).message}`, { cause: err });
    }
    const file = path.join(dir, `watermark.${image.ext}`);
    await writeFile(file, image.bytes);
    return { file, width: wm.width, height: wm.height, position: wm.position };
  }

  /** The stop: the recorder finishes the files at the recording's recorded time, and the files are complete. */
  private async finish(active: Active, r: Recording): Promise<void> {
    // A recorder still starting starts at the stop's timeline.
    active.recording = r;
    this.let(active, false);
    if (!(await active.started)) return this.files.failed(r.id, 'The recorder never started');
    try {
      const result = await withinRealTime(this.media.engine.stopRecorder(r.id, r.recordedMs), finishLimitMs(r.recordedMs), 'the media plane did not answer');
      const formats = recordingFormats(r, true);
      const names = this.state.deps.recordings.fileNames(r);
      const file = (made: { path: string; bytes: number } | null, name: string | null, contentType: string | undefined): RecordingFile | null =>
        made && name && contentType ? { path: made.path, name, bytes: made.bytes, contentType } : null;
      const artifacts: RecordingArtifacts = {
        video: file(result.video, names.video, formats.video?.contentType),
        audio: file(result.audio, names.audio, formats.audio?.contentType),
      };
      this.files.ready(r.id, artifacts);
    } catch (err) {
      this.files.failed(r.id, `The recording could not be finished: ${(err as Error).message}`);
    }
  }

  /** The recorder failed while recording: the recording ends ERRORED with the reason. */
  private failed(r: Recording, reason: string): void {
    const active = this.active.get(r.id);
    if (!active) return;
    this.let(active, true);
    this.files.failed(r.id, reason);
    const { recordings } = this.state.deps;
    const now = recordings.find(r.orgId, r.id);
    if (now && (now.status === 'RECORDING' || now.status === 'PAUSED')) recordings.fail(r.orgId, r.id, reason);
  }

  // --- the timeline --------------------------------------------------------------------------

  private clockOf(r: Recording): RecorderClock {
    const real = this.state.deps.clock.mode === 'real';
    return {
      recordedMs: recordedMsAt(r, this.state.deps.clock.now()),
      rate: real && r.status === 'RECORDING' ? this.state.deps.timeScale : 0,
      paused: r.status !== 'RECORDING',
    };
  }

  /**
   * Tells the plane where the timeline stands, when that is not where the plane would have moved it
   * by itself: a pause or resume, a manual clock's move, a real clock set forward.
   */
  private sendClock(active: Active): void {
    const clock = this.clockOf(active.recording);
    const now = realMonotonicNow();
    const sent = active.sent;
    if (sent && sent.clock.rate === clock.rate && sent.clock.paused === clock.paused) {
      const expected = sent.clock.recordedMs + sent.clock.rate * (now - sent.at);
      if (Math.abs(expected - clock.recordedMs) < CLOCK_STRAY_MS) return;
    }
    active.sent = { clock, at: now };
    void active.started.then((ok) => ok && this.media.engine.setRecorderClock(active.recording.id, clock));
  }

  private clockMoved(): void {
    for (const active of this.active.values()) this.sendClock(active);
  }
}

/**
 * How long the media plane may take to finish a recording's files (real ms) before the recording
 * fails: its encoders have a limit of their own, this one catches a plane that stopped answering.
 */
function finishLimitMs(recordedMs: number): number {
  return 120_000 + recordedMs / 10;
}

/** `work`, or a rejection with `why` once `ms` of real time have passed. */
function withinRealTime<T>(work: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${why} within ${Math.round(ms / 1000)} s`)), ms);
    timer.unref();
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** An I420 picture has an even size: an odd width or height asked for is made one pixel smaller. */
function even(n: number): number {
  return Math.max(2, n - (n % 2));
}

/** A file's name on disk: the recording's file name, without anything a path could be made of. */
function fileNameOnDisk(name: string): string {
  return name.replace(/[/\\\0]/g, '_');
}
