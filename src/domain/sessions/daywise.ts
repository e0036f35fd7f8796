// The organization's day-by-day figures (GET /v2/analytics/daywise), computed from the session
// history and the recordings: per UTC day, how many sessions started and their minutes, how
// many recordings were started and their recorded minutes. Only days with something to count
// are listed, oldest first, as production's example shows.
import { groupByUtcDay } from '../../core/utc-days.js';
import type { Recording, Session } from '../models.js';
import { recordedMsAt } from '../recordings/recording-machine.js';
import { minutesOf, roundMinutes, sessionMinutes } from './session-rules.js';

export interface DayCount {
  /** Midnight UTC of the day, epoch ms. */
  day: number;
  count: number;
  minutes: number;
}

export interface Daywise {
  sessions: { count: number; minutes: number; days: DayCount[] };
  recordings: { count: number; minutes: number; days: DayCount[] };
}

function byDay<T>(items: readonly T[], at: (item: T) => number, minutes: (item: T) => number): { count: number; minutes: number; days: DayCount[] } {
  const list = groupByUtcDay(items, at).map(({ day, items: onDay }) => ({
    day,
    count: onDay.length,
    minutes: roundMinutes(onDay.reduce((sum, item) => sum + minutes(item), 0)),
  }));
  return { count: items.length, minutes: roundMinutes(list.reduce((sum, d) => sum + d.minutes, 0)), days: list };
}

/**
 * Sessions count on the day they started, with their participant-minutes (a LIVE one up to
 * `now`); recordings on the day they were started (invoked), with the minutes recorded so far.
 * `from` and `to` are midnights UTC; `to` is excluded.
 */
export function daywise(sessions: readonly Session[], recordings: readonly Recording[], from: number, to: number, now: number): Daywise {
  const inRange = (at: number) => at >= from && at < to;
  return {
    sessions: byDay(
      sessions.filter((s) => inRange(s.startedAt)),
      (s) => s.startedAt,
      (s) => sessionMinutes(s, now),
    ),
    recordings: byDay(
      recordings.filter((r) => inRange(r.invokedTime)),
      (r) => r.invokedTime,
      (r) => minutesOf(recordedMsAt(r, now)),
    ),
  };
}
