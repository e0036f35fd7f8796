// The media plane's recorder: per meeting one composite of the room (room-composite.ts), and per
// recording one output of it (a composite or a track recording); a livestream of the room is
// another output of the same composite (attach, detach: ../livestream/plane-livestreams.ts). The media room tells it who is in each meeting and what
// they show (the scene), and each recording's timeline; it answers a stop with the files made.
import { realMonotonicNow } from '../../../../core/clock.js';
import type { PlaneLogger, RecorderClock, RecorderEvent, RecorderResult, RecorderSpec, RecorderStatus, RoomScene } from '../../media-types.js';
import type { Producer } from '../producer.js';
import { loadedWerift } from '../transport.js';
import path from 'node:path';
import { CompositeRecording } from './composite-recording.js';
import type { RecordingCallbacks, RecordingOutput } from './recording-output.js';
import { TrackRecording } from './track-recording.js';
import { killAllFfmpeg } from './ffmpeg-process.js';
import { RoomComposite, type CompositeOutput, type CompositeTicker } from './room-composite.js';

export interface RecorderContext {
  producer(id: string): Producer | undefined;
  logger: PlaneLogger;
  /** Told of each recording's progress and failures. */
  events(event: RecorderEvent): void;
  ticker?: CompositeTicker;
}

/** Real time: a repeating timer, unref'd so that a recording never keeps a process alive alone. */
const realTicker: CompositeTicker = {
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  now: realMonotonicNow,
};

/**
 * werift, for the tracks a composite decodes. A track comes from a page's transport or a bot, and
 * both load werift before they make one, so the recorder never loads it itself: recording a room
 * where nobody publishes (tiles of names, silence) costs the plane no werift (a few hundred ms of
 * module loading in a plane started for that recording).
 */
function weriftOfTracks(): NonNullable<ReturnType<typeof loadedWerift>> {
  const werift = loadedWerift();
  // Stryker disable next-line ConditionalExpression,BooleanLiteral,StringLiteral: not equivalent, but never taken: every track comes from a transport or a bot, which load werift first; the throw names that broken promise should it ever be.
  if (!werift) throw new Error('a track to decode, but werift is not loaded');
  return werift;
}

interface Running {
  meetingId: string;
  output: RecordingOutput;
}

export class Recorder {
  private readonly composites = new Map<string, RoomComposite>();
  private readonly recordings = new Map<string, Running>();
  private readonly ticker: CompositeTicker;

  constructor(private readonly ctx: RecorderContext) {
    this.ticker = ctx.ticker ?? realTicker;
  }

  /** How many recordings run (the plane's process lives while any does). */
  get holds(): number {
    return this.recordings.size;
  }

  /** Who is in a meeting and what they show now (told of every meeting; kept only where a recording runs). */
  setScene(scene: RoomScene): void {
    this.composites.get(scene.meetingId)?.setScene(scene);
  }

  /** The meeting's composite, made now when none runs, told who is in the meeting now. */
  private async compositeFor(scene: RoomScene, ffmpeg: string): Promise<RoomComposite> {
    let composite = this.composites.get(scene.meetingId);
    if (composite) composite.setScene(scene);
    else {
      composite = new RoomComposite(scene, {
        ffmpeg,
        werift: weriftOfTracks,
        logger: this.ctx.logger,
        producer: (id) => this.ctx.producer(id),
        ticker: this.ticker,
      });
      this.composites.set(scene.meetingId, composite);
    }
    return composite;
  }

  /** Another output of a meeting's composite (a livestream of the room): it takes the room tick by tick until detached. */
  async attach(scene: RoomScene, ffmpeg: string, output: CompositeOutput): Promise<void> {
    (await this.compositeFor(scene, ffmpeg)).attach(output);
  }

  /** An output attached with `attach` leaves its composite, which ends with its last output. */
  detach(meetingId: string, output: CompositeOutput): void {
    const composite = this.composites.get(meetingId);
    if (!composite) return;
    composite.detach(output);
    if (composite.isEmpty) {
      composite.close();
      this.composites.delete(meetingId);
    }
  }

  async start(spec: RecorderSpec, scene: RoomScene, clock: RecorderClock): Promise<void> {
    this.cancel(spec.id);
    const composite = await this.compositeFor({ ...scene, meetingId: spec.meetingId }, spec.ffmpeg);
    const callbacks: RecordingCallbacks = {
      onProgress: (bytes) => this.ctx.events({ id: spec.id, bytes }),
      onFailed: (reason) => {
        this.ctx.logger.error({ recording: spec.id, reason }, 'recorder: a recording failed');
        this.drop(spec.id);
        this.ctx.events({ id: spec.id, failed: reason });
      },
    };
    const output: RecordingOutput =
      spec.kind === 'track' ? new TrackRecording(spec, path.dirname(spec.video.path!), callbacks) : new CompositeRecording(spec, callbacks);
    this.recordings.set(spec.id, { meetingId: spec.meetingId, output });
    composite.attach(output);
    output.setClock(clock, composite.snapshot());
  }

  setClock(id: string, clock: RecorderClock): void {
    const running = this.recordings.get(id);
    const composite = running && this.composites.get(running.meetingId);
    if (!running || !composite) return;
    running.output.setClock(clock, composite.snapshot());
    composite.outputChanged();
  }

  /** Ends a recording at `finalMs` of its timeline and answers what it made. */
  async stop(id: string, finalMs: number): Promise<RecorderResult> {
    const running = this.recordings.get(id);
    if (!running) throw new Error(`recording ${id} is not being recorded`);
    const composite = this.composites.get(running.meetingId)!;
    try {
      return await running.output.stop(finalMs, composite.snapshot());
    } finally {
      this.drop(id);
    }
  }

  /** How a recording is going: its position, and what each track of its room has given. */
  status(id: string): RecorderStatus | null {
    const running = this.recordings.get(id);
    if (!running) return null;
    return { positionMs: running.output.writtenTo, tracks: this.composites.get(running.meetingId)?.trackStatus() ?? [] };
  }

  /** Ends a recording and its files now (it failed, or was removed). */
  cancel(id: string): void {
    const running = this.recordings.get(id);
    if (!running) return;
    running.output.cancel();
    this.drop(id);
  }

  /** Ends everything (a reset, the plane's end). */
  reset(): void {
    for (const id of [...this.recordings.keys()]) this.cancel(id);
    for (const composite of this.composites.values()) composite.close();
    this.composites.clear();
    killAllFfmpeg();
  }

  private drop(id: string): void {
    const running = this.recordings.get(id);
    if (!running) return;
    this.recordings.delete(id);
    this.detach(running.meetingId, running.output);
  }
}
