import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, SystemClock } from '../../src/core/clock.js';
import { RealTimeDriver, Scheduler } from '../../src/core/scheduler.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

function setup() {
  const clock = new ManualClock(START);
  const errors: unknown[] = [];
  const scheduler = new Scheduler(clock, (err) => errors.push(err));
  const ran: { key: string; at: number; now: number }[] = [];
  scheduler.handle('log', (_p, job) => ran.push({ key: job.key, at: job.at, now: clock.now() }));
  return { clock, scheduler, ran, errors };
}

describe('Scheduler', () => {
  it('runs jobs in time order, each seeing the clock at its own due time', () => {
    const { scheduler, ran, clock } = setup();
    scheduler.schedule('c', START + 3_000, 'log');
    scheduler.schedule('a', START + 1_000, 'log');
    scheduler.schedule('b', START + 2_000, 'log');
    expect(scheduler.advanceTo(START + 10_000)).toBe(3);
    expect(ran).toEqual([
      { key: 'a', at: START + 1_000, now: START + 1_000 },
      { key: 'b', at: START + 2_000, now: START + 2_000 },
      { key: 'c', at: START + 3_000, now: START + 3_000 },
    ]);
    expect(clock.now()).toBe(START + 10_000);
  });

  it('runs jobs due at the same time in the order they were scheduled', () => {
    const { scheduler, ran } = setup();
    for (const key of ['x', 'y', 'z', 'w']) scheduler.schedule(key, START + 500, 'log');
    scheduler.advanceTo(START + 500);
    expect(ran.map((r) => r.key)).toEqual(['x', 'y', 'z', 'w']);
  });

  it('runs a job due exactly at the target, but not one a millisecond later', () => {
    const { scheduler, ran } = setup();
    scheduler.schedule('due', START + 1_000, 'log');
    scheduler.schedule('later', START + 1_001, 'log');
    expect(scheduler.advanceTo(START + 1_000)).toBe(1);
    expect(ran.map((r) => r.key)).toEqual(['due']);
    expect(scheduler.list().map((j) => j.key)).toEqual(['later']);
  });

  it('scheduling the same key again replaces the job; cancel drops it', () => {
    const { scheduler, ran } = setup();
    scheduler.schedule('k', START + 1_000, 'log');
    scheduler.schedule('k', START + 5_000, 'log');
    scheduler.schedule('gone', START + 2_000, 'log');
    expect(scheduler.cancel('gone')).toBe(true);
    expect(scheduler.cancel('gone')).toBe(false);
    scheduler.advanceTo(START + 10_000);
    expect(ran).toEqual([{ key: 'k', at: START + 5_000, now: START + 5_000 }]);
  });

  it('runs jobs that jobs schedule within the same advance, when they fall due', () => {
    const { scheduler, clock } = setup();
    const seen: number[] = [];
    scheduler.handle('chain', (p) => {
      seen.push(clock.now());
      const left = p.left as number;
      if (left > 0) scheduler.schedule(`chain-${left}`, clock.now() + 1_000, 'chain', { left: left - 1 });
    });
    scheduler.schedule('chain-start', START + 1_000, 'chain', { left: 3 });
    expect(scheduler.advanceTo(START + 3_500)).toBe(3);
    expect(seen).toEqual([START + 1_000, START + 2_000, START + 3_000]);
    expect(scheduler.list().map((j) => j.at)).toEqual([START + 4_000]);
  });

  it('keeps going when a handler throws, reporting the error', () => {
    const { scheduler, ran, errors } = setup();
    scheduler.handle('boom', () => {
      throw new Error('boom');
    });
    scheduler.schedule('a', START + 1, 'boom');
    scheduler.schedule('b', START + 2, 'log');
    scheduler.schedule('c', START + 3, 'unknown-kind');
    expect(scheduler.advanceTo(START + 10)).toBe(3);
    expect(ran.map((r) => r.key)).toEqual(['b']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom', 'no handler for job kind unknown-kind']);
  });

  it('keeps heap order under many inserts and removals', () => {
    const { scheduler, ran } = setup();
    const times = [50, 10, 40, 30, 20, 90, 60, 80, 70, 0];
    times.forEach((t, i) => scheduler.schedule(`j${i}`, START + t, 'log'));
    scheduler.cancel('j2'); // 40
    scheduler.cancel('j7'); // 80
    scheduler.advanceTo(START + 100);
    expect(ran.map((r) => r.at - START)).toEqual([0, 10, 20, 30, 50, 60, 70, 90]);
  });

  it('reset drops every job; list and restore round-trip pending jobs', () => {
    const { scheduler, ran } = setup();
    scheduler.schedule('a', START + 2, 'log', { n: 1 });
    scheduler.schedule('b', START + 1, 'log', { n: 2 });
    const saved = scheduler.list();
    expect(saved.map((j) => [j.key, j.at, j.payload])).toEqual([
      ['b', START + 1, { n: 2 }],
      ['a', START + 2, { n: 1 }],
    ]);
    scheduler.reset();
    expect(scheduler.nextAt()).toBeUndefined();
    scheduler.restore(saved);
    scheduler.advanceTo(START + 5);
    expect(ran.map((r) => r.key)).toEqual(['b', 'a']);
  });
});

describe('RealTimeDriver', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires a job after the real delay the time scale gives, and not before', () => {
    // Fake timers: the driver's setTimeout and the clock's wall-clock reader move together,
    // by hand. Nothing waits on real time.
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const clock = new SystemClock(60, START, () => Date.now());
    const scheduler = new Scheduler(clock);
    const fired: number[] = [];
    scheduler.handle('log', () => fired.push(clock.now()));
    const driver = new RealTimeDriver(scheduler, clock);
    driver.start();
    scheduler.schedule('minute', START + 60_000, 'log'); // one emulated minute = one real second
    vi.advanceTimersByTime(999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([START + 60_000]);
    driver.stop();
  });

  it('does nothing on a manual clock', () => {
    vi.useFakeTimers({ now: 0 });
    const clock = new ManualClock(START);
    const scheduler = new Scheduler(clock);
    const fired: number[] = [];
    scheduler.handle('log', () => fired.push(clock.now()));
    new RealTimeDriver(scheduler, clock).start();
    scheduler.schedule('x', START + 1, 'log');
    vi.advanceTimersByTime(10 * 60_000);
    expect(fired).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
