// The real-time helpers (where a manual clock starts, and the wait behind injected latency) and
// the random id generator's position, which a state export saves and an import puts back.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { realNowWholeSecond, realSleep } from '../../src/core/clock.js';
import { RandomIds } from '../../src/core/ids.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('real time', () => {
  it('realNowWholeSecond is the wall clock cut to its whole second, never ahead of it', () => {
    vi.useFakeTimers({ now: 1_700_000_000_999 });
    expect(realNowWholeSecond()).toBe(1_700_000_000_000);
    vi.setSystemTime(1_700_000_001_000);
    expect(realNowWholeSecond()).toBe(1_700_000_001_000);
  });

  it('realSleep resolves after the time asked for, and not before', async () => {
    vi.useFakeTimers({ now: 0 });
    let done = false;
    const sleeping = realSleep(250).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(249);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(done).toBe(true);
  });
});

describe('RandomIds', () => {
  it('counts its draws; a saved position is put back, and counting goes on from it', () => {
    const ids = new RandomIds();
    expect(ids.position()).toBe(0);
    ids.uuid();
    ids.token(10);
    expect(ids.position()).toBe(2);
    ids.setPosition(40);
    expect(ids.position()).toBe(40);
    ids.uuid();
    expect(ids.position()).toBe(41);
    ids.reset();
    expect(ids.position()).toBe(0);
  });

  it('hands out distinct version-4 UUIDs, also past the pool of 256 it draws at once', () => {
    const ids = new RandomIds();
    const uuids = Array.from({ length: 600 }, () => ids.uuid());
    expect(new Set(uuids).size).toBe(600);
    for (const u of uuids) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
