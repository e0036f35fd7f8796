// Livestream sessions, and the livestream reads and lists that carry them → v2 wire shapes.
// `now` counts the ingest of a session still LIVE; `viewers` is what HLS clients watched, or, for a
// session nobody fetched, the simulated audience (ingest_seconds × viewers; docs/livestreams.md).
import type { z } from 'zod';
import { toIso } from '../../core/clock.js';
import type { LivestreamTotals } from '../../domain/livestreams/livestream-analytics.js';
import { sessionIngestSeconds } from '../../domain/livestreams/livestream-machine.js';
import { sessionViewerSeconds, type ViewerFigure } from '../../domain/livestreams/livestream-viewers.js';
import type { LivestreamWithSession } from '../../domain/livestreams/livestreams.service.js';
import type { MediaLinks } from '../../domain/media/media-links.js';
import type { Livestream, LivestreamSession } from '../../domain/models.js';
import type { Page } from '../../domain/paging.js';
import { livestreamDto, pagingDto } from './mappers.js';
import type {
  activeLivestreamSessionSchema,
  livestreamDaywiseSchema,
  livestreamDetailSchema,
  livestreamListSchema,
  livestreamOverallSchema,
  livestreamSessionPageSchema,
  livestreamSessionSchema,
} from './livestreams.schemas.js';

export interface SessionClock {
  now: number;
  viewers: ViewerFigure;
}

export function livestreamSessionDto(s: LivestreamSession, at: SessionClock): z.infer<ReturnType<typeof livestreamSessionSchema>> {
  const ingest = sessionIngestSeconds(s, at.now);
  return {
    id: s.id,
    livestream_id: s.livestreamId,
    ...(s.errMessage === null ? {} : { err_message: s.errMessage }),
    ...(s.invokedTime === null ? {} : { invoked_time: toIso(s.invokedTime) }),
    started_time: toIso(s.startedTime),
    ...(s.stoppedTime === null ? {} : { stopped_time: toIso(s.stoppedTime) }),
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
    ingest_seconds: ingest,
    viewer_seconds: sessionViewerSeconds(s, at.now, at.viewers),
  };
}

export function livestreamListDto(
  page: Page<Livestream>,
  newest: LivestreamSession | undefined,
  media: MediaLinks,
  at: SessionClock,
): z.infer<ReturnType<typeof livestreamListSchema>> {
  return {
    livestreams: page.items.map((l) => livestreamDto(l, media)),
    ...(newest ? { session: livestreamSessionDto(newest, at) } : {}),
    paging: pagingDto(page),
  };
}

export function livestreamDetailDto(
  { livestream, session }: LivestreamWithSession,
  sessions: Page<LivestreamSession>,
  media: MediaLinks,
  at: SessionClock,
): z.infer<ReturnType<typeof livestreamDetailSchema>> {
  return {
    livestream: livestreamDto(livestream, media),
    ...(session ? { session: livestreamSessionDto(session, at) } : {}),
    sessions: sessions.items.map((s) => livestreamSessionDto(s, at)),
    paging: pagingDto(sessions),
  };
}

export function activeLivestreamSessionDto(
  { livestream, session }: { livestream: Livestream; session: LivestreamSession },
  media: MediaLinks,
  at: SessionClock,
): z.infer<ReturnType<typeof activeLivestreamSessionSchema>> {
  return { livestream: livestreamDto(livestream, media), session: livestreamSessionDto(session, at) };
}

export function livestreamSessionPageDto(page: Page<LivestreamSession>, at: SessionClock): z.infer<ReturnType<typeof livestreamSessionPageSchema>> {
  return { data: page.items.map((s) => livestreamSessionDto(s, at)), paging: pagingDto(page) };
}

function totalsDto(t: LivestreamTotals) {
  return { count: t.count, total_ingest_seconds: t.ingestSeconds, total_viewer_seconds: t.viewerSeconds };
}

export function livestreamOverallDto(t: LivestreamTotals): z.infer<ReturnType<typeof livestreamOverallSchema>> {
  return totalsDto(t);
}

export function livestreamDaywiseDto(days: ReadonlyArray<{ day: number } & LivestreamTotals>): z.infer<ReturnType<typeof livestreamDaywiseSchema>> {
  return days.map((d) => ({ date: toIso(d.day), ...totalsDto(d) }));
}
