// What a page on the emulator shows of its media, read in the page as chrome://webrtc-internals
// shows it: the SDK's peer connections kept from its first script on, the video each decodes, and
// the path (UDP or TCP) each connection took with the candidates the emulator offered it. Shared
// by the browser tests of the media network and the container's.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { readUntil, type Frontend, type Sdk } from './web-sdk.js';

/** Kept in the page before any script runs: every RTCPeerConnection the SDK makes. */
export const KEEP_PEER_CONNECTIONS = `(() => {
  const Original = window.RTCPeerConnection;
  window.__pcs = [];
  window.RTCPeerConnection = function (...args) { const pc = new Original(...args); window.__pcs.push(pc); return pc; };
  window.RTCPeerConnection.prototype = Original.prototype;
  Object.setPrototypeOf(window.RTCPeerConnection, Original);
})()`;

export interface Decoded {
  frames: number;
  width: number;
  height: number;
}

/** Every video stream the page receives, decoded or not, with what arrived of it (RTCInboundRtpStreamStats). */
const RECEIVED_SCRIPT = `(async () => {
  const out = [];
  for (const [pc, conn] of window.__pcs.entries()) {
    if (conn.connectionState === 'closed') continue;
    (await conn.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video')
        out.push({ pc, id: s.id, mid: s.mid, packets: s.packetsReceived ?? 0, frames: s.framesDecoded ?? 0, keyframes: s.keyFramesDecoded ?? 0, plis: s.pliCount ?? 0, width: s.frameWidth ?? 0, height: s.frameHeight ?? 0 });
    });
  }
  return out;
})()`;

export interface Received extends Decoded {
  /** The peer connection's index, in the order the SDK made them. */
  pc: number;
  /** The stream's stats id, its own within its peer connection. */
  id: string;
  mid: string;
  packets: number;
  keyframes: number;
  /** Keyframe requests the page sent. */
  plis: number;
}

export const received = (page: Page): Promise<Received[]> => page.evaluate<Received[]>(RECEIVED_SCRIPT);

/** For each connected peer connection of the page: the protocol of its selected candidate pair's two ends, and the candidates the emulator offered it. */
const CONNECTIONS_SCRIPT = `(async () => {
  const out = [];
  for (const pc of window.__pcs) {
    if (pc.connectionState !== 'connected') continue;
    const stats = new Map();
    (await pc.getStats()).forEach((s) => stats.set(s.id, s));
    const transport = [...stats.values()].find((s) => s.type === 'transport' && s.selectedCandidatePairId);
    const pair = transport && stats.get(transport.selectedCandidatePairId);
    out.push({
      local: pair ? stats.get(pair.localCandidateId)?.protocol : null,
      remote: pair ? stats.get(pair.remoteCandidateId)?.protocol : null,
      offered: (pc.remoteDescription?.sdp ?? '').split(/\\r?\\n/).filter((l) => l.startsWith('a=candidate:')),
    });
  }
  return out;
})()`;

export interface Connection {
  local: string | null;
  remote: string | null;
  offered: string[];
}

/**
 * A page of `frontend` joined as `p` with `sdk`: init() with the camera and microphone as asked, then
 * join(); `options` as Frontend.open takes them, and `initScript` runs in the page before its own
 * scripts, after the one that keeps its peer connections.
 */
export async function joinPage(
  sdk: Sdk,
  frontend: Frontend,
  p: { name: string; token: string },
  media: { audio: boolean; video: boolean },
  options: { fakeClock?: boolean; initScript?: string } = {},
): Promise<Page> {
  const page = await frontend.open(p, options.initScript === undefined ? KEEP_PEER_CONNECTIONS : `${KEEP_PEER_CONNECTIONS};\n${options.initScript}`, options);
  await page.evaluate(
    async ({ token, base, global, media }) => {
      const w = globalThis as unknown as Record<string, unknown> & { meeting: { join(): Promise<void> } };
      const client = w[global] as { init(options: unknown): Promise<{ join(): Promise<void> }> };
      w.meeting = await client.init({ authToken: token, baseURI: base, defaults: media });
      await w.meeting.join();
    },
    { token: p.token, base: frontend.base, global: sdk.global, media },
  );
  return page;
}

/** The video a page decodes, one entry per received stream that has decoded a frame. */
export const decoded = async (page: Page): Promise<Decoded[]> =>
  (await received(page)).filter((v) => v.frames > 0).map(({ frames, width, height }) => ({ frames, width, height }));

export const connections = (page: Page): Promise<Connection[]> => page.evaluate<Connection[]>(CONNECTIONS_SCRIPT);

/**
 * Waits (at most `waitMs`) until the page decodes `n` videos, each past a few frames; answers what it
 * decodes then. When it does not, every video stream the page receives is written to the test's
 * stderr (packets, keyframes, keyframe requests): whether a missing video never reached the page or
 * reached it undecodable.
 */
export async function decodingVideos(page: Page, n: number, waitMs: number): Promise<Decoded[]> {
  const enough = (d: Decoded[]) => d.length >= n && d.every((v) => v.frames > 5);
  const videos = await readUntil(() => decoded(page), enough, waitMs);
  if (!enough(videos)) process.stderr.write(`decodingVideos: ${n} asked; the page receives ${JSON.stringify(await received(page))}\n`);
  return videos;
}

/** What the SDK told the page of one of its media transports (meeting.meta mediaConnectionUpdate). */
export interface MediaState {
  transport: string;
  state: string;
}

/**
 * Waits (at most `waitMs`) until the SDK's media events, as `read` answers them in order, show each
 * transport (send and receive) disconnected and then connected again (one may come back before the
 * other); asserts it, and answers the events.
 */
export async function transportsBack(read: () => Promise<MediaState[]>, waitMs: number): Promise<MediaState[]> {
  const statesOf = (states: MediaState[], direction: string) => states.filter((s) => s.transport === direction).map((s) => s.state);
  const back = (states: MediaState[], direction: string) => {
    const mine = statesOf(states, direction);
    return mine.includes('disconnected') && mine.lastIndexOf('connected') > mine.indexOf('disconnected');
  };
  const states = await readUntil(read, (all) => back(all, 'send') && back(all, 'recv'), waitMs);
  for (const direction of ['send', 'recv']) expect(back(states, direction), `${direction}: ${statesOf(states, direction).join(' → ')}`).toBe(true);
  return states;
}
