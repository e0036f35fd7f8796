// Domain events → webhook payloads (docs/webhooks.md): camelCase keys and the forms production's
// webhook guide shows, field by field. The only place the webhook wire shapes are made; the v2
// REST answers follow the OpenAPI document instead, which differs from these on purpose.
import { isoOrNull, toIso } from '../core/clock.js';
import type { DomainEvent } from '../domain/events.js';
import { wireStatus } from '../domain/livestreams/livestream-machine.js';
import type { LivestreamState, Meeting, Organization, Participant, ReasonCaller, Recording } from '../domain/models.js';

/**
 * The guide's recording and download-link times: `2023-01-25 04:51:35.903816Z` (a space, six
 * fraction digits). The emulator's clock counts milliseconds, so the last three digits are 0.
 * Meeting and participant times stay ISO 8601 (`2022-12-13T06:57:09.736Z`), as the guide shows them.
 */
export function spacedMicroTime(ms: number): string {
  return `${toIso(ms).replace('T', ' ').slice(0, -1)}000Z`;
}

export interface MeetingPayload {
  id: string;
  sessionId: string | null;
  title: string | null;
  status: string;
  createdAt: string;
  startedAt: string | null;
  /** Left out of meeting.started and the participant events, whose examples have none. */
  endedAt?: string | null;
  organizedBy: { id: string; name: string };
}

/** Fields not known yet at a status are left out, as the guide's RECORDING example leaves them. */
export interface RecordingPayload {
  id: string;
  recordingId: string;
  meetingId: string;
  organizationId: string;
  roomUUID?: string;
  status: Recording['status'];
  outputFileName: string;
  startedTime?: string;
  stoppedTime?: string;
  fileSize?: number;
  downloadUrl?: string;
  audioDownloadUrl?: string;
  downloadUrlExpiry?: string;
  stopReason?: string;
  recordingDuration?: number;
}

export interface ParticipantPayload {
  peerId: string;
  userDisplayName: string | null;
  clientSpecificId: string;
  customParticipantId: string;
  joinedAt: string;
  leftAt?: string;
}

/** The guide lists exactly these three for livestreaming.statusUpdate. */
export type LivestreamWebhookStatus = 'LIVE' | 'OFFLINE' | 'IDLE';

export type WebhookPayload =
  | { event: 'recording.statusUpdate'; recording: RecordingPayload; meeting: MeetingPayload }
  | { event: 'livestreaming.statusUpdate'; streamId: string; status: LivestreamWebhookStatus }
  | { event: 'meeting.started'; meeting: MeetingPayload }
  | { event: 'meeting.ended'; meeting: MeetingPayload; reason: 'HOST_ENDED_MEETING' | 'ALL_PARTICIPANTS_LEFT' }
  | { event: 'meeting.participantJoined'; meeting: MeetingPayload; participant: ParticipantPayload }
  | { event: 'meeting.participantLeft'; meeting: MeetingPayload; participant: ParticipantPayload }
  | SessionFilePayload;

/**
 * The meeting's `status` is the room's, not the session's: the guide shows `LIVE` in every
 * event, meeting.ended and the post-meeting transcript and summary included. An INACTIVE
 * meeting (no value shown by the guide) keeps its v2 word.
 */
function meetingStatus(meeting: Meeting): string {
  return meeting.status === 'ACTIVE' ? 'LIVE' : meeting.status;
}

/** The meeting in one of its sessions: `sessionId`, `startedAt` and `endedAt` all come from `session`. */
function meetingIn(meeting: Meeting, org: Organization, session: { id: string; startedAt: number; endedAt: number | null } | null): Required<MeetingPayload> {
  return {
    id: meeting.id,
    sessionId: session?.id ?? null,
    title: meeting.title,
    status: meetingStatus(meeting),
    createdAt: toIso(meeting.createdAt),
    startedAt: isoOrNull(session?.startedAt),
    endedAt: isoOrNull(session?.endedAt),
    organizedBy: { id: org.id, name: org.name },
  };
}

/** meeting.started and the participant events: the running session, without `endedAt`. */
function liveMeetingPayload(meeting: Meeting, org: Organization): MeetingPayload {
  const { endedAt: _endedAt, ...rest } = meetingIn(meeting, org, meeting.session);
  return rest;
}

/** Single-quoted, as in the guide's `{'reason':'ALL_PEERS_LEFT','caller':{'type':'INTERNAL'}}`. */
function quoted(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function singleQuotedObject(fields: [string, string | [string, string][]][]): string {
  return `{${fields.map(([k, v]) => `${quoted(k)}:${typeof v === 'string' ? quoted(v) : singleQuotedObject(v)}`).join(',')}}`;
}

/**
 * `stopReason` as the guide's UPLOADED example shows it: a string holding the reason object.
 * The emulator's own stops (SYSTEM in the model) show the caller as `INTERNAL`; a name or user
 * id is written only when there is one.
 */
function stopReasonText(r: ReasonCaller): string {
  const caller: [string, string][] = [['type', r.caller.type === 'SYSTEM' ? 'INTERNAL' : r.caller.type]];
  if (r.caller.name !== null) caller.push(['name', r.caller.name]);
  if (r.caller.user_id !== null) caller.push(['userId', r.caller.user_id]);
  return singleQuotedObject([
    ['reason', r.reason],
    ['caller', caller],
  ]);
}

function present<T>(key: string, value: T | null): Record<string, T> {
  return value === null ? {} : { [key]: value };
}

/** `roomUUID` is the session the recording is in, the same id as the payload's `meeting.sessionId`. */
export function recordingPayload(r: Recording, sessionId: string | null): RecordingPayload {
  const time = (ms: number | null) => (ms === null ? null : spacedMicroTime(ms));
  return {
    id: r.id,
    recordingId: r.id,
    meetingId: r.meetingId,
    organizationId: r.orgId,
    ...present('roomUUID', sessionId),
    status: r.status,
    outputFileName: r.outputFileName,
    ...present('startedTime', time(r.startedTime)),
    ...present('stoppedTime', time(r.stoppedTime)),
    ...present('fileSize', r.fileSize),
    ...present('downloadUrl', r.downloadUrl),
    ...present('audioDownloadUrl', r.audioDownloadUrl),
    ...present('downloadUrlExpiry', time(r.downloadUrlExpiry)),
    ...present('stopReason', r.stopReason === null ? null : stopReasonText(r.stopReason)),
    ...present('recordingDuration', r.recordingDuration),
  };
}

/** `peerId` is the participant id: the emulator has no separate peer sessions (emulator decision). */
export function participantPayload(p: Participant, joinedAt: number, leftAt?: number): ParticipantPayload {
  return {
    peerId: p.id,
    userDisplayName: p.name,
    // deprecated in production in favour of customParticipantId, still sent
    clientSpecificId: p.customParticipantId,
    customParticipantId: p.customParticipantId,
    joinedAt: toIso(joinedAt),
    ...(leftAt !== undefined ? { leftAt: toIso(leftAt) } : {}),
  };
}

/** An errored livestream is not ingesting: OFFLINE, since the guide lists no other value. */
function livestreamWebhookStatus(state: LivestreamState): LivestreamWebhookStatus {
  const wire = wireStatus(state);
  return wire === 'ERRORED' ? 'OFFLINE' : wire;
}

// --- session history: the files a session leaves (chat, transcript, summary) ---

export type SessionFilePayload =
  | {
      event: 'meeting.chatSynced';
      sessionId: string;
      meetingId: string;
      chatDownloadUrl: string;
      chatDownloadUrlExpiry: string;
      organizedBy: { id: string; name: string };
    }
  | { event: 'meeting.transcript'; meeting: MeetingPayload; transcriptDownloadUrl: string; transcriptDownloadUrlExpiry: string }
  | { event: 'meeting.summary'; meeting: MeetingPayload; summaryDownloadUrl: string; summaryDownloadUrlExpiry: string };

function sessionFilePayload(e: Extract<DomainEvent, { type: 'session.fileReady' }>): SessionFilePayload {
  const expiry = spacedMicroTime(e.link.expiresAt);
  switch (e.file) {
    case 'chat':
      return {
        event: 'meeting.chatSynced',
        sessionId: e.session.id,
        meetingId: e.meeting.id,
        chatDownloadUrl: e.link.url,
        chatDownloadUrlExpiry: expiry,
        organizedBy: { id: e.org.id, name: e.org.name },
      };
    case 'transcript':
      return {
        event: 'meeting.transcript',
        meeting: meetingIn(e.meeting, e.org, e.session),
        transcriptDownloadUrl: e.link.url,
        transcriptDownloadUrlExpiry: expiry,
      };
    case 'summary':
      return {
        event: 'meeting.summary',
        meeting: meetingIn(e.meeting, e.org, e.session),
        summaryDownloadUrl: e.link.url,
        summaryDownloadUrlExpiry: expiry,
      };
  }
}
// --- end of session history ---

/** The webhook event a domain event becomes, with its payload; undefined for events no webhook carries. */
export function webhookPayloadFor(e: DomainEvent): WebhookPayload | undefined {
  switch (e.type) {
    case 'recording.statusChanged': {
      const meeting = meetingIn(e.meeting, e.org, e.session);
      return { event: 'recording.statusUpdate', recording: recordingPayload(e.recording, meeting.sessionId), meeting };
    }
    case 'livestream.statusChanged':
      return { event: 'livestreaming.statusUpdate', streamId: e.livestream.id, status: livestreamWebhookStatus(e.livestream.state) };
    case 'meeting.started':
      return { event: 'meeting.started', meeting: liveMeetingPayload(e.meeting, e.org) };
    case 'meeting.ended':
      return { event: 'meeting.ended', meeting: meetingIn(e.meeting, e.org, e.meeting.session), reason: e.reason };
    case 'participant.joined':
      return {
        event: 'meeting.participantJoined',
        meeting: liveMeetingPayload(e.meeting, e.org),
        participant: participantPayload(e.participant, e.participant.joinedAt ?? e.at),
      };
    case 'participant.left':
      return {
        event: 'meeting.participantLeft',
        meeting: liveMeetingPayload(e.meeting, e.org),
        participant: participantPayload(e.participant, e.joinedAt, e.at),
      };
    case 'session.fileReady':
      return sessionFilePayload(e);
    default:
      return undefined;
  }
}
