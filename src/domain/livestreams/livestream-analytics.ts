// Livestream analytics as pure sums over livestream sessions (GET /v2/analytics/livestreams/...).
// Emulator decisions: a session counts once, in full, on the UTC day it started (a session still
// LIVE counts up to `now`); every session is one livestream in `count`; viewer seconds are the
// ingest seconds times the simulated viewers.
import type { LivestreamSession } from '../models.js';
import { sessionIngestSeconds } from './livestream-machine.js';

export interface LivestreamTotals {
  count: number;
  ingestSeconds: number;
  viewerSeconds: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

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
  const byDay = new Map<number, LivestreamSession[]>();
  for (const s of sessions) {
    const day = Math.floor(s.startedTime / DAY_MS) * DAY_MS;
    const list = byDay.get(day);
    if (list) list.push(s);
    else byDay.set(day, [s]);
  }
  return [...byDay.keys()].sort((a, b) => a - b).map((day) => ({ day, ...livestreamTotals(byDay.get(day)!, now, viewers) }));
}
