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

// --- docs/webhooks.md, "Events and payloads": each event's fields and their formats, as the
// production webhook guide's examples show them. A leaf is a RegExp the value must match (a
// string), NUMBER, or the exact value. Objects list every key the payload may and must carry.
export const NUMBER = Symbol('a number');
export type WebhookForm = RegExp | typeof NUMBER | string | null | readonly WebhookForm[] | { readonly [key: string]: WebhookForm };

/** Meeting and participant times: `2022-12-13T06:57:09.736Z`. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Recording and download-link times: `2023-01-25 04:51:35.903816Z` (a space, six fraction digits). */
export const SPACED_MICRO = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TEXT = /^[\s\S]+$/;
export const URL_FORM = /^https?:\/\/\S+$/;

const organizedBy = { id: UUID, name: TEXT };
/** meeting.started and the participant events: no `endedAt`; `status` is `LIVE`. */
const liveMeeting = { id: UUID, sessionId: UUID, title: TEXT, status: 'LIVE', createdAt: ISO_MS, startedAt: ISO_MS, organizedBy };
const meetingWithEnd = { ...liveMeeting, endedAt: ISO_MS };
/** In recording.statusUpdate `endedAt` is null while the session runs. */
const recordingMeeting = { ...liveMeeting, endedAt: [null, ISO_MS] };
const participant = { peerId: UUID, userDisplayName: TEXT, clientSpecificId: TEXT, customParticipantId: TEXT, joinedAt: ISO_MS };
/** `{'reason':'ALL_PEERS_LEFT','caller':{'type':'INTERNAL'}}`: a text, not an object. */
export const STOP_REASON =
  /^\{'reason':'(API_CALL|ALL_PEERS_LEFT|INTERNAL_ERROR)','caller':\{'type':'(INTERNAL|ORGANIZATION|USER)'(,'name':'[^']*')?(,'userId':'[^']*')?\}\}$/;
const recordingBase = { id: UUID, recordingId: UUID, meetingId: UUID, organizationId: UUID, roomUUID: UUID, outputFileName: TEXT };

export const WEBHOOK_FORMS = {
  'meeting.started': { event: 'meeting.started', meeting: liveMeeting },
  'meeting.ended': { event: 'meeting.ended', meeting: meetingWithEnd, reason: ['HOST_ENDED_MEETING', 'ALL_PARTICIPANTS_LEFT'] },
  'meeting.participantJoined': { event: 'meeting.participantJoined', meeting: liveMeeting, participant },
  'meeting.participantLeft': { event: 'meeting.participantLeft', meeting: liveMeeting, participant: { ...participant, leftAt: ISO_MS } },
  'meeting.chatSynced': {
    event: 'meeting.chatSynced',
    sessionId: UUID,
    meetingId: UUID,
    chatDownloadUrl: URL_FORM,
    chatDownloadUrlExpiry: SPACED_MICRO,
    organizedBy,
  },
  'meeting.transcript': { event: 'meeting.transcript', meeting: meetingWithEnd, transcriptDownloadUrl: URL_FORM, transcriptDownloadUrlExpiry: SPACED_MICRO },
  'meeting.summary': { event: 'meeting.summary', meeting: meetingWithEnd, summaryDownloadUrl: URL_FORM, summaryDownloadUrlExpiry: SPACED_MICRO },
  /**
   * By recording status. `meetingId` and `outputFileName` are known at every status and always
   * sent; `stopReason` is sent from the stop on (the guide's UPLOADING example shows neither).
   */
  'recording.statusUpdate': {
    RECORDING: { event: 'recording.statusUpdate', recording: { ...recordingBase, status: 'RECORDING', startedTime: SPACED_MICRO }, meeting: recordingMeeting },
    UPLOADING: {
      event: 'recording.statusUpdate',
      recording: { ...recordingBase, status: 'UPLOADING', startedTime: SPACED_MICRO, stoppedTime: SPACED_MICRO, fileSize: NUMBER, stopReason: STOP_REASON },
      meeting: recordingMeeting,
    },
    UPLOADED: {
      event: 'recording.statusUpdate',
      recording: {
        ...recordingBase,
        status: 'UPLOADED',
        startedTime: SPACED_MICRO,
        stoppedTime: SPACED_MICRO,
        fileSize: NUMBER,
        downloadUrl: URL_FORM,
        audioDownloadUrl: URL_FORM,
        downloadUrlExpiry: SPACED_MICRO,
        stopReason: STOP_REASON,
        recordingDuration: NUMBER,
      },
      meeting: recordingMeeting,
    },
  },
  'livestreaming.statusUpdate': { event: 'livestreaming.statusUpdate', streamId: UUID, status: ['LIVE', 'OFFLINE', 'IDLE'] },
} as const;
