// The active session of a meeting: read it, and act as its host (kick, kick everyone, mute,
// mute everyone, start a poll). Every action goes through the one presence model that scripted
// participants use: a kick is a leave, kick-all ends the session (HOST_ENDED_MEETING).
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { ok } from './mappers.js';
import { envelope, uuidParam } from './schemas.js';
import { kickedParticipantDto, pollDto, sessionDto } from './sessions.mappers.js';
import { kickedParticipantSchema, muteAllBody, participantSelectorBody, pollBody, pollSchema, sessionSchema } from './sessions.schemas.js';

const TAG = 'Active session';
const meetingParams = lazy(() => z.object({ meeting_id: uuidParam() }));
const noActiveSession = { 404: { description: 'No meeting with that id, or no LIVE session: "No active session found for meeting_id …"' } };

function selector(body: z.output<ReturnType<typeof participantSelectorBody>>) {
  return { participantIds: body.participant_ids ?? [], customParticipantIds: body.custom_participant_ids ?? [] };
}

export const activeSessionRoutes = [
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/active-session',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "Fetch a meeting's LIVE session",
    params: meetingParams,
    responses: { 200: { description: 'The session', schema: () => envelope(sessionSchema()) }, ...noActiveSession },
    handler: ({ deps, auth, params }) => {
      const { sessionHistory } = deps.services;
      const s = sessionHistory.active(orgOf(auth).id, params.meeting_id);
      return ok(sessionDto(s, sessionHistory.meetingOf(s), deps.clock.now()));
    },
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/active-session/kick',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Kick participants (by participant_ids and/or custom_participant_ids): each leaves (participantLeft)',
    params: meetingParams,
    body: participantSelectorBody,
    responses: {
      200: {
        description: 'The kicked participants',
        schema: () => envelope(z.object({ action: z.literal('kick'), participants: z.array(kickedParticipantSchema()) })),
      },
      404: { description: 'No LIVE session, or an id names nobody in it ("No user found with id …"); nobody is kicked' },
    },
    handler: ({ deps, auth, params, body }) => {
      const kicked = deps.services.sessions.kick(orgOf(auth).id, params.meeting_id, selector(body));
      return ok({ action: 'kick' as const, participants: kicked.map(kickedParticipantDto) });
    },
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/active-session/kick-all',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Kick everyone: the session ends (meeting.ended with reason HOST_ENDED_MEETING)',
    params: meetingParams,
    responses: {
      200: {
        description: 'How many were kicked',
        schema: () => envelope(z.object({ action: z.literal('kick-all'), kicked_participants_count: z.number().int() })),
      },
      ...noActiveSession,
    },
    handler: ({ deps, auth, params }) =>
      ok({ action: 'kick-all' as const, kicked_participants_count: deps.services.sessions.kickAll(orgOf(auth).id, params.meeting_id) }),
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/active-session/mute',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Mute participants (by participant_ids and/or custom_participant_ids); the mute is kept in the session',
    params: meetingParams,
    body: participantSelectorBody,
    responses: {
      200: {
        description: 'The muted participants',
        schema: () => envelope(z.object({ action: z.literal('mute'), participants: z.array(kickedParticipantSchema()) })),
      },
      404: { description: 'No LIVE session, or an id names nobody in it ("No user found with id …"); nobody is muted' },
    },
    handler: ({ deps, auth, params, body }) => {
      const orgId = orgOf(auth).id;
      const muted = deps.services.sessionHistory.mute(orgId, params.meeting_id, selector(body));
      return ok({
        action: 'mute' as const,
        participants: muted.map((p) => kickedParticipantDto(deps.services.participants.get(orgId, params.meeting_id, p.participantId))),
      });
    },
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/active-session/mute-all',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Mute everyone in the session (allow_unmute: whether they may unmute themselves, default true)',
    params: meetingParams,
    body: muteAllBody,
    responses: {
      200: {
        description: 'How many were muted',
        schema: () => envelope(z.object({ action: z.literal('mute-all'), muted_participants_count: z.number().int() })),
      },
      ...noActiveSession,
    },
    handler: ({ deps, auth, params, body }) =>
      ok({ action: 'mute-all' as const, muted_participants_count: deps.services.sessionHistory.muteAll(orgOf(auth).id, params.meeting_id, body.allow_unmute) }),
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/active-session/poll',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Create a poll in the session (kept with the session)',
    params: meetingParams,
    body: pollBody,
    responses: {
      201: { description: 'The poll', schema: () => envelope(z.object({ action: z.literal('create-poll'), poll: pollSchema() })) },
      ...noActiveSession,
      409: { description: 'The session already has the most polls one session keeps' },
    },
    handler: ({ deps, auth, params, body }) => {
      const org = orgOf(auth);
      const poll = deps.services.sessionHistory.createPoll(
        org.id,
        params.meeting_id,
        { question: body.question, options: body.options, anonymous: body.anonymous, hideVotes: body.hide_votes },
        // Created through the API, by the organization.
        org.id,
      );
      return ok({ action: 'create-poll' as const, poll: pollDto(poll) }, 201);
    },
  }),
];
