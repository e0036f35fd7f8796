// v2 wire schemas of livestream sessions, the livestream lists and reads that carry them, and the
// livestream analytics. The livestream object itself is livestreamSchema (schemas.ts).
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { isoInstant } from '../../core/iso-time.js';
import { isoTime, livestreamName, livestreamSchema, pageQuery, pagingSchema } from './schemas.js';

// --- requests -----------------------------------------------------------------------------

export const createIndependentLivestreamBody = lazy(() => z.object({ name: livestreamName() }));

/** A query flag as production spells it: `true` or `false`. */
const queryFlag = lazy(() => z.enum(['true', 'false']).transform((v) => v === 'true'));

export const livestreamListQuery = lazy(() =>
  pageQuery().extend({
    exclude_meetings: queryFlag().default(false).meta({ description: 'true: only livestreams of their own (no meeting)' }),
    // INVOKED is in production's list; the emulator never reports it, so it matches nothing. OFFLINE is what the emulator reports for a livestream waiting for ingest or stopped.
    status: z.enum(['LIVE', 'IDLE', 'ERRORED', 'INVOKED', 'OFFLINE']).optional(),
    start_time: isoInstant.optional().meta({ description: 'Created at or after' }),
    end_time: isoInstant.optional().meta({ description: 'Created at or before' }),
    // Production spells descending DSC; DESC (the other lists' spelling) is accepted too.
    sort_order: z.enum(['ASC', 'DSC', 'DESC']).default('DSC').meta({ description: 'By creation time' }),
  }),
);

export const analyticsRangeQuery = lazy(() =>
  z.object({
    start_time: isoInstant.optional().meta({ description: 'Sessions started at or after' }),
    end_time: isoInstant.optional().meta({ description: 'Sessions started at or before' }),
  }),
);

// --- responses ----------------------------------------------------------------------------

// Emulator decision: what is not known yet (no error, not invoked by an API call, still running)
// is left out rather than sent as null, which most of production's schemas do not allow.
export const livestreamSessionSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    livestream_id: z.uuid(),
    err_message: z.string().optional(),
    invoked_time: isoTime().optional(),
    started_time: isoTime(),
    stopped_time: isoTime().optional(),
    created_at: isoTime(),
    updated_at: isoTime(),
    ingest_seconds: z.number().int(),
    viewer_seconds: z.number().int(),
  }),
);

const newestSession = lazy(() =>
  livestreamSessionSchema().optional().meta({ description: 'The newest livestream session of these livestreams; absent before any went LIVE' }),
);

/** GET /v2/livestreams and GET /v2/meetings/{meeting_id}/livestream. */
export const livestreamListSchema = lazy(() =>
  z.object({
    livestreams: z.array(livestreamSchema()),
    session: newestSession(),
    paging: pagingSchema(),
  }),
);

/** GET /v2/livestreams/{livestream_id}: the livestream, its current or last session, and a page of its sessions. */
export const livestreamDetailSchema = lazy(() =>
  z.object({
    livestream: livestreamSchema(),
    session: livestreamSessionSchema().optional().meta({ description: 'The current or last session; absent before it first went LIVE' }),
    sessions: z.array(livestreamSessionSchema()).meta({ description: 'Its sessions, newest first, paged' }),
    paging: pagingSchema(),
  }),
);

export const activeLivestreamSessionSchema = lazy(() => z.object({ livestream: livestreamSchema(), session: livestreamSessionSchema() }));

/** GET /v2/sessions/{session_id}/livestream-sessions, shaped as production's example. */
export const livestreamSessionPageSchema = lazy(() => z.object({ data: z.array(livestreamSessionSchema()), paging: pagingSchema() }));

const totals = lazy(() => ({
  count: z.number().int().meta({ description: 'Livestream sessions started in the range' }),
  total_ingest_seconds: z.number().int(),
  total_viewer_seconds: z.number().int(),
}));

export const livestreamOverallSchema = lazy(() => z.object(totals()));

export const livestreamDaywiseSchema = lazy(() => z.array(z.object({ date: isoTime().meta({ description: 'The UTC day, at midnight' }), ...totals() })));
