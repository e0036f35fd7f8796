import { describe, expect, it } from 'vitest';
import type { Recording, RecordingStatus } from '../../src/domain/models.js';
import { DEFAULT_AUDIO, DEFAULT_VIDEO } from '../../src/domain/recordings/recording-config.js';
import { RECORDING_STATUSES } from '../../src/domain/models.js';
import {
  recordedMsAt,
  recordingEventFor,
  transitionRecording,
  type RecordingEvent,
  type RecordingEventType,
} from '../../src/domain/recordings/recording-machine.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const SYSTEM = { name: null, type: 'SYSTEM' as const, user_id: null };
const API_STOP = { reason: 'API_CALL', caller: { name: 'Org', type: 'ORGANIZATION' as const, user_id: null } };

function recording(over: Partial<Recording> = {}): Recording {
  return {
    id: '00000000-0000-4000-8000-00000000000r',
    orgId: 'org',
    meetingId: 'meeting',
    status: 'INVOKED',
    outputFileName: 'meeting_1.mp4',
    invokedTime: T0,
    startedTime: null,
    stoppedTime: null,
    sessionId: null,
    fileSize: null,
    downloadUrl: null,
    audioDownloadUrl: null,
    downloadUrlExpiry: null,
    recordingDuration: null,
    storageConfig: null,
    startReason: { reason: 'API_CALL', caller: SYSTEM },
    stopReason: null,
    maxSeconds: 86_400,
    allowMultipleRecordings: false,
    uploadToBucket: true,
    exportAudio: true,
    kind: 'composite',
    video: { ...DEFAULT_VIDEO },
    audio: { ...DEFAULT_AUDIO },
    recordedMs: 0,
    spanStartedAt: null,
    errorReason: null,
    ...over,
  };
}

const EVENTS: Record<RecordingEventType, RecordingEvent> = {
  START: { type: 'START', sessionId: 'session-1' },
  PAUSE: { type: 'PAUSE' },
  RESUME: { type: 'RESUME' },
  STOP: { type: 'STOP', reason: API_STOP, fileSize: 29_944 },
  UPLOAD_COMPLETE: { type: 'UPLOAD_COMPLETE', downloadUrl: 'https://x/v.mp4', audioDownloadUrl: 'https://x/a.m4a', downloadUrlExpiry: T0 + 1 },
  FAIL: { type: 'FAIL', reason: 'boom' },
};

// The lifecycle as docs/time-and-lifecycles.md states it, written out by hand (not read from the table).
const LEGAL: Record<RecordingStatus, Partial<Record<RecordingEventType, RecordingStatus>>> = {
  INVOKED: { START: 'RECORDING', FAIL: 'ERRORED' },
  RECORDING: { PAUSE: 'PAUSED', STOP: 'UPLOADING', FAIL: 'ERRORED' },
  PAUSED: { RESUME: 'RECORDING', STOP: 'UPLOADING', FAIL: 'ERRORED' },
  UPLOADING: { UPLOAD_COMPLETE: 'UPLOADED', FAIL: 'ERRORED' },
  UPLOADED: {},
  ERRORED: {},
};

const ALL_PAIRS = RECORDING_STATUSES.flatMap((from) =>
  (Object.keys(EVENTS) as RecordingEventType[]).map((event) => [from, event, LEGAL[from][event] ?? null] as const),
);

describe('recording transition table', () => {
  it.each(ALL_PAIRS)('%s + %s → %s', (from, event, to) => {
    const r = recording({ status: from });
    const result = transitionRecording(r, EVENTS[event], T0 + 1000);
    if (to === null) {
      expect(result).toEqual({ ok: false, from, event });
    } else {
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.entity.status).toBe(to);
    }
  });

  it('never mutates the recording it is given', () => {
    const r = recording({ status: 'RECORDING', spanStartedAt: T0 });
    const copy = structuredClone(r);
    transitionRecording(r, EVENTS.STOP, T0 + 5000);
    expect(r).toEqual(copy);
  });
});

describe('recordingEventFor (forced transitions)', () => {
  const targets = RECORDING_STATUSES.flatMap((from) =>
    RECORDING_STATUSES.map((to) => {
      const event = (Object.entries(LEGAL[from]) as [RecordingEventType, RecordingStatus][]).find(([, s]) => s === to)?.[0];
      return [from, to, event ?? null] as const;
    }),
  );
  it.each(targets)('%s → %s is %s', (from, to, event) => {
    expect(recordingEventFor(from, to) ?? null).toBe(event);
  });
});

describe('fields each transition sets', () => {
  it('START sets started_time, session_id and opens a recorded span', () => {
    const r = transitionRecording(recording(), EVENTS.START, T0 + 3000);
    expect(r.ok && r.entity).toMatchObject({ status: 'RECORDING', startedTime: T0 + 3000, sessionId: 'session-1', spanStartedAt: T0 + 3000, recordedMs: 0 });
  });

  it('PAUSE banks the span; RESUME opens a new one; pauses do not count as recorded time', () => {
    let r = recording({ status: 'RECORDING', startedTime: T0, spanStartedAt: T0 });
    const paused = transitionRecording(r, EVENTS.PAUSE, T0 + 10_000);
    expect(paused.ok && paused.entity).toMatchObject({ status: 'PAUSED', recordedMs: 10_000, spanStartedAt: null });
    r = (paused as { entity: Recording }).entity;
    expect(recordedMsAt(r, T0 + 50_000)).toBe(10_000);
    const resumed = transitionRecording(r, EVENTS.RESUME, T0 + 50_000);
    expect(resumed.ok && resumed.entity).toMatchObject({ status: 'RECORDING', recordedMs: 10_000, spanStartedAt: T0 + 50_000 });
    expect(recordedMsAt((resumed as { entity: Recording }).entity, T0 + 55_000)).toBe(15_000);
  });

  it('STOP sets stopped_time, file_size and stop_reason and closes the span', () => {
    const r = transitionRecording(recording({ status: 'RECORDING', startedTime: T0, spanStartedAt: T0, recordedMs: 2_000 }), EVENTS.STOP, T0 + 60_000);
    expect(r.ok && r.entity).toMatchObject({
      status: 'UPLOADING',
      stoppedTime: T0 + 60_000,
      fileSize: 29_944,
      stopReason: API_STOP,
      recordedMs: 62_000,
      spanStartedAt: null,
    });
  });

  it('UPLOAD_COMPLETE sets the links, their expiry and the duration in whole seconds', () => {
    const r = transitionRecording(recording({ status: 'UPLOADING', recordedMs: 61_499 }), EVENTS.UPLOAD_COMPLETE, T0);
    expect(r.ok && r.entity).toMatchObject({
      status: 'UPLOADED',
      downloadUrl: 'https://x/v.mp4',
      audioDownloadUrl: 'https://x/a.m4a',
      downloadUrlExpiry: T0 + 1,
      recordingDuration: 61,
    });
  });

  // recording_duration is the recorded time (pauses excluded) to the nearest whole second, a half
  // second rounding up: 61.5 s of recording reads 62, not 61 (cut down) nor 61.5.
  it.each([
    [0, 0],
    [499, 0],
    [500, 1],
    [61_499, 61],
    [61_500, 62],
    [61_999, 62],
    [120_000, 120],
  ])('UPLOAD_COMPLETE: %i ms recorded gives recording_duration %i s', (recordedMs, seconds) => {
    const r = transitionRecording(recording({ status: 'UPLOADING', recordedMs }), EVENTS.UPLOAD_COMPLETE, T0);
    expect(r.ok && r.entity.recordingDuration).toBe(seconds);
  });

  it.each([
    ['INVOKED (never started: no stopped_time)', recording(), null],
    ['RECORDING (stopped now)', recording({ status: 'RECORDING', startedTime: T0, spanStartedAt: T0 }), T0 + 9_000],
    ['UPLOADING (keeps its stop time)', recording({ status: 'UPLOADING', startedTime: T0, stoppedTime: T0 + 4_000, stopReason: API_STOP }), T0 + 4_000],
  ])('FAIL from %s', (_name, r, stoppedTime) => {
    const result = transitionRecording(r, EVENTS.FAIL, T0 + 9_000);
    expect(result.ok && result.entity).toMatchObject({
      status: 'ERRORED',
      errorReason: 'boom',
      stoppedTime,
      spanStartedAt: null,
      stopReason: r.stopReason ?? { reason: 'INTERNAL_ERROR', caller: SYSTEM },
    });
  });
});
