// The session history as pure functions over the Session record: who joined and left when,
// what the host did (mutes, polls), what was said (chat, transcript), and the figures the
// sessions API and the analytics derive from it (minutes, durations, concurrency). No I/O and
// no clock here: the services pass `now` and save what these return.
import { SESSION_LIMITS, type Meeting, type Participant, type Session, type SessionParticipant, type SessionPoll, type SessionSpan } from '../models.js';

/** Production's minutes carry four decimals (`minutes_consumed: 2.3434`, `duration: 5.8097`). */
/** Minutes kept to four decimals, so sums carry no floating-point tails. */
export function roundMinutes(minutes: number): number {
  return Math.round(minutes * 10_000) / 10_000;
}

export function minutesOf(ms: number): number {
  return roundMinutes(ms / 60_000);
}

export function openSession(id: string, meeting: Meeting, now: number): Session {
  return {
    id,
    orgId: meeting.orgId,
    meetingId: meeting.id,
    startedAt: now,
    endedAt: null,
    updatedAt: now,
    endReason: null,
    maxConcurrent: 0,
    participants: [],
    chat: [],
    channels: [],
    transcript: [],
    polls: [],
    summary: null,
  };
}

export function isLive(s: Session): boolean {
  return s.endedAt === null;
}

function openSpan(p: SessionParticipant): SessionSpan | undefined {
  const last = p.spans[p.spans.length - 1];
  return last && last.leftAt === null ? last : undefined;
}

export function isPresent(p: SessionParticipant): boolean {
  return openSpan(p) !== undefined;
}

/** Who is in the session now, in the order they first joined. */
export function presentIn(s: Session): SessionParticipant[] {
  return s.participants.filter(isPresent);
}

export function findIn(s: Session, participantId: string): SessionParticipant | undefined {
  return s.participants.find((p) => p.participantId === participantId);
}

function replaceParticipant(s: Session, next: SessionParticipant): SessionParticipant[] {
  return s.participants.map((p) => (p.participantId === next.participantId ? next : p));
}

/** A join: a new stay (a rejoin adds one to the same participant). */
export function joinSession(s: Session, participant: Participant, now: number): Session {
  const known = findIn(s, participant.id);
  const participants = known
    ? replaceParticipant(s, { ...known, spans: [...known.spans, { joinedAt: now, leftAt: null }], updatedAt: now })
    : [
        ...s.participants,
        {
          participantId: participant.id,
          customParticipantId: participant.customParticipantId,
          name: participant.name,
          picture: participant.picture,
          presetName: participant.presetName,
          spans: [{ joinedAt: now, leftAt: null }],
          mutedAt: null,
          allowUnmute: true,
          updatedAt: now,
        },
      ];
  const present = participants.filter(isPresent).length;
  return { ...s, participants, maxConcurrent: Math.max(s.maxConcurrent, present), updatedAt: now };
}

/** A leave: the participant's open stay ends. Unchanged when they are not in. */
export function leaveSession(s: Session, participantId: string, now: number): Session {
  const p = findIn(s, participantId);
  if (!p || !isPresent(p)) return s;
  const spans = p.spans.map((span, i) => (i === p.spans.length - 1 ? { ...span, leftAt: now } : span));
  return { ...s, participants: replaceParticipant(s, { ...p, spans, updatedAt: now }), updatedAt: now };
}

/** The end: every stay still open ends with it. */
export function endSession(s: Session, reason: NonNullable<Session['endReason']>, now: number): Session {
  let next = s;
  for (const p of presentIn(s)) next = leaveSession(next, p.participantId, now);
  return { ...next, endedAt: now, endReason: reason, updatedAt: now };
}

/** The host mutes these participants (ids of present ones; others are left as they are). */
export function muteInSession(s: Session, participantIds: readonly string[], allowUnmute: boolean, now: number): Session {
  const ids = new Set(participantIds);
  const participants = s.participants.map((p) => (ids.has(p.participantId) ? { ...p, mutedAt: now, allowUnmute, updatedAt: now } : p));
  return { ...s, participants, updatedAt: now };
}

/** Time in the session, ms: every stay, an open one counted up to `now`. */
export function participantMs(p: SessionParticipant, now: number): number {
  return p.spans.reduce((sum, span) => sum + Math.max(0, (span.leftAt ?? now) - span.joinedAt), 0);
}

/**
 * Minutes consumed: participant-minutes, the sum of every participant's time in the session
 * (production's example shows fewer minutes than the session's wall time, so not the wall time).
 */
export function sessionMinutes(s: Session, now: number): number {
  return minutesOf(s.participants.reduce((sum, p) => sum + participantMs(p, now), 0));
}

export function firstJoin(p: SessionParticipant): number {
  return p.spans[0]!.joinedAt;
}

/** The end of the last stay; null while the participant is still in. */
export function lastLeave(p: SessionParticipant): number | null {
  return p.spans[p.spans.length - 1]!.leftAt;
}

// --- what the meeting's ai_config asks for ----------------------------------------------------

export interface AiWishes {
  /** `ai_config.transcription` is set: the transcript is delivered when the session ends. */
  transcript: boolean;
  /** `summarize_on_end`, or `ai_config.summarization` is set: a summary is made when it ends. */
  summary: boolean;
  format: 'plain_text' | 'markdown';
  wordLimit: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read defensively: `ai_config` is free-form, so anything unexpected falls back to the documented defaults. */
export function aiWishes(meeting: Meeting): AiWishes {
  const ai = isObject(meeting.aiConfig) ? meeting.aiConfig : {};
  const summarization = isObject(ai.summarization) ? ai.summarization : undefined;
  const limit = summarization?.word_limit;
  return {
    transcript: isObject(ai.transcription),
    summary: meeting.summarizeOnEnd || summarization !== undefined,
    // Production's SummarizationConfig defaults: markdown, 500 words (150 to 1000).
    format: summarization?.text_format === 'plain_text' ? 'plain_text' : 'markdown',
    wordLimit: typeof limit === 'number' && Number.isInteger(limit) && limit >= 150 && limit <= 1000 ? limit : 500,
  };
}

// --- the summary --------------------------------------------------------------------------------

// Stryker disable next-line Regex: the empty pieces are filtered out, so splitting at each whitespace character gives the same words.
const words = (text: string) => text.split(/\s+/).filter(Boolean);
const bullet = (markdown: boolean, text: string) => (markdown ? `- ${text}` : `  ${text}`);

/**
 * The summary of a transcript, made deterministically from it (the emulator has no language
 * model): who spoke and how much, then the lines themselves in order, cut at the word limit.
 */
export function summarize(s: Session, title: string | null, wishes: Pick<AiWishes, 'format' | 'wordLimit'>): string {
  const md = wishes.format === 'markdown';
  const speakers = new Map<string, { name: string; lines: number; words: number }>();
  for (const line of s.transcript) {
    const name = line.name ?? line.customParticipantId;
    const entry = speakers.get(line.participantId) ?? { name, lines: 0, words: 0 };
    entry.lines += 1;
    entry.words += words(line.text).length;
    speakers.set(line.participantId, entry);
  }
  // The head in either format; its plain-text form is what counts against the word limit, since
  // markdown's marks (`#`, `##`, `- `) are not words to a reader.
  const headIn = (markdown: boolean) => {
    const heading = (text: string) => (markdown ? `## ${text}` : `${text}:`);
    return [
      markdown ? `# Summary of ${title ?? 'the meeting'}` : `Summary of ${title ?? 'the meeting'}`,
      '',
      `${s.transcript.length} transcript line${s.transcript.length === 1 ? '' : 's'} from ${speakers.size} speaker${speakers.size === 1 ? '' : 's'}.`,
      '',
      heading('Speakers'),
      ...[...speakers.values()].map((v) =>
        bullet(markdown, `${v.name}: ${v.lines} line${v.lines === 1 ? '' : 's'}, ${v.words} word${v.words === 1 ? '' : 's'}`),
      ),
      '',
      heading('What was said'),
    ];
  };
  const head = headIn(md);
  let budget = wishes.wordLimit - words(headIn(false).join(' ')).length;
  const said: string[] = [];
  for (const line of s.transcript) {
    const text = words(`${line.name ?? line.customParticipantId}: ${line.text}`);
    if (budget <= 0) break;
    said.push(bullet(md, text.slice(0, budget).join(' ')));
    budget -= text.length;
  }
  return [...head, ...said, ''].join('\n');
}

/** A poll's results: each option with its votes (who, in the order they voted), and everyone who voted. */
export interface PollResults {
  options: { text: string; count: number; votes: { participantId: string; name: string | null }[] }[];
  voted: string[];
}

export function pollResults(poll: SessionPoll): PollResults {
  return {
    options: poll.options.map((text, i) => {
      const votes = poll.votes.filter((v) => v.option === i).map((v) => ({ participantId: v.participantId, name: v.name }));
      return { text, count: votes.length, votes };
    }),
    voted: poll.votes.map((v) => v.participantId),
  };
}

/** Why a poll's question or options cannot be kept (the REST body's limits, for a page's poll too), or undefined. */
export function pollInputProblem(p: { question: string; options: readonly string[] }): string | undefined {
  if (p.question.length === 0 || p.question.length > SESSION_LIMITS.pollQuestionChars)
    return `A poll's question holds 1 to ${SESSION_LIMITS.pollQuestionChars} characters`;
  if (p.options.length === 0 || p.options.length > SESSION_LIMITS.pollOptions) return `A poll has 1 to ${SESSION_LIMITS.pollOptions} options`;
  if (p.options.some((o) => o.length === 0 || o.length > SESSION_LIMITS.pollOptionChars))
    return `A poll's option holds 1 to ${SESSION_LIMITS.pollOptionChars} characters`;
  return undefined;
}
