// The organization's daywise analytics: sessions, session minutes and recording minutes per
// UTC day, computed from the session history and the recordings on the emulator's clock.
import { toIso } from '../../core/clock.js';
import { DAY_MS, utcDayOf } from '../../core/utc-days.js';
import { orgOf } from '../auth.js';
import { route } from '../route.js';
import { ok } from './mappers.js';
import { envelope } from './schemas.js';
import { daywiseQuery, daywiseSchema } from './sessions.schemas.js';

/** Without start_date, the range starts this many days before end_date (production's default). */
const DEFAULT_RANGE_DAYS = 30;

const midnight = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

export const orgAnalyticsRoutes = [
  route({
    method: 'get',
    path: '/v2/analytics/daywise',
    api: 'v2',
    auth: 'basic',
    tag: 'Analytics',
    summary: 'Fetch sessions, session minutes and recording minutes per day (start_date to end_date, UTC; default the last 30 days)',
    query: daywiseQuery,
    responses: { 200: { description: 'The figures, only days with something to count', schema: () => envelope(daywiseSchema()) } },
    handler: ({ deps, auth, query }) => {
      const today = utcDayOf(deps.clock.now());
      const last = query.end_date === undefined ? today : midnight(query.end_date);
      const first = query.start_date === undefined ? last - DEFAULT_RANGE_DAYS * DAY_MS : midnight(query.start_date);
      const figures = deps.services.sessionHistory.daywise(orgOf(auth).id, first, last + DAY_MS);
      return ok({
        session_stats: {
          sessions_count: figures.sessions.count,
          sessions_minutes_consumed: figures.sessions.minutes,
          day_stats: figures.sessions.days.map((d) => ({ day: toIso(d.day), total_sessions: d.count, total_session_minutes: d.minutes })),
        },
        recording_stats: {
          recording_count: figures.recordings.count,
          recording_minutes_consumed: figures.recordings.minutes,
          // Production types a day's recording minutes as an integer (its total keeps the fraction).
          day_stats: figures.recordings.days.map((d) => ({ day: toIso(d.day), total_recordings: d.count, total_recording_minutes: Math.round(d.minutes) })),
        },
      });
    },
  }),
];
