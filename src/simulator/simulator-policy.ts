// When the simulated outside world acts: how long the recorder takes to join, how long an
// upload takes, how long until ingest goes live, and which of those steps fail on purpose.
// Realistic defaults, documented in docs/time-and-lifecycles.md ("Default timings").

export type SimulatorMode = 'auto' | 'manual';
export type RecordingFailPoint = 'start' | 'upload';

export interface SimulatorPolicy {
  recording: {
    /** auto: the simulator moves recordings along; manual: nothing moves by itself. */
    mode: SimulatorMode;
    /** INVOKED → RECORDING: the recorder joins the meeting. */
    startDelayMs: number;
    /** UPLOADING → UPLOADED takes uploadBaseMs + uploadMsPerRecordedMinute × recorded minutes. */
    uploadBaseMs: number;
    uploadMsPerRecordedMinute: number;
    /** The next N simulated steps at `failAt` end in ERRORED instead (counts down). */
    failNext: number;
    failAt: RecordingFailPoint;
  };
  livestream: {
    mode: SimulatorMode;
    /** OFFLINE → LIVE: ingest becomes active. */
    goLiveDelayMs: number;
    /** Simulated audience: viewer_seconds grow this many times faster than ingest_seconds. */
    viewers: number;
    /** The next N simulated go-lives end in ERRORED instead (counts down). */
    failNext: number;
  };
}

export const DEFAULT_POLICY: SimulatorPolicy = {
  recording: { mode: 'auto', startDelayMs: 3_000, uploadBaseMs: 10_000, uploadMsPerRecordedMinute: 5_000, failNext: 0, failAt: 'start' },
  livestream: { mode: 'auto', goLiveDelayMs: 5_000, viewers: 1, failNext: 0 },
};

/** The starting policy for a run: the defaults with the configured mode (`--simulator`). */
export function initialPolicy(mode: SimulatorMode = 'auto'): SimulatorPolicy {
  const policy = structuredClone(DEFAULT_POLICY);
  policy.recording.mode = mode;
  policy.livestream.mode = mode;
  return policy;
}

export function uploadDurationMs(policy: SimulatorPolicy, recordedMs: number): number {
  return policy.recording.uploadBaseMs + Math.round((policy.recording.uploadMsPerRecordedMinute * recordedMs) / 60_000);
}

/** A partial policy, as PATCH /_emulator/simulator gives it (already validated). */
export interface SimulatorPolicyPatch {
  recording?: Partial<SimulatorPolicy['recording']>;
  livestream?: Partial<SimulatorPolicy['livestream']>;
}

/** Pure merge: the given fields replace the current ones; nothing else changes. */
export function mergePolicy(current: SimulatorPolicy, patch: SimulatorPolicyPatch): SimulatorPolicy {
  const defined = <T extends object>(o: T | undefined): Partial<T> =>
    Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    recording: { ...current.recording, ...defined(patch.recording) },
    livestream: { ...current.livestream, ...defined(patch.livestream) },
  };
}
