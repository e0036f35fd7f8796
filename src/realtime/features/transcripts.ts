// The meeting's transcript as the pages hear it: a line said by a participant whose preset has
// transcription_enabled reaches every page of the meeting as the SDK's transcript event, first as
// partial transcripts that grow word by word (`is_partial`), then as the final line, as a
// speech-to-text service streams them. The SDK reads each as one CSV line (epoch seconds, the
// speaker's peer id, user id, custom participant id, name, text), keeps them in `meeting.ai`,
// merges a speaker's partials into their final line, and the kits show them in their caption and
// transcript views. The line names its speaker by the peer id it was heard under, kept with it (the
// session's transcript): what a page that joins late reads of the lines said before, served by the
// SDK's active-transcript call (sdk-api.routes.ts), are the same lines under the same ids.
import type { DomainEvent } from '../../domain/events.js';
import { sdkTranscriptLine } from '../../domain/sessions/session-files.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';

const { room: ROOM } = SDK_EVENTS;

/** At most this many partial transcripts before a line's final one. */
const MAX_PARTIALS = 3;

/** The growing prefixes of a line, word by word, that a speech-to-text service would send before the whole line: none for a single word. */
export function partialsOf(text: string): string[] {
  const words = text.trim().split(/\s+/);
  const out: string[] = [];
  for (let i = 1; i <= MAX_PARTIALS; i++) {
    const n = Math.ceil((words.length * i) / (MAX_PARTIALS + 1));
    const partial = words.slice(0, n).join(' ');
    if (n < words.length && partial !== out.at(-1)) out.push(partial);
  }
  return out;
}

export class TranscriptsFeature implements RoomFeature {
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [];

  constructor(private readonly state: RoomState) {}

  onDomainEvent(e: DomainEvent): void {
    if (e.type !== 'transcript.spoken' || e.line.livePeerId === null) return;
    const meetingId = e.meeting.id;
    const peerId = e.line.livePeerId;
    const say = (text: string, partial: boolean) =>
      this.state.tell(meetingId, ROOM.transcript, 'socket.ai.MeetingTranscript', {
        meeting_id: meetingId,
        transcript: sdkTranscriptLine(e.line, peerId, text),
        is_partial: partial,
      });
    for (const partial of partialsOf(e.line.text)) say(partial, true);
    say(e.line.text, false);
  }
}
