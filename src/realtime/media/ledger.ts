// The media room's ledger: per meeting, per peer (a page, or a scripted participant that
// publishes a clip), the transports, producers and consumers it holds, as the media room gave them
// out. The media itself is the engine's (engine.ts), which may run in another process; each entry
// here tells the engine when it pauses or closes. Everything a peer holds is released in one place
// (release), whichever way it goes (leave, kick, socket loss, ICE failure, reset, shutdown), and a
// count of what is open proves it.
import type { MediaEngine } from './engine.js';
import { PublishedTrack, type Direction, type MediaCounts, type ProducerInfo } from './media-types.js';

/** A page's endpoint of one direction. */
export class TransportEntry {
  private closed = false;

  constructor(
    readonly id: string,
    readonly direction: Direction,
    private readonly engine: MediaEngine,
    /** Told once it closes, whichever way. */
    private readonly onClose: (id: string) => void = () => undefined,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.engine.closeTransport(this.id);
    this.onClose(this.id);
  }
}

/** A published track: a page's camera, microphone or screen share, or a bot's clip. */
export class ProducerEntry extends PublishedTrack {
  constructor(
    info: ProducerInfo,
    paused: boolean,
    private readonly engine: MediaEngine,
  ) {
    super(info, paused);
  }

  setPaused(paused: boolean): void {
    if (this.closed) return;
    this.paused = paused;
    this.engine.pauseProducer(this.id, paused);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.engine.closeProducer(this.id);
  }

  /** Closed with the transport it came on: the engine closes it with the transport. */
  closedWithTransport(): void {
    this.closed = true;
  }
}

/** One viewer's copy of a producer, named by the page by its section's mid. */
export class ConsumerEntry {
  private closed = false;

  constructor(
    readonly id: string,
    readonly mid: string,
    readonly producer: ProducerEntry,
    private readonly engine: MediaEngine,
  ) {}

  prefer(layer: string): void {
    if (!this.closed) this.engine.preferLayer(this.id, layer);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.engine.closeConsumer(this.id);
  }

  /** Closed with the receive transport it went out on: the engine closes it with the transport. */
  closedWithTransport(): void {
    this.closed = true;
  }
}

/** The kinds of a peer's requests served one at a time: consumes, and the opening of each direction's transport. */
export type Turn = 'consume' | Direction;

/** What one peer holds in a meeting's media room. */
export class PeerMedia {
  readonly transports: Partial<Record<Direction, TransportEntry>> = {};
  readonly producers = new Map<string, ProducerEntry>();
  /** Its consumers by the mid of their section on its receive transport (the SDK names them by mid). */
  readonly consumers = new Map<string, ConsumerEntry>();

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
  transport(id: string | undefined, direction: Direction): TransportEntry | undefined {
    const t = this.transports[direction];
    return t && (id === undefined || id === '' || t.id === id) ? t : undefined;
  }

  /**
   * Closes one transport and what it carries (the consumers on a receive transport, the producers
   * on a send transport), which the engine closes with it; answers the producers closed.
   */
  closeTransport(direction: Direction): ProducerEntry[] {
    const t = this.transports[direction];
    if (!t) return [];
    delete this.transports[direction];
    let closed: ProducerEntry[] = [];
    if (direction === 'recv') {
      for (const c of this.consumers.values()) c.closedWithTransport();
      this.consumers.clear();
    } else {
      closed = [...this.producers.values()].filter((p) => p.info.transportId === t.id);
      for (const p of closed) {
        this.producers.delete(p.id);
        p.closedWithTransport();
      }
    }
    t.close();
    return closed;
  }

  /** Closes everything; answers the producers closed. */
  release(): ProducerEntry[] {
    const closed = [...this.producers.values()];
    this.closeTransport('send');
    this.closeTransport('recv');
    // What came on no transport: a bot's clip.
    for (const p of this.producers.values()) p.close();
    this.producers.clear();
    return closed;
  }
}

/** Every meeting's media room: its peers and what each holds. */
export class MediaLedger {
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

  /** Every peer of every meeting. */
  *peers(): IterableIterator<PeerMedia> {
    for (const peers of this.meetings.values()) yield* peers.values();
  }

  /** Whose transport this is, and which of its directions (a closed or replaced one is nobody's). */
  holderOf(transportId: string): { media: PeerMedia; direction: Direction } | undefined {
    for (const media of this.peers())
      for (const direction of ['send', 'recv'] as const) if (media.transports[direction]?.id === transportId) return { media, direction };
    return undefined;
  }

  /** A producer of the meeting, by id (another meeting's producer is not found). */
  producer(meetingId: string, producerId: string): ProducerEntry | undefined {
    for (const media of this.meetings.get(meetingId)?.values() ?? []) {
      const p = media.producers.get(producerId);
      if (p) return p;
    }
    return undefined;
  }

  /** Releases what a peer holds and forgets it; answers the producers closed. */
  release(meetingId: string, peerId: string): ProducerEntry[] {
    const peers = this.meetings.get(meetingId);
    const media = peers?.get(peerId);
    if (!peers || !media) return [];
    peers.delete(peerId);
    // Stryker disable next-line ConditionalExpression: memory only; an emptied meeting's map reads as no peers either way.
    if (peers.size === 0) this.meetings.delete(meetingId);
    return media.release();
  }

  releaseAll(): void {
    for (const media of this.peers()) media.release();
    this.meetings.clear();
  }

  counts(): MediaCounts {
    const out = { transports: 0, producers: 0, consumers: 0 };
    for (const media of this.peers()) {
      out.transports += Object.keys(media.transports).length;
      out.producers += media.producers.size;
      out.consumers += media.consumers.size;
    }
    return out;
  }
}
