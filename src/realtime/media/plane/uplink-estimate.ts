// What the plane tells a publishing page of the bandwidth its uplink has: a receiver estimate
// (REMB, the `goog-remb` feedback the plane's answers carry) once a second on the page's send
// transport, as an SFU's receiving end does. The browser's congestion control takes it as the
// ceiling of what it sends; with no transport-wide feedback negotiated, it is the only estimate the
// browser gets beside the losses in the plane's receiver reports. So a page starts at a camera's
// full rate (the browser trusts a receiver's estimate in its first seconds), a simulcast sender
// turns its top layers on, and under a `bandwidth` cap it is told the cap and drops what does
// not fit.
import type { RTCPeerConnection } from 'werift';
import type { Werift } from './transport.js';

/**
 * The estimate of an uplink with no cap (bit/s): more than any camera the SDKs send needs, a
 * 720p camera as three simulcast layers included (about 3.2 Mbit/s in the browser's own
 * simulcast table), and no more: the browser sends up to it where the encoder is allowed to.
 */
export const OPEN_UPLINK_BPS = 3_500_000;
/** How often a publishing page is told (real ms). */
export const ESTIMATE_EVERY_MS = 1_000;

function realEvery(ms: number, fn: () => void): () => void {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** The estimate for an uplink capped at `capKbps` (null: no cap), in bit/s. */
export function uplinkEstimate(capKbps: number | null): number {
  return capKbps === null ? OPEN_UPLINK_BPS : Math.round(capKbps * 1000);
}

/** A bitrate as REMB writes it: an 18-bit mantissa and a 6-bit exponent (rounded down). */
export function rembBitrate(bps: number): { brMantissa: number; brExp: number } {
  let brMantissa = Math.max(0, Math.floor(bps));
  let brExp = 0;
  while (brMantissa >= 1 << 18) {
    brMantissa = Math.floor(brMantissa / 2);
    brExp++;
  }
  return { brMantissa, brExp };
}

/**
 * Tells a page's send transport its uplink's estimate, every ESTIMATE_EVERY_MS and at once when
 * the cap changes, once the page sends something. `capKbps` reads the cap in force.
 */
export class UplinkEstimate {
  private readonly stop: () => void;
  private closed = false;

  constructor(
    private readonly w: Werift,
    private readonly pc: Pick<RTCPeerConnection, 'getTransceivers'>,
    private readonly capKbps: () => number | null,
    /** Runs `fn` every `ms` until the answer is called: a real timer, or a test's. */
    every: (ms: number, fn: () => void) => () => void = realEvery,
  ) {
    this.stop = every(ESTIMATE_EVERY_MS, () => this.send());
  }

  /** Sends the estimate now (nothing while the page sends nothing, or after close). */
  send(): void {
    if (this.closed) return;
    // The SSRCs the page sends on (a simulcast layer's once its first packet came).
    const receiving = this.pc
      .getTransceivers()
      .map((t) => t.receiver)
      .filter((r) => Object.keys(r.trackBySSRC).length > 0);
    const via = receiving[0];
    if (!via) return;
    const ssrcs = receiving.flatMap((r) => Object.keys(r.trackBySSRC).map(Number));
    const remb = new this.w.ReceiverEstimatedMaxBitrate({
      senderSsrc: via.rtcpSsrc,
      mediaSsrc: 0,
      ssrcNum: ssrcs.length,
      ssrcFeedbacks: ssrcs,
      ...rembBitrate(uplinkEstimate(this.capKbps())),
    });
    void via.dtlsTransport.sendRtcp([new this.w.RtcpPayloadSpecificFeedback({ feedback: remb })]).catch(() => undefined);
  }

  close(): void {
    this.closed = true;
    this.stop();
  }
}
