// Who watches a livestream: the HLS clients that fetch its playlist. A client counts as a viewer
// from its first fetch for as long as it keeps fetching, and for one window after its last fetch
// (a player polls a live playlist about once a segment), so a livestream's viewer seconds are the
// sum of its clients' watching spans. Emulator decision: the window is VIEWER_WINDOW_MS of the
// emulator's clock; a livestream session no client watched has the simulator's audience
// (ingest seconds × policy.livestream.viewers), as it always had.
//
// Kept in memory, per livestream session, outside the store: a state export does not carry it,
// a reset and an organization's reset drop it.
import { sessionIngestSeconds } from './livestream-machine.js';
import type { LivestreamSession } from '../models.js';

/** A client that has not fetched the playlist for this long (emulator ms) no longer watches. */
export const VIEWER_WINDOW_MS = 10_000;
/** Clients kept per session; past it the oldest one's watching is folded into the session's total. */
const MAX_CLIENTS_PER_SESSION = 10_000;

interface Span {
  from: number;
  last: number;
}

interface Watched {
  orgId: string;
  /** Watching that ended (spans closed), in ms. */
  closedMs: number;
  clients: Map<string, Span>;
}

/** What viewer seconds are read with: the sessions' watching, else the simulator's audience. */
export interface ViewerFigure {
  simulated: number;
  /** Ms watched in a session up to `now` by the clients that fetched its playlist; undefined when none did. */
  watchedMs(s: LivestreamSession, now: number): number | undefined;
}

export function sessionViewerSeconds(s: LivestreamSession, now: number, v: ViewerFigure): number {
  const ms = v.watchedMs(s, now);
  return ms === undefined ? sessionIngestSeconds(s, now) * v.simulated : Math.floor(ms / 1000);
}

const spanMs = (span: Span, until: number) => Math.max(0, Math.min(until, span.last + VIEWER_WINDOW_MS) - span.from);

export class LivestreamViewers {
  private readonly sessions = new Map<string, Watched>();

  constructor() {
    this.reset();
  }

  reset(): void {
    this.sessions.clear();
  }

  resetOrg(orgId: string): void {
    for (const [id, w] of [...this.sessions]) if (w.orgId === orgId) this.sessions.delete(id);
  }

  /** A client (by a key the playback names it with) fetched a session's playlist at `now`. */
  seen(s: LivestreamSession, client: string, now: number): void {
    let w = this.sessions.get(s.id);
    if (!w) this.sessions.set(s.id, (w = { orgId: s.orgId, closedMs: 0, clients: new Map() }));
    const span = w.clients.get(client);
    if (span && now <= span.last + VIEWER_WINDOW_MS) {
      span.last = Math.max(span.last, now);
      return;
    }
    if (span) w.closedMs += spanMs(span, Infinity);
    else if (w.clients.size >= MAX_CLIENTS_PER_SESSION) {
      const [oldest, first] = w.clients.entries().next().value!;
      w.closedMs += spanMs(first, Infinity);
      w.clients.delete(oldest);
    }
    w.clients.delete(client);
    w.clients.set(client, { from: now, last: now });
  }

  /** How many clients watch a session at `now`. */
  watching(sessionId: string, now: number): number {
    let n = 0;
    for (const span of this.sessions.get(sessionId)?.clients.values() ?? []) if (now >= span.from && now <= span.last + VIEWER_WINDOW_MS) n++;
    return n;
  }

  figure(simulated: number): ViewerFigure {
    return {
      simulated,
      watchedMs: (s, now) => {
        const w = this.sessions.get(s.id);
        if (!w) return undefined;
        const until = s.stoppedTime ?? now;
        let ms = w.closedMs;
        for (const span of w.clients.values()) ms += spanMs(span, until);
        return ms;
      },
    };
  }
}
