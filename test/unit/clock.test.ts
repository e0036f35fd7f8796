// Time-scale arithmetic of the real clock, with an injected real-time reader: nothing here
// waits on real time.
import { describe, expect, it } from 'vitest';
import { ManualClock, SystemClock, toIso } from '../../src/core/clock.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

/** A fake wall clock the test moves by hand. */
function fakeReal(at = 1_700_000_000_000) {
  let now = at;
  return { read: () => now, pass: (ms: number) => void (now += ms) };
}

describe('SystemClock (real mode)', () => {
  it.each([
    // scale, real ms passed, emulated ms passed
    [1, 1_000, 1_000],
    [60, 1_000, 60_000],
    [60, 250, 15_000],
    [3_600, 1_000, 3_600_000],
    [0.5, 1_000, 500],
    [0.5, 3, 1], // floor: emulated time never runs ahead of the scale
    [1.5, 1, 1],
  ])('at scale %d, %d real ms move the emulated clock %d ms', (scale, realMs, emulatedMs) => {
    const real = fakeReal();
    const clock = new SystemClock(scale, START, real.read);
    expect(clock.now()).toBe(START);
    real.pass(realMs);
    expect(clock.now()).toBe(START + emulatedMs);
  });

  it('starts at the wall-clock time when no start time is given', () => {
    const real = fakeReal(1_767_225_600_123);
    const clock = new SystemClock(60, undefined, real.read);
    expect(clock.now()).toBe(1_767_225_600_123);
    real.pass(2_000);
    expect(clock.now()).toBe(1_767_225_600_123 + 120_000);
  });

  it.each([
    // scale, emulated ms until the job, real ms to wait
    [1, 5_000, 5_000],
    [60, 60_000, 1_000],
    [60, 3_000, 50],
    [60, 1, 1], // ceil: the timer never fires before the job is due
    [0.5, 1_000, 2_000],
    [60, -5_000, 0], // already due
  ])('at scale %d, a job %d emulated ms ahead is %d real ms away', (scale, ahead, realWait) => {
    const real = fakeReal();
    const clock = new SystemClock(scale, START, real.read);
    expect(clock.realDelayUntil(START + ahead)).toBe(realWait);
  });

  it('fires no earlier than due: after waiting realDelayUntil, now() has reached the job', () => {
    const real = fakeReal();
    const clock = new SystemClock(7, START, real.read);
    const due = START + 1_000;
    real.pass(clock.realDelayUntil(due));
    expect(clock.now()).toBeGreaterThanOrEqual(due);
  });

  it('set() jumps (advance in real mode) and time keeps flowing at the scale from there', () => {
    const real = fakeReal();
    const clock = new SystemClock(60, START, real.read);
    real.pass(1_000);
    clock.set(START + 3_600_000);
    expect(clock.now()).toBe(START + 3_600_000);
    real.pass(500);
    expect(clock.now()).toBe(START + 3_600_000 + 30_000);
  });

  it('reset() returns to the start time, anchored at the current real time', () => {
    const real = fakeReal();
    const clock = new SystemClock(60, START, real.read);
    real.pass(10_000);
    clock.set(START + 99_999_999);
    clock.reset();
    expect(clock.now()).toBe(START);
    real.pass(1_000);
    expect(clock.now()).toBe(START + 60_000);
  });

  it.each([0, -1, Number.NaN])('refuses time scale %d', (scale) => {
    expect(() => new SystemClock(scale, START, () => 0)).toThrow('timeScale must be > 0');
  });

  it('is in real mode', () => {
    expect(new SystemClock(1, START, () => 0).mode).toBe('real');
  });
});

describe('ManualClock', () => {
  it('moves only when set, never fires by itself, and resets to its start', () => {
    const clock = new ManualClock(START);
    expect(clock.mode).toBe('manual');
    expect(clock.now()).toBe(START);
    expect(clock.realDelayUntil(START + 1)).toBe(Number.POSITIVE_INFINITY);
    clock.set(START + 42);
    expect(clock.now()).toBe(START + 42);
    clock.reset();
    expect(clock.now()).toBe(START);
  });
});

describe('toIso', () => {
  it('renders epoch ms as ISO 8601 UTC with milliseconds', () => {
    expect(toIso(START + 3_007)).toBe('2026-01-01T00:00:03.007Z');
  });

  it('writes each time anew, the same time twice in a row and after another', () => {
    expect(toIso(START)).toBe('2026-01-01T00:00:00.000Z');
    expect(toIso(START)).toBe('2026-01-01T00:00:00.000Z');
    expect(toIso(START + 1)).toBe('2026-01-01T00:00:00.001Z');
    expect(toIso(START)).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses a time that is not one, also right after a good one', () => {
    expect(toIso(START)).toBe('2026-01-01T00:00:00.000Z');
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
    expect(() => toIso(8.64e15 + 1)).toThrow(RangeError);
    expect(toIso(START)).toBe('2026-01-01T00:00:00.000Z');
  });
});
