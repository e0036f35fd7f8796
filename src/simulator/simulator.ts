// Decides *when* lifecycle events happen. It listens to domain events and schedules jobs on
// the one clock; the jobs call back into the domain services, which apply the pure tables.
import type { Scheduler } from '../core/scheduler.js';
import type { DomainEvent, DomainEventBus } from '../domain/events.js';
import type { LivestreamsService } from '../domain/livestreams/livestreams.service.js';
import type { RecordingsService } from '../domain/recordings/recordings.service.js';
import { DEFAULT_POLICY, uploadDurationMs, type SimulatorPolicy } from './simulator-policy.js';

const JOB = {
  recordingStart: 'sim.recording.start',
  recordingUpload: 'sim.recording.upload',
  livestreamLive: 'sim.livestream.live',
} as const;

interface Target {
  orgId: string;
  id: string;
}

export class Simulator {
  policy: SimulatorPolicy = structuredClone(DEFAULT_POLICY);

  constructor(
    bus: DomainEventBus,
    private readonly scheduler: Scheduler,
    private readonly recordings: RecordingsService,
    private readonly livestreams: LivestreamsService,
  ) {
    bus.subscribe((e) => this.on(e));
    scheduler.handle(JOB.recordingStart, (p) => this.whenStill(p, 'INVOKED', (t) => recordings.begin(t.orgId, t.id)));
    scheduler.handle(JOB.recordingUpload, (p) => this.whenStill(p, 'UPLOADING', (t) => recordings.completeUpload(t.orgId, t.id)));
    scheduler.handle(JOB.livestreamLive, (p) => {
      const t = p as unknown as Target;
      const l = livestreams.activeFor(t.orgId, (p as { meetingId: string }).meetingId);
      if (l && l.id === t.id && l.state === 'OFFLINE') livestreams.goLive(t.orgId, t.id);
    });
  }

  reset(): void {
    this.policy = structuredClone(DEFAULT_POLICY);
  }

  private whenStill(payload: Record<string, unknown>, status: string, run: (t: Target) => void): void {
    const t = payload as unknown as Target;
    const r = this.recordings.get(t.orgId, t.id);
    if (r.status === status) run(t);
  }

  private on(e: DomainEvent): void {
    const now = e.at;
    if (e.type === 'recording.statusChanged') {
      const r = e.recording;
      const key = `recording:${r.id}:sim`;
      if (r.status === 'INVOKED') {
        this.scheduler.schedule(key, now + this.policy.recording.startDelayMs, JOB.recordingStart, { orgId: r.orgId, id: r.id });
      } else if (r.status === 'UPLOADING') {
        this.scheduler.schedule(key, now + uploadDurationMs(this.policy, r.recordedMs), JOB.recordingUpload, { orgId: r.orgId, id: r.id });
      } else {
        this.scheduler.cancel(key);
      }
    } else if (e.type === 'livestream.statusChanged') {
      const l = e.livestream;
      const key = `livestream:${l.id}:sim`;
      if (l.state === 'OFFLINE' && e.previous === null) {
        this.scheduler.schedule(key, now + this.policy.livestream.goLiveDelayMs, JOB.livestreamLive, { orgId: l.orgId, id: l.id, meetingId: l.meetingId });
      } else {
        this.scheduler.cancel(key);
      }
    }
  }
}
