// Typed domain events. Every state change publishes one, carrying what the webhook payloads
// (docs/webhooks.md) need; the simulator and the webhook dispatcher subscribe.
import type { EventBus } from '../core/events.js';
import type { SessionFileKind } from './sessions/session-files.js';
import type { StageAction, StageStatus } from './meetings/stage-rules.js';
import type {
  Livestream,
  LivestreamState,
  Meeting,
  MeetingSession,
  Organization,
  Participant,
  Recording,
  RecordingStatus,
  Session,
  SessionChatMessage,
  SessionChatChannel,
  SessionPoll,
  SessionTranscriptLine,
} from './models.js';

/** Why a participant left: of their own accord, removed by the host (kick), with everyone (kick-all ends the session), or deleted. */
export type LeaveCause = 'left' | 'kicked' | 'ended' | 'removed';

/** What happened to one who waits: they started waiting, were admitted or rejected, or gave up. */
export type WaitingChange = 'waiting' | 'admitted' | 'rejected' | 'left';

/**
 * What happened to a meeting's network (the control API's network scenarios): a scenario was set
 * (or a one-off one done: a socket drop, a clear), one ended; or a page's socket was lost (its
 * participant stays for a reconnect window) and it came back.
 */
export type NetworkChange = 'applied' | 'ended' | 'lost' | 'returned';

/** What a host's mute turns off: a microphone or a camera. */
export type MuteKind = 'audio' | 'video';

export type DomainEvent =
  // `session` is the session the recording is in (the meeting's own until it has one): a later
  // session of the meeting may have started by the time the upload ends.
  | {
      type: 'recording.statusChanged';
      at: number;
      org: Organization;
      meeting: Meeting;
      session: MeetingSession | null;
      recording: Recording;
      previous: RecordingStatus | null;
    }
  // `meeting` is null for a livestream of its own (POST /v2/livestreams).
  | { type: 'livestream.statusChanged'; at: number; org: Organization; meeting: Meeting | null; livestream: Livestream; previous: LivestreamState | null }
  // A disabled livestream enabled again: an encoder waiting to connect may go LIVE (the simulator), a meeting's shows the meeting again.
  | { type: 'livestream.enabled'; at: number; org: Organization; livestream: Livestream }
  | { type: 'meeting.started'; at: number; org: Organization; meeting: Meeting }
  | { type: 'meeting.ended'; at: number; org: Organization; meeting: Meeting; reason: 'HOST_ENDED_MEETING' | 'ALL_PARTICIPANTS_LEFT' }
  | { type: 'participant.joined'; at: number; org: Organization; meeting: Meeting; participant: Participant }
  // `cause` tells the participant's own frontend why (a kicked page shows it was removed).
  | { type: 'participant.left'; at: number; org: Organization; meeting: Meeting; participant: Participant; joinedAt: number; cause: LeaveCause }
  // A present participant sent a chat message (a page through the SDK, or the control API).
  | { type: 'chat.sent'; at: number; org: Organization; meeting: Meeting; session: Session; message: SessionChatMessage }
  // Its sender edited or deleted a chat message, or someone who sees it pinned or unpinned it; `message` is as it is now (as it was, deleted).
  | {
      type: 'chat.updated';
      at: number;
      org: Organization;
      meeting: Meeting;
      session: Session;
      message: SessionChatMessage;
      change: 'edited' | 'pinned' | 'deleted';
    }
  // A chat channel of the LIVE session was made or changed; `before` names the members before a change.
  | {
      type: 'chat.channelChanged';
      at: number;
      org: Organization;
      meeting: Meeting;
      session: Session;
      channel: SessionChatChannel;
      change: 'created' | 'updated';
      before?: string[];
    }
  // A host turned participants' microphones (the REST API, a host's page) or cameras (a host's
  // page) off in the LIVE session. `by` is the host's participant id when a page did it, null for
  // the organization (REST).
  | {
      type: 'participants.muted';
      at: number;
      org: Organization;
      meeting: Meeting;
      session: Session;
      kind: MuteKind;
      participantIds: string[];
      allowUnmute: boolean;
      by: string | null;
    }
  // The meeting's waiting room changed: a participant started waiting, or stopped (admitted,
  // rejected, or gone). `by` is who admitted or rejected them: a participant id, or null for the
  // emulator's own operator (the dashboard, the control API) and for the other changes.
  | { type: 'waitingRoom.changed'; at: number; org: Organization; meeting: Meeting; participant: Participant; change: WaitingChange; by: string | null }
  // A participant moved on the meeting's stage: by their own move (`by` is themselves), a host's
  // (`by` the host), or the emulator's operator (`by` null).
  | {
      type: 'stage.changed';
      at: number;
      org: Organization;
      meeting: Meeting;
      participant: Participant;
      status: StageStatus;
      previous: StageStatus;
      action: StageAction;
      by: string | null;
    }
  // A participant of the meeting's LIVE session said a line (the control API, the dashboard): it is in
  // the session's transcript; `live` tells whether their preset has it transcribed for the pages.
  | { type: 'transcript.spoken'; at: number; org: Organization; meeting: Meeting; session: Session; line: SessionTranscriptLine; live: boolean }
  // A poll was started in the meeting's LIVE session (the REST API or a page).
  | { type: 'poll.created'; at: number; org: Organization; meeting: Meeting; session: Session; poll: SessionPoll }
  // A participant voted in a poll of the LIVE session (a page, or the control API): `poll` counts the vote.
  | { type: 'poll.voted'; at: number; org: Organization; meeting: Meeting; session: Session; poll: SessionPoll; participantId: string }
  // A session's files became available (session history): its chat once it ended, its
  // transcript and summary when the meeting asks for them. `link` is a signed download link.
  | { type: 'session.fileReady'; at: number; org: Organization; meeting: Meeting; session: Session; file: SessionFileKind; link: DownloadLink }
  // Breakout rooms (connected meetings) were opened, renamed or closed: `meeting` is their parent.
  | { type: 'breakout.roomsChanged'; at: number; org: Organization; meeting: Meeting; change: 'opened' | 'renamed' | 'closed'; rooms: Meeting[] }
  // The network of a meeting, or of one participant in it (`participant`), changed: `scenario` names
  // the network scenario set or ended (null for a page's socket lost or back), `detail` says it in words.
  | {
      type: 'network.changed';
      at: number;
      org: Organization;
      meeting: Meeting;
      participant: Participant | null;
      change: NetworkChange;
      scenario: string | null;
      detail: string | null;
    }
  // Participants were moved from `meeting` to `destination` (one of them a breakout room of the other's family).
  | { type: 'breakout.moved'; at: number; org: Organization; meeting: Meeting; destination: Meeting; transfers: BreakoutTransfer[] };

/**
 * One person moved between connected meetings: their participant in the source and in the
 * destination (the same person: the same custom participant id). A participant with a page
 * (`byPage`) is asked to move and moves by itself; a scripted one has been moved already.
 */
export interface BreakoutTransfer {
  from: Participant;
  to: Participant;
  byPage: boolean;
}

/** A signed, expiring download link. */
export interface DownloadLink {
  url: string;
  expiresAt: number;
}

export type DomainEventBus = EventBus<DomainEvent>;
