import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { ok, paged, participantDto, removedParticipantDto } from './mappers.js';
import {
  addParticipantBody,
  editParticipantBody,
  envelope,
  pagedEnvelope,
  pageQuery,
  participantSchema,
  participantWithTokenSchema,
  removedParticipantSchema,
  uuidParam,
} from './schemas.js';

const meetingParams = lazy(() => z.object({ meeting_id: uuidParam() }));
const participantParams = lazy(() => z.object({ meeting_id: uuidParam(), participant_id: uuidParam() }));

export const participantRoutes = [
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/participants',
    api: 'v2',
    auth: 'basic',
    tag: 'Participants',
    summary: 'Add a participant; the answer carries the token for the frontend SDKs',
    params: meetingParams,
    body: addParticipantBody,
    responses: {
      201: { description: 'The participant with its token', schema: () => envelope(participantWithTokenSchema()) },
      409: { description: 'The meeting is INACTIVE' },
    },
    handler: async ({ deps, auth, params, body }) => {
      const { participant, token } = await deps.services.participants.add(orgOf(auth).id, params.meeting_id, {
        name: body.name,
        picture: body.picture,
        presetName: body.preset_name,
        customParticipantId: (body.custom_participant_id ?? body.client_specific_id)!,
      });
      return ok({ ...participantDto(participant), token }, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/participants',
    api: 'v2',
    auth: 'basic',
    tag: 'Participants',
    summary: "Fetch a meeting's participants (in the order they were added)",
    params: meetingParams,
    query: pageQuery,
    responses: { 200: { description: 'A page of participants (no tokens)', schema: () => pagedEnvelope(participantSchema()) } },
    handler: ({ deps, auth, params, query }) =>
      paged(deps.services.participants.list(orgOf(auth).id, params.meeting_id, { page: query.page_no, perPage: query.per_page }), participantDto),
  }),
  route({
    method: 'get',
    path: '/v2/meetings/{meeting_id}/participants/{participant_id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Participants',
    summary: 'Fetch a participant',
    params: participantParams,
    responses: { 200: { description: 'The participant (no token)', schema: () => envelope(participantSchema()) } },
    handler: ({ deps, auth, params }) => ok(participantDto(deps.services.participants.get(orgOf(auth).id, params.meeting_id, params.participant_id))),
  }),
  route({
    method: 'patch',
    path: '/v2/meetings/{meeting_id}/participants/{participant_id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Participants',
    summary: 'Edit a participant; the answer carries a fresh token',
    params: participantParams,
    body: editParticipantBody,
    responses: { 200: { description: 'The participant with a fresh token', schema: () => envelope(participantWithTokenSchema()) } },
    handler: async ({ deps, auth, params, body }) => {
      const { participant, token } = await deps.services.participants.update(orgOf(auth).id, params.meeting_id, params.participant_id, {
        name: body.name,
        picture: body.picture,
        presetName: body.preset_name ?? undefined,
        customParticipantId: body.custom_participant_id ?? body.client_specific_id,
      });
      return ok({ ...participantDto(participant), token });
    },
  }),
  route({
    method: 'delete',
    path: '/v2/meetings/{meeting_id}/participants/{participant_id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Participants',
    summary: 'Remove a participant; its tokens stop working',
    params: participantParams,
    responses: { 200: { description: 'The removed participant', schema: () => envelope(removedParticipantSchema()) } },
    handler: ({ deps, auth, params }) => ok(removedParticipantDto(deps.services.participants.remove(orgOf(auth).id, params.meeting_id, params.participant_id))),
  }),
  route({
    method: 'post',
    path: '/v2/meetings/{meeting_id}/participants/{participant_id}/token',
    api: 'v2',
    auth: 'basic',
    tag: 'Participants',
    summary: 'Issue a fresh token for a participant',
    params: participantParams,
    responses: { 200: { description: 'A new token', schema: () => envelope(z.object({ token: z.string() })) } },
    handler: async ({ deps, auth, params }) =>
      ok({ token: await deps.services.participants.newToken(orgOf(auth).id, params.meeting_id, params.participant_id) }),
  }),
];
