// The session history of each organization: a record per session (who joined and left when,
// mutes, polls, chat, transcript, summary), written as presence changes (sessions.service.ts
// tells it) and read by the sessions API, the active-session API and the analytics.
//
// Emulator decisions (the reference is silent):
// - The files of a session (chat, transcript, summary) are ready the moment it ends: the
//   webhooks that announce them leave with meeting.ended, in that order.
// - Chat and transcript links are answered for every session (a file with only its header
//   when nothing was said); a summary exists once generated (on end or POST …/summary).
import { errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { DownloadLink, MuteKind } from '../events.js';
import type { MediaLinks } from '../media/media-links.js';
import type { ChatFilesService } from './chat-files.js';
import {
  SESSION_LIMITS,
  type Meeting,
  type Participant,
  type Session,
  type SessionChatChannel,
  type SessionChatMessage,
  type SessionParticipant,
  type SessionPoll,
  type SessionTranscriptLine,
} from '../models.js';
import { channelInputProblem, channelOf, chatPage, payloadProblem, permissionProblem, sees, type ChatContent, type ChatPageQuery } from './chat-rules.js';
import { pageList, type Page, type PageRequest } from '../paging.js';
import type { FixtureOrg, OrgMember } from '../organizations/org-member.js';
import type { OrgData } from '../../store/store.js';
import { daywise, type Daywise } from './daywise.js';
import {
  SESSION_FILE_LINK_LIFETIME_MS,
  activeTranscriptPath,
  chatCsv,
  sdkTranscriptLine,
  sessionFilePath,
  transcriptCsv,
  type SessionFileKind,
} from './session-files.js';
import {
  aiWishes,
  endSession,
  findIn,
  firstJoin,
  isLive,
  isPresent,
  joinSession,
  leaveSession,
  muteInSession,
  openSession,
  participantMs,
  pollInputProblem,
  presentIn,
  sessionMinutes,
  summarize,
} from './session-rules.js';

export interface SessionQuery extends PageRequest {
  sortBy: 'minutesConsumed' | 'createdAt';
  sortOrder: 'ASC' | 'DESC';
  startTime?: number;
  endTime?: number;
  /** Inclusive bounds on the number of participants (`participants=1:10`). */
  participants?: { min: number; max: number };
  status?: 'LIVE' | 'ENDED';
  search?: string;
  meetingId?: string;
}

export interface SessionParticipantQuery extends PageRequest {
  search?: string;
  sortBy: 'joinedAt' | 'duration';
  sortOrder: 'ASC' | 'DESC';
}

/** What a host turns off, and which host did it (their participant id; none: the organization, through the REST API). */
export interface MuteOptions {
  kind?: MuteKind;
  by?: string;
}

/** Whom a kick or a mute is for: participant ids and/or custom participant ids. */
export interface ParticipantSelector {
  participantIds: readonly string[];
  customParticipantIds: readonly string[];
}

/** Whom a chat message is for: participant ids (a private message), or a channel of the session; neither: everyone. */
export interface ChatAudience {
  to?: readonly string[];
  channelId?: string;
}

export interface ChannelInput {
  name: string;
  /** Participant ids; the creator is added. */
  members: readonly string[];
  pictureUrl?: string | null;
  visibility?: string;
  isDirectMessage: boolean;
}

export interface PollInput {
  question: string;
  options: string[];
  anonymous: boolean;
  hideVotes: boolean;
}

/** The meetings' pages (the realtime rooms): the peer id a participant has there. */
export interface MeetingPages {
  /** Their page's peer id, or their participant id when they have no page. */
  peerIdOf(meetingId: string, participantId: string): string;
}

/** What a page that joins late reads of the transcript so far: its most recent lines (production's own cut is not documented). */
export const ACTIVE_TRANSCRIPT_LINES = 500;

const sessionNotFound = (id: string) => errors.notFoundMessage(`No session found with id ${id}`);
const noActiveSession = (meetingId: string) => errors.notFoundMessage(`No active session found for meeting_id ${meetingId}`);

export class SessionHistoryService implements OrgMember {
  private pages: MeetingPages = { peerIdOf: (_meetingId, participantId) => participantId };

  constructor(
    private readonly ctx: DomainContext,
    private readonly media: MediaLinks,
    /** The chat files pages upload: what an image or a file message may link. */
    private readonly files?: Pick<ChatFilesService, 'linkProblem'>,
  ) {}

  /** The realtime rooms, once built (they are built after the domain). */
  attachPages(pages: MeetingPages): void {
    this.pages = pages;
  }

  // --- written as presence changes (sessions.service.ts) -------------------------------------

  opened(meeting: Meeting, sessionId: string, now: number): void {
    orgData(this.ctx, meeting.orgId).putSession(openSession(sessionId, meeting, now));
  }

  joined(meeting: Meeting, sessionId: string, participant: Participant, now: number): void {
    this.update(meeting.orgId, sessionId, (s) => joinSession(s, participant, now));
  }

  left(meeting: Meeting, sessionId: string, participantId: string, now: number): void {
    this.update(meeting.orgId, sessionId, (s) => leaveSession(s, participantId, now));
  }

  /**
   * The session ended (meeting.ended is already out): the files it has become available, each
   * announced by its event — the chat when there was any, the transcript when `ai_config`
   * asks for it, the summary when the meeting asks for one and there is a transcript to summarize.
   */
  ended(meeting: Meeting, sessionId: string, reason: NonNullable<Session['endReason']>, now: number): void {
    let session = this.update(meeting.orgId, sessionId, (s) => endSession(s, reason, now));
    if (!session) return;
    const wishes = aiWishes(meeting);
    if (session.chat.length > 0) this.announce(meeting, session, 'chat', now);
    if (session.transcript.length > 0) {
      if (wishes.transcript) this.announce(meeting, session, 'transcript', now);
      if (wishes.summary) {
        session = this.withSummary(meeting, session, now);
        this.announce(meeting, session, 'summary', now);
      }
    }
  }

  // --- reads --------------------------------------------------------------------------------

  get(orgId: string, sessionId: string): Session {
    const s = orgData(this.ctx, orgId).sessions.get(sessionId);
    if (!s) throw sessionNotFound(sessionId);
    return s;
  }

  /** The meeting's LIVE session, or 404 in production's words. */
  active(orgId: string, meetingId: string): Session {
    const data = orgData(this.ctx, orgId);
    const meeting = data.meetings.get(meetingId);
    if (!meeting) throw errors.notFound('meeting', meetingId);
    const s = meeting.session ? data.sessions.get(meeting.session.id) : undefined;
    if (!s || !isLive(s)) throw noActiveSession(meetingId);
    return s;
  }

  meetingOf(s: Session): Meeting {
    const meeting = orgData(this.ctx, s.orgId).meetings.get(s.meetingId);
    if (!meeting) throw errors.notFound('meeting', s.meetingId);
    return meeting;
  }

  list(orgId: string, q: SessionQuery): Page<Session> {
    const data = orgData(this.ctx, orgId);
    const now = this.ctx.clock.now();
    const needle = q.search?.toLowerCase();
    // One meeting's sessions come from its index (the dashboard asks meeting by meeting).
    const ids = q.meetingId === undefined ? data.sessionOrder : (data.sessionsByMeeting.get(q.meetingId) ?? []);
    const picked = ids
      .map((id) => data.sessions.get(id)!)
      .filter((s) => {
        if (q.status !== undefined && (isLive(s) ? 'LIVE' : 'ENDED') !== q.status) return false;
        if (q.startTime !== undefined && s.startedAt < q.startTime) return false;
        if (q.endTime !== undefined && s.startedAt > q.endTime) return false;
        if (q.participants && (s.participants.length < q.participants.min || s.participants.length > q.participants.max)) return false;
        if (needle !== undefined) {
          const title = (data.meetings.get(s.meetingId)?.title ?? '').toLowerCase();
          if (!title.includes(needle) && !s.meetingId.includes(needle) && !s.id.includes(needle)) return false;
        }
        return true;
      });
    // Stable sorts: ties keep the order the sessions started in.
    const key = q.sortBy === 'minutesConsumed' ? (s: Session) => sessionMinutes(s, now) : (s: Session) => s.startedAt;
    const sign = q.sortOrder === 'ASC' ? 1 : -1;
    // Stryker disable next-line ArithmeticOperator: sign is 1 or -1, so * and / agree, and ties always compare the later element first, so a.i + b.i has the same sign.
    const sorted = picked.map((s, i) => ({ s, i, k: key(s) })).sort((a, b) => (a.k - b.k) * sign || (a.i - b.i) * sign);
    return pageList(
      sorted.map((x) => x.s),
      q,
    );
  }

  participants(orgId: string, sessionId: string, q: SessionParticipantQuery): Page<SessionParticipant> {
    const s = this.get(orgId, sessionId);
    const now = this.ctx.clock.now();
    const needle = q.search?.toLowerCase();
    const picked =
      needle === undefined
        ? s.participants
        : s.participants.filter(
            (p) => (p.name ?? '').toLowerCase().includes(needle) || p.customParticipantId.toLowerCase().includes(needle) || p.participantId.includes(needle),
          );
    const key = q.sortBy === 'duration' ? (p: SessionParticipant) => participantMs(p, now) : firstJoin;
    const sign = q.sortOrder === 'ASC' ? 1 : -1;
    // Stryker disable next-line ArithmeticOperator: sign is 1 or -1, so * and / agree, and ties always compare the later element first, so a.i + b.i has the same sign.
    const sorted = picked.map((p, i) => ({ p, i, k: key(p) })).sort((a, b) => (a.k - b.k) * sign || (a.i - b.i) * sign);
    return pageList(
      sorted.map((x) => x.p),
      q,
    );
  }

  participant(orgId: string, sessionId: string, participantId: string): SessionParticipant {
    const p = findIn(this.get(orgId, sessionId), participantId);
    if (!p) throw errors.notFoundMessage(`No participant found with id ${participantId} in session ${sessionId}`);
    return p;
  }

  /** A peer is a participant in one session: the newest session that participant was in. */
  peer(orgId: string, peerId: string): { session: Session; participant: SessionParticipant } {
    const data = orgData(this.ctx, orgId);
    for (let i = data.sessionOrder.length - 1; i >= 0; i--) {
      const session = data.sessions.get(data.sessionOrder[i]!)!;
      const participant = findIn(session, peerId);
      if (participant) return { session, participant };
    }
    throw errors.notFoundMessage(`No peer found with id ${peerId}`);
  }

  /** The organization's figures per UTC day from `from` to `to` (midnights UTC, `to` excluded). */
  daywise(orgId: string, from: number, to: number): Daywise {
    const data = orgData(this.ctx, orgId);
    const sessions = data.sessionOrder.map((id) => data.sessions.get(id)!);
    const recordings = data.recordingOrder.map((id) => data.recordings.get(id)!);
    return daywise(sessions, recordings, from, to, this.ctx.clock.now());
  }

  // --- the host's actions that leave presence as it is ----------------------------------------

  /**
   * The present participants a selector names, in the order they joined. Every id must name
   * someone in the session, or nothing happens (404, production's words).
   */
  selectPresent(s: Session, sel: ParticipantSelector): SessionParticipant[] {
    const present = presentIn(s);
    for (const id of sel.participantIds) {
      if (!present.some((p) => p.participantId === id)) throw errors.notFoundMessage(`No user found with id ${id}`);
    }
    for (const id of sel.customParticipantIds) {
      if (!present.some((p) => p.customParticipantId === id)) throw errors.notFoundMessage(`No user found with custom_participant_id ${id}`);
    }
    const ids = new Set(sel.participantIds);
    const custom = new Set(sel.customParticipantIds);
    return present.filter((p) => ids.has(p.participantId) || custom.has(p.customParticipantId));
  }

  /**
   * Turns the selected participants' microphones off (REST mute, a host's page), or their cameras
   * (a host's page). A microphone's mute is kept in the session; a camera's is only announced.
   */
  mute(orgId: string, meetingId: string, sel: ParticipantSelector, options: MuteOptions = {}): SessionParticipant[] {
    const s = this.active(orgId, meetingId);
    const ids = this.selectPresent(s, sel).map((p) => p.participantId);
    const next = this.keepMute(orgId, s, ids, true, options);
    this.publishMuted(orgId, meetingId, next, ids, true, options);
    return ids.map((id) => findIn(next, id)!);
  }

  /** Mutes everyone present (but the host who asks, from their page); answers how many. */
  muteAll(orgId: string, meetingId: string, allowUnmute: boolean, options: MuteOptions = {}): number {
    const s = this.active(orgId, meetingId);
    const ids = presentIn(s)
      .map((p) => p.participantId)
      .filter((id) => id !== options.by);
    const next = this.keepMute(orgId, s, ids, allowUnmute, options);
    this.publishMuted(orgId, meetingId, next, ids, allowUnmute, options);
    return ids.length;
  }

  private keepMute(orgId: string, s: Session, ids: string[], allowUnmute: boolean, options: MuteOptions): Session {
    if ((options.kind ?? 'audio') !== 'audio') return s;
    return this.update(orgId, s.id, (x) => muteInSession(x, ids, allowUnmute, this.ctx.clock.now()))!;
  }

  /** The pages of the muted participants turn their microphones or cameras off (realtime rooms). */
  private publishMuted(orgId: string, meetingId: string, session: Session, participantIds: string[], allowUnmute: boolean, options: MuteOptions): void {
    // Nobody to mute (a host alone): nothing to tell.
    if (participantIds.length === 0) return;
    const data = orgData(this.ctx, orgId);
    this.ctx.bus.publish({
      type: 'participants.muted',
      at: this.ctx.clock.now(),
      org: data.org,
      meeting: data.meetings.get(meetingId)!,
      session,
      kind: options.kind ?? 'audio',
      participantIds,
      allowUnmute,
      by: options.by ?? null,
    });
  }

  /**
   * A poll in the meeting's LIVE session, by the organization (the REST API: `createdBy` is its id)
   * or a participant, whose preset must let them (permissions.polls.can_create). The REST body is
   * checked by its schema; a page's request is checked here against the same limits.
   */
  createPoll(orgId: string, meetingId: string, input: PollInput, createdBy: string): SessionPoll {
    const s = this.active(orgId, meetingId);
    const data = orgData(this.ctx, orgId);
    const asker = data.participants.get(createdBy);
    const preset = asker && data.presets.get(asker.presetId);
    if (preset && !preset.permissions.polls.can_create)
      throw errors.forbidden(`Participant ${createdBy}'s preset ${preset.name} may not create polls (permissions.polls.can_create is false)`);
    const problem = pollInputProblem(input);
    if (problem) throw errors.badRequest(problem);
    if (s.polls.length >= SESSION_LIMITS.polls) throw errors.conflict(`Session ${s.id} already has ${SESSION_LIMITS.polls} polls, the most one session keeps`);
    const now = this.ctx.clock.now();
    const poll: SessionPoll = { id: this.ctx.ids.uuid(), ...input, createdBy, createdAt: now, votes: [] };
    const updated = this.update(orgId, s.id, (x) => ({ ...x, polls: [...x.polls, poll], updatedAt: now }))!;
    this.ctx.bus.publish({ type: 'poll.created', at: now, org: data.org, meeting: data.meetings.get(meetingId)!, session: updated, poll });
    return poll;
  }

  /**
   * A present participant votes for one option of a poll of the meeting's LIVE session: once
   * (the kits offer no second vote, and nothing in the SDKs takes one back), and only when their
   * preset lets them vote. A refusal changes nothing.
   */
  vote(meeting: Meeting, participantId: string, pollId: string, option: number): { session: Session; poll: SessionPoll } {
    const { session, participant } = this.presentSpeaker(meeting, participantId);
    const data = orgData(this.ctx, meeting.orgId);
    const presetId = data.participants.get(participantId)?.presetId;
    const preset = presetId === undefined ? undefined : data.presets.get(presetId);
    if (preset && !preset.permissions.polls.can_vote)
      throw errors.forbidden(`Participant ${participantId}'s preset ${preset.name} may not vote in polls (permissions.polls.can_vote is false)`);
    const poll = session.polls.find((p) => p.id === pollId);
    if (!poll) throw errors.notFoundMessage(`No poll found with id ${pollId} in session ${session.id}`);
    if (!Number.isInteger(option) || option < 0 || option >= poll.options.length)
      throw errors.badRequest(`Poll ${pollId} has no option ${option}: its options are 0 to ${poll.options.length - 1}`);
    if (poll.votes.some((v) => v.participantId === participantId)) throw errors.conflict(`Participant ${participantId} already voted in poll ${pollId}`);
    const now = this.ctx.clock.now();
    const voted: SessionPoll = { ...poll, votes: [...poll.votes, { participantId, name: participant.name, option, at: now }] };
    const updated = this.update(meeting.orgId, session.id, (x) => ({ ...x, polls: x.polls.map((p) => (p.id === pollId ? voted : p)), updatedAt: now }))!;
    this.ctx.bus.publish({ type: 'poll.voted', at: now, org: data.org, meeting, session: updated, poll: voted, participantId });
    return { session: updated, poll: voted };
  }

  // --- what participants say (control API: scripted chat and speech) -------------------------

  /**
   * A present participant sends a chat message in the meeting's LIVE session: to everyone, to
   * some participants in the meeting (`to`, participant ids: a private message, seen by them and
   * the sender), or to a channel of the session they are a member of. Text when only a string is
   * given. A refusal (not in the meeting, a payload the SDKs cannot show, a preset that may not
   * send it, a recipient not in the meeting, a channel they are not in) changes nothing.
   */
  sendChat(
    meeting: Meeting,
    participantId: string,
    content: string | ChatContent,
    audience: ChatAudience = {},
  ): { session: Session; message: SessionChatMessage } {
    const { session, participant } = this.presentSpeaker(meeting, participantId);
    const c: ChatContent = typeof content === 'string' ? { type: 'TEXT_MESSAGE', payload: content } : content;
    this.checkContent(meeting, participantId, c, (audience.to?.length ?? 0) > 0);
    let targets: string[] = [];
    if (audience.to && audience.to.length > 0) {
      const present = presentIn(session);
      const others = [...new Set(audience.to)].filter((id) => id !== participantId);
      if (others.length > SESSION_LIMITS.chatTargets) throw errors.badRequest(`A private message goes to at most ${SESSION_LIMITS.chatTargets} participants`);
      for (const id of others) {
        if (orgData(this.ctx, meeting.orgId).participants.get(id)?.meetingId !== meeting.id)
          throw errors.notFoundMessage(`No participant found with id ${id} in meeting ${meeting.id}`);
        if (!present.some((p) => p.participantId === id)) throw errors.conflict(`Participant ${id} is not in meeting ${meeting.id}`);
      }
      targets = [participantId, ...others];
    }
    let channelIndex: number | null = null;
    if (audience.channelId !== undefined) {
      const channel = this.memberChannel(session, audience.channelId, participantId);
      channelIndex = session.chat.filter((m) => m.channelId === channel.id).reduce((max, m) => Math.max(max, m.channelIndex ?? 0), 0) + 1;
    }
    if (session.chat.length >= SESSION_LIMITS.chatMessages)
      throw errors.conflict(`Session ${session.id} already has ${SESSION_LIMITS.chatMessages} chat messages, the most one session keeps`);
    const now = this.ctx.clock.now();
    const message: SessionChatMessage = {
      id: this.ctx.ids.uuid(),
      participantId,
      displayName: participant.name,
      payloadType: c.type,
      payload: c.payload,
      createdAt: now,
      targets,
      channelId: audience.channelId ?? null,
      channelIndex,
      pinned: false,
      editedAt: null,
    };
    const updated = this.update(meeting.orgId, session.id, (s) => ({ ...s, chat: [...s.chat, message], updatedAt: now }))!;
    this.ctx.bus.publish({ type: 'chat.sent', at: now, org: orgData(this.ctx, meeting.orgId).org, meeting, session: updated, message });
    return { session: updated, message };
  }

  /** Its sender changes a message's content (the SDKs' edit of a text, an image or a file); it reads as edited. */
  editChat(meeting: Meeting, participantId: string, chatId: string, content: ChatContent): SessionChatMessage {
    const { session } = this.presentSpeaker(meeting, participantId);
    const m = this.seenMessage(session, chatId, participantId);
    if (m.participantId !== participantId) throw errors.forbidden(`Only its sender may edit chat message ${chatId}`);
    this.checkContent(meeting, participantId, content, m.targets.length > 0);
    return this.changeChat(meeting, session, { ...m, payloadType: content.type, payload: content.payload, editedAt: this.ctx.clock.now() }, 'edited');
  }

  /** A participant who sees a message pins or unpins it for everyone who sees it. */
  pinChat(meeting: Meeting, participantId: string, chatId: string, pinned: boolean): SessionChatMessage {
    const { session } = this.presentSpeaker(meeting, participantId);
    const m = this.seenMessage(session, chatId, participantId);
    return this.changeChat(meeting, session, { ...m, pinned }, 'pinned');
  }

  /** Its sender deletes a message: it leaves the session's chat (and its export). */
  deleteChat(meeting: Meeting, participantId: string, chatId: string): SessionChatMessage {
    const { session } = this.presentSpeaker(meeting, participantId);
    const m = this.seenMessage(session, chatId, participantId);
    if (m.participantId !== participantId) throw errors.forbidden(`Only its sender may delete chat message ${chatId}`);
    const now = this.ctx.clock.now();
    const updated = this.update(meeting.orgId, session.id, (s) => ({ ...s, chat: s.chat.filter((x) => x.id !== chatId), updatedAt: now }))!;
    this.ctx.bus.publish({
      type: 'chat.updated',
      at: now,
      org: orgData(this.ctx, meeting.orgId).org,
      meeting,
      session: updated,
      message: m,
      change: 'deleted',
    });
    return m;
  }

  /** A page of the history the participant sees, as the SDKs ask for one (chat-rules.ts). */
  chatPage(meeting: Meeting, participantId: string, q: ChatPageQuery): { messages: SessionChatMessage[]; next: boolean } {
    const { session } = this.presentSpeaker(meeting, participantId);
    if (q.channelId !== undefined) this.memberChannel(session, q.channelId, participantId);
    return chatPage(session, participantId, q);
  }

  /**
   * A present participant starts a channel of the session with other participants of the meeting
   * (present or not; its creator is always a member).
   */
  createChannel(meeting: Meeting, participantId: string, input: ChannelInput): SessionChatChannel {
    const { session } = this.presentSpeaker(meeting, participantId);
    const members = this.channelMembers(meeting, participantId, input.members);
    const name = input.name.trim();
    const problem = channelInputProblem({ ...input, name });
    if (problem) throw errors.badRequest(problem);
    if (session.channels.length >= SESSION_LIMITS.chatChannels)
      throw errors.conflict(`Session ${session.id} already has ${SESSION_LIMITS.chatChannels} chat channels, the most one session keeps`);
    const now = this.ctx.clock.now();
    const channel: SessionChatChannel = {
      id: this.ctx.ids.uuid(),
      name,
      pictureUrl: input.pictureUrl ?? null,
      // The SDK makes a direct message's channel private.
      visibility: input.isDirectMessage ? 'private' : input.visibility || 'public',
      isDirectMessage: input.isDirectMessage,
      members,
      createdBy: participantId,
      createdAt: now,
      updatedAt: now,
      lastRead: {},
    };
    return this.keepChannel(meeting, session, channel);
  }

  /** A member changes a channel: its name, picture, visibility or members (what is not given stays). */
  updateChannel(meeting: Meeting, participantId: string, channelId: string, patch: Partial<ChannelInput>): SessionChatChannel {
    const { session } = this.presentSpeaker(meeting, participantId);
    const channel = this.memberChannel(session, channelId, participantId);
    const name = patch.name === undefined ? channel.name : patch.name.trim();
    const problem = channelInputProblem({ ...patch, name });
    if (problem) throw errors.badRequest(problem);
    const members = patch.members === undefined || patch.members.length === 0 ? channel.members : this.channelMembers(meeting, participantId, patch.members);
    const now = this.ctx.clock.now();
    const next: SessionChatChannel = {
      ...channel,
      name,
      pictureUrl: patch.pictureUrl === undefined ? channel.pictureUrl : patch.pictureUrl,
      visibility: patch.visibility || channel.visibility,
      members,
      updatedAt: now,
    };
    // The members before the change hear of it too: one who was removed learns it.
    return this.keepChannel(meeting, session, next, channel.members);
  }

  /** A member has read a channel up to a message (its channel index): unread counts start after it. */
  markChannelRead(meeting: Meeting, participantId: string, channelId: string, index: number): number {
    const { session } = this.presentSpeaker(meeting, participantId);
    const channel = this.memberChannel(session, channelId, participantId);
    if (!Number.isInteger(index) || index < 0) throw errors.badRequest(`A channel index is a whole number from 0 (not ${index})`);
    this.update(meeting.orgId, session.id, (s) => ({
      ...s,
      channels: s.channels.map((c) => (c.id === channel.id ? { ...c, lastRead: { ...c.lastRead, [participantId]: index } } : c)),
    }));
    return index;
  }

  /** The channels of the LIVE session a participant is a member of, in the order they were made. */
  channelsOf(meeting: Meeting, participantId: string): SessionChatChannel[] {
    const { session } = this.presentSpeaker(meeting, participantId);
    return session.channels.filter((c) => c.members.includes(participantId));
  }

  /** One channel of the LIVE session the participant is a member of (404 otherwise). */
  channel(meeting: Meeting, participantId: string, channelId: string): SessionChatChannel {
    const { session } = this.presentSpeaker(meeting, participantId);
    return this.memberChannel(session, channelId, participantId);
  }

  private checkContent(meeting: Meeting, participantId: string, c: ChatContent, privately: boolean): void {
    const problem = payloadProblem(c);
    if (problem) throw errors.badRequest(problem);
    const link = c.type === 'IMAGE_MESSAGE' ? c.payload : c.type === 'FILE_MESSAGE' ? (JSON.parse(c.payload) as { link: string }).link : undefined;
    const linkProblem = link === undefined ? undefined : this.files?.linkProblem(link, meeting.id, c.type === 'IMAGE_MESSAGE');
    if (linkProblem) throw linkProblem;
    const data = orgData(this.ctx, meeting.orgId);
    const presetId = data.participants.get(participantId)?.presetId;
    const preset = presetId === undefined ? undefined : data.presets.get(presetId);
    const refusal = preset && permissionProblem(preset, privately, c.type);
    if (refusal) throw errors.forbidden(refusal);
  }

  /** A message of the session the participant sees; one they do not see is as unknown to them as one that is not there. */
  private seenMessage(session: Session, chatId: string, participantId: string): SessionChatMessage {
    const m = session.chat.find((x) => x.id === chatId);
    if (!m || !sees(session, m, participantId)) throw errors.notFoundMessage(`No chat message found with id ${chatId}`);
    return m;
  }

  private changeChat(meeting: Meeting, session: Session, next: SessionChatMessage, change: 'edited' | 'pinned'): SessionChatMessage {
    const now = this.ctx.clock.now();
    const updated = this.update(meeting.orgId, session.id, (s) => ({ ...s, chat: s.chat.map((x) => (x.id === next.id ? next : x)), updatedAt: now }))!;
    this.ctx.bus.publish({ type: 'chat.updated', at: now, org: orgData(this.ctx, meeting.orgId).org, meeting, session: updated, message: next, change });
    return next;
  }

  /** Keeps a new channel (no `before`) or a changed one (`before`: its members until now), and tells of it. */
  private keepChannel(meeting: Meeting, session: Session, channel: SessionChatChannel, before?: string[]): SessionChatChannel {
    const now = channel.updatedAt;
    const updated = this.update(meeting.orgId, session.id, (s) => ({
      ...s,
      channels: before ? s.channels.map((c) => (c.id === channel.id ? channel : c)) : [...s.channels, channel],
      updatedAt: now,
    }))!;
    const org = orgData(this.ctx, meeting.orgId).org;
    this.ctx.bus.publish({
      type: 'chat.channelChanged',
      at: now,
      org,
      meeting,
      session: updated,
      channel,
      change: before ? 'updated' : 'created',
      ...(before ? { before } : {}),
    });
    return channel;
  }

  private memberChannel(session: Session, channelId: string, participantId: string): SessionChatChannel {
    const channel = channelOf(session, channelId);
    // A channel one is not a member of is as unknown as one that is not there.
    if (!channel || !channel.members.includes(participantId)) throw errors.notFoundMessage(`No chat channel found with id ${channelId}`);
    return channel;
  }

  /** A channel's members: the creator, then the others named, each a participant of the meeting. */
  private channelMembers(meeting: Meeting, participantId: string, named: readonly string[]): string[] {
    const members = [...new Set([participantId, ...named])];
    if (members.length > SESSION_LIMITS.channelMembers) throw errors.badRequest(`A channel has at most ${SESSION_LIMITS.channelMembers} members`);
    const data = orgData(this.ctx, meeting.orgId);
    for (const id of members)
      if (data.participants.get(id)?.meetingId !== meeting.id) throw errors.notFoundMessage(`No participant found with id ${id} in meeting ${meeting.id}`);
    return members;
  }

  /**
   * A present participant says a line: it joins the session's transcript, and the pages of the
   * meeting hear it as it is said, under the speaker's peer id, when the speaker's preset has
   * transcription_enabled (`live`); the line keeps that peer id, so that a page joining later reads
   * the lines as the others heard them. A speaker says at most
   * SESSION_LIMITS.transcriptLinesPerSecond lines a second (emulator clock).
   */
  speak(meeting: Meeting, participantId: string, text: string): { session: Session; line: SessionTranscriptLine; live: boolean } {
    const { session, participant } = this.presentSpeaker(meeting, participantId);
    if (session.transcript.length >= SESSION_LIMITS.transcriptLines)
      throw errors.conflict(`Session ${session.id} already has ${SESSION_LIMITS.transcriptLines} transcript lines, the most one session keeps`);
    const now = this.ctx.clock.now();
    const recent = session.transcript.filter((l) => l.participantId === participantId && l.at > now - 1000).length;
    if (recent >= SESSION_LIMITS.transcriptLinesPerSecond) throw errors.tooManyRequests(1);
    const data = orgData(this.ctx, meeting.orgId);
    const speaker = data.participants.get(participantId);
    const live = speaker !== undefined && data.presets.get(speaker.presetId)?.permissions.transcription_enabled === true;
    const line: SessionTranscriptLine = {
      at: now,
      participantId,
      customParticipantId: participant.customParticipantId,
      name: participant.name,
      text,
      livePeerId: live ? this.pages.peerIdOf(meeting.id, participantId) : null,
    };
    const updated = this.update(meeting.orgId, session.id, (s) => ({ ...s, transcript: [...s.transcript, line], updatedAt: now }))!;
    this.ctx.bus.publish({
      type: 'transcript.spoken',
      at: now,
      org: data.org,
      meeting: data.meetings.get(meeting.id) ?? meeting,
      session: updated,
      line,
      live,
    });
    return { session: updated, line, live };
  }

  /**
   * The transcript of a meeting's LIVE session so far, as a page that joins late reads it: the
   * path of its file (the most recent ACTIVE_TRANSCRIPT_LINES lines) and when a link to it expires.
   */
  activeTranscript(orgId: string, meetingId: string): { path: string; expiresAt: number } {
    const session = this.active(orgId, meetingId);
    return { path: activeTranscriptPath(session.id), expiresAt: this.ctx.clock.now() + SESSION_FILE_LINK_LIFETIME_MS };
  }

  /**
   * The file of a session's transcript so far, as the pages heard it: the lines they heard live
   * (a speaker without transcription_enabled is left out), under the peer ids they heard them
   * with, one line each in the SDK's form, oldest first.
   */
  activeTranscriptContent(sessionId: string): string {
    const s = this.ctx.store.findInAnyOrg((d) => d.sessions, sessionId);
    if (!s) throw sessionNotFound(sessionId);
    const heard: string[] = [];
    for (const l of s.transcript) if (l.livePeerId !== null) heard.push(`${sdkTranscriptLine(l, l.livePeerId)}\n`);
    return heard.slice(-ACTIVE_TRANSCRIPT_LINES).join('');
  }

  private presentSpeaker(meeting: Meeting, participantId: string): { session: Session; participant: SessionParticipant } {
    const data = orgData(this.ctx, meeting.orgId);
    const session = meeting.session ? data.sessions.get(meeting.session.id) : undefined;
    const participant = session && isLive(session) ? findIn(session, participantId) : undefined;
    if (!session || !participant || !isPresent(participant)) throw errors.conflict(`Participant ${participantId} is not in meeting ${meeting.id}`);
    return { session, participant };
  }

  // --- the files and their links ----------------------------------------------------------------

  /** A fresh signed link to one of a session's files (a summary only once there is one). */
  link(orgId: string, sessionId: string, file: SessionFileKind): DownloadLink {
    const s = this.get(orgId, sessionId);
    if (file === 'summary' && !s.summary)
      throw errors.notFoundMessage(`No summary found for session_id ${sessionId}; POST /v2/sessions/${sessionId}/summary generates one`);
    return this.signedLink(s, file, this.ctx.clock.now());
  }

  /** POST …/summary: (re)generates the summary from the transcript so far and announces it. */
  generateSummary(orgId: string, sessionId: string): Session {
    const s = this.get(orgId, sessionId);
    if (s.transcript.length === 0) throw errors.notFoundMessage(`No transcript found for session_id ${sessionId}; there is nothing to summarize`);
    const meeting = this.meetingOf(s);
    const now = this.ctx.clock.now();
    const next = this.withSummary(meeting, s, now);
    this.announce(meeting, next, 'summary', now);
    return next;
  }

  /** The file's content, for a download (the media route has checked the link). */
  fileContent(sessionId: string, file: SessionFileKind): string {
    const s = this.ctx.store.findInAnyOrg((d) => d.sessions, sessionId);
    if (!s) throw sessionNotFound(sessionId);
    if (file === 'chat') return chatCsv(s);
    if (file === 'transcript') return transcriptCsv(s);
    if (!s.summary) throw errors.notFoundMessage(`No summary found for session_id ${sessionId}`);
    return s.summary.text;
  }

  private withSummary(meeting: Meeting, s: Session, now: number): Session {
    const wishes = aiWishes(meeting);
    const summary = { text: summarize(s, meeting.title, wishes), format: wishes.format, generatedAt: now };
    return this.update(meeting.orgId, s.id, (x) => ({ ...x, summary, updatedAt: now }))!;
  }

  private signedLink(s: Session, file: SessionFileKind, now: number): DownloadLink {
    const expiresAt = now + SESSION_FILE_LINK_LIFETIME_MS;
    return { url: this.media.signed(sessionFilePath(s.id, file), expiresAt), expiresAt };
  }

  private announce(meeting: Meeting, session: Session, file: SessionFileKind, now: number): void {
    const org = orgData(this.ctx, meeting.orgId).org;
    this.ctx.bus.publish({ type: 'session.fileReady', at: now, org, meeting, session, file, link: this.signedLink(session, file, now) });
  }

  private update(orgId: string, sessionId: string, change: (s: Session) => Session): Session | undefined {
    const data = orgData(this.ctx, orgId);
    const s = data.sessions.get(sessionId);
    if (!s) return undefined;
    const next = change(s);
    data.putSession(next);
    return next;
  }

  /** The sessions a state document holds for the organization, as saved (OrgMember). */
  seedOrg(data: OrgData, fixtureOrg: FixtureOrg): void {
    for (const item of fixtureOrg.sessions ?? []) data.putSession(structuredClone(item));
  }
}
