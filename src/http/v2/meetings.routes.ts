import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { meetingDto, ok, paged } from './mappers.js';
import { envelope, meetingBody, meetingListQuery, meetingSchema, pagedEnvelope, uuidParam } from './schemas.js';

const idParams = lazy(() => z.object({ id: uuidParam() }));

/** A null flag is the default (false), as production takes it. */
const flag = (v: boolean | null | undefined): boolean | undefined => (v === null ? false : v);

function toInput(b: z.infer<ReturnType<typeof meetingBody>>) {
  return {
    title: b.title,
    preferredRegion: b.preferred_region,
    recordOnStart: flag(b.record_on_start),
    liveStreamOnStart: flag(b.live_stream_on_start),
    waitingRoom: b.waiting_room,
    persistChat: b.persist_chat,
    summarizeOnEnd: b.summarize_on_end,
    status: b.status,
    recordingConfig: b.recording_config,
    aiConfig: b.ai_config,
  };
}

export const meetingRoutes = [
  route({
    method: 'post',
    path: '/v2/meetings',
    api: 'v2',
    auth: 'basic',
    tag: 'Meetings',
    summary: 'Create a meeting',
    body: meetingBody,
    responses: { 201: { description: 'The meeting', schema: () => envelope(meetingSchema()) } },
    handler: ({ deps, auth, body }) => ok(meetingDto(deps.services.meetings.create(orgOf(auth).id, toInput(body))), 201),
  }),
  route({
    method: 'get',
    path: '/v2/meetings',
    api: 'v2',
    auth: 'basic',
    tag: 'Meetings',
    summary: 'Fetch all meetings (newest first; search by title or id, created between start_time and end_time)',
    query: meetingListQuery,
    responses: { 200: { description: 'A page of meetings', schema: () => pagedEnvelope(meetingSchema()) } },
    handler: ({ deps, auth, query }) =>
      paged(
        deps.services.meetings.list(orgOf(auth).id, {
          page: query.page_no,
          perPage: query.per_page,
          search: query.search,
          startTime: query.start_time === undefined ? undefined : Date.parse(query.start_time),
          endTime: query.end_time === undefined ? undefined : Date.parse(query.end_time),
        }),
        meetingDto,
      ),
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Meetings',
    summary: 'Fetch a meeting',
    params: idParams,
    responses: { 200: { description: 'The meeting', schema: () => envelope(meetingSchema()) } },
    handler: ({ deps, auth, params }) => ok(meetingDto(deps.services.meetings.get(orgOf(auth).id, params.id))),
  }),
  route({
    method: 'patch',
    path: '/v2/meetings/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Meetings',
    summary: 'Update a meeting (only the given fields)',
    params: idParams,
    body: meetingBody,
    responses: { 200: { description: 'The updated meeting', schema: () => envelope(meetingSchema()) } },
    handler: ({ deps, auth, params, body }) => ok(meetingDto(deps.services.meetings.update(orgOf(auth).id, params.id, toInput(body)))),
  }),
  route({
    method: 'put',
    path: '/v2/meetings/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Meetings',
    summary: 'Replace a meeting (fields not given return to their defaults)',
    params: idParams,
    body: meetingBody,
    responses: { 200: { description: 'The replaced meeting', schema: () => envelope(meetingSchema()) } },
    handler: ({ deps, auth, params, body }) => ok(meetingDto(deps.services.meetings.replace(orgOf(auth).id, params.id, toInput(body)))),
  }),
];
