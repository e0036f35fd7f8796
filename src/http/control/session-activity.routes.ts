// Scripting what participants say and do in a meeting: a participant in the meeting sends a chat
// message, speaks a line that joins the session's transcript, or votes in a poll. All are kept in
// the meeting's LIVE session (GET /v2/sessions/{id}/chat and …/transcript; the polls here).
//
// The control API carries no credentials, so meetings are found by id in any organization.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { toIso } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import { SESSION_LIMITS, type Session, type SessionChatMessage } from '../../domain/models.js';
import { CHAT_FILE_LIMITS, IMAGE_TYPES, type ChatFilesService } from '../../domain/sessions/chat-files.js';
import { CHAT_PAYLOAD_TYPES, channelOf, type ChatContent } from '../../domain/sessions/chat-rules.js';
import { tlsUrl } from '../../config.js';
import { readRawBody } from '../raw-body.js';
import type { Deps } from '../../container.js';
import { route } from '../route.js';
import { isoTime } from '../v2/schemas.js';
import { pollDto } from '../v2/sessions.mappers.js';
import { pollSchema } from '../v2/sessions.schemas.js';

const TAG = 'Control: lifecycles';
const participantParams = lazy(() => z.object({ meeting_id: z.uuid(), participant_id: z.uuid() }));
const text = lazy(() => z.string().min(1).max(SESSION_LIMITS.textChars));
// A chat message may be any text; a spoken line, as speech-to-text gives it, holds a word.
const spoken = lazy(() => text().regex(/\S/, 'a spoken line holds at least one word'));

/** The chat read gives the newest messages, at most this many (the chat export has them all). */
const CHAT_READ = { default: 200, max: 1000 } as const;

const chatEntrySchema = lazy(() =>
  z.object({
    id: z.uuid(),
    participant_id: z.uuid(),
    display_name: z.string().nullable(),
    payload_type: z.enum(CHAT_PAYLOAD_TYPES as [string, ...string[]]),
    payload: z.string().meta({ description: "As the chat export has it: the text, an image's link, a file's JSON" }),
    file: z
      .object({
        name: z.string(),
        size: z.number().nullable(),
        path: z.string().nullable().meta({
          description: "The file's signed path on this emulator (any of its listeners serves it); null when the link is not one of the emulator's chat files",
        }),
      })
      .nullable()
      .meta({ description: 'An image or file message: what it links to' }),
    to: z.array(z.uuid()).meta({ description: 'Whom a private message is for (the sender aside); empty for everyone' }),
    channel: z.object({ id: z.string(), name: z.string() }).nullable().meta({ description: "A channel's message: the channel" }),
    pinned: z.boolean(),
    edited_at: isoTime().nullable(),
    created_at: isoTime(),
  }),
);

/** An image's or file's link as the signed path of the emulator's own copy, or null for a link elsewhere. */
function chatFilePathOf(files: ChatFilesService, link: unknown): { path: string; name: string } | null {
  if (typeof link !== 'string') return null;
  const f = files.fileOfLink(link);
  if (!f) return null;
  const url = new URL(link);
  return { path: `${url.pathname}${url.search}`, name: f.name };
}

function fileOf(files: ChatFilesService, m: SessionChatMessage): z.infer<ReturnType<typeof chatEntrySchema>>['file'] {
  if (m.payloadType === 'IMAGE_MESSAGE') {
    const own = chatFilePathOf(files, m.payload);
    return { name: own?.name ?? m.payload, size: null, path: own?.path ?? null };
  }
  if (m.payloadType !== 'FILE_MESSAGE') return null;
  // The payload was checked to be a file's JSON when the message was sent.
  const f = JSON.parse(m.payload) as { link: string; name: string; size: number };
  return { name: f.name, size: f.size, path: chatFilePathOf(files, f.link)?.path ?? null };
}

function chatEntry(files: ChatFilesService, s: Session, m: SessionChatMessage): z.infer<ReturnType<typeof chatEntrySchema>> {
  const channel = m.channelId === null ? undefined : channelOf(s, m.channelId);
  return {
    id: m.id,
    participant_id: m.participantId,
    display_name: m.displayName,
    payload_type: m.payloadType,
    payload: m.payload,
    file: fileOf(files, m),
    to: m.targets.filter((id) => id !== m.participantId),
    channel: channel ? { id: channel.id, name: channel.name } : null,
    pinned: m.pinned,
    edited_at: m.editedAt === null ? null : toIso(m.editedAt),
    created_at: toIso(m.createdAt),
  };
}

const conflict = { 409: { description: 'The participant is not in the meeting, or the session keeps no more of these' } };

export const sessionActivityRoutes = [
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/chat',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "A participant in the meeting sends a chat message (kept in the session's chat: meeting.chatSynced when it ends)",
    description: '`to` makes it a private message: only those participants (each in the meeting) and the sender see it.',
    params: participantParams,
    body: () =>
      z.strictObject({
        message: text(),
        to: z
          .array(z.uuid())
          .min(1)
          .max(SESSION_LIMITS.chatTargets)
          .optional()
          .meta({ description: 'Participant ids: a private message to them (each in the meeting)' }),
      }),
    responses: {
      200: {
        description: 'The message as kept',
        schema: () =>
          z.object({
            id: z.uuid(),
            session_id: z.uuid(),
            participant_id: z.uuid(),
            display_name: z.string().nullable(),
            message: z.string(),
            to: z.array(z.uuid()).meta({ description: 'Whom a private message is for (the sender aside); empty for everyone' }),
            created_at: isoTime(),
          }),
      },
      403: { description: "The participant's preset may not send it (permissions.chat)" },
      404: { description: 'No such meeting or participant, or a recipient who is not a participant of the meeting' },
      409: { description: 'The participant or a recipient is not in the meeting, or the session keeps no more messages' },
    },
    handler: ({ deps, params, body }) => {
      const { sessions, sessionHistory, participants } = deps.services;
      const meeting = sessions.locateMeeting(params.meeting_id);
      participants.get(meeting.orgId, meeting.id, params.participant_id);
      const { session, message: m } = sessionHistory.sendChat(meeting, params.participant_id, body.message, { to: body.to });
      return {
        status: 200,
        body: {
          id: m.id,
          session_id: session.id,
          participant_id: m.participantId,
          display_name: m.displayName,
          message: m.payload,
          to: m.targets.filter((id) => id !== m.participantId),
          created_at: toIso(m.createdAt),
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/chat/file',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: 'A participant in the meeting sends an image or a file in the chat: the body is its bytes, Content-Type its type',
    description:
      `A GIF, JPEG or PNG goes as an image message (the kits preview it), anything else as a file message; the file is kept like a page's upload (${CHAT_FILE_LIMITS.fileBytes / 1024 / 1024} MiB a file, ${CHAT_FILE_LIMITS.totalBytes / 1024 / 1024} MiB in all) and linked on the TLS listener. ` +
      '`to` (participant ids, comma-separated) makes it private.',
    params: participantParams,
    query: () =>
      z.object({
        name: z.string().min(1).max(CHAT_FILE_LIMITS.nameChars).meta({ description: "The file's name, as the pages show it" }),
        to: z
          .string()
          .max(SESSION_LIMITS.chatTargets * 37)
          .transform((v, ctx) => {
            const ids = v.split(',').filter((id) => id.length > 0);
            const parsed = z.array(z.uuid()).min(1).max(SESSION_LIMITS.chatTargets).safeParse(ids);
            if (!parsed.success) {
              ctx.addIssue({ code: 'custom', message: `participant ids, comma-separated (1 to ${SESSION_LIMITS.chatTargets})` });
              return z.NEVER;
            }
            return parsed.data;
          })
          .optional()
          .meta({ description: 'Participant ids, comma-separated: a private message to them (each in the meeting)' }),
      }),
    responses: {
      200: { description: 'The message as kept', schema: () => chatEntrySchema() },
      400: { description: 'No name, an empty body, or a Content-Type over 255 characters' },
      403: { description: "The participant's preset may not send files (permissions.chat)" },
      404: { description: 'No such meeting or participant, or a recipient who is not a participant of the meeting' },
      409: {
        description:
          'The participant or a recipient is not in the meeting, the session keeps no more messages, or the emulator holds the most chat files it keeps',
      },
      413: { description: 'The file, or all chat files together, would pass the limit' },
    },
    handler: async ({ deps, params, query, req, res }) => {
      const { sessions, sessionHistory, participants, chatFiles } = deps.services;
      const meeting = sessions.locateMeeting(params.meeting_id);
      participants.get(meeting.orgId, meeting.id, params.participant_id);
      const type = req.headers['content-type'];
      if (type !== undefined && type.length > 255) throw errors.badRequest('A Content-Type of at most 255 characters');
      const bytes = await readRawBody(req, res, CHAT_FILE_LIMITS.fileBytes);
      // The request journal keeps a body as parsed: a file's bytes show there as their size.
      req.body = { _binary: true, bytes: bytes.length };
      if (bytes.length === 0) throw errors.badRequest("The request's body is the file's bytes; it was empty");
      const links = chatFiles.store(meeting.orgId, params.participant_id, query.name, type, bytes);
      const link = `${tlsUrl(deps.config) ?? deps.config.publicUrl}${links.getPath}`;
      const image = IMAGE_TYPES.includes(type ?? '');
      const content: ChatContent = image
        ? { type: 'IMAGE_MESSAGE', payload: link }
        : { type: 'FILE_MESSAGE', payload: JSON.stringify({ link, name: query.name, size: bytes.length }) };
      try {
        const { session, message } = sessionHistory.sendChat(meeting, params.participant_id, content, { to: query.to });
        return { status: 200, body: chatEntry(chatFiles, session, message) };
      } catch (err) {
        // Refused: the file goes with the message.
        chatFiles.drop(links.id);
        throw err;
      }
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/transcript',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      "A participant in the meeting speaks a line (kept in the session's transcript; the summary is made from it); with transcription_enabled in their preset every page hears it live, partial then final",
    params: participantParams,
    body: () => z.strictObject({ text: spoken() }),
    responses: {
      200: {
        description: 'The transcript line as kept',
        schema: () =>
          z.object({
            session_id: z.uuid(),
            participant_id: z.uuid(),
            name: z.string().nullable(),
            text: z.string(),
            timestamp: isoTime(),
            live: z.boolean().meta({ description: "Whether the meeting's pages heard it as it was said (the speaker's preset has transcription_enabled)" }),
          }),
      },
      ...conflict,
      429: { description: 'The participant said more than 10 lines within one second of the emulator clock (retry-after: 1)' },
    },
    handler: ({ deps, params, body }) => {
      const { sessions, sessionHistory, participants } = deps.services;
      const meeting = sessions.locateMeeting(params.meeting_id);
      participants.get(meeting.orgId, meeting.id, params.participant_id);
      const { session, line, live } = sessionHistory.speak(meeting, params.participant_id, body.text);
      return {
        status: 200,
        body: {
          session_id: session.id,
          participant_id: line.participantId,
          name: line.name,
          text: line.text,
          timestamp: toIso(line.at),
          live,
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/polls/{poll_id}/vote',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "A participant in the meeting votes in a poll of the session (once; counted in every page's poll)",
    params: () => participantParams().extend({ poll_id: z.string().min(1).max(100) }),
    body: () => z.strictObject({ option: z.number().int().min(0).meta({ description: "The option's index, from 0" }) }),
    responses: {
      200: { description: 'The poll with the vote counted, as production shows a poll', schema: () => pollSchema() },
      400: { description: 'The poll has no such option' },
      403: { description: "The participant's preset may not vote (permissions.polls.can_vote)" },
      404: { description: 'No such meeting, participant, or poll in the LIVE session' },
      409: { description: 'The participant is not in the meeting, or already voted in this poll' },
    },
    handler: ({ deps, params, body }) => {
      const { sessions, sessionHistory, participants } = deps.services;
      const meeting = sessions.locateMeeting(params.meeting_id);
      participants.get(meeting.orgId, meeting.id, params.participant_id);
      const { poll } = sessionHistory.vote(meeting, params.participant_id, params.poll_id, body.option);
      return { status: 200, body: pollDto(poll) };
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/polls',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "The polls of the meeting's current session (or its last one), with their votes, as production shows a poll",
    params: () => z.object({ meeting_id: z.uuid() }),
    responses: {
      200: { description: 'The session and its polls, oldest first', schema: () => z.object({ session_id: z.uuid(), polls: z.array(pollSchema()) }) },
      404: { description: 'No such meeting, or it never had a session' },
    },
    handler: ({ deps, params }) => {
      const session = currentOrLastSession(deps, params.meeting_id);
      return { status: 200, body: { session_id: session.id, polls: session.polls.map(pollDto) } };
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/meetings/{meeting_id}/chat',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary:
      "The chat of the meeting's current session (or its last one), newest messages last: private messages with their recipients, channels, images and files with their links",
    description:
      "The chat export (GET /v2/sessions/{id}/chat) keeps production's ten columns; this read also says whom a private message is for and in which channel a message was sent. " +
      'An image or file message names its file by a signed path that any listener of the emulator serves.',
    params: () => z.object({ meeting_id: z.uuid() }),
    query: () =>
      z.object({
        limit: z.coerce
          .number()
          .int()
          .min(1)
          .max(CHAT_READ.max)
          .default(CHAT_READ.default)
          .meta({ description: `The newest this many messages (default ${CHAT_READ.default})` }),
      }),
    responses: {
      200: {
        description: 'The session and its newest messages, oldest first',
        schema: () =>
          z.object({
            session_id: z.uuid(),
            total: z.number().int().meta({ description: 'Messages the session keeps' }),
            messages: z.array(chatEntrySchema()),
          }),
      },
      404: { description: 'No such meeting, or it never had a session' },
    },
    handler: ({ deps, params, query }) => {
      const session = currentOrLastSession(deps, params.meeting_id);
      const messages = session.chat.slice(-query.limit).map((m) => chatEntry(deps.services.chatFiles, session, m));
      return { status: 200, body: { session_id: session.id, total: session.chat.length, messages } };
    },
  }),
];

/** The meeting's LIVE session, or the last one it had; 404 for a meeting that never had one. */
function currentOrLastSession(deps: Deps, meetingId: string): Session {
  const { sessions, sessionHistory } = deps.services;
  const meeting = sessions.locateMeeting(meetingId);
  if (!meeting.session) throw errors.notFoundMessage(`Meeting ${meeting.id} has had no session yet`);
  return sessionHistory.get(meeting.orgId, meeting.session.id);
}
