import { z } from 'zod';
import type { Caller } from '../../domain/recordings/recordings.service.js';
import { assertMeetingAccess, assertPresetAllows, orgOf, type AuthInfo } from '../auth.js';
import { route } from '../route.js';
import { audioOptionsFrom, storageConfigFrom, videoOptionsFrom } from '../../domain/recordings/recording-config.js';
import { takeStorageSecrets } from '../../domain/recordings/storage-secrets.js';
import { ok, paged, recordingDto, recordingMeetingDto } from './mappers.js';
import {
  envelope,
  pagedEnvelope,
  recordingActionBody,
  recordingListQuery,
  recordingSchema,
  recordingWithMeetingSchema,
  startRecordingBody,
  uuidParam,
} from './schemas.js';

/** Who starts or stops a recording through the API: the organization (Basic) or the participant (token). */
export function callerOf(auth: AuthInfo): Caller {
  if (auth.kind === 'participant') return { name: auth.participant.name, type: 'USER', user_id: auth.participant.id };
  return { name: orgOf(auth).name, type: 'ORGANIZATION', user_id: null };
}

const forbidden = { 403: { description: 'A participant token for another meeting, or whose preset cannot record' } };

export const recordingRoutes = [
  route({
    method: 'post',
    path: '/v2/recordings',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: 'Recordings',
    summary: 'Start recording a meeting (status INVOKED; RECORDING a few seconds later)',
    body: startRecordingBody,
    responses: {
      200: { description: 'The recording, status INVOKED', schema: () => envelope(recordingSchema()) },
      ...forbidden,
      404: { description: 'No meeting with that meeting_id' },
      409: { description: 'The meeting already has an active recording' },
    },
    handler: async ({ deps, auth, body }) => {
      assertMeetingAccess(auth, body.meeting_id);
      assertPresetAllows(auth, 'can_record', 'recording');
      const recording = await deps.services.recordings.startFromApi(
        orgOf(auth).id,
        {
          meetingId: body.meeting_id,
          // Already without its secrets: the body's parse took them off; they go to the vault only.
          storageConfig: body.storage_config ? storageConfigFrom(body.storage_config) : undefined,
          storageSecrets: body.storage_config ? takeStorageSecrets(body.storage_config) : undefined,
          fileNamePrefix: body.file_name_prefix,
          allowMultipleRecordings: body.allow_multiple_recordings,
          maxSeconds: body.max_seconds,
          uploadToBucket: body.dyte_bucket_config?.enabled,
          exportAudio: body.audio_config?.export_file,
          video: videoOptionsFrom(body.video_config),
          audio: audioOptionsFrom(body.audio_config),
        },
        callerOf(auth),
      );
      return ok(recordingDto(recording));
    },
  }),
  route({
    method: 'get',
    path: '/v2/recordings',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: 'Recordings',
    summary: 'Fetch recordings (filters meeting_id, status, search, start_time, end_time, expired; sorted by invoked time)',
    query: recordingListQuery,
    responses: { 200: { description: 'A page of recordings, each with its meeting', schema: () => pagedEnvelope(recordingWithMeetingSchema()) }, ...forbidden },
    handler: ({ deps, auth, query }) => {
      let meetingId = query.meeting_id;
      if (auth.kind === 'participant') {
        // A participant token sees its own meeting's recordings only.
        if (meetingId !== undefined) assertMeetingAccess(auth, meetingId);
        meetingId = auth.claims.meetingId;
      }
      const { recordings } = deps.services;
      return paged(
        recordings.list(orgOf(auth).id, {
          page: query.page_no,
          perPage: query.per_page,
          meetingId,
          statuses: query.status,
          search: query.search,
          startTime: query.start_time === undefined ? undefined : Date.parse(query.start_time),
          endTime: query.end_time === undefined ? undefined : Date.parse(query.end_time),
          expired: query.expired,
          sortOrder: query.sort_order,
        }),
        (r) => ({ ...recordingDto(r), meeting: recordingMeetingDto(recordings.meetingOf(r)) }),
      );
    },
  }),
  route({
    method: 'get',
    path: '/v2/recordings/active-recording/{meeting_id}',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: 'Recordings',
    summary: "Fetch a meeting's active recording (INVOKED, RECORDING or PAUSED)",
    params: () => z.object({ meeting_id: uuidParam() }),
    responses: { 200: { description: 'The active recording', schema: () => envelope(recordingSchema()) }, ...forbidden },
    handler: ({ deps, auth, params }) => {
      assertMeetingAccess(auth, params.meeting_id);
      return ok(recordingDto(deps.services.recordings.active(orgOf(auth).id, params.meeting_id)));
    },
  }),
  route({
    method: 'get',
    path: '/v2/recordings/{id}',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: 'Recordings',
    summary: 'Fetch a recording',
    params: () => z.object({ id: uuidParam() }),
    responses: { 200: { description: 'The recording', schema: () => envelope(recordingSchema()) }, ...forbidden },
    handler: ({ deps, auth, params }) => {
      const recording = deps.services.recordings.get(orgOf(auth).id, params.id);
      assertMeetingAccess(auth, recording.meetingId);
      return ok(recordingDto(recording));
    },
  }),
  route({
    method: 'put',
    path: '/v2/recordings/{id}',
    api: 'v2',
    auth: 'basic-or-participant',
    tag: 'Recordings',
    summary: 'Stop, pause or resume a recording',
    params: () => z.object({ id: uuidParam() }),
    body: recordingActionBody,
    responses: {
      200: { description: 'The recording with its meeting', schema: () => envelope(recordingWithMeetingSchema()) },
      ...forbidden,
      409: { description: 'The recording is in a status that forbids the action' },
    },
    handler: ({ deps, auth, params, body }) => {
      const { recordings } = deps.services;
      const orgId = orgOf(auth).id;
      assertMeetingAccess(auth, recordings.get(orgId, params.id).meetingId);
      assertPresetAllows(auth, 'can_record', 'recording');
      const recording = recordings.act(orgId, params.id, body.action, callerOf(auth));
      return ok({ ...recordingDto(recording), meeting: recordingMeetingDto(recordings.meetingOf(recording)) });
    },
  }),
];
