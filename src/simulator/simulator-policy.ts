// When the simulated outside world acts: how long the recorder takes to join, how long an
// upload takes, how long until ingest goes live. Realistic defaults, documented in the README.

export interface SimulatorPolicy {
  recording: {
    /** INVOKED → RECORDING: the recorder joins the meeting. */
    startDelayMs: number;
    /** UPLOADING → UPLOADED takes uploadBaseMs + uploadMsPerRecordedMinute × recorded minutes. */
    uploadBaseMs: number;
    uploadMsPerRecordedMinute: number;
  };
  livestream: {
    /** OFFLINE → LIVE: ingest becomes active. */
    goLiveDelayMs: number;
    /** Simulated audience: viewer_seconds grow this many times faster than ingest_seconds. */
    viewers: number;
  };
}

export const DEFAULT_POLICY: SimulatorPolicy = {
  recording: { startDelayMs: 3_000, uploadBaseMs: 10_000, uploadMsPerRecordedMinute: 5_000 },
  livestream: { goLiveDelayMs: 5_000, viewers: 1 },
};

export function uploadDurationMs(policy: SimulatorPolicy, recordedMs: number): number {
  return policy.recording.uploadBaseMs + Math.round((policy.recording.uploadMsPerRecordedMinute * recordedMs) / 60_000);
}
