import { z } from 'zod';
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { activeLivestreamDto, livestreamDto, ok, paged } from './mappers.js';
import { activeLivestreamSchema, createLivestreamBody, envelope, livestreamSchema, messageSchema, pagedEnvelope, pageQuery, uuidParam } from './schemas.js';

const meetingParams = z.object({ meeting_id: uuidParam });

export const livestreamRoutes = [
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/livestreams',
    api: 'v2',
    auth: 'basic',
    tag: 'Livestreams',
    summary: 'Start livestreaming a meeting (status OFFLINE; LIVE once ingest begins)',
    params: meetingParams,
    body: createLivestreamBody,
    responses: {
      201: { description: 'The livestream with its ingest server, stream key and playback URL', schema: envelope(livestreamSchema) },
      409: { description: 'The meeting already has an active livestream' },
    },
    handler: ({ deps, auth, params, body }) =>
      ok(livestreamDto(deps.services.livestreams.create(orgOf(auth).id, params.meeting_id, { name: body.name }), deps.media), 201),
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/active-livestream',
    api: 'v2',
    auth: 'basic',
    tag: 'Livestreams',
    summary: "Fetch a meeting's active livestream, with ingest and viewer seconds",
    params: meetingParams,
    responses: { 200: { description: 'The active livestream', schema: envelope(activeLivestreamSchema) } },
    handler: ({ deps, auth, params }) =>
      ok(
        activeLivestreamDto(
          deps.services.livestreams.active(orgOf(auth).id, params.meeting_id),
          deps.media,
          deps.clock.now(),
          deps.simulator.policy.livestream.viewers,
        ),
      ),
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/active-livestream/stop',
    api: 'v2',
    auth: 'basic',
    tag: 'Livestreams',
    summary: "Stop a meeting's active livestream",
    params: meetingParams,
    responses: { 200: { description: 'A message', schema: envelope(messageSchema) } },
    handler: ({ deps, auth, params }) => {
      deps.services.livestreams.stopActive(orgOf(auth).id, params.meeting_id);
      return ok({ message: 'Livestream stopped successfully' });
    },
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/livestream',
    api: 'v2',
    auth: 'basic',
    tag: 'Livestreams',
    summary: "Fetch all of a meeting's livestreams (newest first)",
    params: meetingParams,
    query: pageQuery,
    responses: { 200: { description: 'A page of livestreams', schema: pagedEnvelope(livestreamSchema) } },
    handler: ({ deps, auth, params, query }) =>
      paged(deps.services.livestreams.listForMeeting(orgOf(auth).id, params.meeting_id, { page: query.page_no, perPage: query.per_page }), (l) =>
        livestreamDto(l, deps.media),
      ),
  }),
  route({
    method: 'get',
    path: '/v2/livestreams',
    api: 'v2',
    auth: 'basic',
    tag: 'Livestreams',
    summary: 'Fetch all livestreams (newest first)',
    query: pageQuery,
    responses: { 200: { description: 'A page of livestreams', schema: pagedEnvelope(livestreamSchema) } },
    handler: ({ deps, auth, query }) =>
      paged(deps.services.livestreams.list(orgOf(auth).id, { page: query.page_no, perPage: query.per_page }), (l) => livestreamDto(l, deps.media)),
  }),
  route({
    method: 'get',
    path: '/v2/livestreams/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Livestreams',
    summary: 'Fetch a livestream',
    params: z.object({ id: uuidParam }),
    responses: { 200: { description: 'The livestream', schema: envelope(livestreamSchema) } },
    handler: ({ deps, auth, params }) => ok(livestreamDto(deps.services.livestreams.get(orgOf(auth).id, params.id), deps.media)),
  }),
];
