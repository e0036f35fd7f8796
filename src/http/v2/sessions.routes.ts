// The session history: every session of the organization's meetings, its participants with
// their stays, and the files it leaves (chat, transcript, summary) behind signed, expiring links.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { ok, pagingDto } from './mappers.js';
import { envelope, uuidParam } from './schemas.js';
import {
  chatLinkDto,
  peerReportDto,
  sessionDto,
  sessionParticipantDetailsDto,
  sessionParticipantDto,
  summaryLinkDto,
  transcriptLinkDto,
} from './sessions.mappers.js';
import {
  chatLinkSchema,
  participantDetailsQuery,
  peerReportQuery,
  peerReportSchema,
  sessionDetailsQuery,
  sessionListQuery,
  sessionParticipantDetailsSchema,
  sessionParticipantsPageSchema,
  sessionParticipantsQuery,
  sessionSchema,
  sessionsPageSchema,
  summaryLinkSchema,
  transcriptLinkSchema,
} from './sessions.schemas.js';

const TAG = 'Sessions';
const sessionParams = lazy(() => z.object({ session_id: uuidParam() }));
const unknownSession = { 404: { description: 'No session with that id in the organization' } };

export const sessionRoutes = [
  route({
    method: 'get',
    path: '/v2/sessions',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch all sessions (filters associated_id, status, participants, start_time, end_time, search; sort_by createdAt or minutesConsumed)',
    query: sessionListQuery,
    responses: { 200: { description: 'A page of sessions', schema: () => sessionsPageSchema() } },
    handler: ({ deps, auth, query }) => {
      const { sessionHistory } = deps.services;
      const page = sessionHistory.list(orgOf(auth).id, {
        page: query.page_no,
        perPage: query.per_page,
        sortBy: query.sort_by,
        sortOrder: query.sort_order,
        startTime: query.start_time === undefined ? undefined : Date.parse(query.start_time),
        endTime: query.end_time === undefined ? undefined : Date.parse(query.end_time),
        participants: query.participants,
        status: query.status,
        search: query.search,
        meetingId: query.associated_id,
      });
      const now = deps.clock.now();
      return ok({ sessions: page.items.map((s) => sessionDto(s, sessionHistory.meetingOf(s), now)), paging: pagingDto(page) });
    },
  }),
  route({
    method: 'get',
    path: '/v2/sessions/peer-report/{peer_id}',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "Fetch a peer's report (the peer id is the participant id; its newest session)",
    params: () => z.object({ peer_id: uuidParam() }),
    query: peerReportQuery,
    responses: {
      200: { description: 'The peer', schema: () => envelope(z.object({ participant: peerReportSchema() })) },
      404: { description: 'No session had that peer' },
    },
    handler: ({ deps, auth, params, query }) => {
      const { participant } = deps.services.sessionHistory.peer(orgOf(auth).id, params.peer_id);
      return ok({ participant: peerReportDto(participant, deps.clock.now(), query.filters) });
    },
  }),
  route({
    method: 'get',
    path: '/v2/sessions/{session_id}',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch a session',
    params: sessionParams,
    query: sessionDetailsQuery,
    responses: { 200: { description: 'The session', schema: () => envelope(z.object({ session: sessionSchema() })) }, ...unknownSession },
    handler: ({ deps, auth, params, query }) => {
      const { sessionHistory, connectedMeetings } = deps.services;
      const s = sessionHistory.get(orgOf(auth).id, params.session_id);
      const rooms = query.include_breakout_rooms
        ? connectedMeetings.breakoutSessions(s).map((session) => ({ session, meeting: sessionHistory.meetingOf(session) }))
        : undefined;
      return ok({ session: sessionDto(s, sessionHistory.meetingOf(s), deps.clock.now(), rooms) });
    },
  }),
  route({
    method: 'get',
    path: '/v2/sessions/{session_id}/participants',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "Fetch a session's participants with their join and leave times and durations (in the order they joined)",
    params: sessionParams,
    query: sessionParticipantsQuery,
    responses: { 200: { description: 'A page of participants', schema: () => sessionParticipantsPageSchema() }, ...unknownSession },
    handler: ({ deps, auth, params, query }) => {
      const { sessionHistory } = deps.services;
      const orgId = orgOf(auth).id;
      const s = sessionHistory.get(orgId, params.session_id);
      const page = sessionHistory.participants(orgId, s.id, {
        page: query.page_no,
        perPage: query.per_page,
        search: query.search,
        sortBy: query.sort_by,
        sortOrder: query.sort_order,
      });
      const now = deps.clock.now();
      return ok({ participants: page.items.map((p) => sessionParticipantDto(s, p, now, query.include_peer_events)), paging: pagingDto(page) });
    },
  }),
  route({
    method: 'get',
    path: '/v2/sessions/{session_id}/participants/{participant_id}',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch one participant of a session, with its call statistics (filters: events, device_info, ...)',
    params: () => z.object({ session_id: uuidParam(), participant_id: uuidParam() }),
    query: participantDetailsQuery,
    responses: {
      200: { description: 'The participant', schema: () => envelope(z.object({ participant: sessionParticipantDetailsSchema() })) },
      404: { description: 'No such session, or the participant was not in it' },
    },
    handler: ({ deps, auth, params, query }) => {
      const { sessionHistory } = deps.services;
      const orgId = orgOf(auth).id;
      const s = sessionHistory.get(orgId, params.session_id);
      const p = sessionHistory.participant(orgId, s.id, params.participant_id);
      return ok({ participant: sessionParticipantDetailsDto(s, p, deps.clock.now(), { filters: query.filters, withPeerEvents: query.include_peer_events }) });
    },
  }),
  route({
    method: 'get',
    path: '/v2/sessions/{session_id}/chat',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "A link to the session's chat messages as CSV (signed, expires in 7 days)",
    params: sessionParams,
    responses: { 200: { description: 'The download link', schema: () => envelope(chatLinkSchema()) }, ...unknownSession },
    handler: ({ deps, auth, params }) => ok(chatLinkDto(deps.services.sessionHistory.link(orgOf(auth).id, params.session_id, 'chat'))),
  }),
  route({
    method: 'get',
    path: '/v2/sessions/{session_id}/transcript',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "A link to the session's transcript as CSV (signed, expires in 7 days)",
    params: sessionParams,
    responses: { 200: { description: 'The download link', schema: () => envelope(transcriptLinkSchema()) }, ...unknownSession },
    handler: ({ deps, auth, params }) =>
      ok(transcriptLinkDto(params.session_id, deps.services.sessionHistory.link(orgOf(auth).id, params.session_id, 'transcript'))),
  }),
  route({
    method: 'get',
    path: '/v2/sessions/{session_id}/summary',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "A link to the summary of the session's transcript as text (signed, expires in 7 days)",
    params: sessionParams,
    responses: {
      200: { description: 'The download link', schema: () => envelope(summaryLinkSchema()) },
      404: { description: 'No such session, or no summary generated yet' },
    },
    handler: ({ deps, auth, params }) => ok(summaryLinkDto(params.session_id, deps.services.sessionHistory.link(orgOf(auth).id, params.session_id, 'summary'))),
  }),
  route({
    method: 'post',
    path: '/v2/sessions/{session_id}/summary',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "Generate the summary of the session's transcript (meeting.summary follows)",
    params: sessionParams,
    responses: {
      200: { description: 'Generated', schema: () => envelope(z.object({ success: z.literal(true), message: z.string() })) },
      404: { description: 'No such session, or it has no transcript to summarize' },
    },
    handler: ({ deps, auth, params }) => {
      deps.services.sessionHistory.generateSummary(orgOf(auth).id, params.session_id);
      return ok({ success: true as const, message: 'Success' });
    },
  }),
];
