// v2 wire schemas of the session history: sessions, the active session, their participants and
// files, and the organization's daywise analytics. Field names, nesting and types as production
// documents them; what production leaves optional is left out rather than sent as null.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { isoInstant } from '../../core/iso-time.js';
import { SESSION_LIMITS } from '../../domain/models.js';
import { LIMITS } from '../limits.js';
import { isoTime, pageQuery, pagingSchema } from './schemas.js';

/** `true` or `false`, as a query string carries them. */
const queryFlag = lazy(() =>
  z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
);

// --- sessions -----------------------------------------------------------------------------------

const sessionFields = lazy(() => ({
  id: z.string(),
  associated_id: z.string().meta({ description: 'The meeting id' }),
  meeting_display_name: z.string().meta({ description: "The meeting's title (empty when it has none)" }),
  type: z.enum(['meeting', 'livestream', 'participant']),
  status: z.enum(['LIVE', 'ENDED']),
  live_participants: z.number(),
  max_concurrent_participants: z.number(),
  minutes_consumed: z.number().meta({ description: "Participant-minutes: every participant's time in the session, summed" }),
  organization_id: z.string(),
  started_at: isoTime(),
  created_at: isoTime(),
  updated_at: isoTime(),
  ended_at: isoTime().optional().meta({ description: 'Absent while LIVE' }),
}));

export const sessionSchema = lazy(() =>
  z.object({
    ...sessionFields(),
    breakout_rooms: z.array(z.object(sessionFields())).optional().meta({
      description:
        "With include_breakout_rooms=true: the sessions of the meeting's breakout rooms that started while this was the meeting's latest session (associated_id is the room), oldest first",
    }),
  }),
);

export const sessionListQuery = lazy(() =>
  pageQuery().extend({
    sort_by: z.enum(['minutesConsumed', 'createdAt']).default('createdAt'),
    sort_order: z.enum(['ASC', 'DESC']).default('DESC'),
    start_time: isoInstant.optional().meta({ description: 'Sessions that started at or after this time' }),
    end_time: isoInstant.optional().meta({ description: 'Sessions that started at or before this time' }),
    participants: z
      .string()
      .regex(/^\d{1,6}:\d{1,6}$/, 'must read "<min>:<max>", such as "1:10"')
      .transform((v) => {
        const [min, max] = v.split(':').map(Number) as [number, number];
        return { min, max };
      })
      .refine((r) => r.min <= r.max, 'must have its minimum at most its maximum')
      .optional()
      .meta({ description: 'How many participants the session had, "<min>:<max>" inclusive' }),
    status: z.enum(['LIVE', 'ENDED']).optional(),
    search: z.string().max(LIMITS.titleMax).optional().meta({ description: 'Part of the meeting title, the meeting id or the session id' }),
    associated_id: z.string().max(LIMITS.nameMax).optional().meta({ description: 'The meeting id' }),
  }),
);

export const sessionDetailsQuery = lazy(() => z.object({ include_breakout_rooms: queryFlag() }));

export const sessionsPageSchema = lazy(() =>
  z.object({
    success: z.literal(true),
    data: z.object({
      sessions: z.array(sessionSchema()),
      paging: pagingSchema(),
    }),
  }),
);

// --- session participants -------------------------------------------------------------------------

export const peerEventSchema = lazy(() =>
  z.object({
    id: z.string(),
    peer_id: z.string(),
    event_name: z.enum(['PEER_JOINING', 'PEER_LEAVING']),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);

const participantListFields = lazy(() => ({
  id: z.string().meta({ description: 'The peer id: the participant id (one peer per participant per session)' }),
  user_id: z.string().meta({ description: 'The participant id' }),
  custom_participant_id: z.string(),
  display_name: z.string().optional(),
  joined_at: isoTime().meta({ description: 'The first join' }),
  left_at: isoTime().optional().meta({ description: 'The last leave; absent while in the session' }),
  duration: z.number().meta({ description: 'Minutes in the session, every stay summed' }),
  created_at: isoTime(),
  updated_at: isoTime(),
}));

export const sessionParticipantListItemSchema = lazy(() =>
  z.object({
    ...participantListFields(),
    preset_name: z.string(),
    peer_events: z.array(peerEventSchema()).optional().meta({ description: 'With include_peer_events=true: a PEER_JOINING and a PEER_LEAVING per stay' }),
  }),
);

export const sessionParticipantsQuery = lazy(() =>
  pageQuery().extend({
    search: z.string().max(LIMITS.nameMax).optional().meta({ description: 'Part of the display name, the custom participant id or the participant id' }),
    sort_order: z.enum(['ASC', 'DESC']).default('ASC'),
    sort_by: z.enum(['joinedAt', 'duration']).default('joinedAt'),
    include_peer_events: queryFlag(),
    view: z
      .enum(['raw', 'consolidated'])
      .default('raw')
      .meta({ description: 'Both views are the same: a breakout room keeps its own session, with its own participants' }),
  }),
);

export const sessionParticipantsPageSchema = lazy(() =>
  z.object({
    success: z.literal(true),
    data: z.object({
      participants: z.array(sessionParticipantListItemSchema()),
      paging: pagingSchema(),
    }),
  }),
);

export const PEER_FILTERS = ['device_info', 'ip_information', 'precall_network_information', 'events', 'quality_stats'] as const;
export type PeerFilter = (typeof PEER_FILTERS)[number];

const peerFilters = lazy(() =>
  z
    .string()
    .max(200)
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(z.enum(PEER_FILTERS)))
    .optional()
    .meta({ description: `Comma-separated, no spaces: ${PEER_FILTERS.join(', ')}` }),
);

export const participantDetailsQuery = lazy(() => z.object({ filters: peerFilters(), include_peer_events: queryFlag() }));
export const peerReportQuery = lazy(() => z.object({ filters: peerFilters() }));

const peerStatsSchema = lazy(() =>
  z.object({
    events: z.array(z.object({ type: z.string(), timestamp: isoTime() })).optional(),
    device_info: z.object({}).optional(),
    ip_information: z.object({}).optional(),
    precall_network_information: z.object({}).optional(),
  }),
);

export const sessionParticipantDetailsSchema = lazy(() =>
  z.object({
    ...participantListFields(),
    preset_name: z.string(),
    peer_events: z.array(peerEventSchema()).optional(),
    peer_stats: peerStatsSchema().optional(),
    quality_stats: z.array(z.object({})).optional().meta({ description: 'Always empty: the emulator carries no media' }),
  }),
);

export const peerReportSchema = lazy(() =>
  z.object({
    ...participantListFields(),
    role: z.string().meta({ description: "The participant's preset name" }),
    peer_stats: peerStatsSchema().optional(),
    quality_stats: z.object({}).optional().meta({ description: 'Always empty: the emulator carries no media' }),
  }),
);

// --- the active session -------------------------------------------------------------------------

/** A participant as kick and mute answer them (production's SessionParticipant). */
export const kickedParticipantSchema = lazy(() =>
  z.object({
    id: z.string(),
    created_at: isoTime(),
    updated_at: isoTime(),
    name: z.string().optional(),
    picture: z.string().optional(),
  }),
);

const idList = lazy(() => z.array(z.string().min(1).max(LIMITS.clientIdMax)).max(LIMITS.perPageMax));

export const participantSelectorBody = lazy(() =>
  z
    .object({
      participant_ids: idList().optional(),
      custom_participant_ids: idList().optional(),
    })
    .superRefine((b, ctx) => {
      if ((b.participant_ids?.length ?? 0) + (b.custom_participant_ids?.length ?? 0) === 0) {
        ctx.addIssue({ code: 'custom', path: ['participant_ids'], message: 'or "custom_participant_ids" must name at least one participant' });
      }
    }),
);

export const muteAllBody = lazy(() =>
  z.object({
    allow_unmute: z.boolean().default(true).meta({ description: "false: participants can't unmute themselves" }),
  }),
);

export const pollBody = lazy(() =>
  z.object({
    question: z.string().min(1).max(SESSION_LIMITS.pollQuestionChars),
    options: z.array(z.string().min(1).max(SESSION_LIMITS.pollOptionChars)).min(1).max(SESSION_LIMITS.pollOptions),
    anonymous: z.boolean().default(false),
    hide_votes: z.boolean().default(false),
  }),
);

export const pollSchema = lazy(() =>
  z.object({
    id: z.string(),
    question: z.string(),
    options: z.array(z.object({ text: z.string(), count: z.number(), votes: z.array(z.object({ id: z.string(), name: z.string() })) })),
    anonymous: z.boolean(),
    hide_votes: z.boolean(),
    created_by: z.string(),
    voted: z.array(z.string()),
  }),
);

// --- session files --------------------------------------------------------------------------------

export const chatLinkSchema = lazy(() => z.object({ chat_download_url: z.string(), chat_download_url_expiry: isoTime() }));
export const transcriptLinkSchema = lazy(() =>
  z.object({ sessionId: z.string(), transcript_download_url: z.string(), transcript_download_url_expiry: isoTime() }),
);
export const summaryLinkSchema = lazy(() => z.object({ sessionId: z.string(), summaryDownloadUrl: z.string(), summaryDownloadUrlExpiry: isoTime() }));

// --- analytics ----------------------------------------------------------------------------------------

/** A calendar day, `YYYY-MM-DD` (UTC); impossible dates (02-30) are refused. */
const calendarDay = lazy(() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in YYYY-MM-DD format')
    .refine((v) => {
      const at = Date.parse(`${v}T00:00:00.000Z`);
      return !Number.isNaN(at) && new Date(at).toISOString().startsWith(v);
    }, 'must be a date in YYYY-MM-DD format'),
);

export const daywiseQuery = lazy(() =>
  z
    .object({
      start_date: calendarDay().optional().meta({ description: 'First day, YYYY-MM-DD (UTC); default 30 days before end_date' }),
      end_date: calendarDay().optional().meta({ description: 'Last day, YYYY-MM-DD (UTC), included; default today (emulator clock)' }),
    })
    .refine((q) => q.start_date === undefined || q.end_date === undefined || q.start_date <= q.end_date, {
      path: ['end_date'],
      message: 'must not be before "start_date"',
    }),
);

export const daywiseSchema = lazy(() =>
  z.object({
    session_stats: z.object({
      sessions_count: z.number().int(),
      sessions_minutes_consumed: z.number(),
      day_stats: z.array(z.object({ day: isoTime(), total_sessions: z.number().int(), total_session_minutes: z.number() })),
    }),
    recording_stats: z.object({
      recording_count: z.number().int(),
      recording_minutes_consumed: z.number(),
      day_stats: z.array(z.object({ day: isoTime(), total_recordings: z.number().int(), total_recording_minutes: z.number().int() })),
    }),
  }),
);
