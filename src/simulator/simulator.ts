// Decides *when* lifecycle events happen. It listens to domain events and schedules jobs on
// the one clock; the jobs call back into the domain services, which apply the pure tables.
//
// Per resource kind the policy has a mode. In `manual` nothing is scheduled, and a job that
// was already scheduled does nothing when it comes due (it checks the mode as it runs; the
// switch to manual also cancels them). Switching back to `auto` re-arms every resource that
// is waiting on the simulator, with the full delay counted from the switch.
import { z } from 'zod';
import { defineJob, jobIdField } from '../core/jobs.js';
import type { Scheduler } from '../core/scheduler.js';
import type { DomainEvent, DomainEventBus } from '../domain/events.js';
import type { LivestreamsService } from '../domain/livestreams/livestreams.service.js';
import type { Livestream, Recording } from '../domain/models.js';
import type { RecordingsService } from '../domain/recordings/recordings.service.js';
import { initialPolicy, mergePolicy, uploadDurationMs, type SimulatorMode, type SimulatorPolicy, type SimulatorPolicyPatch } from './simulator-policy.js';

/** The resource a simulated step acts on. */
const target = z.object({ orgId: jobIdField, id: jobIdField }).strict();
type Target = z.infer<typeof target>;

// A recording waits on one simulated step at a time, so both of its step kinds share one key:
// arming the next step replaces the previous one.
const recordingStepKey = ({ id }: { id: string }) => `recording:${id}:sim`;

export const SIMULATOR_JOBS = {
  /** INVOKED → RECORDING: the recorder joins. */
  recordingStart: defineJob({ kind: 'sim.recording.start', payload: target, key: recordingStepKey, orgId: (t) => t.orgId }),
  /** UPLOADING → UPLOADED: the upload finishes. */
  recordingUpload: defineJob({ kind: 'sim.recording.upload', payload: target, key: recordingStepKey, orgId: (t) => t.orgId }),
  /** OFFLINE → LIVE: ingest becomes active. */
  livestreamLive: defineJob({ kind: 'sim.livestream.live', payload: target, key: ({ id }: { id: string }) => `livestream:${id}:sim`, orgId: (t) => t.orgId }),
};

type SimulatorJob = (typeof SIMULATOR_JOBS)[keyof typeof SIMULATOR_JOBS];
const RECORDING_JOBS: readonly SimulatorJob[] = [SIMULATOR_JOBS.recordingStart, SIMULATOR_JOBS.recordingUpload];
const LIVESTREAM_JOBS: readonly SimulatorJob[] = [SIMULATOR_JOBS.livestreamLive];

export const FAIL_NEXT_REASONS = {
  start: 'Simulated failure at start (fail_next)',
  upload: 'Simulated failure at upload (fail_next)',
  livestream: 'Simulated failure before going live (fail_next)',
} as const;

export class Simulator {
  policy: SimulatorPolicy;

  constructor(
    bus: DomainEventBus,
    private readonly scheduler: Scheduler,
    private readonly recordings: RecordingsService,
    private readonly livestreams: LivestreamsService,
    /** The mode a run starts in (config `--simulator`). */
    private readonly initialMode: SimulatorMode = 'auto',
    /**
     * Whether the simulator moves livestreams at all: not when their picture is real (the room or
     * an encoder makes them LIVE and IDLE, --livestreams real with media and ffmpeg).
     */
    private readonly livestreamsSimulated = true,
  ) {
    this.policy = initialPolicy(initialMode);
    bus.subscribe((e) => this.on(e));
    scheduler.handle(SIMULATOR_JOBS.recordingStart, (p) => this.onRecordingStep(p, 'INVOKED'));
    scheduler.handle(SIMULATOR_JOBS.recordingUpload, (p) => this.onRecordingStep(p, 'UPLOADING'));
    scheduler.handle(SIMULATOR_JOBS.livestreamLive, (p) => this.onGoLive(p));
  }

  reset(): void {
    this.policy = initialPolicy(this.initialMode);
  }

  /** Merges a validated patch (PATCH /_emulator/simulator); mode switches cancel or re-arm. */
  update(patch: SimulatorPolicyPatch, now: number): SimulatorPolicy {
    const before = this.policy;
    this.policy = mergePolicy(before, patch);
    if (before.recording.mode !== this.policy.recording.mode) {
      if (this.policy.recording.mode === 'manual') this.cancelJobs(RECORDING_JOBS);
      else for (const r of this.recordings.allWithStatus(['INVOKED', 'UPLOADING'])) this.armRecording(r, now);
    }
    if (before.livestream.mode !== this.policy.livestream.mode) {
      if (this.policy.livestream.mode === 'manual') this.cancelJobs(LIVESTREAM_JOBS);
      else for (const l of this.livestreams.allInState(['OFFLINE'])) this.armLivestream(l, now);
    }
    return this.policy;
  }

  private cancelJobs(kinds: readonly SimulatorJob[]): void {
    for (const kind of kinds) this.scheduler.cancelKind(kind);
  }

  private on(e: DomainEvent): void {
    if (e.type === 'recording.statusChanged') this.armRecording(e.recording, e.at);
    else if (e.type === 'livestream.statusChanged' && (e.previous === null || e.livestream.state !== 'OFFLINE')) this.armLivestream(e.livestream, e.at);
    else if (e.type === 'livestream.enabled') this.armLivestream(e.livestream, e.at);
  }

  /** Schedules the recording's next simulated step, or drops a pending one it no longer needs. */
  private armRecording(r: Recording, now: number): void {
    const step: Target = { orgId: r.orgId, id: r.id };
    if (this.policy.recording.mode === 'manual') this.cancelJobsOf(RECORDING_JOBS, step);
    else if (r.status === 'INVOKED') this.scheduler.schedule(SIMULATOR_JOBS.recordingStart, step, now + this.policy.recording.startDelayMs);
    else if (r.status === 'UPLOADING') this.scheduler.schedule(SIMULATOR_JOBS.recordingUpload, step, now + uploadDurationMs(this.policy, r.recordedMs));
    else this.cancelJobsOf(RECORDING_JOBS, step);
  }

  /** A new livestream's encoder connects after the delay; a disabled one waits until it is enabled. */
  private armLivestream(l: Livestream, now: number): void {
    if (this.livestreamsSimulated && this.policy.livestream.mode === 'auto' && l.state === 'OFFLINE' && !l.disabled) {
      this.scheduler.schedule(SIMULATOR_JOBS.livestreamLive, { orgId: l.orgId, id: l.id }, now + this.policy.livestream.goLiveDelayMs);
    } else {
      this.cancelJobsOf(LIVESTREAM_JOBS, { id: l.id });
    }
  }

  private cancelJobsOf(kinds: readonly SimulatorJob[], resource: { id: string }): void {
    for (const kind of kinds) this.scheduler.cancel(kind, resource);
  }

  private onRecordingStep(t: Target, expected: 'INVOKED' | 'UPLOADING'): void {
    if (this.policy.recording.mode === 'manual') return;
    const r = this.findRecording(t);
    if (!r || r.status !== expected) return;
    const point = expected === 'INVOKED' ? 'start' : 'upload';
    if (this.policy.recording.failNext > 0 && this.policy.recording.failAt === point) {
      this.policy.recording.failNext -= 1;
      this.recordings.fail(t.orgId, t.id, FAIL_NEXT_REASONS[point]);
    } else if (expected === 'INVOKED') {
      this.recordings.begin(t.orgId, t.id);
    } else {
      this.recordings.completeUpload(t.orgId, t.id);
    }
  }

  private onGoLive(t: Target): void {
    if (this.policy.livestream.mode === 'manual') return;
    const l = this.findLivestream(t);
    if (!l || l.state !== 'OFFLINE' || l.disabled) return;
    if (this.policy.livestream.failNext > 0) {
      this.policy.livestream.failNext -= 1;
      this.livestreams.fail(t.orgId, t.id);
    } else {
      this.livestreams.goLive(t.orgId, t.id);
    }
  }

  // A job may outlive its resource's organization (reset of one org): then it does nothing.
  private findRecording(t: Target): Recording | undefined {
    try {
      return this.recordings.get(t.orgId, t.id);
    } catch {
      return undefined;
    }
  }

  private findLivestream(t: Target): Livestream | undefined {
    try {
      return this.livestreams.get(t.orgId, t.id);
    } catch {
      return undefined;
    }
  }
}
