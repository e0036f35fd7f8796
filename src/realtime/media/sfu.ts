// The media plane's bookkeeping: per meeting, per peer (a page, or a scripted participant that
// publishes a clip), the transports, producers and consumers it holds. Everything a peer holds is
// released in one place (release), whichever way it goes (leave, kick, socket loss, ICE failure,
// reset, shutdown), and a count of what is open proves it.
import type { Consumer } from './consumer.js';
import type { MediaCounts } from './media-types.js';
import type { Producer } from './producer.js';
import type { Direction, WebRtcTransport } from './transport.js';

/** The kinds of a peer's requests served one at a time: consumes, and the opening of each direction's transport. */
export type Turn = 'consume' | Direction;

/** What one peer holds in a meeting's media room. */
export class PeerMedia {
  readonly transports: Partial<Record<Direction, WebRtcTransport>> = {};
  readonly producers = new Map<string, Producer>();
  /** Its consumers by the mid of their section on its receive transport (the SDK names them by mid). */
  readonly consumers = new Map<string, Consumer>();

  /** The peer's requests that must not overlap, one queue per kind: each waits for the one before it. */
  private readonly queues = new Map<Turn, Promise<unknown>>();

  constructor(
    readonly meetingId: string,
    readonly peerId: string,
  ) {}

  /**
   * Runs a step once the peer's earlier ones of its kind are done: a consume sees the consumers the
   * one before it added (a page asking twice at once for a track gets one consumer), and a page opens
   * one transport of a direction at a time (a flood of them waits in line instead of opening dozens
   * of endpoints at once, and what waits is dropped with the page).
   */
  inTurn<T>(turn: Turn, step: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(turn) ?? Promise.resolve()).then(step);
    this.queues.set(
      turn,
      run.catch(() => undefined),
    );
    return run;
  }

  /** The peer's transport with this id, if it holds one. */
  transport(id: string | undefined, direction: Direction): WebRtcTransport | undefined {
    const t = this.transports[direction];
    return t && (id === undefined || id === '' || t.id === id) ? t : undefined;
  }

  /** Closes one transport and what it carries (the consumers on a receive transport, the producers on a send transport); answers the producers closed. */
  closeTransport(direction: Direction): Producer[] {
    const t = this.transports[direction];
    if (!t) return [];
    delete this.transports[direction];
    t.close();
    if (direction === 'recv') {
      for (const c of this.consumers.values()) c.close();
      this.consumers.clear();
      return [];
    }
    const closed = [...this.producers.values()].filter((p) => p.info.transportId === t.id);
    for (const p of closed) {
      this.producers.delete(p.id);
      p.close();
    }
    return closed;
  }

  /** Closes everything; answers the producers closed. */
  release(): Producer[] {
    const closed = [...this.producers.values()];
    for (const p of closed) p.close();
    this.producers.clear();
    for (const c of this.consumers.values()) c.close();
    this.consumers.clear();
    for (const direction of ['send', 'recv'] as const) {
      this.transports[direction]?.close();
      delete this.transports[direction];
    }
    return closed;
  }
}

export class Sfu {
  private readonly meetings = new Map<string, Map<string, PeerMedia>>();

  peer(meetingId: string, peerId: string): PeerMedia {
    let peers = this.meetings.get(meetingId);
    if (!peers) this.meetings.set(meetingId, (peers = new Map()));
    let media = peers.get(peerId);
    if (!media) peers.set(peerId, (media = new PeerMedia(meetingId, peerId)));
    return media;
  }

  find(meetingId: string, peerId: string): PeerMedia | undefined {
    return this.meetings.get(meetingId)?.get(peerId);
  }

  /** A producer of the meeting, by id (another meeting's producer is not found). */
  producer(meetingId: string, producerId: string): Producer | undefined {
    for (const media of this.meetings.get(meetingId)?.values() ?? []) {
      const p = media.producers.get(producerId);
      if (p) return p;
    }
    return undefined;
  }

  /** Releases what a peer holds and forgets it; answers the producers closed. */
  release(meetingId: string, peerId: string): Producer[] {
    const peers = this.meetings.get(meetingId);
    const media = peers?.get(peerId);
    if (!peers || !media) return [];
    peers.delete(peerId);
    if (peers.size === 0) this.meetings.delete(meetingId);
    return media.release();
  }

  releaseAll(): void {
    for (const peers of this.meetings.values()) for (const media of peers.values()) media.release();
    this.meetings.clear();
  }

  counts(): MediaCounts {
    const out = { transports: 0, producers: 0, consumers: 0 };
    for (const peers of this.meetings.values())
      for (const media of peers.values()) {
        out.transports += Object.values(media.transports).filter((t) => t !== undefined).length;
        out.producers += media.producers.size;
        out.consumers += media.consumers.size;
      }
    return out;
  }
}
