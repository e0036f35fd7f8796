// The media part of the web SDK benchmark (bench/web-sdk.ts --media): audio and video through the
// emulator's SFU, with @cloudflare/realtimekit pages in Debian's Chromium on fake devices. The
// emulator runs as its own process (the command line, dist/bin), so that its CPU and memory are its
// own, read from /proc:
//
// - first frame: page B is in the meeting; page A turns its camera on (enableVideo()); the time from
//   the call until B has decoded A's first frame (Date.now() in both pages, one machine clock), over
//   N runs (A turns the camera off between runs and B sees it go);
// - a room of 6 pages, each publishing camera and microphone and receiving the other five (30
//   forwarded video streams, 30 audio): the emulator's CPU over 30 s, per forwarded video stream, the
//   packets it forwarded per second (what the pages received), and the longest gap in decoded frames
//   of any received video (a stall over 1 s is a failure);
// - memory: the emulator's RSS idle, with the room's transports open, and after the room emptied.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SDKS, launchTrusting, servePages } from '../../test/helpers/web-sdk.js';

const SDK = SDKS.find((s) => s.global === 'RealtimeKitClient')!;
const ROOM_PAGES = 6;
const ROOM_SECONDS = 30;

export interface MediaFigures {
  firstFrame: number[];
  room: {
    pages: number;
    videoStreams: number;
    seconds: number;
    cpuPercent: number;
    packetsPerSecond: number;
    longestGapMs: number;
    transports: number;
  };
  rss: { idle: number; full: number; afterEmpty: number };
}

/** The Kernel's view of a process: CPU ticks (user + system) and resident memory in bytes. */
function procStat(pid: number): { ticks: number; rss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { ticks, rss: rssKb * 1024 };
}
const TICKS_PER_SECOND = 100;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startEmulatorProcess(root: string): Promise<{ child: ChildProcess; url: string; tls: string }> {
  const [port, tlsPort] = [await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [path.join(root, 'dist', 'bin', 'meetings-emulator.js'), '--port', String(port), '--tls-port', String(tlsPort), '--clock', 'manual', '--log-level', 'warn'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('TLS (web SDK)')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the emulator exited (${code})`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, tls: `https://localhost:${tlsPort}` };
}

export async function mediaBench(root: string, runs: number): Promise<MediaFigures> {
  const emu = await startEmulatorProcess(root);
  const auth = `Basic ${Buffer.from('00000000-0000-4000-8000-000000000001:emulator-api-key').toString('base64')}`;
  const rest = async <T>(route: string, body: unknown): Promise<T> =>
    (
      (await (
        await fetch(`${emu.url}${route}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      ).json()) as { data: T }
    ).data;
  const health = async () => ((await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { transports: number } }).media;
  const { url: pagesUrl, server } = await servePages(SDK);
  const browser: Browser = await launchTrusting(emu.url);
  const base = new URL(emu.tls).host;
  try {
    const open = async (meetingId: string, name: string, media: { audio: boolean; video: boolean }): Promise<Page> => {
      const p = await rest<{ token: string }>(`/v2/meetings/${meetingId}/participants`, { name, preset_name: 'group_call_host', custom_participant_id: name });
      const page = await browser.newPage();
      await page.addInitScript(
        `(() => { const O = window.RTCPeerConnection; window.__pcs = []; window.RTCPeerConnection = function (...a) { const pc = new O(...a); window.__pcs.push(pc); return pc; }; window.RTCPeerConnection.prototype = O.prototype; Object.setPrototypeOf(window.RTCPeerConnection, O); })()`,
      );
      await page.goto(pagesUrl);
      await page.evaluate(
        `(async () => { window.meeting = await ${SDK.global}.init({ authToken: ${JSON.stringify(p.token)}, baseURI: ${JSON.stringify(base)}, defaults: ${JSON.stringify(media)} }); await window.meeting.join(); })()`,
      );
      return page;
    };
    await new Promise((r) => setTimeout(r, 1000));
    const idle = procStat(emu.child.pid!).rss;

    // 1. enableVideo() in A → first decoded frame in B.
    const m1 = await rest<{ id: string }>('/v2/meetings', { title: 'First frame' });
    const b = await open(m1.id, 'bob', { audio: false, video: false });
    const a = await open(m1.id, 'ada', { audio: false, video: false });
    const firstFrame: number[] = [];
    for (let i = 0; i < runs; i++) {
      const waiting = b.evaluate<number | null>(`(async () => {
        const deadline = Date.now() + 20000;
        while (Date.now() < deadline) {
          const ada = window.meeting.participants.joined.toArray().find((p) => p.name === 'ada');
          const track = ada && ada.videoEnabled ? ada.videoTrack : null;
          if (track) for (const pc of window.__pcs) for (const r of pc.getReceivers()) if (r.track && r.track.id === track.id) {
            let frames = 0; (await r.getStats()).forEach((s) => { if (s.type === 'inbound-rtp') frames = Math.max(frames, s.framesDecoded || 0); });
            if (frames > 0) return Date.now();
          }
          await new Promise((r) => setTimeout(r, 5));
        }
        return null;
      })()`);
      const called = Date.now();
      await a.evaluate(`window.meeting.self.enableVideo()`);
      const seen = await waiting;
      if (seen !== null) firstFrame.push(seen - called);
      await a.evaluate(`window.meeting.self.disableVideo()`);
      await b.waitForFunction(
        `(() => { const p = window.meeting.participants.joined.toArray().find((x) => x.name === 'ada'); return p && !p.videoEnabled; })()`,
        undefined,
        { timeout: 20_000 },
      );
      await b.waitForTimeout(300);
    }
    await a.close();
    await b.close();

    // 2. A room of six, everyone publishing camera and microphone.
    const m2 = await rest<{ id: string }>('/v2/meetings', { title: 'Room of six' });
    const pages: Page[] = [];
    for (let i = 0; i < ROOM_PAGES; i++) pages.push(await open(m2.id, `p${i}`, { audio: true, video: true }));
    // Per received video (its section's mid), the most frames of its reports: packets that came before
    // the answer was applied open a report of their own, which stays still.
    const sample = `(async () => { const out = {}; let packets = 0; let i = 0; for (const pc of window.__pcs) { i++; (await pc.getStats()).forEach((s) => { if (s.type === 'inbound-rtp') { packets += s.packetsReceived || 0; if (s.kind === 'video') { const k = i + ':' + s.mid; out[k] = Math.max(out[k] || 0, s.framesDecoded || 0); } } }); } return { frames: out, packets }; })()`;
    // Everyone receives the other five before the window opens.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const seen = await Promise.all(pages.map((p) => p.evaluate<{ frames: Record<string, number> }>(sample)));
      if (seen.every((s) => Object.values(s.frames).filter((f) => f > 0).length >= ROOM_PAGES - 1)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const full = procStat(emu.child.pid!).rss;
    const transports = (await health()).transports;
    const cpu0 = procStat(emu.child.pid!).ticks;
    const t0 = Date.now();
    const packets0 = (await Promise.all(pages.map((p) => p.evaluate<{ packets: number }>(sample)))).reduce((n, s) => n + s.packets, 0);
    const lastChange = new Map<string, { frames: number; at: number }>();
    let longestGap = 0;
    while (Date.now() - t0 < ROOM_SECONDS * 1000) {
      const now = Date.now();
      const seen = await Promise.all(pages.map((p) => p.evaluate<{ frames: Record<string, number> }>(sample)));
      seen.forEach((s, i) => {
        for (const [id, frames] of Object.entries(s.frames)) {
          const key = `${i}:${id}`;
          const last = lastChange.get(key);
          if (!last || frames > last.frames) lastChange.set(key, { frames, at: now });
          else longestGap = Math.max(longestGap, now - last.at);
        }
      });
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (Date.now() - t0) / 1000;
    const cpuPercent = ((procStat(emu.child.pid!).ticks - cpu0) / TICKS_PER_SECOND / seconds) * 100;
    const packets1 = (await Promise.all(pages.map((p) => p.evaluate<{ packets: number }>(sample)))).reduce((n, s) => n + s.packets, 0);
    for (const p of pages) await p.close();
    const emptied = Date.now() + 30_000;
    while (Date.now() < emptied && (await health()).transports > 0) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 5000));
    const afterEmpty = procStat(emu.child.pid!).rss;
    return {
      firstFrame,
      room: {
        pages: ROOM_PAGES,
        videoStreams: ROOM_PAGES * (ROOM_PAGES - 1),
        seconds,
        cpuPercent,
        packetsPerSecond: (packets1 - packets0) / seconds,
        longestGapMs: longestGap,
        transports,
      },
      rss: { idle, full, afterEmpty },
    };
  } finally {
    await browser.close();
    server.close();
    emu.child.kill('SIGTERM');
  }
}
