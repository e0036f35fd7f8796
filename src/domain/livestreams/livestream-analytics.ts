// Livestream analytics as pure sums over livestream sessions (GET /v2/analytics/livestreams/...).
// Emulator decisions: a session counts once, in full, on the UTC day it started (a session still
// LIVE counts up to `now`); every session is one livestream in `count`; viewer seconds are the
// ingest seconds times the simulated viewers.
import { groupByUtcDay } from '../../core/utc-days.js';
import type { LivestreamSession } from '../models.js';
import { sessionIngestSeconds } from './livestream-machine.js';

export interface LivestreamTotals {
  count: number;
  ingestSeconds: number;
  viewerSeconds: number;
}

export function livestreamTotals(sessions: readonly LivestreamSession[], now: number, viewers: number): LivestreamTotals {
  const totals: LivestreamTotals = { count: 0, ingestSeconds: 0, viewerSeconds: 0 };
  for (const s of sessions) {
    const ingest = sessionIngestSeconds(s, now);
    totals.count += 1;
    totals.ingestSeconds += ingest;
    totals.viewerSeconds += ingest * viewers;
  }
  return totals;
}

/** The totals of each UTC day on which a session started (days without one are left out), oldest first. */
export function livestreamTotalsByDay(sessions: readonly LivestreamSession[], now: number, viewers: number): Array<{ day: number } & LivestreamTotals> {
  return groupByUtcDay(sessions, (s) => s.startedTime).map(({ day, items }) => ({ day, ...livestreamTotals(items, now, viewers) }));
}
