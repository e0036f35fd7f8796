// Calendar days in UTC, for the per-day analytics: the day an instant falls on, and items grouped
// by the day they happened on.

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of the day `ms` falls on (epoch ms). */
export function utcDayOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Items grouped by the UTC day of `at(item)`, oldest day first; days without an item are left out. */
export function groupByUtcDay<T>(items: readonly T[], at: (item: T) => number): Array<{ day: number; items: T[] }> {
  const days = new Map<number, T[]>();
  for (const item of items) {
    const day = utcDayOf(at(item));
    const list = days.get(day);
    if (list) list.push(item);
    else days.set(day, [item]);
  }
  return [...days.keys()].sort((a, b) => a - b).map((day) => ({ day, items: days.get(day)! }));
}
