// The media side of the web SDK, without media. In the Cloudflare SFU mode the SDK opens two
// WebRTC transports (send and receive) and waits for each to connect before it calls itself
// joined. The emulator answers each transport's offer with a WebRTC endpoint of its own (werift,
// a WebRTC stack in TypeScript), so the browser's ICE and DTLS really connect; no audio or video
// ever flows (the SDK's own error tells a page that enables them, see docs/frontend-offline.md).
//
// werift is loaded on the first transport: most runs never open one, and it costs start-up time.
import type { RTCPeerConnection as WeriftPeerConnection } from 'werift';

/** How long an answer may wait for the emulator's own ICE candidates (real ms). */
const GATHER_LIMIT_MS = 2_000;

export interface MediaAnswer {
  /** The SDP answer, its candidates inline (the SDK sends none after its offer). */
  sdp: string;
}

type Werift = typeof import('werift');

export class MediaTransports {
  private werift: Promise<Werift> | undefined;
  private readonly open = new Map<string, WeriftPeerConnection>();

  private load(): Promise<Werift> {
    this.werift ??= import('werift');
    return this.werift;
  }

  /**
   * Answers a transport's SDP offer as an ICE-lite endpoint (the role an SFU plays), listening
   * on every address of the machine. The endpoint lives until `close(id)`.
   */
  async answer(id: string, offerSdp: string): Promise<MediaAnswer> {
    const { RTCPeerConnection, useSdesMid, useSdesRTPStreamId, useRepairedRtpStreamId } = await this.load();
    this.close(id);
    const pc = new RTCPeerConnection({
      iceLite: true,
      bundlePolicy: 'max-bundle',
      // A simulcast offer (the SDK's send transport) is answerable only with the RID header
      // extensions: without them the browser refuses the answer.
      headerExtensions: { video: [useSdesMid(), useSdesRTPStreamId(), useRepairedRtpStreamId()], audio: [useSdesMid()] },
    });
    this.open.set(id, pc);
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      await pc.setLocalDescription(await pc.createAnswer());
      await gathered(pc);
      const sdp = pc.localDescription?.sdp;
      if (!sdp) throw new Error('no local description');
      return { sdp };
    } catch (err) {
      this.close(id);
      throw err;
    }
  }

  /** Ends a transport's endpoint (a leave, a closed socket); unknown ids are ignored. */
  close(id: string): void {
    const pc = this.open.get(id);
    if (!pc) return;
    this.open.delete(id);
    void pc.close().catch(() => undefined);
  }

  /** How many endpoints are open (the health of a room, tests). */
  get size(): number {
    return this.open.size;
  }

  closeAll(): void {
    for (const id of [...this.open.keys()]) this.close(id);
  }
}

function gathered(pc: WeriftPeerConnection): Promise<void> {
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
