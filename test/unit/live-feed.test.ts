// The live feed behind GET /_emulator/events: a bounded history with increasing ids, one clock
// event per move however many jobs ran, subscribers that leave no trace, and a close that ends
// every subscriber (shutdown).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { EventBus } from '../../src/core/events.js';
import { defineJob } from '../../src/core/jobs.js';
import { Scheduler } from '../../src/core/scheduler.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { LiveFeed, type FeedMessage } from '../../src/ui/live-feed.js';
import { z } from 'zod';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const TICK = defineJob({ kind: 'test.tick', payload: z.object({ n: z.number() }).strict(), key: ({ n }: { n: number }) => `tick:${n}`, orgId: () => null });

function world(capacity?: number) {
  const clock = new ManualClock(START);
  const scheduler = new Scheduler(clock);
  scheduler.handle(TICK, () => {});
  const bus = new EventBus<DomainEvent>();
  const feed = new LiveFeed(clock, capacity);
  feed.watch(bus, scheduler);
  const seen: FeedMessage[] = [];
  let ended = 0;
  const unsubscribe = feed.subscribe({ send: (m) => seen.push(m), end: () => (ended += 1) });
  return { clock, scheduler, feed, seen, ended: () => ended, unsubscribe };
}

/** The feed tells clock moves at the end of the turn (a microtask). */
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('LiveFeed', () => {
  it('tells a clock move once, at its end, however many jobs ran on the way', async () => {
    const w = world();
    for (const n of [1, 2, 3]) w.scheduler.schedule(TICK, { n }, START + n * 1_000);
    await settle();
    expect(w.seen).toEqual([]); // scheduling moved no clock
    w.scheduler.advanceTo(START + 5_000);
    await settle();
    expect(w.seen).toEqual([{ id: 1, kind: 'clock', data: { now: '2026-01-01T00:00:05.000Z', mode: 'manual' } }]);
  });

  it('keeps the newest `capacity` events for replay, with ids that only grow', async () => {
    const w = world(2);
    for (const ms of [1_000, 2_000, 3_000]) {
      w.scheduler.advanceTo(START + ms);
      await settle();
    }
    expect(w.seen.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(w.feed.since(0).map((m) => m.id)).toEqual([2, 3]);
    expect(w.feed.since(2).map((m) => m.id)).toEqual([3]);
    expect(w.feed.lastId).toBe(3);
  });

  it('tells requests only to those listening, and keeps them out of the replay', () => {
    const w = world();
    w.feed.request({ id: 'req_000001', api: 'v2', method: 'POST', path: '/v2/meetings', status: 201, org_id: null, deliveries: [] });
    expect(w.seen.map((m) => m.kind)).toEqual(['request']);
    expect(w.feed.since(0)).toEqual([]);
    w.unsubscribe();
    expect(w.feed.listenerCount).toBe(0);
    w.feed.request({ id: 'req_000002', api: 'v2', method: 'GET', path: '/v2/meetings', status: 200, org_id: null, deliveries: [] });
    expect(w.seen).toHaveLength(1);
  });

  it('ends every subscriber on close, and at once any that comes later', () => {
    const w = world();
    w.feed.close();
    expect(w.ended()).toBe(1);
    expect(w.feed.listenerCount).toBe(0);
    let late = 0;
    w.feed.subscribe({ send: () => {}, end: () => (late += 1) });
    expect(late).toBe(1);
    expect(w.feed.listenerCount).toBe(0);
  });
});
