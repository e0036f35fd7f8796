// Where media flows, as a frontend developer's machine sees it: the service's web SDK in Debian's
// Chromium, against the emulator on the loopback. Every socket of the media plane's process is
// bound to 127.0.0.1 and every candidate the pages are given names it (read from the SDP the
// pages hold and from the kernel's socket tables); a browser that may not send UDP gets media over
// TCP; and with every transport on one port, six pages in two meetings each decode exactly their
// own meeting's cameras (the two meetings' browsers have cameras of different shapes).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createSocket } from 'node:dgram';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { socketsOf } from '../helpers/proc-sockets.js';
import { connections, decoded, decodingVideos, joinPage, type Decoded } from '../helpers/page-media.js';
import { CHROMIUM, SDKS, Frontend, addPerson, readUntil, restOf, type Person } from '../helpers/web-sdk.js';

/** Generous: a shared CI machine can be slow; how fast media starts is measured by bench/media-network.ts, not here. */
const WAIT = 30_000;
/** One SDK is enough here: the network under the media is the same for both. */
const SDK = SDKS[1];

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('media wherever the emulator runs', () => {
  let emu: RunningEmulator | undefined;
  const frontends: Frontend[] = [];

  afterEach(async () => {
    for (const f of frontends.splice(0)) await f.close();
    await emu?.close();
    emu = undefined;
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
    'one port for every transport: six pages in two meetings each decode the two other cameras of their own meeting and nothing of the other',
    async () => {
      const port = await freePort();
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
        const h = await health();
        expect(h.transports).toBe(12);
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

/** A port free for both UDP and TCP on the loopback (the media port is both). */
async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    const udp = createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(port, '127.0.0.1', () => resolve(true));
    });
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (free) return port;
  }
}
