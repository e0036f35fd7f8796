// Where media flows, as a frontend developer's machine sees it: the service's web SDK in Debian's
// Chromium, against the emulator on the loopback. Every socket of the media plane's process is
// bound to 127.0.0.1 and every candidate the pages are given names it (read from the SDP the
// pages hold and from the kernel's socket tables); a browser that may not send UDP gets media over
// TCP, and when its media's paths are lost the SDK's own recovery (new transports) comes back over
// TCP too; and with every transport on one port, six pages in two meetings each decode exactly their
// own meeting's cameras (the two meetings' browsers have cameras of different shapes).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { pickHostPort } from '../../src/core/host-ports.js';
import { startEmulator, type NetworkState, type RunningEmulator } from '../../src/index.js';
import { endAll } from '../helpers/end-all.js';
import { socketsOf } from '../helpers/proc-sockets.js';
import { connections, decoded, decodingVideos, joinPage, received, transportsBack, type Decoded, type MediaState } from '../helpers/page-media.js';
import { CHROMIUM, SDKS, Frontend, addPerson, mediaHeld, readUntil, restOf, type Person } from '../helpers/web-sdk.js';

/** Generous: a shared CI machine can be slow; how fast media starts is measured by bench/media-network.ts, not here. */
const WAIT = 30_000;
/**
 * One SDK is enough here: the network under the media is the same for both, and so is their recovery
 * of a lost transport (both bundles stop the transport and set up a new one, 2 s after ICE reports
 * it disconnected, or at once when it failed).
 */
const SDK = SDKS[1];

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('media wherever the emulator runs', () => {
  let emu: RunningEmulator | undefined;
  const frontends: Frontend[] = [];

  afterEach(async () => {
    const ending = emu;
    emu = undefined;
    await endAll(...frontends.splice(0).map((f) => () => f.close()), () => ending?.close());
  });

  async function health(): Promise<{ plane_pid: number | null; listening: Record<string, unknown>; transports: number }> {
    return (
      (await (await fetch(`${emu!.url}/_emulator/health`)).json()) as {
        media: { plane_pid: number | null; listening: Record<string, unknown>; transports: number };
      }
    ).media;
  }

  async function meetingWith(...names: string[]): Promise<{ id: string; people: Person[] }> {
    const meeting = await restOf(emu!)<{ id: string }>('POST', '/v2/meetings', { title: names.join(' and ') });
    const people: Person[] = [];
    for (const name of names) people.push(await addPerson(emu!, meeting.id, name));
    return { id: meeting.id, people };
  }

  it(
    'on the loopback: a page publishes, another decodes it; every socket of the media plane is bound to 127.0.0.1 and every candidate the pages are offered names it',
    async () => {
      emu = await startEmulator({ seed: 'media on loopback', clock: 'manual', tlsPort: 0 });
      const frontend = await Frontend.start(SDK, emu);
      frontends.push(frontend);
      const [ada, bob] = (await meetingWith('Ada', 'Bob')).people;
      await joinPage(SDK, frontend, ada!, { audio: false, video: true });
      const b = await joinPage(SDK, frontend, bob!, { audio: false, video: false });
      expect((await decodingVideos(b, 1, WAIT)).length).toBe(1);

      const { plane_pid: pid, listening } = await health();
      const sockets = socketsOf(pid!);
      // One UDP socket and one TCP listener for every transport, and the pages' TCP connections if any.
      expect(sockets.filter((s) => s.protocol === 'udp')).toHaveLength(1);
      expect(sockets.filter((s) => s.state === 'LISTEN')).toHaveLength(1);
      expect(sockets.map((s) => s.address)).toEqual(sockets.map(() => '127.0.0.1'));
      const udp = sockets.find((s) => s.protocol === 'udp')!;
      const tcp = sockets.find((s) => s.state === 'LISTEN')!;
      expect(listening).toEqual({ address: '127.0.0.1', candidates: ['127.0.0.1'], udp_port: udp.port, udp_port_range: null, tcp_port: tcp.port, open: true });

      // What the emulator offered each of the pages' peer connections: its two ports on 127.0.0.1, nothing else.
      for (const page of frontend.opened) {
        const conns = await connections(page);
        expect(conns.length).toBeGreaterThan(0);
        for (const { offered } of conns) {
          const addresses = new Set(offered.map((line) => line.split(' ').slice(4, 6).join(':')));
          expect(addresses).toEqual(new Set([`127.0.0.1:${udp.port}`, `127.0.0.1:${tcp.port}`]));
        }
      }
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it(
    'a browser that may not send UDP gets media over TCP: the page decodes the other page and a bot, every connection is TCP at both ends',
    async () => {
      emu = await startEmulator({ seed: 'media over tcp', clock: 'manual', tlsPort: 0 });
      // Chromium's own switch: WebRTC sends no UDP that no proxy carries (and there is no proxy).
      const frontend = await Frontend.start(SDK, emu, ['--webrtc-ip-handling-policy=disable_non_proxied_udp']);
      frontends.push(frontend);
      const meeting = await meetingWith('Ada', 'Bob', 'Bot');
      const [ada, bob, bot] = meeting.people;
      const a = await joinPage(SDK, frontend, ada!, { audio: false, video: true });
      const b = await joinPage(SDK, frontend, bob!, { audio: false, video: false });
      const joined = await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${bot!.id}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ media: { video: true } }),
      });
      expect(joined.status).toBe(200);
      // Bob decodes Ada's camera and the bot's clip.
      const seen = await decodingVideos(b, 2, WAIT);
      expect(seen.map((v) => v.width).sort((x, y) => x - y)).toEqual([320, expect.any(Number)]);
      for (const page of [a, b]) {
        const conns = await connections(page);
        expect(conns.length).toBeGreaterThan(0);
        expect(conns.map((c) => [c.local, c.remote])).toEqual(conns.map(() => ['tcp', 'tcp']));
      }
      // The plane carries them on TCP connections to its one listener.
      const { plane_pid: pid, listening } = await health();
      const connected = () =>
        new Set(
          socketsOf(pid!)
            .filter((s) => s.state === 'ESTABLISHED')
            .map((s) => s.remotePort),
        );
      const first = connected();
      expect(first.size).toBeGreaterThanOrEqual(2);

      // The pages' connections are cut (as a proxy that drops them would; the kernel's own tool,
      // on this machine's loopback only): the browser connects again, and the video goes on.
      const frames = (videos: Decoded[]) => videos.reduce((sum, v) => sum + v.frames, 0);
      spawnSync('ss', ['-K', 'dst', '127.0.0.1', 'dport', '=', `:${String(listening.tcp_port)}`]);
      const again = await readUntil(
        async () => [...connected()],
        (ports) => ports.length >= 2 && ports.every((p) => !first.has(p)),
        WAIT,
      );
      expect(again.length).toBeGreaterThanOrEqual(2);
      expect(again.filter((p) => first.has(p))).toEqual([]);
      const cut = frames(await decoded(b));
      const resumed = await readUntil(
        () => decoded(b),
        (d) => d.length >= 2 && frames(d) > cut + 30,
        WAIT,
      );
      expect(frames(resumed)).toBeGreaterThan(cut + 30);
      for (const page of [a, b]) expect((await connections(page)).map((c) => c.local)).toEqual((await connections(page)).map(() => 'tcp'));
      expect(frontend.pageErrors).toEqual([]);
    },
    4 * WAIT,
  );

  it(
    "a browser that may not send UDP, its media paths lost: the SDK's own recovery builds new transports, over TCP again, and the other page decodes the video again",
    async () => {
      emu = await startEmulator({ seed: 'media drop over tcp', clock: 'manual', tlsPort: 0 });
      const frontend = await Frontend.start(SDK, emu, ['--webrtc-ip-handling-policy=disable_non_proxied_udp']);
      frontends.push(frontend);
      const meeting = await meetingWith('Ada', 'Bob');
      const [ada, bob] = meeting.people;
      const a = await joinPage(SDK, frontend, ada!, { audio: false, video: true });
      const b = await joinPage(SDK, frontend, bob!, { audio: false, video: false });
      expect((await decodingVideos(b, 1, WAIT)).length).toBe(1);
      await a.evaluate(RECORD_MEDIA_STATES);
      const before = await peerConnections(a);
      const connected = (pcs: PeerConnection[]) => pcs.filter((pc) => pc.state === 'connected');
      // Ada's two transports (she sends and receives), each on a TCP path.
      expect(connected(before)).toHaveLength(2);
      const bobBefore = connected(await peerConnections(b));
      expect(bobBefore.length).toBeGreaterThan(0);
      for (const pc of [...connected(before), ...bobBefore]) {
        expect(pc.pairs.length).toBeGreaterThan(0);
        expect(pc.pairs).toEqual(pc.pairs.map(() => ['tcp', 'tcp']));
      }

      // Her media's paths are lost: nothing passes either way on them, ICE checks included.
      const res = await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${ada!.id}/network`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scenario: 'media-drop' }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as NetworkState).participants[0]!.scenarios).toMatchObject([{ scenario: 'media-drop', paths_cut: 2 }]);
      const cut = await framesById(b);

      // The SDK tells the page each transport went, then that it is connected again.
      await transportsBack(() => a.evaluate<MediaState[]>('window.__mediaStates'), 3 * WAIT);
      // New transports, not the old ones come back: two new peer connections with ICE credentials of
      // their own at both ends, the old ones closed; every candidate pair of the new ones is TCP.
      const after = await readUntil(
        () => peerConnections(a),
        (pcs) => connected(pcs).length === 2 && connected(pcs).every((pc) => pc.index >= before.length && pc.pairs.length > 0),
        WAIT,
      );
      expect(connected(after).map((pc) => pc.index >= before.length)).toEqual([true, true]);
      expect(after.slice(0, before.length).map((pc) => pc.state)).toEqual(before.map(() => 'closed'));
      for (const pc of connected(after)) {
        expect(before.map((old) => old.localUfrag)).not.toContain(pc.localUfrag);
        expect(before.map((old) => old.remoteUfrag)).not.toContain(pc.remoteUfrag);
        expect(pc.pairs.length).toBeGreaterThan(0);
        expect(pc.pairs).toEqual(pc.pairs.map(() => ['tcp', 'tcp']));
      }
      // The emulator saw every path it cut replaced: the drop is over by itself.
      const network = await readUntil(
        async () => (await (await fetch(`${emu!.url}/_emulator/meetings/${meeting.id}/participants/${ada!.id}/network`)).json()) as NetworkState,
        (n) => n.participants[0]!.scenarios.length === 0,
        WAIT,
      );
      expect(network.participants[0]!.link.media).toBe('flowing');
      // Bob decodes Ada's camera again (on a stream he receives anew, or the one he had), still over TCP.
      const grown = (now: Record<string, number>) => Math.max(0, ...Object.entries(now).map(([id, frames]) => frames - (cut[id] ?? 0)));
      const resumed = await readUntil(
        () => framesById(b),
        (now) => grown(now) > 30,
        WAIT,
      );
      expect(grown(resumed)).toBeGreaterThan(30);
      const bobs = connected(await peerConnections(b));
      expect(bobs.length).toBeGreaterThan(0);
      for (const pc of bobs) expect(pc.pairs).toEqual(pc.pairs.map(() => ['tcp', 'tcp']));
      expect(frontend.pageErrors).toEqual([]);
    },
    6 * WAIT,
  );

  it(
    'one port for every transport: six pages in two meetings each decode the two other cameras of their own meeting and nothing of the other',
    async () => {
      // Outside the range the system hands out to outgoing connections: a port of that range, free
      // now, could be given to one of the browsers' connections before the plane binds it.
      const port = await pickHostPort();
      emu = await startEmulator({ seed: 'media one port', clock: 'manual', tlsPort: 0, mediaPort: port });
      // The two meetings' browsers: Chromium's own fake camera (16:9), and a square one made here.
      const dir = mkdtempSync(path.join(os.tmpdir(), 'square-camera-'));
      try {
        const square = path.join(dir, 'square.y4m');
        execFileSync('/usr/bin/ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=240x240:rate=15', '-t', '2', '-pix_fmt', 'yuv420p', square]);
        const wide = await Frontend.start(SDK, emu);
        frontends.push(wide);
        const squared = await Frontend.start(SDK, emu, [`--use-file-for-fake-video-capture=${square}`]);
        frontends.push(squared);
        const here = await meetingWith('Ada', 'Bob', 'Cleo');
        const there = await meetingWith('Dan', 'Eve', 'Fay');
        const pages = { here: [] as Page[], there: [] as Page[] };
        for (let i = 0; i < 3; i++) {
          pages.here.push(await joinPage(SDK, wide, here.people[i]!, { audio: false, video: true }));
          pages.there.push(await joinPage(SDK, squared, there.people[i]!, { audio: false, video: true }));
        }
        // Each page publishes its camera and receives the two others of its meeting.
        const held = await readUntil(
          () => mediaHeld(emu!),
          (m) => m.producers === 6 && m.consumers === 12,
          WAIT,
        );
        expect(held).toEqual({ transports: 12, producers: 6, consumers: 12 });
        const h = await health();
        expect(h.listening).toMatchObject({ udp_port: port, tcp_port: port, open: true });
        for (const [meeting, shape] of [
          ['here', (v: Decoded) => v.width * 9 === v.height * 16],
          ['there', (v: Decoded) => v.width === v.height],
        ] as const)
          for (const page of pages[meeting]) {
            const videos = await decodingVideos(page, 2, WAIT);
            // Two cameras, each of the page's own meeting's shape.
            expect(videos).toHaveLength(2);
            expect(videos.filter(shape)).toEqual(videos);
            // And the people it is told of are its own meeting's.
            const names = await page.evaluate(`[window.meeting.self.name, ...window.meeting.participants.joined.toArray().map((p) => p.name)].sort()`);
            expect(names).toEqual((meeting === 'here' ? here : there).people.map((p) => p.name).sort());
          }
        // The plane's one UDP socket is the port asked for, on the loopback.
        const udp = socketsOf(h.plane_pid!).filter((s) => s.protocol === 'udp');
        expect(udp).toEqual([{ protocol: 'udp', address: '127.0.0.1', port, remotePort: 0, state: undefined }]);
        expect(wide.pageErrors).toEqual([]);
        expect(squared.pageErrors).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    6 * WAIT,
  );
});

/** Records what the SDK tells the page of its media transports (meeting.meta mediaConnectionUpdate), from now on. */
const RECORD_MEDIA_STATES = `(() => {
  const states = (window.__mediaStates = []);
  window.meeting.meta.on('mediaConnectionUpdate', (s) => states.push({ transport: s.transport, state: s.state }));
})()`;

/** One of the page's peer connections, in the order the SDK made them: its state, the ICE ufrags of its two ends, and (while connected) the protocols of each candidate pair's two ends. */
interface PeerConnection {
  index: number;
  state: string;
  localUfrag: string | null;
  remoteUfrag: string | null;
  pairs: [string, string][];
}

const PEER_CONNECTIONS = `(async () => {
  const ufrag = (sdp) => ((sdp || '').match(/a=ice-ufrag:(\\S+)/) || [])[1] || null;
  const out = [];
  for (const [index, pc] of window.__pcs.entries()) {
    const pairs = [];
    if (pc.connectionState === 'connected') {
      const stats = new Map();
      (await pc.getStats()).forEach((s) => stats.set(s.id, s));
      for (const s of stats.values())
        if (s.type === 'candidate-pair') pairs.push([stats.get(s.localCandidateId)?.protocol, stats.get(s.remoteCandidateId)?.protocol]);
    }
    out.push({ index, state: pc.connectionState, localUfrag: ufrag(pc.localDescription?.sdp), remoteUfrag: ufrag(pc.remoteDescription?.sdp), pairs });
  }
  return out;
})()`;

const peerConnections = (page: Page): Promise<PeerConnection[]> => page.evaluate<PeerConnection[]>(PEER_CONNECTIONS);

/** The frames decoded so far of each video stream the page receives, by its peer connection and stats id. */
const framesById = async (page: Page): Promise<Record<string, number>> => Object.fromEntries((await received(page)).map((v) => [`${v.pc} ${v.id}`, v.frames]));
