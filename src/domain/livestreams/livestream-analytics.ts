// Livestream analytics as pure sums over livestream sessions (GET /v2/analytics/livestreams/...).
// Emulator decisions: a session counts once, in full, on the UTC day it started (a session still
// LIVE counts up to `now`); every session is one livestream in `count`; viewer seconds are what its
// HLS clients watched, or the ingest seconds times the simulated viewers (livestream-viewers.ts).
import { groupByUtcDay } from '../../core/utc-days.js';
import type { LivestreamSession } from '../models.js';
import { sessionIngestSeconds } from './livestream-machine.js';
import { sessionViewerSeconds, type ViewerFigure } from './livestream-viewers.js';

export interface LivestreamTotals {
  count: number;
  ingestSeconds: number;
  viewerSeconds: number;
}

export function livestreamTotals(sessions: readonly LivestreamSession[], now: number, viewers: ViewerFigure): LivestreamTotals {
  const totals: LivestreamTotals = { count: 0, ingestSeconds: 0, viewerSeconds: 0 };
  for (const s of sessions) {
    const ingest = sessionIngestSeconds(s, now);
    totals.count += 1;
    totals.ingestSeconds += ingest;
    totals.viewerSeconds += sessionViewerSeconds(s, now, viewers);
  }
  return totals;
}

/** The totals of each UTC day on which a session started (days without one are left out), oldest first. */
export function livestreamTotalsByDay(sessions: readonly LivestreamSession[], now: number, viewers: ViewerFigure): Array<{ day: number } & LivestreamTotals> {
  return groupByUtcDay(sessions, (s) => s.startedTime).map(({ day, items }) => ({ day, ...livestreamTotals(items, now, viewers) }));
}
