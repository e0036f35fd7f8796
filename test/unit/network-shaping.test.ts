// What the network scenarios make of a participant's link (pure), and what the media plane's
// shaper does to the packets offered to it, on a clock driven by hand: losses at the rate asked
// (and the same ones every run), a delay that keeps the order, a capped rate with its queue's
// limit, a cut path that only a new ICE ufrag gets through; the simulcast layers a viewer
// may be given once the publisher stops sending one; and the estimate a publishing page is told
// of its uplink (REMB), as the browser reads it.
import { describe, expect, it, vi } from 'vitest';
import { linkOf, pathOf, type Scenario } from '../../src/realtime/network/network-conditions.js';
import { MAX_QUEUE_MS, PathShaper, TransportLink, type ShaperTime } from '../../src/realtime/media/plane/link-shaper.js';
import { pseudoRandom } from '../../src/core/ids.js';
import { LAYER_IDLE_MS, Producer } from '../../src/realtime/media/plane/producer.js';
import * as werift from 'werift';
import type { RtpPacket } from 'werift';
import { OPEN_UPLINK_BPS, UplinkEstimate, rembBitrate, uplinkEstimate } from '../../src/realtime/media/plane/uplink-estimate.js';

function scenario(name: Scenario['name'], value: number | null, direction: Scenario['direction'], participantId: string | null = 'p'): Scenario {
  return { id: 1, orgId: 'o', meetingId: 'm', participantId, name, direction, value, seconds: null, startedAt: 0, endsAt: null };
}

describe('a participant’s link from the scenarios in force', () => {
  it('is null when nothing applies, or only scenarios that do not touch media', () => {
    expect(linkOf([])).toBeNull();
    expect(linkOf([scenario('signal-outage', null, null)])).toBeNull();
  });

  it('takes the scenarios as links in series: losses compound, latencies add up, the narrowest cap wins; per direction', () => {
    const link = linkOf([
      scenario('loss', 10, 'up'),
      scenario('loss', 50, 'both', null),
      scenario('latency', 100, 'down'),
      scenario('latency', 40, 'both', null),
      scenario('bandwidth', 500, 'up'),
      scenario('bandwidth', 300, 'both', null),
    ]);
    expect(link).toEqual({
      up: { lossPercent: 55, latencyMs: 40, bandwidthKbps: 300 },
      down: { lossPercent: 50, latencyMs: 140, bandwidthKbps: 300 },
      cut: 'none',
    });
    expect(pathOf([scenario('loss', 100, 'up'), scenario('loss', 20, 'up')], 'up').lossPercent).toBe(100);
  });

  it('cuts every path while a media-drop for some seconds (or of a bot) is in force; a drop of the pages’ paths is not a lasting cut', () => {
    const lasting = { ...scenario('media-drop', null, null), cut: { mode: 'all' as const } };
    const paths = { ...scenario('media-drop', null, null), cut: { mode: 'path' as const, transports: new Set(['t1']) } };
    expect(linkOf([lasting])?.cut).toBe('all');
    expect(linkOf([paths])).toBeNull();
  });
});

/** A clock and timers moved by hand. */
class HandTime implements ShaperTime {
  now_ = 0;
  private timers: { at: number; fn: () => void }[] = [];
  now(): number {
    return this.now_;
  }
  after(ms: number, fn: () => void): () => void {
    const t = { at: this.now_ + ms, fn };
    this.timers.push(t);
    return () => (this.timers = this.timers.filter((x) => x !== t));
  }
  advance(ms: number): void {
    const end = this.now_ + ms;
    for (;;) {
      const next = this.timers.sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.now_ = next.at;
      next.fn();
    }
    this.now_ = end;
  }
  get pending(): number {
    return this.timers.length;
  }
}

describe('a path of the media plane', () => {
  it('passes everything at once when clear', () => {
    const out: number[] = [];
    const path = new PathShaper(pseudoRandom('x'), new HandTime());
    for (let i = 0; i < 5; i++) path.pass(100, () => out.push(i));
    expect(out).toEqual([0, 1, 2, 3, 4]);
  });

  it('loses packets at the rate asked, the same ones for the same seed', () => {
    const run = (seed: string) => {
      const kept: number[] = [];
      const path = new PathShaper(pseudoRandom(seed), new HandTime());
      path.set({ lossPercent: 20, latencyMs: 0, bandwidthKbps: null });
      for (let i = 0; i < 10_000; i++) path.pass(100, () => kept.push(i));
      return kept;
    };
    const kept = run('transport-1');
    expect(kept.length).toBeGreaterThan(7_800);
    expect(kept.length).toBeLessThan(8_200);
    expect(run('transport-1')).toEqual(kept);
    expect(run('transport-2')).not.toEqual(kept);
  });

  it('holds packets for the latency and keeps their order, also when the latency drops meanwhile', () => {
    const time = new HandTime();
    const out: string[] = [];
    const path = new PathShaper(pseudoRandom('x'), time);
    path.set({ lossPercent: 0, latencyMs: 200, bandwidthKbps: null });
    path.pass(100, () => out.push('a'));
    time.advance(50);
    path.set({ lossPercent: 0, latencyMs: 0, bandwidthKbps: null });
    path.pass(100, () => out.push('b'));
    time.advance(149);
    expect(out).toEqual([]);
    time.advance(1);
    expect(out).toEqual(['a', 'b']);
  });

  it('sends no faster than its cap, and drops what would wait in its queue past the limit', () => {
    const time = new HandTime();
    let delivered = 0;
    const path = new PathShaper(pseudoRandom('x'), time);
    // 100 kbit/s: a 1250-byte packet takes 100 ms to leave.
    path.set({ lossPercent: 0, latencyMs: 0, bandwidthKbps: 100 });
    for (let i = 0; i < 10; i++) path.pass(1250, () => delivered++);
    // Queued while the link was busy for less than the limit: 0, 100, 200 ms; the rest overflowed.
    expect(MAX_QUEUE_MS).toBe(200);
    expect(path.counts).toEqual({ passed: 3, lost: 0, overflowed: 7 });
    time.advance(100);
    expect(delivered).toBe(1);
    time.advance(200);
    expect(delivered).toBe(3);
    expect(time.pending).toBe(0);
  });

  it('lets nothing through once closed, and leaves no timer', () => {
    const time = new HandTime();
    let delivered = 0;
    const path = new PathShaper(pseudoRandom('x'), time);
    path.set({ lossPercent: 0, latencyMs: 500, bandwidthKbps: null });
    path.pass(100, () => delivered++);
    path.close();
    path.pass(100, () => delivered++);
    time.advance(1_000);
    expect(delivered).toBe(0);
    expect(time.pending).toBe(0);
  });
});

describe('a transport’s link', () => {
  it('a cut path passes nothing either way until a check comes with a new ufrag (an ICE restart), which ends the cut and is told', () => {
    let recovered = 0;
    const link = new TransportLink('t', () => recovered++, new HandTime());
    link.answersTo('old1');
    const clear = { lossPercent: 0, latencyMs: 0, bandwidthKbps: null };
    link.set({ up: clear, down: clear, cut: 'path' });
    let passed = 0;
    link.inbound(100, () => passed++);
    link.outbound(100, () => passed++);
    expect(link.admitsCheck('old1')).toBe(false);
    expect(passed).toBe(0);
    link.answersTo('new2');
    expect(link.admitsCheck('new2')).toBe(true);
    expect(recovered).toBe(1);
    link.inbound(100, () => passed++);
    link.outbound(100, () => passed++);
    expect(passed).toBe(2);
  });

  it('a cut of every path lets no check through, whatever its ufrag, until lifted', () => {
    const link = new TransportLink('t', () => undefined, new HandTime());
    const clear = { lossPercent: 0, latencyMs: 0, bandwidthKbps: null };
    link.set({ up: clear, down: clear, cut: 'all' });
    expect(link.admitsCheck('any')).toBe(false);
    link.set(null);
    expect(link.admitsCheck('any')).toBe(true);
  });
});

describe('the simulcast layers a viewer may be given', () => {
  it('are those the publisher still sends: a layer silent for a second is gone, until it sends again', () => {
    let now = 0;
    const producer = new Producer(
      { id: 'p', peerId: 'a', participantId: 'a', kind: 'video', screenShare: false, appData: '{}', mimeType: 'video/VP8', transportId: 't' },
      false,
      { requestKeyframe: () => undefined, close: () => undefined },
      () => now,
    );
    const packet = {} as RtpPacket;
    for (const layer of ['q', 'h', 'f']) producer.deliver(packet, layer);
    expect([...producer.liveLayers()].sort()).toEqual(['f', 'h', 'q']);
    now = LAYER_IDLE_MS;
    producer.deliver(packet, 'q');
    producer.deliver(packet, 'h');
    expect([...producer.liveLayers()].sort()).toEqual(['h', 'q']);
    now += 500;
    producer.deliver(packet, 'f');
    expect([...producer.liveLayers()].sort()).toEqual(['f', 'h', 'q']);
  });
});

describe('the estimate a publishing page is told of its uplink', () => {
  it('is the cap in force, or a generous figure with none; written as REMB writes it, never above what it stands for', () => {
    expect(uplinkEstimate(null)).toBe(OPEN_UPLINK_BPS);
    expect(uplinkEstimate(300)).toBe(300_000);
    for (const bps of [0, 1, 262_143, 262_144, 300_000, 3_500_000, 123_456_789]) {
      const { brMantissa, brExp } = rembBitrate(bps);
      expect(brMantissa).toBeLessThan(1 << 18);
      const written = brMantissa * 2 ** brExp;
      expect(written).toBeLessThanOrEqual(bps);
      expect(written).toBeGreaterThan(bps * (1 - 2 ** -17) - 1);
    }
  });

  it('goes to the page once a second and at once when asked, naming the SSRCs it sends on; nothing before it sends, nothing after close', () => {
    const sent: Buffer[] = [];
    const trackBySSRC: Record<string, unknown> = {};
    const receiver = {
      trackBySSRC,
      rtcpSsrc: 7,
      dtlsTransport: { sendRtcp: (packets: { serialize(): Buffer }[]) => Promise.resolve(sent.push(...packets.map((p) => p.serialize()))) },
    };
    const pc = { getTransceivers: () => [{ receiver }, { receiver: { ...receiver, trackBySSRC: {} } }] } as unknown as ConstructorParameters<
      typeof UplinkEstimate
    >[1];
    let cap: number | null = null;
    const ticks: Array<() => void> = [];
    let stopped = false;
    const estimate = new UplinkEstimate(
      werift,
      pc,
      () => cap,
      (ms, fn) => {
        expect(ms).toBe(1_000);
        ticks.push(fn);
        return () => (stopped = true);
      },
    );
    const told = () =>
      sent.splice(0).map((buf) => {
        const [packet] = werift.RtcpPacketConverter.deSerialize(buf);
        const remb = (packet as werift.RtcpPayloadSpecificFeedback).feedback as werift.ReceiverEstimatedMaxBitrate;
        expect(remb).toBeInstanceOf(werift.ReceiverEstimatedMaxBitrate);
        return { sender: remb.senderSsrc, bps: Number(remb.bitrate), ssrcs: remb.ssrcFeedbacks };
      });

    ticks[0]!();
    expect(told()).toEqual([]);
    trackBySSRC['1111'] = {};
    trackBySSRC['2222'] = {};
    ticks[0]!();
    expect(told()).toEqual([{ sender: 7, bps: rembBitrate(OPEN_UPLINK_BPS).brMantissa * 2 ** rembBitrate(OPEN_UPLINK_BPS).brExp, ssrcs: [1111, 2222] }]);
    cap = 300;
    estimate.send();
    expect(told()).toEqual([{ sender: 7, bps: 300_000, ssrcs: [1111, 2222] }]);
    estimate.close();
    expect(stopped).toBe(true);
    estimate.send();
    expect(told()).toEqual([]);
  });

  it('on its own timer by default: one interval while open, none once closed', () => {
    vi.useFakeTimers();
    try {
      const pc = { getTransceivers: () => [] } as unknown as ConstructorParameters<typeof UplinkEstimate>[1];
      const before = vi.getTimerCount();
      const estimate = new UplinkEstimate(werift, pc, () => null);
      expect(vi.getTimerCount()).toBe(before + 1);
      estimate.close();
      expect(vi.getTimerCount()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});
