// One WebRTC transport of a page: the SDK's send transport (the page publishes its camera,
// microphone and screen on it) or its receive transport (the emulator sends it the other
// participants' tracks). The emulator's end is a werift peer connection acting as an ICE-lite
// endpoint, the role an SFU plays, on the plane's shared sockets (ice-ports.ts): the emulator's own
// address, one UDP and one TCP port for every transport.
//
// Negotiation follows the SDK's Cloudflare-SFU mode: the page offers first (the transport's
// creation, each produce and each close); on the receive transport the emulator offers when it
// adds consumers, inside its answer to the consume request, and the page answers. Negotiations of
// one transport never overlap: each waits for the one before it.
//
// werift is loaded on the first transport: most runs never open one, and it costs start-up time.
import type { RTCPeerConnection, RTCRtpReceiver, RTCRtpTransceiver, RtpPacket } from 'werift';
import { TransportClosed } from '../../unserved.js';
import type { Direction, LinkConditions } from '../media-types.js';
import type { IcePorts, UdpPort } from './ice-ports.js';
import { TransportLink } from './link-shaper.js';
import { UplinkEstimate } from './uplink-estimate.js';

export type Werift = typeof import('werift');

/** How long an answer may wait for the emulator's own ICE candidates (real ms). */
const GATHER_LIMIT_MS = 2_000;
/**
 * werift reports a connection failed for a moment while a renegotiation is under way, and then
 * connected again: a transport is given up only when it is still failed this long after (real ms).
 * The emulator passes --media-failed-grace-ms (whose default is this same 5 s); this is the grace
 * of an engine made without the emulator's settings (benches, tests of the plane alone).
 */
const FAILED_GRACE_MS = 5_000;

let loaded: Werift | undefined;

export function loadWerift(): Promise<Werift> {
  return import('werift').then((w) => (loaded = w));
}

/** werift, once a loadWerift() has brought it (a transport, a bot's track, a warm()); undefined before. */
export function loadedWerift(): Werift | undefined {
  return loaded;
}

/**
 * The emulator's endpoint: ICE-lite, one bundle, no STUN or TURN server (it never reaches out), and
 * the codecs the SDKs publish (VP8 by default, VP9 from the Dyte SDK, Opus). A simulcast offer (the
 * SDK's send transport) is answerable only with the RID header extensions: without them the
 * browser refuses the answer.
 *
 * The sections the emulator adds later (consumers) share the bundle with the page's own, so they
 * must number codecs and header extensions as the page's first offer does: the browser refuses an
 * offer in which one number means two things. werift numbers its own from 96 and 1, so the numbers
 * are taken from that offer.
 */
function newPeerConnection(w: Werift, offerSdp: string, ports: IcePorts, udp: UdpPort, link: TransportLink): RTCPeerConnection {
  const numbers = sdpNumbers(offerSdp);
  // A codec the offer lacks (the Dyte SDK's first offer has no audio section) takes a number the
  // offer does not use, so that the bundle never gives one number two codecs.
  const used = new Set(numbers.allPayloadTypes);
  const pick = (name: string, preferred: number): number => {
    const own = numbers.payloadTypes.get(name);
    if (own !== undefined) return own;
    const free = [preferred, ...Array.from({ length: 32 }, (_, i) => 96 + i)].find((n) => !used.has(n)) ?? preferred;
    used.add(free);
    return free;
  };
  const pc = new w.RTCPeerConnection({
    iceLite: true,
    iceServers: [],
    bundlePolicy: 'max-bundle',
    codecs: {
      audio: [w.useOPUS({ payloadType: pick('opus', 111) })],
      video: [w.useVP8({ payloadType: pick('vp8', 96) }), w.useVP9({ payloadType: pick('vp9', 98), parameters: 'profile-id=0' })],
    },
    headerExtensions: { video: [w.useSdesMid(), w.useSdesRTPStreamId(), w.useRepairedRtpStreamId()], audio: [w.useSdesMid()] },
  });
  for (const ext of [...(pc.config.headerExtensions.audio ?? []), ...(pc.config.headerExtensions.video ?? [])]) {
    const id = numbers.extensions.get(ext.uri);
    if (id !== undefined) ext.id = id;
  }
  routeFeedbackToSenders(w, pc);
  routeLayersByMid(w, pc);
  gatherOn(pc, ports, udp, link);
  return pc;
}

/** What werift's peer connection keeps of its ICE transports (not in its types; werift is pinned to the version this was written for). */
interface SecureTransports {
  iceTransports: { connection: import('werift').Connection }[];
  gatherCandidates(remoteIsBundled: boolean): Promise<void>;
}

/**
 * The peer connection's ICE agents gather on the plane's sockets, never on sockets of their own:
 * each is handed to them before its first gathering (werift makes an agent per transport it needs,
 * when a description names it).
 */
function gatherOn(pc: RTCPeerConnection, ports: IcePorts, udp: UdpPort, link: TransportLink): void {
  const manager = (pc as unknown as { secureManager: SecureTransports }).secureManager;
  const gather = manager.gatherCandidates.bind(manager);
  manager.gatherCandidates = (remoteIsBundled) => {
    for (const transport of manager.iceTransports) ports.adopt(transport.connection, udp, link);
    return gather(remoteIsBundled);
  };
}

/** What werift's RTP router keeps (not in its types; werift is pinned to the version this was written for). */
interface RtcpRouter {
  ssrcTable: Record<number, { handleRtcpPacket(packet: unknown): void } | undefined>;
  routeRtcp(packet: { type: number; feedback?: { count: number; mediaSsrc?: number } }): void;
}

/**
 * A viewer's keyframe request (PLI, FIR) names the stream it is about by its media SSRC. werift
 * looks the packet's sender SSRC up first, and the browser sends it from the SSRC of one of its
 * own placeholder sections on the receive transport, so the request reached that section's
 * receiver and never the emulator's sender. The media SSRC decides here, as RFC 4585 means it to.
 */
function routeFeedbackToSenders(w: Werift, pc: RTCPeerConnection): void {
  const router = (pc as unknown as { router: RtcpRouter }).router;
  const original = router.routeRtcp.bind(router);
  router.routeRtcp = (packet) => {
    const feedback = packet.feedback;
    if (packet.type === w.RtcpPayloadSpecificFeedback.type && feedback && feedback.count !== w.ReceiverEstimatedMaxBitrate.count) {
      const target = feedback.mediaSsrc === undefined ? undefined : router.ssrcTable[feedback.mediaSsrc];
      if (target) return target.handleRtcpPacket(packet);
    }
    original(packet);
  };
}

/** What werift's RTP router keeps (not in its types; werift is pinned to the version this was written for). */
interface RtpRouter {
  extIdUriMap: Record<number, string>;
  routeRtp(packet: RtpPacket): void;
  registerRtpReceiver(receiver: RTCRtpReceiver, ssrc: number): void;
}

/**
 * werift finds the receiver of a simulcast layer by its RID alone, so that two simulcast sections on
 * one transport (web-core publishes its camera twice, in VP9 and VP8, each as layers `q` and `h`)
 * both land in the section negotiated last, mixed, and no viewer can decode either. The MID the
 * packet carries decides first here: a layer goes to its own section's receiver, which keeps its
 * SSRC for the packets that come later without MID and RID (the browser leaves them out once the
 * plane's reports have acknowledged the stream).
 */
function routeLayersByMid(w: Werift, pc: RTCPeerConnection): void {
  const router = (pc as unknown as { router: RtpRouter }).router;
  const original = router.routeRtp.bind(router);
  const ridUri = w.RTP_EXTENSION_URI.sdesRTPStreamID;
  router.routeRtp = (packet) => {
    // Only a packet that names its layer needs routing here; the rest (most of them, once the
    // layers are acknowledged) go straight to werift, which reads their extensions itself.
    if (!packet.header.extensions.some((e) => router.extIdUriMap[e.id] === ridUri)) return original(packet);
    const extensions = w.rtpHeaderExtensionsParser(packet.header.extensions, router.extIdUriMap);
    const rid: unknown = extensions[ridUri];
    const mid: unknown = extensions[w.RTP_EXTENSION_URI.sdesMid];
    const receiver = typeof mid === 'string' ? pc.getTransceivers().find((t) => t.mid === mid)?.receiver : undefined;
    if (typeof rid !== 'string' || !receiver?.trackByRID[rid]) return original(packet);
    router.registerRtpReceiver(receiver, packet.header.ssrc);
    receiver.latestRid = rid;
    receiver.sdesMid = mid as string;
    receiver.handleRtpByRid(packet, rid, extensions);
  };
}

/** The payload type of each codec (by lower-case name; VP9 profile 0 first) and the id of each header extension (by URI) in an SDP. */
export function sdpNumbers(sdp: string): { payloadTypes: Map<string, number>; allPayloadTypes: Set<number>; extensions: Map<string, number> } {
  const allPayloadTypes = new Set<number>();
  for (const [, list] of sdp.matchAll(/^m=\w+ \d+ \S+ ([\d ]+)$/gm)) for (const n of list!.trim().split(/\s+/)) allPayloadTypes.add(Number(n));
  const payloadTypes = new Map<string, number>();
  const extensions = new Map<string, number>();
  const fmtp = new Map<number, string>();
  for (const [, pt, params] of sdp.matchAll(/^a=fmtp:(\d+) (.*)$/gm)) fmtp.set(Number(pt), params!.trim());
  for (const [, pt, name] of sdp.matchAll(/^a=rtpmap:(\d+) ([^/\s]+)\//gm)) {
    const key = name!.toLowerCase();
    const n = Number(pt);
    if (key === 'vp9' && payloadTypes.has('vp9') && !/profile-id=0/.test(fmtp.get(payloadTypes.get('vp9')!) ?? '') && /profile-id=0/.test(fmtp.get(n) ?? ''))
      payloadTypes.set(key, n);
    else if (!payloadTypes.has(key)) payloadTypes.set(key, n);
  }
  for (const [, id, uri] of sdp.matchAll(/^a=extmap:(\d+)(?:\/\w+)? (\S+)/gm)) if (!extensions.has(uri!)) extensions.set(uri!, Number(id));
  return { payloadTypes, allPayloadTypes, extensions };
}

export class WebRtcTransport {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private failing: NodeJS.Timeout | undefined;
  /** Sections the page stopped (port 0 in its offer): rejected in every description the emulator sends after. */
  private readonly rejected = new Set<string>();
  /** What the page is told of its uplink's bandwidth (a send transport's only). */
  private readonly estimate: UplinkEstimate | undefined;

  private constructor(
    readonly id: string,
    readonly direction: Direction,
    readonly werift: Werift,
    readonly pc: RTCPeerConnection,
    /** The network between the page and the plane (network scenarios). */
    readonly link: TransportLink,
    /** Gives back the UDP socket the transport claimed (a port of a range), even if it never gathered on it. */
    private readonly release: () => void,
  ) {
    if (direction === 'send') this.estimate = new UplinkEstimate(werift, pc, () => link.up.capKbps);
  }

  /**
   * Opens a transport with the page's first offer and answers it. `onFailed` is told once when
   * ICE or DTLS fails for good (the page went away without a word: still failed `failedGraceMs`
   * after werift said so); `onRecovered` when the page restarts ICE on a transport whose path was
   * cut (network scenarios).
   */
  static async open(
    id: string,
    direction: Direction,
    offerSdp: string,
    ports: IcePorts,
    onFailed: () => void,
    onRecovered: () => void = () => undefined,
    failedGraceMs = FAILED_GRACE_MS,
  ): Promise<{ transport: WebRtcTransport; answer: string }> {
    const w = await loadWerift();
    const udp = await ports.claim();
    const link = new TransportLink(id, onRecovered);
    const transport = new WebRtcTransport(id, direction, w, newPeerConnection(w, offerSdp, ports, udp, link), link, () => ports.release(udp));
    transport.pc.connectionStateChange.subscribe((state) => {
      if (state !== 'failed' || transport.closed || transport.failing) return;
      transport.failing = setTimeout(() => {
        transport.failing = undefined;
        if (!transport.closed && transport.pc.connectionState === 'failed') onFailed();
      }, failedGraceMs).unref();
    });
    try {
      return { transport, answer: await transport.answer(offerSdp) };
    } catch (err) {
      transport.close();
      throw err;
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Answers an offer of the page (its first, a produce, a close): the SDP answer, candidates inline. */
  answer(offerSdp: string): Promise<string> {
    return this.serially(async () => {
      await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      await this.pc.setLocalDescription(await this.pc.createAnswer());
      await gathered(this.pc);
      for (const mid of rejectedMids(offerSdp)) this.rejected.add(mid);
      return rejecting(this.localSdp(), this.rejected);
    });
  }

  /** The emulator's offer (after adding consumers); the page's answer comes back through `accept`. */
  offer(): Promise<string> {
    return this.serially(async () => {
      await this.pc.setLocalDescription(await this.pc.createOffer());
      await gathered(this.pc);
      return rejecting(this.localSdp(), this.rejected);
    });
  }

  /** The page's answer to the emulator's last offer. */
  accept(answerSdp: string): Promise<void> {
    return this.serially(async () => {
      await this.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
    });
  }

  /** The network between the page and the plane changes: its packets are shaped so, and a publishing page is told its uplink's bandwidth at once. */
  shape(conditions: LinkConditions | null): void {
    this.link.set(conditions);
    this.estimate?.send();
  }

  transceiverOf(mid: string): RTCRtpTransceiver | undefined {
    return this.pc.getTransceivers().find((t) => t.mid === mid);
  }

  /** Ends the endpoint and frees what it held on the plane's sockets; a second call does nothing. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.failing);
    this.estimate?.close();
    this.link.close();
    void this.pc.close().catch(() => undefined);
    this.release();
  }

  /** One negotiation after the other; one the transport's close cuts short fails as TransportClosed, whatever werift says. */
  private serially<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      if (this.closed) throw new TransportClosed();
      try {
        return await step();
      } catch (err) {
        if (this.closed) throw new TransportClosed();
        throw err;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private localSdp(): string {
    const sdp = this.pc.localDescription?.sdp;
    if (!sdp) throw new Error('no local description');
    return sdp;
  }
}

/** The mids of the sections an SDP rejects (port 0: a transceiver the page stopped). */
export function rejectedMids(sdp: string): string[] {
  return sdp
    .split(/\r?\n(?=m=)/)
    .filter((section) => /^m=\w+ 0 /.test(section))
    .flatMap((section) => [...section.matchAll(/^a=mid:(\S+)/gm)].map((m) => m[1]!));
}

/**
 * The emulator's SDP with the page's stopped sections rejected as the browser requires: port 0 and
 * out of the BUNDLE group. werift keeps such a section bundled, which the browser refuses ("a
 * BUNDLE group contains a MID that was not in the offered group").
 */
export function rejecting(sdp: string, mids: ReadonlySet<string>): string {
  if (mids.size === 0) return sdp;
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const sections = sdp.split(/\r?\n(?=m=)/);
  const out = sections.map((section, i) => {
    if (i === 0)
      return section.replace(
        /^a=group:BUNDLE (.*)$/m,
        (_, list: string) =>
          `a=group:BUNDLE ${list
            .split(' ')
            .filter((m) => !mids.has(m))
            .join(' ')}`,
      );
    const mid = /^a=mid:(\S+)/m.exec(section)?.[1];
    return mid !== undefined && mids.has(mid) ? section.replace(/^m=(\w+) \d+ /, 'm=$1 0 ') : section;
  });
  return out.join(eol);
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, GATHER_LIMIT_MS);
    const { unSubscribe } = pc.iceGatheringStateChange.subscribe((state) => {
      if (state === 'complete') done();
    });
    function done() {
      clearTimeout(timer);
      unSubscribe();
      resolve();
    }
  });
}
