// The synchronous bus that domain events travel on: every subscriber hears each event once, in
// the order they subscribed, and one that unsubscribed hears nothing more while the others still do.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/core/events.js';

type Event = { type: 'a' | 'b'; n: number };

describe('EventBus', () => {
  it('delivers each event to every subscriber, in the order they subscribed', () => {
    const bus = new EventBus<Event>();
    const heard: string[] = [];
    bus.subscribe((e) => heard.push(`first ${e.type}${e.n}`));
    bus.subscribe((e) => heard.push(`second ${e.type}${e.n}`));
    bus.publish({ type: 'a', n: 1 });
    bus.publish({ type: 'b', n: 2 });
    expect(heard).toEqual(['first a1', 'second a1', 'first b2', 'second b2']);
  });

  it('an unsubscribed listener hears nothing more; the others still do', () => {
    const bus = new EventBus<Event>();
    const heard: string[] = [];
    const stopFirst = bus.subscribe((e) => heard.push(`first ${e.n}`));
    bus.subscribe((e) => heard.push(`second ${e.n}`));
    bus.publish({ type: 'a', n: 1 });
    stopFirst();
    bus.publish({ type: 'a', n: 2 });
    stopFirst(); // a second call changes nothing
    bus.publish({ type: 'a', n: 3 });
    expect(heard).toEqual(['first 1', 'second 1', 'second 2', 'second 3']);
  });
});
