import { describe, expect, it } from 'vitest';
import { liveMsAt, livestreamEventFor, transitionLivestream, wireStatus, type LivestreamEventType } from '../../src/domain/livestreams/livestream-machine.js';
import type { Livestream, LivestreamState, LivestreamWireStatus } from '../../src/domain/models.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function livestream(over: Partial<Livestream> = {}): Livestream {
  return {
    id: 'l',
    orgId: 'org',
    meetingId: 'meeting',
    state: 'OFFLINE',
    name: null,
    streamKey: 'key',
    disabled: false,
    createdAt: T0,
    updatedAt: T0,
    liveMs: 0,
    liveSince: null,
    stoppedAt: null,
    ...over,
  };
}

const STATES: LivestreamState[] = ['OFFLINE', 'LIVE', 'STOPPED', 'ERRORED'];
const EVENTS: LivestreamEventType[] = ['GO_LIVE', 'STOP', 'FAIL'];
// Written out by hand from the documented lifecycle (docs/time-and-lifecycles.md; a stopped stream
// reads OFFLINE on the wire, as the API documents it): not read from the table under test.
const LEGAL: Record<LivestreamState, Partial<Record<LivestreamEventType, LivestreamState>>> = {
  OFFLINE: { GO_LIVE: 'LIVE', STOP: 'STOPPED', FAIL: 'ERRORED' },
  LIVE: { STOP: 'STOPPED', FAIL: 'ERRORED' },
  STOPPED: {},
  ERRORED: {},
};

describe('livestream transition table', () => {
  it.each(STATES.flatMap((from) => EVENTS.map((e) => [from, e, LEGAL[from][e] ?? null] as const)))('%s + %s → %s', (from, event, to) => {
    const result = transitionLivestream(livestream({ state: from }), { type: event }, T0 + 1000);
    if (to === null) expect(result).toEqual({ ok: false, from, event });
    else expect(result.ok && result.entity.state).toBe(to);
  });

  it('GO_LIVE opens a live span; STOP banks it and records the stop time', () => {
    const live = transitionLivestream(livestream(), { type: 'GO_LIVE' }, T0 + 5_000);
    expect(live.ok && live.entity).toMatchObject({ state: 'LIVE', liveSince: T0 + 5_000, updatedAt: T0 + 5_000 });
    const l = (live as { entity: Livestream }).entity;
    expect(liveMsAt(l, T0 + 35_000)).toBe(30_000);
    const stopped = transitionLivestream(l, { type: 'STOP' }, T0 + 65_000);
    expect(stopped.ok && stopped.entity).toMatchObject({ state: 'STOPPED', liveMs: 60_000, liveSince: null, stoppedAt: T0 + 65_000 });
    expect(liveMsAt((stopped as { entity: Livestream }).entity, T0 + 999_999)).toBe(60_000);
  });

  it('FAIL from LIVE also banks the live time', () => {
    const failed = transitionLivestream(livestream({ state: 'LIVE', liveSince: T0 }), { type: 'FAIL' }, T0 + 7_000);
    expect(failed.ok && failed.entity).toMatchObject({ state: 'ERRORED', liveMs: 7_000, liveSince: null, stoppedAt: T0 + 7_000 });
  });
});

describe('wire status and forced transitions', () => {
  it.each([
    ['OFFLINE', 'OFFLINE'],
    ['LIVE', 'LIVE'],
    ['STOPPED', 'OFFLINE'],
    ['ERRORED', 'ERRORED'],
  ] as const)('%s is shown as %s', (state, wire) => {
    expect(wireStatus(state)).toBe(wire);
  });

  const FORCED: [LivestreamState, LivestreamWireStatus, LivestreamEventType | null][] = [
    ['OFFLINE', 'OFFLINE', 'STOP'],
    ['OFFLINE', 'LIVE', 'GO_LIVE'],
    ['OFFLINE', 'ERRORED', 'FAIL'],
    ['LIVE', 'OFFLINE', 'STOP'],
    ['LIVE', 'LIVE', null],
    ['LIVE', 'ERRORED', 'FAIL'],
    ['STOPPED', 'OFFLINE', null],
    ['STOPPED', 'LIVE', null],
    ['STOPPED', 'ERRORED', null],
    ['ERRORED', 'OFFLINE', null],
    ['ERRORED', 'LIVE', null],
    ['ERRORED', 'ERRORED', null],
  ];
  it.each(FORCED)('forcing %s → %s uses %s', (from, to, event) => {
    expect(livestreamEventFor(from, to) ?? null).toBe(event);
  });
});
