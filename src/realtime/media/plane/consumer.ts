// One viewer's copy of a producer: a send-only section of the viewer's receive transport, fed from
// the producer's packets. werift's sender gives the copy the section's own SSRC and payload type;
// the consumer keeps its sequence numbers and timestamps continuous across a simulcast layer
// switch (the viewer's jitter buffer would stall on a jump), forwards one layer only, and passes
// the viewer's keyframe requests (PLI) to the producer.
import type { MediaStreamTrack, RTCRtpTransceiver, RtpPacket } from 'werift';
import type { Producer } from './producer.js';
import type { Werift } from './transport.js';
import { chooseLayer } from './layers.js';
/** The gap put between the last packet of one layer and the first of the next (90 kHz: one frame at 30 fps). */
const SWITCH_TIMESTAMP_GAP = 3_000;

export class Consumer {
  private readonly unsubscribe: Array<() => void> = [];
  /** The layer being forwarded (undefined before the first packet). */
  private layer: string | undefined;
  private seqOffset = 0;
  private tsOffset = 0;
  private lastSeq = 0;
  private lastTs = 0;
  private closed = false;

  constructor(
    readonly id: string,
    readonly producer: Producer,
    readonly transportId: string,
    readonly transceiver: RTCRtpTransceiver,
    private readonly track: MediaStreamTrack,
    private readonly werift: Werift,
    /** The layer the viewer asked for ('f' unless it said otherwise). */
    private preferred = 'f',
  ) {
    this.unsubscribe.push(producer.subscribe((packet, layer) => this.forward(packet, layer)));
    this.unsubscribe.push(producer.onClose(() => this.close()));
    this.unsubscribe.push(transceiver.sender.onPictureLossIndication.subscribe(() => producer.requestKeyframe(this.layer ?? this.chosenLayer())).unSubscribe);
    producer.requestKeyframe(this.chosenLayer());
  }

  /** The section's mid: the SDK names the consumer by it. */
  get mid(): string {
    return this.transceiver.mid ?? '';
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The viewer wants another simulcast layer: it is forwarded from its next keyframe. */
  prefer(layer: string): void {
    this.preferred = layer;
    const next = this.chosenLayer();
    if (next !== this.layer) this.producer.requestKeyframe(next);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const off of this.unsubscribe) off();
    this.unsubscribe.length = 0;
    this.track.stop();
    // The next offer of the transport marks the section inactive.
    this.transceiver.setDirection('inactive');
    this.transceiver.sender.stop();
  }

  /** The layer to forward: the one asked for, or the best below it among those the publisher still sends. */
  private chosenLayer(): string {
    return chooseLayer(this.producer.liveLayers(), this.preferred);
  }

  private forward(packet: RtpPacket, layer: string): void {
    if (this.closed) return;
    if (layer !== this.chosenLayer()) return;
    if (layer !== this.layer) {
      if (this.layer !== undefined) {
        // A switch: start on a keyframe, numbered right after the last packet sent.
        if (!this.isKeyframe(packet)) return this.producer.requestKeyframe(layer);
        this.seqOffset = (this.lastSeq + 1 - packet.header.sequenceNumber) & 0xffff;
        this.tsOffset = (this.lastTs + SWITCH_TIMESTAMP_GAP - packet.header.timestamp) >>> 0;
      }
      this.layer = layer;
    }
    const out = packet.clone();
    out.header.sequenceNumber = (packet.header.sequenceNumber + this.seqOffset) & 0xffff;
    out.header.timestamp = (packet.header.timestamp + this.tsOffset) >>> 0;
    this.lastSeq = out.header.sequenceNumber;
    this.lastTs = out.header.timestamp;
    this.track.writeRtp(out);
  }

  private isKeyframe(packet: RtpPacket): boolean {
    const mime = this.producer.info.mimeType.toLowerCase();
    if (mime === 'video/vp8') return this.werift.Vp8RtpPayload.deSerialize(packet.payload).isKeyframe;
    if (mime === 'video/vp9') return this.werift.Vp9RtpPayload.deSerialize(packet.payload).isKeyframe;
    return true;
  }
}
