// v2 wire schemas: requests (validation) and responses (OpenAPI). snake_case lives here and in
// the mappers only.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { REGIONS, RECORDING_STATUSES, STORAGE_TYPES } from '../../domain/models.js';
import { LIMITS } from '../limits.js';
import { isoInstant } from '../../core/iso-time.js';
import {
  aiConfigBody,
  aiConfigSchema,
  audioConfigBody,
  dyteBucketConfigBody,
  fileNamePrefix,
  interactiveConfigBody,
  liveStreamingConfigBody,
  recordingConfigBody,
  recordingConfigRules,
  recordingConfigSchema,
  storageConfigBody,
  videoConfigBody,
} from './recording-config.schemas.js';

export const uuidParam = lazy(() => z.uuid());
export const isoTime = lazy(() => z.string().meta({ format: 'date-time' }));
export const httpUrl = lazy(() => z.url({ protocol: /^https?$/ }));

// --- envelopes ---------------------------------------------------------------------------

export const pagingSchema = lazy(() =>
  z.object({
    total_count: z.number().int(),
    start_offset: z.number().int(),
    end_offset: z.number().int(),
  }),
);

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export function pagedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), paging: pagingSchema() });
}

export const v2ErrorSchema = lazy(() =>
  z.object({
    success: z.literal(false),
    error: z.object({ code: z.number().int(), message: z.string() }),
  }),
);

// Production documents both as numbers from 0, and allows them empty (`page_no=`): 0 and empty
// mean "not given", so the first page and the default page size (an emulator decision).
export const pageQuery = lazy(() =>
  z.object({
    page_no: z.coerce
      .number()
      .int()
      .min(0)
      .default(1)
      .transform((n) => (n === 0 ? 1 : n)),
    per_page: z.coerce
      .number()
      .int()
      .min(0)
      .max(LIMITS.perPageMax)
      .default(LIMITS.perPageDefault)
      .transform((n) => (n === 0 ? LIMITS.perPageDefault : n)),
  }),
);

// --- meetings -----------------------------------------------------------------------------

/** Production takes null for record_on_start and live_stream_on_start: the default (false). */
export const meetingBody = lazy(() =>
  z.object({
    title: z.string().max(LIMITS.titleMax).nullable().optional(),
    preferred_region: z.enum(REGIONS).nullable().optional(),
    record_on_start: z.boolean().nullable().optional(),
    live_stream_on_start: z.boolean().nullable().optional(),
    waiting_room: z.boolean().optional(),
    persist_chat: z.boolean().optional(),
    summarize_on_end: z.boolean().optional(),
    status: z.enum(['ACTIVE', 'INACTIVE']).optional(),
    recording_config: recordingConfigBody().nullable().optional(),
    ai_config: aiConfigBody().nullable().optional(),
  }),
);

/**
 * Production types `title` as a string (never null) and both configs as objects: a meeting
 * without a title leaves it out, and one without configs shows the defaults.
 */
export const meetingSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    title: z.string().optional(),
    preferred_region: z.enum(REGIONS).nullable(),
    waiting_room: z.boolean(),
    record_on_start: z.boolean(),
    live_stream_on_start: z.boolean(),
    persist_chat: z.boolean(),
    summarize_on_end: z.boolean(),
    status: z.enum(['ACTIVE', 'INACTIVE']),
    recording_config: recordingConfigSchema(),
    ai_config: aiConfigSchema(),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);

/** The meeting object inside a recording's stop response (seed: Recording.meeting). */
export const recordingMeetingSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    title: z.string().optional(),
    waiting_room: z.boolean(),
    record_on_start: z.boolean(),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);

export const meetingListQuery = lazy(() =>
  pageQuery().extend({
    search: z.string().max(LIMITS.titleMax).optional(),
    start_time: isoInstant.optional(),
    end_time: isoInstant.optional(),
  }),
);

// --- participants -------------------------------------------------------------------------

const participantFields = lazy(() => ({
  name: z.string().max(LIMITS.nameMax).nullable().optional(),
  picture: httpUrl().max(LIMITS.urlMax).nullable().optional(),
  preset_name: z.string().min(1).max(LIMITS.nameMax),
  custom_participant_id: z.string().min(1).max(LIMITS.clientIdMax),
  client_specific_id: z.string().min(1).max(LIMITS.clientIdMax),
}));

/** Add: preset_name and a client id (either spelling: `custom_participant_id` or `client_specific_id`) are required. */
export const addParticipantBody = lazy(() =>
  z
    .object({
      ...participantFields(),
      custom_participant_id: participantFields().custom_participant_id.optional(),
      client_specific_id: participantFields().client_specific_id.optional(),
    })
    .superRefine((b, ctx) => {
      if (b.custom_participant_id === undefined && b.client_specific_id === undefined) {
        // Stryker disable next-line StringLiteral: issueMessage renders a missing field as "is required" and reads neither expected nor message here.
        ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['custom_participant_id'], message: 'required' });
      } else if (b.custom_participant_id !== undefined && b.client_specific_id !== undefined && b.custom_participant_id !== b.client_specific_id) {
        ctx.addIssue({ code: 'custom', path: ['client_specific_id'], message: 'must equal "custom_participant_id" when both are given' });
      }
    }),
);

export const editParticipantBody = lazy(() =>
  z
    .object({
      name: participantFields().name,
      picture: participantFields().picture,
      // Production allows null: the preset stays as it is.
      preset_name: participantFields().preset_name.nullable().optional(),
      custom_participant_id: participantFields().custom_participant_id.optional(),
      client_specific_id: participantFields().client_specific_id.optional(),
    })
    .superRefine((b, ctx) => {
      if (b.custom_participant_id !== undefined && b.client_specific_id !== undefined && b.custom_participant_id !== b.client_specific_id) {
        ctx.addIssue({ code: 'custom', path: ['client_specific_id'], message: 'must equal "custom_participant_id" when both are given' });
      }
    }),
);

export const participantSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    name: z.string().nullable(),
    picture: z.string().nullable(),
    custom_participant_id: z.string(),
    client_specific_id: z.string(),
    preset_name: z.string(),
    preset_id: z.uuid(),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);

export const participantWithTokenSchema = lazy(() => participantSchema().extend({ token: z.string() }));

export const removedParticipantSchema = lazy(() =>
  z.object({
    custom_participant_id: z.string(),
    client_specific_id: z.string(),
    preset_id: z.uuid(),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);

// --- recordings ---------------------------------------------------------------------------

/**
 * Every field production documents. Settings not given here come from the meeting's
 * recording_config, then the defaults; storage secrets are dropped by the parse.
 */
export const startRecordingBody = lazy(() =>
  z
    .object({
      meeting_id: z.uuid(),
      storage_config: storageConfigBody().nullable().optional(),
      file_name_prefix: fileNamePrefix().optional(),
      allow_multiple_recordings: z.boolean().optional(),
      max_seconds: z.number().int().min(60).max(86_400).optional(),
      video_config: videoConfigBody().optional(),
      audio_config: audioConfigBody().optional(),
      rtmp_out_config: liveStreamingConfigBody().optional(),
      dyte_bucket_config: dyteBucketConfigBody().optional(),
      interactive_config: interactiveConfigBody().optional(),
      // Accepted for compatibility with production clients; the emulator records the meeting itself.
      url: httpUrl().max(LIMITS.urlMax).optional(),
    })
    .superRefine(recordingConfigRules),
);

export const recordingActionBody = lazy(() => z.object({ action: z.enum(['stop', 'pause', 'resume']) }));

/**
 * Production's caller: ORGANIZATION or USER, `user_Id` spelled as it spells it, and no nulls
 * (what is not known is left out). The emulator's own stops show as the organization.
 */
export const callerSchema = lazy(() =>
  z.object({
    type: z.enum(['ORGANIZATION', 'USER']),
    name: z.string().optional(),
    user_Id: z.string().optional(),
  }),
);

export const storageConfigSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    type: z.enum(STORAGE_TYPES),
    region: z.string().optional(),
    bucket: z.string().optional(),
    path: z.string().optional(),
    auth_method: z.enum(['KEY', 'PASSWORD']).optional(),
    host: z.string().optional(),
    username: z.string().optional(),
    port: z.number().int().optional(),
  }),
);

/** `recording_duration` and `stop_reason` are left out until known (production allows no null there). */
export const recordingSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    meeting_id: z.uuid(),
    download_url: z.string().nullable(),
    download_url_expiry: isoTime().nullable(),
    audio_download_url: z.string().nullable(),
    file_size: z.number().int().nullable(),
    session_id: z.string().nullable(),
    output_file_name: z.string(),
    status: z.enum(RECORDING_STATUSES),
    invoked_time: isoTime(),
    started_time: isoTime().nullable(),
    stopped_time: isoTime().nullable(),
    recording_duration: z.number().int().optional(),
    start_reason: z.object({ reason: z.enum(['API_CALL', 'RECORD_ON_START']), caller: callerSchema() }),
    stop_reason: z.object({ reason: z.enum(['API_CALL', 'INTERNAL_ERROR', 'ALL_PEERS_LEFT']), caller: callerSchema() }).optional(),
    storage_config: storageConfigSchema().nullable(),
  }),
);

export const recordingWithMeetingSchema = lazy(() => recordingSchema().extend({ meeting: recordingMeetingSchema() }));

// Bounded before the split (each raw value) and after it (the statuses): the raw array's
// maxItems is documented here and enforced on the split list, so that the message names the
// limit rather than "does not match any of the allowed types". Empty items are ignored.
const rawStatus = lazy(() => z.string().max(LIMITS.statusFilterChars));
const statusList = lazy(() =>
  z
    .union([rawStatus(), z.array(rawStatus()).meta({ maxItems: LIMITS.statusFilterItems })])
    .transform((v) =>
      (Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(RECORDING_STATUSES)).max(LIMITS.statusFilterItems))
    .meta({ description: `Comma-separated statuses, at most ${LIMITS.statusFilterItems}` }),
);

const queryBoolean = lazy(() => z.enum(['true', 'false']).transform((v) => v === 'true'));

export const recordingListQuery = lazy(() =>
  pageQuery().extend({
    meeting_id: z.uuid().optional(),
    status: statusList().optional(),
    search: z.string().max(LIMITS.titleMax).optional().meta({ description: "Part of the recording's id, meeting id, meeting title or file name" }),
    start_time: isoInstant.optional().meta({ description: 'Invoked at or after this time' }),
    end_time: isoInstant.optional().meta({ description: 'Invoked at or before this time' }),
    expired: queryBoolean().optional().meta({ description: 'true: only recordings whose download links have expired; false: only the others' }),
    sort_by: z.enum(['invokedTime']).default('invokedTime'),
    sort_order: z.enum(['ASC', 'DESC']).default('DESC'),
  }),
);

// --- livestreams --------------------------------------------------------------------------

/** Production's livestream name pattern (letters, digits, "-" and "_"). */
export const livestreamName = lazy(() =>
  z
    .string()
    .max(LIMITS.nameMax)
    .regex(/^[a-zA-Z0-9_-]*$/, 'must only contain letters, digits, "-" and "_"')
    .nullable()
    .optional(),
);

export const createLivestreamBody = lazy(() =>
  z.object({
    name: livestreamName(),
    // Accepted as production documents it; the emulator streams its sample clip whatever the size.
    video_config: z.object({ height: z.number().int().min(1).max(4320).optional(), width: z.number().int().min(1).max(7680).optional() }).optional(),
  }),
);

// Emulator decision where the reference contradicts itself: `disabled` is a boolean (its examples
// and its LivestreamBase, though some operations type it as a string), and a livestream waiting for
// ingest or stopped is `OFFLINE` (its examples and the livestreaming.statusUpdate webhook, though
// the status enums list only LIVE, IDLE, ERRORED and INVOKED).
export const livestreamSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    meeting_id: z.uuid().nullable(),
    status: z.enum(['OFFLINE', 'LIVE', 'IDLE', 'ERRORED']),
    name: z.string().nullable(),
    ingest_server: z.string(),
    stream_key: z.string(),
    playback_url: z.string(),
    disabled: z.boolean(),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);

export const activeLivestreamSchema = lazy(() =>
  livestreamSchema().extend({
    ingest_seconds: z.number().int(),
    viewer_seconds: z.number().int(),
  }),
);

export const messageSchema = lazy(() => z.object({ message: z.string() }));
