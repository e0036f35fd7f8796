import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ManualClock, SystemClock } from '../../src/core/clock.js';
import { defineJob } from '../../src/core/jobs.js';
import { RealTimeDriver, Scheduler } from '../../src/core/scheduler.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

/** A job whose key is its payload's `name`. */
const LOG = defineJob({
  kind: 'log',
  payload: z.object({ name: z.string(), n: z.number().optional() }).strict(),
  key: ({ name }: { name: string }) => name,
  orgId: () => null,
});

function setup() {
  const clock = new ManualClock(START);
  const errors: unknown[] = [];
  const scheduler = new Scheduler(clock, (err) => errors.push(err));
  const ran: { key: string; at: number; now: number }[] = [];
  scheduler.handle(LOG, (_p, job) => ran.push({ key: job.key, at: job.at, now: clock.now() }));
  /** Schedules a LOG job named `name`. */
  const log = (name: string, at: number) => scheduler.schedule(LOG, { name }, at);
  return { clock, scheduler, ran, errors, log };
}

describe('Scheduler', () => {
  it('runs jobs in time order, each seeing the clock at its own due time', () => {
    const { scheduler, ran, clock, log } = setup();
    log('c', START + 3_000);
    log('a', START + 1_000);
    log('b', START + 2_000);
    expect(scheduler.advanceTo(START + 10_000)).toBe(3);
    expect(ran).toEqual([
      { key: 'a', at: START + 1_000, now: START + 1_000 },
      { key: 'b', at: START + 2_000, now: START + 2_000 },
      { key: 'c', at: START + 3_000, now: START + 3_000 },
    ]);
    expect(clock.now()).toBe(START + 10_000);
  });

  it('runs jobs due at the same time in the order they were scheduled', () => {
    const { scheduler, ran, log } = setup();
    for (const key of ['x', 'y', 'z', 'w']) log(key, START + 500);
    scheduler.advanceTo(START + 500);
    expect(ran.map((r) => r.key)).toEqual(['x', 'y', 'z', 'w']);
  });

  it('runs a job due exactly at the target, but not one a millisecond later', () => {
    const { scheduler, ran, log } = setup();
    log('due', START + 1_000);
    log('later', START + 1_001);
    expect(scheduler.advanceTo(START + 1_000)).toBe(1);
    expect(ran.map((r) => r.key)).toEqual(['due']);
    expect(scheduler.list().map((j) => j.key)).toEqual(['later']);
  });

  it('scheduling the same key again replaces the job; cancel drops it', () => {
    const { scheduler, ran, log } = setup();
    log('k', START + 1_000);
    log('k', START + 5_000);
    log('gone', START + 2_000);
    expect(scheduler.cancel(LOG, { name: 'gone' })).toBe(true);
    expect(scheduler.cancel(LOG, { name: 'gone' })).toBe(false);
    scheduler.advanceTo(START + 10_000);
    expect(ran).toEqual([{ key: 'k', at: START + 5_000, now: START + 5_000 }]);
  });

  it('runs jobs that jobs schedule within the same advance, when they fall due', () => {
    const { scheduler, clock } = setup();
    const seen: number[] = [];
    const CHAIN = defineJob({
      kind: 'chain',
      payload: z.object({ left: z.number() }),
      key: ({ left }: { left: number }) => `chain-${left}`,
      orgId: () => null,
    });
    scheduler.handle(CHAIN, ({ left }) => {
      seen.push(clock.now());
      if (left > 0) scheduler.schedule(CHAIN, { left: left - 1 }, clock.now() + 1_000);
    });
    scheduler.schedule(CHAIN, { left: 3 }, START + 1_000);
    expect(scheduler.advanceTo(START + 3_500)).toBe(3);
    expect(seen).toEqual([START + 1_000, START + 2_000, START + 3_000]);
    expect(scheduler.list().map((j) => j.at)).toEqual([START + 4_000]);
  });

  it('keeps going when a handler throws, reporting the error', () => {
    const { scheduler, ran, errors, log } = setup();
    const kind = (name: string) => defineJob({ kind: name, payload: z.object({}), key: () => name, orgId: () => null });
    const BOOM = kind('boom');
    scheduler.handle(BOOM, () => {
      throw new Error('boom');
    });
    scheduler.schedule(BOOM, {}, START + 1);
    log('b', START + 2);
    scheduler.schedule(kind('unknown-kind'), {}, START + 3);
    expect(scheduler.advanceTo(START + 10)).toBe(3);
    expect(ran.map((r) => r.key)).toEqual(['b']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom', 'no handler for job kind unknown-kind']);
  });

  it('keeps heap order under many inserts and removals', () => {
    const { scheduler, ran, log } = setup();
    const times = [50, 10, 40, 30, 20, 90, 60, 80, 70, 0];
    times.forEach((t, i) => log(`j${i}`, START + t));
    scheduler.cancel(LOG, { name: 'j2' }); // 40
    scheduler.cancel(LOG, { name: 'j7' }); // 80
    scheduler.advanceTo(START + 100);
    expect(ran.map((r) => r.at - START)).toEqual([0, 10, 20, 30, 50, 60, 70, 90]);
  });

  // A job taken out of the middle of the queue leaves a hole that the last job in the queue
  // fills; with these times that job is due before the one above it, so it must move up, or
  // the later job runs first and the earlier one sees the clock already past its time.
  it.each([
    ['cancelled', (scheduler: Scheduler) => scheduler.cancel(LOG, { name: 's5' })],
    ['scheduled again for later', (scheduler: Scheduler) => scheduler.schedule(LOG, { name: 's5' }, START + 9_000)],
  ])('runs the other jobs in time order, each at its own time, after one is %s', (_how, takeOut) => {
    const { scheduler, ran, log } = setup();
    for (const s of [3, 4, 7, 5, 6, 1, 2]) log(`s${s}`, START + s * 1_000);
    takeOut(scheduler);
    scheduler.advanceTo(START + 8_000);
    expect(ran.map((r) => [r.key, r.now - START])).toEqual([
      ['s1', 1_000],
      ['s2', 2_000],
      ['s3', 3_000],
      ['s4', 4_000],
      ['s6', 6_000],
      ['s7', 7_000],
    ]);
  });

  it('runs a job whose time has already passed at the current time, never moving the clock back', () => {
    const { scheduler, ran, clock, log } = setup();
    scheduler.advanceTo(START + 100_000);
    log('overdue', START + 10_000);
    expect(scheduler.advanceTo(START + 200_000)).toBe(1);
    expect(ran).toEqual([{ key: 'overdue', at: START + 10_000, now: START + 100_000 }]);
    expect(clock.now()).toBe(START + 200_000);
  });

  it('leaves the clock where it is when asked to advance to a time it has already passed', () => {
    const { scheduler, clock, log } = setup();
    log('later', START + 150_000);
    scheduler.advanceTo(START + 100_000);
    expect(scheduler.advanceTo(START + 50_000)).toBe(0);
    expect(clock.now()).toBe(START + 100_000);
    expect(scheduler.list().map((j) => j.key)).toEqual(['later']);
  });

  it('an advance by 0 on a real clock sped up 1.5 times runs the job due that millisecond and leaves the clock running as before', () => {
    // The real time is read from a variable: 1 real ms is 1.5 emulated ms, so the emulated time
    // is START + 1.5 (shown as START + 1) after 1 real ms, and START + 3 after 2.
    let real = 1_700_000_000_000;
    const clock = new SystemClock(1.5, START, () => real);
    const scheduler = new Scheduler(clock);
    const ran: number[] = [];
    scheduler.handle(LOG, () => ran.push(clock.now()));
    real += 1;
    scheduler.schedule(LOG, { name: 'now' }, START + 1);
    expect(scheduler.advanceTo(clock.now() + 0)).toBe(1);
    expect(ran).toEqual([START + 1]);
    real += 1;
    expect(clock.now()).toBe(START + 3);
  });

  it('reset drops every job; list and restore round-trip pending jobs', () => {
    const { scheduler, ran } = setup();
    scheduler.schedule(LOG, { name: 'a', n: 1 }, START + 2);
    scheduler.schedule(LOG, { name: 'b', n: 2 }, START + 1);
    const saved = scheduler.list();
    expect(saved.map((j) => [j.key, j.at, j.payload])).toEqual([
      ['b', START + 1, { name: 'b', n: 2 }],
      ['a', START + 2, { name: 'a', n: 1 }],
    ]);
    scheduler.reset();
    expect(scheduler.nextAt()).toBeUndefined();
    scheduler.restore(saved);
    scheduler.advanceTo(START + 5);
    expect(ran.map((r) => r.key)).toEqual(['b', 'a']);
  });
});

describe('Scheduler: job kinds declared once', () => {
  // Two kinds owned by organizations, one global; the key is made of a part of the payload.
  const STEP = defineJob({
    kind: 'test.step',
    payload: z.object({ orgId: z.string(), stepId: z.string(), attempt: z.number().int() }).strict(),
    key: ({ stepId }: { stepId: string }) => `step:${stepId}`,
    orgId: (p) => p.orgId,
  });
  const STOP = defineJob({
    kind: 'test.stop',
    payload: z.object({ orgId: z.string(), stopId: z.string() }).strict(),
    key: ({ stopId }: { stopId: string }) => `stop:${stopId}`,
    orgId: (p) => p.orgId,
  });
  const SWEEP = defineJob({ kind: 'test.sweep', payload: z.object({}).strict(), key: () => 'sweep', orgId: () => null });

  function registry() {
    const clock = new ManualClock(START);
    const scheduler = new Scheduler(clock);
    const steps: Array<{ orgId: string; stepId: string; attempt: number }> = [];
    scheduler.handle(STEP, (payload) => steps.push(payload));
    scheduler.handle(STOP, () => {});
    scheduler.handle(SWEEP, () => {});
    return { clock, scheduler, steps };
  }

  it('names a job by its declaration: the key comes from the payload, handlers get the payload as scheduled', () => {
    const { scheduler, steps } = registry();
    scheduler.schedule(STEP, { orgId: 'org-a', stepId: 's1', attempt: 1 }, START + 10);
    expect(scheduler.list()).toEqual([{ key: 'step:s1', at: START + 10, kind: 'test.step', payload: { orgId: 'org-a', stepId: 's1', attempt: 1 }, seq: 0 }]);
    expect(scheduler.has(STEP, { stepId: 's1' })).toBe(true);
    expect(scheduler.get(STEP, { stepId: 's1' })?.payload.attempt).toBe(1);
    // The same key again replaces the job.
    scheduler.schedule(STEP, { orgId: 'org-a', stepId: 's1', attempt: 2 }, START + 20);
    expect(scheduler.list().map((j) => [j.key, j.at])).toEqual([['step:s1', START + 20]]);
    scheduler.advanceTo(START + 20);
    expect(steps).toEqual([{ orgId: 'org-a', stepId: 's1', attempt: 2 }]);
  });

  it('keeps payload fields in the order their schema gives, whatever order the caller wrote them in', () => {
    const { scheduler } = registry();
    scheduler.schedule(STEP, { attempt: 1, stepId: 's1', orgId: 'org-a' }, START + 10);
    expect(JSON.stringify(scheduler.list()[0]!.payload)).toBe('{"orgId":"org-a","stepId":"s1","attempt":1}');
  });

  it('cancels, finds and reports a job only through its own kind', () => {
    const { scheduler } = registry();
    scheduler.schedule(STOP, { orgId: 'org-a', stopId: 'x' }, START + 10);
    expect(scheduler.has(STEP, { stepId: 'x' })).toBe(false);
    expect(scheduler.cancel(STEP, { stepId: 'x' })).toBe(false);
    expect(scheduler.cancel(STOP, { stopId: 'x' })).toBe(true);
    expect(scheduler.list()).toEqual([]);
  });

  it('finds, reports and cancels nothing through another kind whose jobs are named the same way', () => {
    const { scheduler } = registry();
    // Names a job exactly as STOP does: the same key for the same id.
    const HALT = defineJob({
      kind: 'test.halt',
      payload: z.object({ orgId: z.string(), haltId: z.string() }).strict(),
      key: ({ haltId }: { haltId: string }) => `stop:${haltId}`,
      orgId: (p) => p.orgId,
    });
    scheduler.schedule(STOP, { orgId: 'org-a', stopId: 'x' }, START + 10);
    expect(scheduler.has(HALT, { haltId: 'x' })).toBe(false);
    expect(scheduler.get(HALT, { haltId: 'x' })).toBeUndefined();
    expect(scheduler.cancel(HALT, { haltId: 'x' })).toBe(false);
    expect(scheduler.list().map((j) => [j.kind, j.key])).toEqual([['test.stop', 'stop:x']]);
  });

  it('refuses a payload its schema does not accept', () => {
    const { scheduler } = registry();
    expect(() => scheduler.schedule(STEP, { orgId: 'org-a', stepId: 's1', attempt: 1.5 }, START)).toThrow();
    expect(scheduler.list()).toEqual([]);
  });

  it('refuses a second declaration of a kind that is already declared', () => {
    const { scheduler } = registry();
    const again = defineJob({ kind: 'test.step', payload: z.object({}), key: () => 'other', orgId: () => null });
    expect(() => scheduler.handle(again, () => {})).toThrow('job kind test.step is declared twice');
  });

  it('cancelOrg drops every job its declaration says belongs to that organization, of every kind, and nothing else', () => {
    const { scheduler } = registry();
    scheduler.schedule(STEP, { orgId: 'org-a', stepId: 's1', attempt: 1 }, START + 1);
    scheduler.schedule(STOP, { orgId: 'org-a', stopId: 'm1' }, START + 2);
    scheduler.schedule(STEP, { orgId: 'org-b', stepId: 's2', attempt: 1 }, START + 3);
    scheduler.schedule(SWEEP, {}, START + 4);
    expect(scheduler.cancelOrg('org-a')).toBe(2);
    expect(scheduler.list().map((j) => j.key)).toEqual(['step:s2', 'sweep']);
    expect(scheduler.cancelOrg('org-a')).toBe(0);
  });

  it('cancelKind drops every job of one kind', () => {
    const { scheduler } = registry();
    scheduler.schedule(STEP, { orgId: 'org-a', stepId: 's1', attempt: 1 }, START + 1);
    scheduler.schedule(STEP, { orgId: 'org-b', stepId: 's2', attempt: 1 }, START + 2);
    scheduler.schedule(STOP, { orgId: 'org-a', stopId: 'm1' }, START + 3);
    expect(scheduler.cancelKind(STEP)).toBe(2);
    expect(scheduler.list().map((j) => j.key)).toEqual(['stop:m1']);
  });

  describe('validate (state import)', () => {
    const sound = { key: 'step:s1', at: START, kind: 'test.step', payload: { orgId: 'org-a', stepId: 's1', attempt: 1 } };

    it.each([
      ['a sound job', sound, null],
      ['an unknown kind', { ...sound, kind: 'test.nope' }, { path: 'kind', message: 'unknown job kind test.nope' }],
      [
        'a payload field missing',
        { ...sound, payload: { orgId: 'org-a', attempt: 1 } },
        { path: 'payload.stepId', message: 'Invalid input: expected string, received undefined' },
      ],
      [
        'a payload field of the wrong type',
        { ...sound, payload: { ...sound.payload, attempt: 'one' } },
        { path: 'payload.attempt', message: 'Invalid input: expected number, received string' },
      ],
      [
        'a payload field its kind does not have',
        { ...sound, payload: { ...sound.payload, extra: true } },
        { path: 'payload', message: 'Unrecognized key: "extra"' },
      ],
      [
        'a key that is not the one its payload gives',
        { ...sound, key: 'step:s2' },
        { path: 'key', message: 'a test.step job with this payload is named step:s1' },
      ],
    ])('%s', (_name, job, problem) => {
      const { scheduler } = registry();
      expect(scheduler.validate(job)).toEqual(problem);
    });

    it('knows a kind only once a handler is registered for it', () => {
      const scheduler = new Scheduler(new ManualClock(START));
      scheduler.schedule(SWEEP, {}, START);
      expect(scheduler.validate({ key: 'sweep', at: START, kind: 'test.sweep', payload: {} })).toEqual({
        path: 'kind',
        message: 'unknown job kind test.sweep',
      });
    });

    it('restore refuses a job validate would refuse, and keeps the jobs it had', () => {
      const { scheduler } = registry();
      scheduler.schedule(SWEEP, {}, START + 1);
      expect(() =>
        scheduler.restore([
          { ...sound, seq: 0 },
          { ...sound, key: 'step:s2', seq: 1 },
        ]),
      ).toThrow('key: a test.step job with this payload is named step:s1');
      expect(scheduler.list().map((j) => j.key)).toEqual(['sweep']);
    });
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
    scheduler.handle(LOG, () => fired.push(clock.now()));
    const driver = new RealTimeDriver(scheduler, clock);
    driver.start();
    scheduler.schedule(LOG, { name: 'minute' }, START + 60_000); // one emulated minute = one real second
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
    scheduler.handle(LOG, () => fired.push(clock.now()));
    new RealTimeDriver(scheduler, clock).start();
    scheduler.schedule(LOG, { name: 'x' }, START + 1);
    vi.advanceTimersByTime(10 * 60_000);
    expect(fired).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
