// Domain events → webhook payloads (docs/webhooks.md): camelCase keys, ISO times from the emulator
// clock. The only place the webhook wire shapes are made.
import { toIso } from '../core/clock.js';
import type { DomainEvent } from '../domain/events.js';
import { wireStatus } from '../domain/livestreams/livestream-machine.js';
import type { LivestreamWireStatus, Meeting, Organization, Participant, ReasonCaller, Recording, Session } from '../domain/models.js';

const isoOrNull = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : toIso(ms));

export interface MeetingPayload {
  id: string;
  sessionId: string | null;
  title: string | null;
  status: string;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  organizedBy: { id: string; name: string };
}

export interface RecordingPayload {
  id: string;
  recordingId: string;
  meetingId: string;
  organizationId: string;
  roomUUID: string;
  status: Recording['status'];
  outputFileName: string;
  startedTime: string | null;
  stoppedTime: string | null;
  fileSize: number | null;
  downloadUrl: string | null;
  audioDownloadUrl: string | null;
  downloadUrlExpiry: string | null;
  stopReason: { reason: string; caller: { name: string | null; type: string; userId: string | null } } | null;
  recordingDuration: number | null;
}

export interface ParticipantPayload {
  peerId: string;
  userDisplayName: string | null;
  customParticipantId: string;
  clientSpecificId: string;
  joinedAt: string;
  leftAt?: string;
}

export type WebhookPayload =
  | { event: 'recording.statusUpdate'; recording: RecordingPayload; meeting: MeetingPayload }
  | { event: 'livestreaming.statusUpdate'; streamId: string; status: LivestreamWireStatus }
  | { event: 'meeting.started'; meeting: MeetingPayload }
  | { event: 'meeting.ended'; meeting: MeetingPayload; reason: 'HOST_ENDED_MEETING' | 'ALL_PARTICIPANTS_LEFT' }
  | { event: 'meeting.participantJoined'; meeting: MeetingPayload; participant: ParticipantPayload }
  | { event: 'meeting.participantLeft'; meeting: MeetingPayload; participant: ParticipantPayload }
  | SessionFilePayload;

/**
 * Emulator decision on `meeting.status`: `LIVE` while a session runs, `ENDED` once it ended
 * (production's own sample shows `LIVE` even in `meeting.ended`; receivers should key on the
 * event name), and the meeting's own status (`ACTIVE`/`INACTIVE`) when nobody has joined yet.
 */
export function meetingPayload(meeting: Meeting, org: Organization, sessionId?: string | null): MeetingPayload {
  const session = meeting.session;
  return {
    id: meeting.id,
    sessionId: sessionId ?? session?.id ?? null,
    title: meeting.title,
    status: session ? (session.endedAt === null ? 'LIVE' : 'ENDED') : meeting.status,
    createdAt: toIso(meeting.createdAt),
    startedAt: isoOrNull(session?.startedAt),
    endedAt: isoOrNull(session?.endedAt),
    organizedBy: { id: org.id, name: org.name },
  };
}

function stopReason(r: ReasonCaller | null): RecordingPayload['stopReason'] {
  if (!r) return null;
  return { reason: r.reason, caller: { name: r.caller.name, type: r.caller.type, userId: r.caller.user_id } };
}

/** `roomUUID` is the meeting id: in v2 the meeting is the room (emulator decision). */
export function recordingPayload(r: Recording): RecordingPayload {
  return {
    id: r.id,
    recordingId: r.id,
    meetingId: r.meetingId,
    organizationId: r.orgId,
    roomUUID: r.meetingId,
    status: r.status,
    outputFileName: r.outputFileName,
    startedTime: isoOrNull(r.startedTime),
    stoppedTime: isoOrNull(r.stoppedTime),
    fileSize: r.fileSize,
    downloadUrl: r.downloadUrl,
    audioDownloadUrl: r.audioDownloadUrl,
    downloadUrlExpiry: isoOrNull(r.downloadUrlExpiry),
    stopReason: stopReason(r.stopReason),
    recordingDuration: r.recordingDuration,
  };
}

/** `peerId` is the participant id: the emulator has no separate peer sessions (emulator decision). */
export function participantPayload(p: Participant, joinedAt: number, leftAt?: number): ParticipantPayload {
  return {
    peerId: p.id,
    userDisplayName: p.name,
    customParticipantId: p.customParticipantId,
    clientSpecificId: p.customParticipantId,
    joinedAt: toIso(joinedAt),
    ...(leftAt !== undefined ? { leftAt: toIso(leftAt) } : {}),
  };
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

/** The guide's link expiry format: `2022-12-13 07:08:39.051621Z` (a space, microseconds). */
export function spacedMicroTime(ms: number): string {
  return `${toIso(ms).replace('T', ' ').slice(0, -1)}000Z`;
}

/** The meeting as it was in that session (a later session may have started since). */
function sessionMeetingPayload(meeting: Meeting, org: Organization, session: Session): MeetingPayload {
  return {
    ...meetingPayload(meeting, org, session.id),
    status: session.endedAt === null ? 'LIVE' : 'ENDED',
    startedAt: toIso(session.startedAt),
    endedAt: isoOrNull(session.endedAt),
  };
}

export function sessionFilePayload(e: Extract<DomainEvent, { type: 'session.fileReady' }>): SessionFilePayload {
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
        meeting: sessionMeetingPayload(e.meeting, e.org, e.session),
        transcriptDownloadUrl: e.link.url,
        transcriptDownloadUrlExpiry: expiry,
      };
    case 'summary':
      return {
        event: 'meeting.summary',
        meeting: sessionMeetingPayload(e.meeting, e.org, e.session),
        summaryDownloadUrl: e.link.url,
        summaryDownloadUrlExpiry: expiry,
      };
  }
}
// --- end of session history ---

/** The webhook event a domain event becomes, with its payload; undefined for events no webhook carries. */
export function webhookPayloadFor(e: DomainEvent): WebhookPayload | undefined {
  switch (e.type) {
    case 'recording.statusChanged':
      return { event: 'recording.statusUpdate', recording: recordingPayload(e.recording), meeting: meetingPayload(e.meeting, e.org, e.recording.sessionId) };
    case 'livestream.statusChanged':
      return { event: 'livestreaming.statusUpdate', streamId: e.livestream.id, status: wireStatus(e.livestream.state) };
    case 'meeting.started':
      return { event: 'meeting.started', meeting: meetingPayload(e.meeting, e.org) };
    case 'meeting.ended':
      return { event: 'meeting.ended', meeting: meetingPayload(e.meeting, e.org), reason: e.reason };
    case 'participant.joined':
      return {
        event: 'meeting.participantJoined',
        meeting: meetingPayload(e.meeting, e.org),
        participant: participantPayload(e.participant, e.participant.joinedAt ?? e.at),
      };
    case 'participant.left':
      return { event: 'meeting.participantLeft', meeting: meetingPayload(e.meeting, e.org), participant: participantPayload(e.participant, e.joinedAt, e.at) };
    case 'session.fileReady':
      return sessionFilePayload(e);
    default:
      return undefined;
  }
}
