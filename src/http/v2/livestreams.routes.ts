import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import type { Deps } from '../../container.js';
import { livestreamTotals, livestreamTotalsByDay } from '../../domain/livestreams/livestream-analytics.js';
import { assertMeetingAccess, assertPresetAllows, orgOf } from '../auth.js';
import { route } from '../route.js';
import {
  activeLivestreamSessionDto,
  livestreamDaywiseDto,
  livestreamDetailDto,
  livestreamListDto,
  livestreamOverallDto,
  livestreamSessionDto,
  livestreamSessionPageDto,
  type SessionClock,
} from './livestreams.mappers.js';
import {
  activeLivestreamSessionSchema,
  analyticsRangeQuery,
  createIndependentLivestreamBody,
  livestreamDaywiseSchema,
  livestreamDetailSchema,
  livestreamListQuery,
  livestreamListSchema,
  livestreamOverallSchema,
  livestreamSessionPageSchema,
  livestreamSessionSchema,
} from './livestreams.schemas.js';
import { activeLivestreamDto, livestreamDto, ok } from './mappers.js';
import { activeLivestreamSchema, createLivestreamBody, envelope, livestreamSchema, messageSchema, pageQuery, uuidParam } from './schemas.js';

const TAG = 'Livestreams';
const meetingParams = lazy(() => z.object({ meeting_id: uuidParam() }));
const livestreamParams = lazy(() => z.object({ livestream_id: uuidParam() }));

/** The clock and the simulated audience that ingest and viewer seconds are read with. */
const sessionClock = (deps: Deps): SessionClock => ({
  now: deps.clock.now(),
  viewers: deps.services.livestreams.viewers.figure(deps.simulator.policy.livestream.viewers),
});
/** What a participant token (the web SDK's own calls) may be refused. */
const forbidden = { 403: { description: 'A participant token for another meeting, or whose preset cannot livestream' } };
const timeOf = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

export const livestreamRoutes = [
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/livestreams',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: TAG,
    summary: 'Start livestreaming a meeting (status OFFLINE; LIVE once ingest begins)',
    params: meetingParams,
    body: createLivestreamBody,
    responses: {
      201: { description: 'The livestream with its ingest server, stream key and playback URL', schema: () => envelope(livestreamSchema()) },
      ...forbidden,
      409: { description: 'The meeting already has an active livestream' },
    },
    handler: ({ deps, auth, params, body }) => {
      assertMeetingAccess(auth, params.meeting_id);
      assertPresetAllows(auth, 'can_livestream', 'livestreaming');
      return ok(livestreamDto(deps.services.livestreams.create(orgOf(auth).id, params.meeting_id, { name: body.name }), deps.media), 201);
    },
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/active-livestream',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: TAG,
    summary: "Fetch a meeting's active livestream, with ingest and viewer seconds",
    params: meetingParams,
    responses: { 200: { description: 'The active livestream', schema: () => envelope(activeLivestreamSchema()) }, ...forbidden },
    handler: ({ deps, auth, params }) => {
      assertMeetingAccess(auth, params.meeting_id);
      const { livestreams } = deps.services;
      const l = livestreams.active(orgOf(auth).id, params.meeting_id);
      const at = sessionClock(deps);
      return ok(activeLivestreamDto(l, deps.media, at.now, livestreams.viewerSecondsOf(l, at.now, at.viewers)));
    },
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/active-livestream/stop',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: TAG,
    summary: "Stop a meeting's active livestream",
    params: meetingParams,
    responses: { 200: { description: 'A message', schema: () => envelope(messageSchema()) }, ...forbidden },
    handler: ({ deps, auth, params }) => {
      assertMeetingAccess(auth, params.meeting_id);
      assertPresetAllows(auth, 'can_livestream', 'livestreaming');
      deps.services.livestreams.stopActive(orgOf(auth).id, params.meeting_id);
      return ok({ message: 'Livestream stopped successfully' });
    },
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/livestream',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "Fetch a meeting's livestreams (newest first) with the newest livestream session",
    params: meetingParams,
    query: pageQuery,
    responses: { 200: { description: 'A page of livestreams', schema: () => envelope(livestreamListSchema()) } },
    handler: ({ deps, auth, params, query }) => {
      const { livestreams } = deps.services;
      const orgId = orgOf(auth).id;
      const page = livestreams.listForMeeting(orgId, params.meeting_id, { page: query.page_no, perPage: query.per_page });
      return ok(livestreamListDto(page, livestreams.latestSessionOf(orgId, page.items), deps.media, sessionClock(deps)));
    },
  }),
  route({
    method: 'post',
    path: '/v2/livestreams',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Create a livestream of its own, for any RTMP encoder (status OFFLINE; LIVE once ingest begins)',
    body: createIndependentLivestreamBody,
    responses: { 201: { description: 'The livestream with its ingest server, stream key and playback URL', schema: () => envelope(livestreamSchema()) } },
    handler: ({ deps, auth, body }) => ok(livestreamDto(deps.services.livestreams.createIndependent(orgOf(auth).id, { name: body.name }), deps.media), 201),
  }),
  route({
    method: 'get',
    path: '/v2/livestreams',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "Fetch the organization's livestreams, filtered and sorted by creation time, with the newest livestream session",
    query: livestreamListQuery,
    responses: { 200: { description: 'A page of livestreams', schema: () => envelope(livestreamListSchema()) } },
    handler: ({ deps, auth, query }) => {
      const { livestreams } = deps.services;
      const orgId = orgOf(auth).id;
      const page = livestreams.list(orgId, {
        page: query.page_no,
        perPage: query.per_page,
        status: query.status,
        excludeMeetings: query.exclude_meetings,
        startTime: timeOf(query.start_time),
        endTime: timeOf(query.end_time),
        ascending: query.sort_order === 'ASC',
      });
      return ok(livestreamListDto(page, livestreams.latestSessionOf(orgId, page.items), deps.media, sessionClock(deps)));
    },
  }),
  // Before /v2/livestreams/{livestream_id}/...: `sessions` is no livestream id.
  route({
    method: 'get',
    path: '/v2/livestreams/sessions/{livestream-session-id}',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch a livestream session',
    params: () => z.object({ 'livestream-session-id': uuidParam() }),
    responses: { 200: { description: 'The livestream session', schema: () => envelope(livestreamSessionSchema()) } },
    handler: ({ deps, auth, params }) =>
      ok(livestreamSessionDto(deps.services.livestreams.getSession(orgOf(auth).id, params['livestream-session-id']), sessionClock(deps))),
  }),
  route({
    method: 'get',
    path: '/v2/livestreams/{livestream_id}',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch a livestream with its current or last session and a page of its sessions (newest first)',
    params: livestreamParams,
    query: pageQuery,
    responses: { 200: { description: 'The livestream and its sessions', schema: () => envelope(livestreamDetailSchema()) } },
    handler: ({ deps, auth, params, query }) => {
      const { livestreams } = deps.services;
      const orgId = orgOf(auth).id;
      const withSession = livestreams.withSession(orgId, params.livestream_id);
      const sessions = livestreams.sessionsOf(orgId, params.livestream_id, { page: query.page_no, perPage: query.per_page });
      return ok(livestreamDetailDto(withSession, sessions, deps.media, sessionClock(deps)));
    },
  }),
  route({
    method: 'post',
    path: '/v2/livestreams/{livestream_id}/reset-stream-key',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: "Reset a livestream's stream key (an ingest already running goes on)",
    params: livestreamParams,
    responses: { 200: { description: 'The livestream with its new stream key', schema: () => envelope(livestreamSchema()) } },
    handler: ({ deps, auth, params }) => ok(livestreamDto(deps.services.livestreams.resetStreamKey(orgOf(auth).id, params.livestream_id), deps.media)),
  }),
  route({
    method: 'put',
    path: '/v2/livestreams/{livestream_id}/enable',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Enable a livestream: it takes ingest again',
    params: livestreamParams,
    responses: { 200: { description: 'The livestream', schema: () => envelope(livestreamSchema()) } },
    handler: ({ deps, auth, params }) => ok(livestreamDto(deps.services.livestreams.enable(orgOf(auth).id, params.livestream_id), deps.media)),
  }),
  route({
    method: 'put',
    path: '/v2/livestreams/{livestream_id}/disable',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Disable a livestream: it takes no ingest (a LIVE one goes IDLE)',
    params: livestreamParams,
    responses: { 200: { description: 'The livestream', schema: () => envelope(livestreamSchema()) } },
    handler: ({ deps, auth, params }) => ok(livestreamDto(deps.services.livestreams.disable(orgOf(auth).id, params.livestream_id), deps.media)),
  }),
  route({
    method: 'get',
    path: '/v2/livestreams/{livestream_id}/active-livestream-session',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch a LIVE livestream with the session it is in',
    params: livestreamParams,
    responses: { 200: { description: 'The livestream and its running session', schema: () => envelope(activeLivestreamSessionSchema()) } },
    handler: ({ deps, auth, params }) =>
      ok(activeLivestreamSessionDto(deps.services.livestreams.activeSession(orgOf(auth).id, params.livestream_id), deps.media, sessionClock(deps))),
  }),
  route({
    method: 'get',
    path: '/v2/sessions/{session_id}/livestream-sessions',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch the livestream sessions that went LIVE during a meeting session (newest first)',
    params: () => z.object({ session_id: uuidParam() }),
    query: pageQuery,
    responses: { 200: { description: 'A page of livestream sessions', schema: () => envelope(livestreamSessionPageSchema()) } },
    handler: ({ deps, auth, params, query }) =>
      ok(
        livestreamSessionPageDto(
          deps.services.livestreams.sessionsDuringMeetingSession(orgOf(auth).id, params.session_id, { page: query.page_no, perPage: query.per_page }),
          sessionClock(deps),
        ),
      ),
  }),
  route({
    method: 'get',
    path: '/v2/analytics/livestreams/overall',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch the count of livestream sessions and their ingest and viewer seconds over a time range (by session start)',
    query: analyticsRangeQuery,
    responses: { 200: { description: 'The totals', schema: () => envelope(livestreamOverallSchema()) } },
    handler: ({ deps, auth, query }) => {
      const at = sessionClock(deps);
      const sessions = deps.services.livestreams.sessionsStartedBetween(orgOf(auth).id, timeOf(query.start_time), timeOf(query.end_time));
      return ok(livestreamOverallDto(livestreamTotals(sessions, at.now, at.viewers)));
    },
  }),
  route({
    method: 'get',
    path: '/v2/analytics/livestreams/daywise',
    api: 'v2',
    auth: 'basic',
    tag: TAG,
    summary: 'Fetch the same totals per UTC day on which a session started (days without one are left out)',
    query: analyticsRangeQuery,
    responses: { 200: { description: 'The totals per day, oldest first', schema: () => envelope(livestreamDaywiseSchema()) } },
    handler: ({ deps, auth, query }) => {
      const at = sessionClock(deps);
      const sessions = deps.services.livestreams.sessionsStartedBetween(orgOf(auth).id, timeOf(query.start_time), timeOf(query.end_time));
      return ok(livestreamDaywiseDto(livestreamTotalsByDay(sessions, at.now, at.viewers)));
    },
  }),
];
