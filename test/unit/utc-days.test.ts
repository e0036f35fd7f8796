// Per-day analytics group items by the UTC calendar day they happened on, oldest day first,
// whatever order the items come in.
import { describe, expect, it } from 'vitest';
import { groupByUtcDay, utcDayOf } from '../../src/core/utc-days.js';

const at = (iso: string) => Date.parse(iso);

describe('groupByUtcDay', () => {
  it('lists days oldest first even when the items are not in time order', () => {
    const items = ['2026-01-03T10:00:00Z', '2026-01-01T23:59:59.999Z', '2026-01-03T00:00:00Z', '2026-01-02T00:00:00Z'].map(at);
    const days = groupByUtcDay(items, (ms) => ms);
    expect(days.map((d) => new Date(d.day).toISOString())).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z']);
    expect(days[2]!.items).toEqual([at('2026-01-03T10:00:00Z'), at('2026-01-03T00:00:00Z')]);
  });

  it('puts the last millisecond of a day on that day and midnight on the next', () => {
    expect(utcDayOf(at('2026-01-01T23:59:59.999Z'))).toBe(at('2026-01-01T00:00:00Z'));
    expect(utcDayOf(at('2026-01-02T00:00:00Z'))).toBe(at('2026-01-02T00:00:00Z'));
  });
});
