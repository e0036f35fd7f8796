// The livestream lifecycle as a pure table. Created OFFLINE (waiting for ingest), LIVE once
// ingest is active (simulated), IDLE when the ingest ends without a stop (the encoder
// disconnected, or the livestream was disabled: it may go LIVE again), STOPPED after stop (shown
// as OFFLINE on the wire, as the API documents it), ERRORED on a failure.
import type { Livestream, LivestreamSession, LivestreamState, LivestreamWireStatus } from '../models.js';
import type { TransitionResult } from '../recordings/recording-machine.js';

export type LivestreamEvent = { type: 'GO_LIVE' } | { type: 'END_INGEST' } | { type: 'STOP' } | { type: 'FAIL' };
export type LivestreamEventType = LivestreamEvent['type'];

export const LIVESTREAM_TRANSITIONS: Record<LivestreamState, Partial<Record<LivestreamEventType, LivestreamState>>> = {
  OFFLINE: { GO_LIVE: 'LIVE', STOP: 'STOPPED', FAIL: 'ERRORED' },
  LIVE: { END_INGEST: 'IDLE', STOP: 'STOPPED', FAIL: 'ERRORED' },
  IDLE: { GO_LIVE: 'LIVE', STOP: 'STOPPED', FAIL: 'ERRORED' },
  STOPPED: {},
  ERRORED: {},
};

export const ACTIVE_LIVESTREAM_STATES: readonly LivestreamState[] = ['OFFLINE', 'LIVE', 'IDLE'];

export function wireStatus(state: LivestreamState): LivestreamWireStatus {
  return state === 'STOPPED' ? 'OFFLINE' : state;
}

/** Which event a forced transition to a wire status means from `from`, if the table allows it. */
export function livestreamEventFor(from: LivestreamState, to: LivestreamWireStatus): LivestreamEventType | undefined {
  const row = LIVESTREAM_TRANSITIONS[from];
  return (Object.keys(row) as LivestreamEventType[]).find((e) => wireStatus(row[e]!) === to);
}

export function liveMsAt(l: Livestream, now: number): number {
  return l.liveMs + (l.liveSince === null ? 0 : Math.max(0, now - l.liveSince));
}

/** Whole seconds of ingest in a livestream session: up to its stop, or up to `now` while it runs. */
export function sessionIngestSeconds(s: LivestreamSession, now: number): number {
  return Math.floor(Math.max(0, (s.stoppedTime ?? now) - s.startedTime) / 1000);
}

export function transitionLivestream(l: Livestream, event: LivestreamEvent, now: number): TransitionResult<Livestream> {
  const to = LIVESTREAM_TRANSITIONS[l.state][event.type];
  if (!to) return { ok: false, from: l.state, event: event.type };
  const next: Livestream = { ...l, state: to, updatedAt: now };
  if (event.type === 'GO_LIVE') {
    next.liveSince = now;
  } else {
    next.liveMs = liveMsAt(l, now);
    next.liveSince = null;
    if (event.type !== 'END_INGEST') next.stoppedAt = now;
  }
  return { ok: true, entity: next };
}
