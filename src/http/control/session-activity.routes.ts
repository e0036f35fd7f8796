// Scripting what participants say and do in a meeting: a participant in the meeting sends a chat
// message, speaks a line that joins the session's transcript, or votes in a poll. All are kept in
// the meeting's LIVE session (GET /v2/sessions/{id}/chat and …/transcript; the polls here).
//
// The control API carries no credentials, so meetings are found by id in any organization.
import { z } from 'zod';
import { toIso } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import { SESSION_LIMITS } from '../../domain/models.js';
import { route } from '../route.js';
import { isoTime } from '../v2/schemas.js';
import { pollDto } from '../v2/sessions.mappers.js';
import { pollSchema } from '../v2/sessions.schemas.js';

const TAG = 'Control: lifecycles';
const participantParams = z.object({ meeting_id: z.uuid(), participant_id: z.uuid() });
const text = z.string().min(1).max(SESSION_LIMITS.textChars);
// A chat message may be any text; a spoken line, as speech-to-text gives it, holds a word.
const spoken = text.regex(/\S/, 'a spoken line holds at least one word');

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
    body: z.strictObject({
      message: text,
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
        schema: z.object({
          id: z.uuid(),
          session_id: z.uuid(),
          participant_id: z.uuid(),
          display_name: z.string().nullable(),
          message: z.string(),
          to: z.array(z.uuid()).meta({ description: 'Whom a private message is for (the sender aside); empty for everyone' }),
          created_at: isoTime,
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
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/transcript',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "A participant in the meeting speaks a line (kept in the session's transcript; the summary is made from it)",
    params: participantParams,
    body: z.strictObject({ text: spoken }),
    responses: {
      200: {
        description: 'The transcript line as kept',
        schema: z.object({ session_id: z.uuid(), participant_id: z.uuid(), name: z.string().nullable(), text: z.string(), timestamp: isoTime }),
      },
      ...conflict,
    },
    handler: ({ deps, params, body }) => {
      const { sessions, sessionHistory, participants } = deps.services;
      const meeting = sessions.locateMeeting(params.meeting_id);
      participants.get(meeting.orgId, meeting.id, params.participant_id);
      const session = sessionHistory.speak(meeting, params.participant_id, body.text);
      const line = session.transcript[session.transcript.length - 1]!;
      return { status: 200, body: { session_id: session.id, participant_id: line.participantId, name: line.name, text: line.text, timestamp: toIso(line.at) } };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/meetings/{meeting_id}/participants/{participant_id}/polls/{poll_id}/vote',
    api: 'control',
    auth: 'none',
    tag: TAG,
    summary: "A participant in the meeting votes in a poll of the session (once; counted in every page's poll)",
    params: participantParams.extend({ poll_id: z.string().min(1).max(100) }),
    body: z.strictObject({ option: z.number().int().min(0).meta({ description: "The option's index, from 0" }) }),
    responses: {
      200: { description: 'The poll with the vote counted, as production shows a poll', schema: pollSchema },
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
    params: z.object({ meeting_id: z.uuid() }),
    responses: {
      200: { description: 'The session and its polls, oldest first', schema: z.object({ session_id: z.uuid(), polls: z.array(pollSchema) }) },
      404: { description: 'No such meeting, or it never had a session' },
    },
    handler: ({ deps, params }) => {
      const { sessions, sessionHistory } = deps.services;
      const meeting = sessions.locateMeeting(params.meeting_id);
      if (!meeting.session) throw errors.notFoundMessage(`Meeting ${meeting.id} has had no session yet`);
      const session = sessionHistory.get(meeting.orgId, meeting.session.id);
      return { status: 200, body: { session_id: session.id, polls: session.polls.map(pollDto) } };
    },
  }),
];
