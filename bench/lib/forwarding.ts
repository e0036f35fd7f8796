// One round of the media plane forwarding a page's video to receiving pages, measured from outside:
// a fresh plane in its own process (as the emulator runs it, from the built package: dist/src), werift
// pages in this process, and the plane's CPU read from /proc. Used by bench/media-network.ts and
// bench/srtp.ts.
import { existsSync } from 'node:fs';
import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import type { MediaEngine } from '../../src/realtime/media/engine.js';
import type { MediaNetwork } from '../../src/realtime/media/media-network.js';
import type { ProducerInfo } from '../../src/realtime/media/media-types.js';
import { cpuSeconds } from './proc.js';

const dist = new URL('../../dist/src/realtime/media/', import.meta.url);
if (!existsSync(new URL('process-engine.js', dist))) throw new Error('run npm run build first: this benchmark runs the built media plane');
const { ProcessMediaEngine } = (await import(new URL('process-engine.js', dist).href)) as typeof import('../../src/realtime/media/process-engine.js');
const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error } as unknown as ConstructorParameters<typeof ProcessMediaEngine>[0];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `ok()` holds, at most `ms`. */
export async function until(ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

export interface ForwardingOptions {
  seconds: number;
  /** Packets a second the publisher sends. */
  rate: number;
  viewers: number;
  /** Variables set in the plane's process only (it inherits this process's environment when it starts). */
  env?: Record<string, string>;
}

/** A process's CPU time so far, in ms. */
function cpuMs(pid: number): number {
  const seconds = cpuSeconds(pid);
  if (seconds === undefined) throw new Error(`the plane's process ${pid} is gone`);
  return seconds * 1000;
}

/** A page's transport as the SDK opens one: an offer with an audio and a video section, answered by the engine. */
export async function openPage(engine: MediaEngine, id: string, direction: 'send' | 'recv'): Promise<RTCPeerConnection> {
  const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle' });
  pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await pc.setRemoteDescription({ type: 'answer', sdp: await engine.openTransport(id, direction, pc.localDescription!.sdp) });
  return pc;
}

export interface Forwarding {
  cpuPerSecond: number;
  cpuPerThousand: number;
  delivered: number;
}

/** One round: a publisher and `viewers` receivers on a fresh plane placed as `network`; `seconds` of `rate` packets a second. */
export async function forwardingRound(
  network: MediaNetwork,
  round: string,
  { seconds: SECONDS, rate: RATE, viewers: VIEWERS, env = {} }: ForwardingOptions,
): Promise<Forwarding> {
  const engine = new ProcessMediaEngine(quiet, network);
  const pcs: RTCPeerConnection[] = [];
  try {
    // The plane's process starts with the first transport and inherits this process's variables:
    // `env` until it has started (nothing else starts a process meanwhile).
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const publisher = await openPage(engine, `pub-${round}`, 'send').finally(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
    pcs.push(publisher);
    const track = new MediaStreamTrack({ kind: 'video' });
    const transceiver = publisher.addTransceiver(track, { direction: 'sendonly' });
    await publisher.setLocalDescription(await publisher.createOffer());
    const info: ProducerInfo = {
      id: `cam-${round}`,
      peerId: 'publisher',
      participantId: 'publisher',
      kind: 'video',
      screenShare: false,
      appData: '{}',
      mimeType: 'video/VP8',
      transportId: `pub-${round}`,
    };
    await publisher.setRemoteDescription({ type: 'answer', sdp: await engine.produce(info, false, publisher.localDescription!.sdp, transceiver.mid!) });
    let received = 0;
    for (let i = 0; i < VIEWERS; i++) {
      const id = `view-${round}-${i}`;
      const viewer = await openPage(engine, id, 'recv');
      pcs.push(viewer);
      viewer.onTrack.subscribe((t) => t.onReceiveRtp.subscribe(() => received++));
      const { offer } = await engine.consume(id, [{ consumerId: `c-${round}-${i}`, producerId: info.id, layer: 'f' }]);
      await viewer.setRemoteDescription({ type: 'offer', sdp: offer });
      await viewer.setLocalDescription(await viewer.createAnswer());
      await engine.accept(id, viewer.localDescription!.sdp);
    }
    await until(() => pcs.every((pc) => pc.connectionState === 'connected'));
    const payloadType = Number(/^a=rtpmap:(\d+) VP8\//m.exec(publisher.localDescription!.sdp)![1]);
    // VP8 payload descriptor (S bit, partition 0) and 1000 bytes: a keyframe-sized packet of a 1–2 Mbit/s camera.
    const payload = Buffer.concat([Buffer.from([0x10]), Buffer.alloc(1000, 0x5a)]);
    let seq = 0;
    const send = (n: number) => {
      for (let i = 0; i < n; i++) {
        seq++;
        track.writeRtp(new RtpPacket(new RtpHeader({ payloadType, sequenceNumber: seq & 0xffff, timestamp: seq * 450, ssrc: 0x1234, marker: true }), payload));
      }
    };
    // A second of warm-up, then the measured spell.
    for (let t = 0; t < 10; t++) {
      send(RATE / 10);
      await sleep(100);
    }
    const pid = engine.pid!;
    const cpu0 = cpuMs(pid);
    const sent0 = seq;
    const start = performance.now();
    for (let tick = 1; performance.now() - start < SECONDS * 1000; tick++) {
      send(Math.round((tick * RATE) / 10) - Math.round(((tick - 1) * RATE) / 10));
      const next = start + tick * 100;
      await sleep(Math.max(0, next - performance.now()));
    }
    const seconds = (performance.now() - start) / 1000;
    const cpu = cpuMs(pid) - cpu0;
    const due = (seq - sent0) * VIEWERS;
    // What was still on its way arrives; then every packet sent, warm-up too, is counted at the pages.
    await sleep(500);
    return { cpuPerSecond: cpu / seconds, cpuPerThousand: (cpu / due) * 1000, delivered: received / (seq * VIEWERS) };
  } finally {
    for (const pc of pcs) await pc.close().catch(() => undefined);
    await engine.close();
  }
}
