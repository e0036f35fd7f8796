// The network between a participant and the media plane, as the control API's network scenarios
// shape it: for each direction of one transport (or of a bot's clip), every packet may be lost,
// held, and queued behind the ones before it at a capped rate, the way a lossy, distant or narrow
// link would treat it. What passes keeps its order. The receiving end (werift's, or the page's
// browser) then measures what a real network would have made it measure: the plane's RTCP
// receiver reports carry the loss and jitter back to the publisher, the page's getStats its own.
//
// A cut path passes nothing either way, STUN included, so that the page's ICE fails as it does
// when a network path is lost. A `path` cut lasts until the page restarts ICE on the transport
// (its checks come with a new ufrag: another path); an `all` cut until it is lifted.
import { realMonotonicNow } from '../../../core/clock.js';
import { pseudoRandom } from '../../../core/ids.js';
import { CLEAR_PATH, type LinkConditions, type PathConditions } from '../media-types.js';

/** A capped link holds at most this much delay in its queue (real ms); a packet that would wait longer is dropped (tail drop). */
export const MAX_QUEUE_MS = 200;

/** A clock and a timer: real ones, or a test's. */
export interface ShaperTime {
  now(): number;
  after(ms: number, fn: () => void): () => void;
}

const realTime: ShaperTime = {
  now: realMonotonicNow,
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** What a path did to the packets offered to it. */
export interface PathCounts {
  passed: number;
  lost: number;
  /** Dropped because the capped link's queue was full. */
  overflowed: number;
}

/** One direction of a link: packets in, packets out (later, or never). */
export class PathShaper {
  private conditions: PathConditions = CLEAR_PATH;
  private readonly queue: { at: number; deliver: () => void }[] = [];
  private cancelTimer: (() => void) | undefined;
  /** When the capped link is free again (time the last packet finishes leaving). */
  private busyUntil = 0;
  /** The latest departure so far: later packets never leave before it (the order holds when the conditions change). */
  private lastAt = 0;
  private closed = false;
  readonly counts: PathCounts = { passed: 0, lost: 0, overflowed: 0 };

  constructor(
    private readonly random: () => number,
    private readonly time: ShaperTime = realTime,
  ) {}

  get isClear(): boolean {
    const c = this.conditions;
    return c.lossPercent === 0 && c.latencyMs === 0 && c.bandwidthKbps === null;
  }

  /** The cap in force (kbit/s), null when none. */
  get capKbps(): number | null {
    return this.conditions.bandwidthKbps;
  }

  set(conditions: PathConditions): void {
    this.conditions = { ...conditions };
  }

  /** Offers a packet of `bytes` to the path: `deliver` runs when (and if) it comes out. */
  pass(bytes: number, deliver: () => void): void {
    if (this.closed) return;
    // Nothing held and nothing to hold: the packet goes straight through.
    if (this.isClear && this.queue.length === 0) {
      this.counts.passed++;
      return deliver();
    }
    const { lossPercent, latencyMs, bandwidthKbps } = this.conditions;
    if (lossPercent > 0 && this.random() * 100 < lossPercent) {
      this.counts.lost++;
      return;
    }
    const now = this.time.now();
    let leaves = now;
    if (bandwidthKbps !== null) {
      const start = Math.max(now, this.busyUntil);
      if (start - now > MAX_QUEUE_MS) {
        this.counts.overflowed++;
        return;
      }
      // kbit/s is bits per ms.
      this.busyUntil = start + (bytes * 8) / bandwidthKbps;
      leaves = this.busyUntil;
    }
    const at = Math.max(leaves + latencyMs, this.lastAt);
    this.lastAt = at;
    this.counts.passed++;
    if (at <= now && this.queue.length === 0) return deliver();
    this.queue.push({ at, deliver });
    if (this.queue.length === 1) this.arm();
  }

  /** Drops what is queued and stops its timer. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private arm(): void {
    const head = this.queue[0];
    if (!head) return;
    this.cancelTimer = this.time.after(Math.max(0, head.at - this.time.now()), () => {
      this.cancelTimer = undefined;
      const now = this.time.now();
      while (this.queue.length > 0 && this.queue[0]!.at <= now) this.queue.shift()!.deliver();
      this.arm();
    });
  }
}

/**
 * Both directions of one transport's link (or a bot's clip: up only), and whether its paths are
 * cut. `seed` makes its losses repeat from run to run (the transport's id does).
 */
export class TransportLink {
  readonly up: PathShaper;
  readonly down: PathShaper;
  private cut: LinkConditions['cut'] = 'none';
  /** The ICE ufrags the transport answered to before a `path` cut: a check with another one is a new path. */
  private cutUfrags: ReadonlySet<string> = new Set();
  private readonly ufrags = new Set<string>();

  constructor(
    seed: string,
    /** Told when a page's new path ends a `path` cut (an ICE restart). */
    private readonly onRecovered: () => void = () => undefined,
    time?: ShaperTime,
  ) {
    const random = pseudoRandom(seed);
    this.up = new PathShaper(random, time);
    this.down = new PathShaper(random, time);
  }

  get isCut(): boolean {
    return this.cut !== 'none';
  }

  set(link: LinkConditions | null): void {
    this.up.set(link?.up ?? CLEAR_PATH);
    this.down.set(link?.down ?? CLEAR_PATH);
    const cut = link?.cut ?? 'none';
    if (cut === 'path' && this.cut !== 'path') this.cutUfrags = new Set(this.ufrags);
    this.cut = cut;
  }

  /** The transport answers checks with this ufrag from now on (its first, or one after an ICE restart). */
  answersTo(ufrag: string): void {
    this.ufrags.add(ufrag);
  }

  /**
   * Whether a verified check with this ufrag gets through: not while the path is cut, unless the
   * check comes on a new path (a `path` cut ends there, and is told).
   */
  admitsCheck(ufrag: string): boolean {
    if (this.cut === 'none') return true;
    if (this.cut === 'path' && !this.cutUfrags.has(ufrag)) {
      this.cut = 'none';
      this.onRecovered();
      return true;
    }
    return false;
  }

  /** What the page sends (arriving at the plane). */
  inbound(bytes: number, deliver: () => void): void {
    if (this.cut === 'none') this.up.pass(bytes, deliver);
  }

  /** What the plane sends the page. */
  outbound(bytes: number, deliver: () => void): void {
    if (this.cut === 'none') this.down.pass(bytes, deliver);
  }

  close(): void {
    this.up.close();
    this.down.close();
  }
}
