// v2 wire schemas: requests (validation) and responses (OpenAPI). snake_case lives here and in
// the mappers only.
import { z } from 'zod';
import { REGIONS, RECORDING_STATUSES, STORAGE_TYPES } from '../../domain/models.js';
import { LIMITS } from '../limits.js';
import { isoInstant } from '../../core/iso-time.js';

export const uuidParam = z.uuid();
export const isoTime = z.string().meta({ format: 'date-time' });
export const httpUrl = z.url({ protocol: /^https?$/ });

// --- envelopes ---------------------------------------------------------------------------

export const pagingSchema = z.object({
  total_count: z.number().int(),
  start_offset: z.number().int(),
  end_offset: z.number().int(),
});

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export function pagedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), paging: pagingSchema });
}

export const v2ErrorSchema = z.object({
  success: z.literal(false),
  error: z.object({ code: z.number().int(), message: z.string() }),
});

export const pageQuery = z.object({
  page_no: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(LIMITS.perPageMax).default(LIMITS.perPageDefault),
});

// --- meetings -----------------------------------------------------------------------------

export const meetingBody = z.object({
  title: z.string().max(LIMITS.titleMax).nullable().optional(),
  preferred_region: z.enum(REGIONS).nullable().optional(),
  record_on_start: z.boolean().optional(),
  live_stream_on_start: z.boolean().optional(),
  waiting_room: z.boolean().optional(),
  persist_chat: z.boolean().optional(),
  summarize_on_end: z.boolean().optional(),
  status: z.enum(['ACTIVE', 'INACTIVE']).optional(),
  recording_config: z.looseObject({}).nullable().optional(),
});

export const meetingSchema = z.object({
  id: z.uuid(),
  title: z.string().nullable(),
  preferred_region: z.enum(REGIONS).nullable(),
  waiting_room: z.boolean(),
  record_on_start: z.boolean(),
  live_stream_on_start: z.boolean(),
  persist_chat: z.boolean(),
  summarize_on_end: z.boolean(),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  recording_config: z.looseObject({}).nullable(),
  created_at: isoTime,
  updated_at: isoTime,
});

/** The meeting object inside a recording's stop response (seed: Recording.meeting). */
export const recordingMeetingSchema = z.object({
  id: z.uuid(),
  title: z.string().nullable(),
  waiting_room: z.boolean(),
  record_on_start: z.boolean(),
  created_at: isoTime,
  updated_at: isoTime,
});

export const meetingListQuery = pageQuery.extend({
  search: z.string().max(LIMITS.titleMax).optional(),
  start_time: isoInstant.optional(),
  end_time: isoInstant.optional(),
});

// --- participants -------------------------------------------------------------------------

const participantFields = {
  name: z.string().max(LIMITS.nameMax).nullable().optional(),
  picture: httpUrl.max(LIMITS.urlMax).nullable().optional(),
  preset_name: z.string().min(1).max(LIMITS.nameMax),
  custom_participant_id: z.string().min(1).max(LIMITS.clientIdMax),
  client_specific_id: z.string().min(1).max(LIMITS.clientIdMax),
};

/** Add: preset_name and a client id (either spelling: `custom_participant_id` or `client_specific_id`) are required. */
export const addParticipantBody = z
  .object({
    ...participantFields,
    custom_participant_id: participantFields.custom_participant_id.optional(),
    client_specific_id: participantFields.client_specific_id.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.custom_participant_id === undefined && b.client_specific_id === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['custom_participant_id'], message: 'required' });
    } else if (b.custom_participant_id !== undefined && b.client_specific_id !== undefined && b.custom_participant_id !== b.client_specific_id) {
      ctx.addIssue({ code: 'custom', path: ['client_specific_id'], message: 'must equal "custom_participant_id" when both are given' });
    }
  });

export const editParticipantBody = z
  .object({
    name: participantFields.name,
    picture: participantFields.picture,
    preset_name: participantFields.preset_name.optional(),
    custom_participant_id: participantFields.custom_participant_id.optional(),
    client_specific_id: participantFields.client_specific_id.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.custom_participant_id !== undefined && b.client_specific_id !== undefined && b.custom_participant_id !== b.client_specific_id) {
      ctx.addIssue({ code: 'custom', path: ['client_specific_id'], message: 'must equal "custom_participant_id" when both are given' });
    }
  });

export const participantSchema = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  picture: z.string().nullable(),
  custom_participant_id: z.string(),
  client_specific_id: z.string(),
  preset_name: z.string(),
  preset_id: z.uuid(),
  created_at: isoTime,
  updated_at: isoTime,
});

export const participantWithTokenSchema = participantSchema.extend({ token: z.string() });

export const removedParticipantSchema = z.object({
  custom_participant_id: z.string(),
  client_specific_id: z.string(),
  preset_id: z.uuid(),
  created_at: isoTime,
  updated_at: isoTime,
});

// --- recordings ---------------------------------------------------------------------------

/** Secrets (access_key, secret_key/secret, password, private_key) are accepted and dropped. */
export const storageConfigBody = z.object({
  type: z.enum(STORAGE_TYPES),
  access_key: z.string().max(LIMITS.secretMax).optional(),
  secret_key: z.string().max(LIMITS.secretMax).optional(),
  secret: z.string().max(LIMITS.secretMax).optional(),
  password: z.string().max(LIMITS.secretMax).optional(),
  private_key: z.string().max(LIMITS.secretMax).optional(),
  region: z.string().max(LIMITS.nameMax).optional(),
  bucket: z.string().max(LIMITS.nameMax).optional(),
  path: z.string().max(LIMITS.urlMax).optional(),
  host: z.string().max(LIMITS.nameMax).optional(),
  username: z.string().max(LIMITS.nameMax).optional(),
  port: z.number().int().min(1).max(65535).optional(),
});

export const startRecordingBody = z.object({
  meeting_id: z.uuid(),
  storage_config: storageConfigBody.nullable().optional(),
  file_name_prefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1 to 100 letters, digits, "_" or "-"')
    .optional(),
  allow_multiple_recordings: z.boolean().optional(),
  max_seconds: z.number().int().min(60).max(86_400).optional(),
  // Accepted for compatibility with production clients; the emulator records the sample clip.
  video_config: z.looseObject({}).optional(),
  audio_config: z.looseObject({}).optional(),
  url: httpUrl.max(LIMITS.urlMax).optional(),
});

export const recordingActionBody = z.object({ action: z.enum(['stop', 'pause', 'resume']) });

const reasonSchema = z.object({
  reason: z.string(),
  caller: z.object({ name: z.string().nullable(), type: z.enum(['ORGANIZATION', 'USER', 'SYSTEM']), user_id: z.string().nullable() }),
});

export const storageConfigSchema = z.object({
  id: z.uuid(),
  type: z.enum(STORAGE_TYPES),
  region: z.string().nullable(),
  bucket: z.string().nullable(),
  path: z.string().nullable(),
  host: z.string().nullable(),
  username: z.string().nullable(),
  port: z.number().int().nullable(),
});

export const recordingSchema = z.object({
  id: z.uuid(),
  meeting_id: z.uuid(),
  download_url: z.string().nullable(),
  download_url_expiry: isoTime.nullable(),
  audio_download_url: z.string().nullable(),
  file_size: z.number().int().nullable(),
  session_id: z.string().nullable(),
  output_file_name: z.string(),
  status: z.enum(RECORDING_STATUSES),
  invoked_time: isoTime,
  started_time: isoTime.nullable(),
  stopped_time: isoTime.nullable(),
  recording_duration: z.number().int().nullable(),
  start_reason: reasonSchema,
  stop_reason: reasonSchema.nullable(),
  storage_config: storageConfigSchema.nullable(),
});

export const recordingWithMeetingSchema = recordingSchema.extend({ meeting: recordingMeetingSchema });

// Bounded before the split (each raw value) and after it (the statuses): the raw array's
// maxItems is documented here and enforced on the split list, so that the message names the
// limit rather than "does not match any of the allowed types". Empty items are ignored.
const rawStatus = z.string().max(LIMITS.statusFilterChars);
const statusList = z
  .union([rawStatus, z.array(rawStatus).meta({ maxItems: LIMITS.statusFilterItems })])
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(RECORDING_STATUSES)).max(LIMITS.statusFilterItems))
  .meta({ description: `Comma-separated statuses, at most ${LIMITS.statusFilterItems}` });

export const recordingListQuery = pageQuery.extend({
  meeting_id: z.uuid().optional(),
  status: statusList.optional(),
  sort_order: z.enum(['ASC', 'DESC']).default('DESC'),
});

// --- livestreams --------------------------------------------------------------------------

/** Production's livestream name pattern (letters, digits, "-" and "_"). */
export const livestreamName = z
  .string()
  .max(LIMITS.nameMax)
  .regex(/^[a-zA-Z0-9_-]*$/, 'must only contain letters, digits, "-" and "_"')
  .nullable()
  .optional();

export const createLivestreamBody = z.object({
  name: livestreamName,
  // Accepted as production documents it; the emulator streams its sample clip whatever the size.
  video_config: z.object({ height: z.number().int().min(1).max(4320).optional(), width: z.number().int().min(1).max(7680).optional() }).optional(),
});

// Emulator decision where the reference contradicts itself: `disabled` is a boolean (its examples
// and its LivestreamBase, though some operations type it as a string), and a livestream waiting for
// ingest or stopped is `OFFLINE` (its examples and the livestreaming.statusUpdate webhook, though
// the status enums list only LIVE, IDLE, ERRORED and INVOKED).
export const livestreamSchema = z.object({
  id: z.uuid(),
  meeting_id: z.uuid().nullable(),
  status: z.enum(['OFFLINE', 'LIVE', 'IDLE', 'ERRORED']),
  name: z.string().nullable(),
  ingest_server: z.string(),
  stream_key: z.string(),
  playback_url: z.string(),
  disabled: z.boolean(),
  created_at: isoTime,
  updated_at: isoTime,
});

export const activeLivestreamSchema = livestreamSchema.extend({
  ingest_seconds: z.number().int(),
  viewer_seconds: z.number().int(),
});

export const messageSchema = z.object({ message: z.string() });
