// The recorder's way into a published track: it takes the track's packets the way a viewer does
// (one simulcast layer, the best; a keyframe asked for at the start and after any loss) but,
// being in the media plane itself, without a transport. Out come whole frames: a VP8 or VP9
// picture from a keyframe on, or an Opus packet, each stamped with the real time it arrived.
import type { RtpPacket } from 'werift';
import { realMonotonicNow } from '../../../../core/clock.js';
import { chooseLayer } from '../layers.js';
import type { Producer } from '../producer.js';
import type { Werift } from '../transport.js';

export type TrackCodec = 'VP8' | 'VP9' | 'OPUS';

export interface TappedFrame {
  data: Buffer;
  keyframe: boolean;
  /** Real ms (monotonic) when its last packet arrived. */
  at: number;
}

/** The codec of a track, by the MIME type it was published with; undefined for one the recorder cannot decode. */
export function trackCodec(mimeType: string): TrackCodec | undefined {
  const m = mimeType.toLowerCase();
  return m === 'video/vp8' ? 'VP8' : m === 'video/vp9' ? 'VP9' : m === 'audio/opus' ? 'OPUS' : undefined;
}

export class TrackTap {
  private readonly unsubscribe: Array<() => void> = [];
  private layer: string | undefined;
  private packets: RtpPacket[] = [];
  private waitingForKeyframe = true;
  private closed = false;

  constructor(
    private readonly producer: Producer,
    readonly codec: TrackCodec,
    private readonly werift: Pick<Werift, 'dePacketizeRtpPackets' | 'Vp8RtpPayload' | 'Vp9RtpPayload'>,
    private readonly onFrame: (frame: TappedFrame) => void,
    private readonly now: () => number = realMonotonicNow,
  ) {
    this.unsubscribe.push(producer.subscribe((packet, layer) => this.packet(packet, layer)));
    this.unsubscribe.push(producer.onClose(() => this.close()));
    producer.requestKeyframe(chooseLayer(producer.layers, 'f'));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Asks the publisher for a keyframe (a decoder that starts again needs one). */
  requestKeyframe(): void {
    if (this.codec === 'OPUS') return;
    this.waitingForKeyframe = true;
    this.producer.requestKeyframe(this.layer ?? chooseLayer(this.producer.layers, 'f'));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const off of this.unsubscribe) off();
    this.unsubscribe.length = 0;
    this.packets = [];
  }

  private packet(packet: RtpPacket, layer: string): void {
    if (this.closed) return;
    const wanted = chooseLayer(this.producer.layers, 'f');
    if (layer !== wanted) return;
    if (layer !== this.layer) {
      // A layer of its own numbering: start it on a keyframe.
      this.layer = layer;
      this.packets = [];
      if (this.codec !== 'OPUS') this.requestKeyframe();
    }
    if (this.codec === 'OPUS') {
      if (packet.payload.length > 0) this.onFrame({ data: packet.payload, keyframe: true, at: this.now() });
      return;
    }
    const last = this.packets.at(-1);
    if (last && last.header.timestamp !== packet.header.timestamp) {
      // The previous picture never saw its last packet: it is lost.
      this.lost();
    }
    this.packets.push(packet);
    if (packet.header.marker) this.picture();
  }

  /** The packets of one picture are in: whole (no sequence gap) it is a frame; else it is lost. */
  private picture(): void {
    const packets = this.packets.sort((a, b) => seqDiff(a.header.sequenceNumber, b.header.sequenceNumber));
    this.packets = [];
    for (let i = 1; i < packets.length; i++) if (seqDiff(packets[i - 1]!.header.sequenceNumber, packets[i]!.header.sequenceNumber) !== -1) return this.lost();
    // Its first packets lost: the rest has no picture's head.
    if (!this.startsPicture(packets[0]!)) return this.lost();
    let frame: { data: Buffer; isKeyframe: boolean };
    try {
      frame = this.werift.dePacketizeRtpPackets(this.codec, packets);
    } catch {
      return this.lost();
    }
    if (frame.data.length === 0) return;
    // Still no keyframe: ask again (the publisher hears at most one request per layer every 300 ms;
    // one made before its first packet named no stream).
    if (this.waitingForKeyframe && !frame.isKeyframe) return this.producer.requestKeyframe(this.layer ?? '');
    this.waitingForKeyframe = false;
    this.onFrame({ data: frame.data, keyframe: frame.isKeyframe, at: this.now() });
  }

  private startsPicture(packet: RtpPacket): boolean {
    try {
      const head = this.codec === 'VP8' ? this.werift.Vp8RtpPayload.deSerialize(packet.payload) : this.werift.Vp9RtpPayload.deSerialize(packet.payload);
      return Boolean(head.isPartitionHead);
    } catch {
      return false;
    }
  }

  private lost(): void {
    this.packets = [];
    this.requestKeyframe();
  }
}

/** a − b in 16-bit sequence space (negative when a comes first). */
function seqDiff(a: number, b: number): number {
  return ((a - b + 0x8000) & 0xffff) - 0x8000;
}
