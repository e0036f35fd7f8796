// The documented contract, written out once for the tests: numbers and texts from docs/*.md that
// tests expect. They are literals on purpose, never read from src/, so that a change of the code
// alone fails a test instead of moving what the test expects.

/** docs/time-and-lifecycles.md, "Default timings": the recorder joins 3 s after the start. */
export const RECORDER_JOINS_MS = 3_000;
/** docs/time-and-lifecycles.md, "Default timings": ingest goes live 5 s after create. */
export const GO_LIVE_MS = 5_000;
/** docs/time-and-lifecycles.md: `file_size` is the size of the sample clip (fixtures/media/recording.mp4). */
export const SAMPLE_CLIP_BYTES = 29_944;
/** docs/webhooks.md: retries 1 s, 5 s, 30 s, 2 min and 10 min after each failure. */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const;
/** docs/running.md, "Shutdown": the error of an attempt cut off by a shutdown. */
export const INTERRUPTED_ERROR = 'Interrupted: the emulator shut down before the receiver answered';
/** docs/webhooks.md, "Events and payloads": the nine events, in the order a validation message lists them. */
export const WEBHOOK_EVENTS = [
  'meeting.started',
  'meeting.ended',
  'meeting.participantJoined',
  'meeting.participantLeft',
  'recording.statusUpdate',
  'livestreaming.statusUpdate',
  'meeting.chatSynced',
  'meeting.transcript',
  'meeting.summary',
] as const;
/** docs/api-v2.md: a participant token lives 100 days on the emulator clock (exp = iat + 100 days). */
export const TOKEN_LIFETIME_MS = 100 * 24 * 60 * 60 * 1000;
