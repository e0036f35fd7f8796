// A published track: a page's camera, microphone or screen share, or a bot's clip. It hands every
// RTP packet of its source to the consumers subscribed to it, unless it is paused (a muted
// microphone, a camera turned off), and passes their keyframe requests back to the source,
// rate-limited. Closing it closes its consumers (they hear of it through onClose).
import type { RtpPacket } from 'werift';
import { realNow } from '../../../core/clock.js';
import { PublishedTrack, type ProducerInfo } from '../media-types.js';

/** Where a producer's packets come from: a page's track on the emulator's endpoint, or a clip. */
export interface ProducerSource {
  /** Asks the publisher for a keyframe of one simulcast layer ('' when it sends one). */
  requestKeyframe(layer: string): void;
  /** Told of each pause and resume (a clip stops playing that kind meanwhile). */
  paused?(paused: boolean): void;
  close(): void;
}

export type RtpListener = (packet: RtpPacket, layer: string) => void;

/** A viewer's decoder asks again after a lost keyframe; the publisher hears at most this often per layer (real ms). */
const KEYFRAME_REQUEST_GAP_MS = 300;
/**
 * A simulcast layer that sent nothing for this long is no longer sent (the publisher dropped it:
 * its bandwidth estimate fell, or its camera got smaller), so viewers take another (real ms).
 */
export const LAYER_IDLE_MS = 1_000;
/** How often the layers still sent are counted again (real ms). */
const LIVE_LAYERS_EVERY_MS = 200;

export class Producer extends PublishedTrack {
  private readonly listeners = new Set<RtpListener>();
  private readonly closeListeners = new Set<() => void>();
  private readonly lastKeyframeRequest = new Map<string, number>();
  /** The simulcast layers seen so far ('' for a single stream). */
  readonly layers = new Set<string>();
  /** When each layer last sent a packet (real ms). */
  private readonly lastSeen = new Map<string, number>();
  private live = new Set<string>();
  private liveCountedAt = -Infinity;

  constructor(
    info: ProducerInfo,
    paused: boolean,
    private readonly source: ProducerSource,
    private readonly now: () => number = realNow,
  ) {
    super(info, paused);
  }

  /** A packet from the publisher: every consumer gets it, unless the producer is paused. */
  deliver(packet: RtpPacket, layer = ''): void {
    this.layers.add(layer);
    if (this.info.kind === 'video') {
      this.lastSeen.set(layer, this.now());
      if (!this.live.has(layer)) this.liveCountedAt = -Infinity;
    }
    if (this.paused || this.closed) return;
    for (const listener of this.listeners) listener(packet, layer);
  }

  /**
   * The layers the publisher still sends (each sent within the last LAYER_IDLE_MS); all seen so
   * far while none is (a paused camera), or while it sends one stream.
   */
  liveLayers(): ReadonlySet<string> {
    if (this.layers.size <= 1) return this.layers;
    const now = this.now();
    if (now - this.liveCountedAt >= LIVE_LAYERS_EVERY_MS) {
      this.liveCountedAt = now;
      const live = new Set([...this.lastSeen].filter(([, at]) => now - at < LAYER_IDLE_MS).map(([layer]) => layer));
      this.live = live.size > 0 ? live : new Set(this.layers);
    }
    return this.live;
  }

  subscribe(listener: RtpListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Paused, nothing flows; on resume the viewers need a keyframe first. */
  setPaused(paused: boolean): void {
    const resumed = this.paused && !paused;
    this.paused = paused;
    this.source.paused?.(paused);
    if (resumed) for (const layer of this.layers) this.requestKeyframe(layer);
  }

  requestKeyframe(layer: string): void {
    if (this.closed || this.info.kind !== 'video') return;
    const now = this.now();
    if (now - (this.lastKeyframeRequest.get(layer) ?? -Infinity) < KEYFRAME_REQUEST_GAP_MS) return;
    this.lastKeyframeRequest.set(layer, now);
    this.source.requestKeyframe(layer);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.source.close();
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
  }
}
