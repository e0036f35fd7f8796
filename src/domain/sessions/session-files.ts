// The files a session's download links serve: the chat dump (CSV, the columns of the chat export
// guide), the transcript (CSV, the columns of the transcription guide) and the summary (text).
// Made from the session record when downloaded, so a link always serves the current content.
import { toIso } from '../../core/clock.js';
import type { Session, SessionTranscriptLine } from '../models.js';

export type SessionFileKind = 'chat' | 'transcript' | 'summary';

export const SESSION_FILE_NAMES: Record<SessionFileKind, string> = {
  chat: 'chat.csv',
  transcript: 'transcript.csv',
  summary: 'summary.txt',
};

/** Production keeps transcripts and summaries for 7 days; its links to them live as long here. */
export const SESSION_FILE_LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export function sessionFilePath(sessionId: string, kind: SessionFileKind): string {
  return `/media/sessions/${sessionId}/${SESSION_FILE_NAMES[kind]}`;
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const CHAT_COLUMNS = ['id', 'participantId', 'sessionId', 'meetingId', 'displayName', 'pinned', 'isEdited', 'payloadType', 'payload', 'createdAt'] as const;

/**
 * Every message the session kept, in the order sent: private and channel messages too, as rows
 * like the others (production's columns name no recipient or channel); a deleted one is gone.
 */
export function chatCsv(s: Session): string {
  return csv(
    CHAT_COLUMNS,
    s.chat.map((m) => [m.id, m.participantId, s.id, s.meetingId, m.displayName, m.pinned, m.editedAt !== null, m.payloadType, m.payload, toIso(m.createdAt)]),
  );
}

const TRANSCRIPT_COLUMNS = ['Timestamp', 'Participant ID', 'User ID', 'Custom Participant ID', 'Participant Name', 'Transcript'] as const;

/** Participant ID (the peer) and User ID are the same id: one peer per participant per session. */
export function transcriptCsv(s: Session): string {
  return csv(
    TRANSCRIPT_COLUMNS,
    s.transcript.map((l) => [toIso(l.at), l.participantId, l.participantId, l.customParticipantId, l.name, l.text]),
  );
}

/** A line as the web SDKs read a transcript: `epochSeconds,peerId,userId,customParticipantId,name,text`, one line, no header. */
export function sdkTranscriptLine(l: SessionTranscriptLine, peerId: string, text: string = l.text): string {
  // The SDKs split a transcript file on line breaks before they parse each line as CSV.
  const oneLine = text.replace(/\r\n|[\r\n]/g, ' ');
  return [Math.floor(l.at / 1000), peerId, l.participantId, l.customParticipantId, l.name ?? '', oneLine].map(csvField).join(',');
}

/** The path of a meeting session's transcript so far, as a page that joins late reads it. */
export function activeTranscriptPath(sessionId: string): string {
  return `/media/sessions/${sessionId}/active-transcript.csv`;
}
