// The scheduler against a plain model of what it promises: jobs run in time order, jobs due at
// the same time in the order they were scheduled, scheduling a taken key replaces that job,
// and a cancelled job never runs. fast-check makes the sequences (seeded, so a failure replays);
// the model is a list sorted on every step, which is slow but plainly right.
import fc from 'fast-check';
import { describe, expect, it, vi, afterEach } from 'vitest';
import { z } from 'zod';
import { ManualClock, SystemClock } from '../../src/core/clock.js';
import { defineJob } from '../../src/core/jobs.js';
import { RealTimeDriver, Scheduler } from '../../src/core/scheduler.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const TICK = defineJob({
  kind: 'tick',
  payload: z.object({ name: z.string(), org: z.string() }).strict(),
  key: ({ name }: { name: string }) => name,
  orgId: ({ org }) => org,
});

type Step =
  { op: 'schedule'; name: string; org: string; at: number } | { op: 'cancel'; name: string } | { op: 'cancelOrg'; org: string } | { op: 'advance'; by: number };

const name = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l');
const org = fc.constantFrom('org-1', 'org-2');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('schedule' as const), name, org, at: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), name }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cancelOrg' as const), org }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('advance' as const), by: fc.integer({ min: 0, max: 15 }) }) },
);

describe('Scheduler, as a model says', () => {
  it('runs, lists and drops jobs exactly as a time-ordered list of the pending ones would', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const clock = new ManualClock(START);
        const scheduler = new Scheduler(clock);
        const ran: string[] = [];
        scheduler.handle(TICK, (p) => ran.push(`${p.name}@${clock.now() - START}`));
        // The model: pending jobs with the order they were scheduled in.
        let model: { name: string; org: string; at: number; seq: number }[] = [];
        let seq = 0;
        const expected: string[] = [];
        const ordered = () => [...model].sort((x, y) => x.at - y.at || x.seq - y.seq);
        for (const s of steps) {
          const now = clock.now() - START;
          if (s.op === 'schedule') {
            const at = now + s.at;
            scheduler.schedule(TICK, { name: s.name, org: s.org }, START + at);
            model = model.filter((j) => j.name !== s.name);
            model.push({ name: s.name, org: s.org, at, seq: seq++ });
          } else if (s.op === 'cancel') {
            const had = model.some((j) => j.name === s.name);
            expect(scheduler.cancel(TICK, { name: s.name })).toBe(had);
            model = model.filter((j) => j.name !== s.name);
          } else if (s.op === 'cancelOrg') {
            const dropped = model.filter((j) => j.org === s.org).length;
            expect(scheduler.cancelOrg(s.org)).toBe(dropped);
            model = model.filter((j) => j.org !== s.org);
          } else {
            const target = now + s.by;
            const due = ordered().filter((j) => j.at <= target);
            expect(scheduler.advanceTo(START + target)).toBe(due.length);
            for (const j of due) expected.push(`${j.name}@${j.at}`);
            model = model.filter((j) => j.at > target);
          }
          expect(scheduler.list().map((j) => `${j.key}@${j.at - START}`)).toEqual(ordered().map((j) => `${j.name}@${j.at}`));
          expect(scheduler.nextAt()).toBe(model.length ? START + ordered()[0]!.at : undefined);
          for (const j of model) expect(scheduler.has(TICK, { name: j.name })).toBe(true);
        }
        expect(ran).toEqual(expected);
      }),
      { seed: 17, numRuns: 300 },
    );
  });

  it('a restored list runs in the order it was saved, and new jobs after it at the same time', () => {
    const clock = new ManualClock(START);
    const scheduler = new Scheduler(clock);
    const ran: string[] = [];
    scheduler.handle(TICK, (p) => ran.push(p.name));
    for (const [n, at] of [
      ['late', 9],
      ['first', 1],
      ['tie-1', 5],
      ['tie-2', 5],
      ['tie-3', 5],
    ] as const)
      scheduler.schedule(TICK, { name: n, org: 'o' }, START + at);
    const saved = scheduler.list();
    const again = new Scheduler(clock);
    again.handle(TICK, (p) => ran.push(p.name));
    again.restore([...saved].reverse());
    again.schedule(TICK, { name: 'tie-new', org: 'o' }, START + 5);
    expect(again.runDue(START + 4)).toBe(1);
    expect(again.runDue(START + 4)).toBe(0);
    again.advanceTo(START + 10);
    expect(ran).toEqual(['first', 'tie-1', 'tie-2', 'tie-3', 'tie-new', 'late']);
  });

  it('tells its listeners when jobs ran or changed, and not when runDue found nothing due', () => {
    const clock = new ManualClock(START);
    const scheduler = new Scheduler(clock);
    scheduler.handle(TICK, () => {});
    let changes = 0;
    scheduler.onChange(() => (changes += 1));
    scheduler.schedule(TICK, { name: 'x', org: 'o' }, START + 10);
    expect(changes).toBe(1);
    expect(scheduler.runDue(START + 5)).toBe(0);
    expect(changes).toBe(1);
    expect(scheduler.runDue(START + 10)).toBe(1);
    expect(changes).toBe(2);
    expect(scheduler.cancelOrg('nobody')).toBe(0);
    expect(changes).toBe(2);
  });

  // The real-time driver re-arms its timer on every change, and the dashboard's clock feed
  // listens too: dropping an organization's jobs (its reset) or a kind's is a change.
  it('tells its listeners when cancelOrg or cancelKind dropped jobs', () => {
    const clock = new ManualClock(START);
    const scheduler = new Scheduler(clock);
    scheduler.handle(TICK, () => {});
    scheduler.schedule(TICK, { name: 'x', org: 'org-1' }, START + 10);
    scheduler.schedule(TICK, { name: 'y', org: 'org-2' }, START + 20);
    let changes = 0;
    scheduler.onChange(() => (changes += 1));
    expect(scheduler.cancelOrg('org-1')).toBe(1);
    expect(changes).toBe(1);
    expect(scheduler.cancelKind(TICK)).toBe(1);
    expect(changes).toBe(2);
    expect(scheduler.nextAt()).toBeUndefined();
  });
});

describe('RealTimeDriver, started and stopped', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function realTime() {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const clock = new SystemClock(1, START, () => Date.now());
    const scheduler = new Scheduler(clock);
    const fired: string[] = [];
    scheduler.handle(TICK, (p) => fired.push(p.name));
    return { clock, scheduler, fired, driver: new RealTimeDriver(scheduler, clock) };
  }

  it('a stopped driver fires nothing and holds no timer; started again, it fires what is due', () => {
    const { scheduler, fired, driver } = realTime();
    driver.start();
    scheduler.schedule(TICK, { name: 'soon', org: 'o' }, START + 1_000);
    expect(vi.getTimerCount()).toBe(1);
    driver.stop();
    expect(vi.getTimerCount()).toBe(0);
    scheduler.schedule(TICK, { name: 'later', org: 'o' }, START + 2_000);
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([]);
    driver.start();
    vi.advanceTimersByTime(0);
    expect(fired).toEqual(['soon', 'later']);
    driver.stop();
  });

  it('an earlier job scheduled while a timer is armed fires at its own time', () => {
    const { scheduler, fired, driver } = realTime();
    driver.start();
    scheduler.schedule(TICK, { name: 'late', org: 'o' }, START + 10_000);
    scheduler.schedule(TICK, { name: 'early', org: 'o' }, START + 1_000);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual(['early']);
    vi.advanceTimersByTime(9_000);
    expect(fired).toEqual(['early', 'late']);
    driver.stop();
  });

  it('a job further away than a timer can wait (about 24.8 days) fires at its time, not before', () => {
    const { scheduler, fired, driver } = realTime();
    driver.start();
    const days30 = 30 * 24 * 60 * 60 * 1000;
    scheduler.schedule(TICK, { name: 'month', org: 'o' }, START + days30);
    vi.advanceTimersByTime(days30 - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['month']);
    driver.stop();
  });
});
