// The recording lifecycle as a pure table, so it can be tested and listed without a service:
//   INVOKED → RECORDING → (PAUSED ⇄ RECORDING) → UPLOADING → UPLOADED, ERRORED from any
//   non-final state. No I/O here: the service applies, saves and publishes.
import type { ReasonCaller, Recording, RecordingStatus } from '../models.js';

export type RecordingEvent =
  | { type: 'START'; sessionId: string }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'STOP'; reason: ReasonCaller; fileSize: number }
  | { type: 'UPLOAD_COMPLETE'; downloadUrl: string | null; audioDownloadUrl: string | null; downloadUrlExpiry: number | null; fileSize?: number }
  | { type: 'FAIL'; reason: string };

export type RecordingEventType = RecordingEvent['type'];

export const RECORDING_TRANSITIONS: Record<RecordingStatus, Partial<Record<RecordingEventType, RecordingStatus>>> = {
  INVOKED: { START: 'RECORDING', FAIL: 'ERRORED' },
  RECORDING: { PAUSE: 'PAUSED', STOP: 'UPLOADING', FAIL: 'ERRORED' },
  PAUSED: { RESUME: 'RECORDING', STOP: 'UPLOADING', FAIL: 'ERRORED' },
  UPLOADING: { UPLOAD_COMPLETE: 'UPLOADED', FAIL: 'ERRORED' },
  UPLOADED: {},
  ERRORED: {},
};

/** Statuses in which a recording counts as the meeting's active recording. */
export const ACTIVE_RECORDING_STATUSES: readonly RecordingStatus[] = ['INVOKED', 'RECORDING', 'PAUSED'];

export const DOWNLOAD_URL_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type TransitionResult<T> = { ok: true; entity: T } | { ok: false; from: string; event: string };

/** Which event moves `from` to `to`, if the table allows it (forced transitions use this). */
export function recordingEventFor(from: RecordingStatus, to: RecordingStatus): RecordingEventType | undefined {
  const row = RECORDING_TRANSITIONS[from];
  return (Object.keys(row) as RecordingEventType[]).find((e) => row[e] === to);
}

/** Recorded time so far, ms (the current RECORDING span included). */
export function recordedMsAt(r: Recording, now: number): number {
  return r.recordedMs + (r.spanStartedAt === null ? 0 : Math.max(0, now - r.spanStartedAt));
}

export function transitionRecording(r: Recording, event: RecordingEvent, now: number): TransitionResult<Recording> {
  const to = RECORDING_TRANSITIONS[r.status][event.type];
  if (!to) return { ok: false, from: r.status, event: event.type };
  const next: Recording = { ...r, status: to };
  switch (event.type) {
    case 'START':
      next.startedTime = now;
      next.sessionId = event.sessionId;
      next.spanStartedAt = now;
      break;
    case 'PAUSE':
      next.recordedMs = recordedMsAt(r, now);
      next.spanStartedAt = null;
      break;
    case 'RESUME':
      next.spanStartedAt = now;
      break;
    case 'STOP':
      next.recordedMs = recordedMsAt(r, now);
      next.spanStartedAt = null;
      next.stoppedTime = now;
      next.fileSize = event.fileSize;
      next.stopReason = event.reason;
      break;
    case 'UPLOAD_COMPLETE':
      next.downloadUrl = event.downloadUrl;
      next.audioDownloadUrl = event.audioDownloadUrl;
      next.downloadUrlExpiry = event.downloadUrlExpiry;
      // The finished file's size (the one the recorder reported at the stop was the size so far).
      if (event.fileSize !== undefined) next.fileSize = event.fileSize;
      next.recordingDuration = Math.round(r.recordedMs / 1000);
      break;
    case 'FAIL':
      next.recordedMs = recordedMsAt(r, now);
      next.spanStartedAt = null;
      next.stoppedTime = r.stoppedTime ?? (r.startedTime === null ? null : now);
      next.errorReason = event.reason;
      next.stopReason = r.stopReason ?? { reason: 'INTERNAL_ERROR', caller: { name: null, type: 'SYSTEM', user_id: null } };
      break;
  }
  return { ok: true, entity: next };
}
