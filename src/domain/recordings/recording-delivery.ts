// What happens between a recording's stop and UPLOADED, once its upload comes due: its files are
// complete (the recorder finishes writing them), and then every step of the delivery runs in
// order (sending them to the app's own storage, when it asked for that). UPLOADED is announced
// only after all of it; a step that fails ends the recording ERRORED with its reason.
//
// When nothing has to be waited for (the files are complete, no step has work) the delivery ends
// at once, in the same turn as the upload's job, as it always did. Otherwise it is in flight, and
// `idle()` tells when every delivery in flight has ended: a clock advance (the control API's, or
// the in-process `advance()`) answers only then, so a test that advances past an upload finds
// the recording UPLOADED (or ERRORED) as soon as the advance returns.
import type { Recording } from '../models.js';
import { RecordingFailed, type RecordingArtifacts, type RecordingFiles } from './recording-files.js';

/** One step of a delivery, run with the recording's complete files. */
export interface DeliveryStep {
  /** Undefined when the step has nothing to do for this recording; else its work, rejected with the reason the recording fails. */
  deliver(recording: Recording, files: RecordingArtifacts): Promise<void> | undefined;
}

export type DeliveryOutcome = { ok: true; files: RecordingArtifacts } | { ok: false; reason: string };

export class RecordingDelivery {
  private readonly steps: DeliveryStep[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly files: RecordingFiles) {}

  /** Adds a step, run after those added before it. */
  addStep(step: DeliveryStep): void {
    this.steps.push(step);
  }

  /** How many deliveries are in flight. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Delivers the recording and tells `done` how it ended: in this turn when nothing has to be waited for. */
  deliver(r: Recording, done: (outcome: DeliveryOutcome) => void): void {
    let complete: RecordingArtifacts | Promise<RecordingArtifacts>;
    try {
      complete = this.files.whenComplete(r);
    } catch (err) {
      return done({ ok: false, reason: reasonOf(err) });
    }
    if (!(complete instanceof Promise)) {
      const work = this.runSteps(r, complete, 0);
      if (!work) return done({ ok: true, files: complete });
      return this.track(
        work.then(() => complete),
        done,
      );
    }
    this.track(
      complete.then((files) => (this.runSteps(r, files, 0) ?? Promise.resolve()).then(() => files)),
      done,
    );
  }

  /** Resolves once no delivery is in flight (those that start meanwhile included). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** The steps from `from` on; undefined while none of them has work. */
  private runSteps(r: Recording, files: RecordingArtifacts, from: number): Promise<void> | undefined {
    for (let i = from; i < this.steps.length; i++) {
      const work = this.steps[i]!.deliver(r, files);
      if (work) return work.then(() => this.runSteps(r, files, i + 1));
    }
    return undefined;
  }

  private track(work: Promise<RecordingArtifacts>, done: (outcome: DeliveryOutcome) => void): void {
    const settled = work
      .then(
        (files) => done({ ok: true, files }),
        (err: unknown) => done({ ok: false, reason: reasonOf(err) }),
      )
      // `done` applies the outcome and handles its own failures; nothing is left to reject.
      .catch(() => undefined);
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof RecordingFailed) return err.message;
  return err instanceof Error ? err.message : String(err);
}
