// The media part of the web SDK benchmark (bench/web-sdk.ts --media): audio and video through the
// emulator's SFU, with @cloudflare/realtimekit pages in Debian's Chromium on fake devices. The
// emulator runs as its own process (the command line, dist/bin) with --expose-gc and
// bench/lib/media-probe.mjs, so that its CPU and memory are its own (read from /proc), a memory
// reading follows a full garbage collection, and its event loop's delay is measured inside it.
//
// - first frame: page B is in the meeting; page A turns its camera on (enableVideo()); the time from
//   the call until B has decoded A's first frame (Date.now() in both pages, one machine clock), over
//   N runs (A turns the camera off between runs and B sees it go);
// - toggles: A turns its camera off and on, its microphone off and on; the time from the call until
//   B's SDK shows the change (the participant's videoEnabled / audioEnabled), over N runs each;
// - a room of 6 pages, each publishing camera and microphone and receiving the other five (30
//   forwarded video streams, 30 audio), for 30 s: the emulator's CPU, per forwarded video stream,
//   the packets it forwarded per second (what the pages received), Chromium's CPU, the emulator's
//   event-loop delay, and the longest gap between decoded frames of any received video (sampled in
//   each page every 100 ms; a stall over 1 s is a failure), with what happened during it: did
//   packets keep arriving, did the publisher's encoder stall too, how late did the emulator's event
//   loop run, how late did the page's own sampling run; and how much the machine starved the
//   processes: the share of the window the emulator's main thread waited, runnable, for a CPU, and
//   how many of Chromium's threads waited on average (/proc/<pid>/task/<tid>/schedstat);
// - the same room through werift alone (bench/lib/werift-relay.ts: each packet written straight to
//   the subscribers' senders, no emulator code), in the same run: its CPU per forwarded stream, so
//   that the emulator's own cost per packet shows as a ratio;
// - memory: the emulator's RSS (by kind of mapping) and V8 heap idle, with the room's transports
//   open, and after the room emptied, each after a full garbage collection; with `cycles` the room
//   fills and empties again, to tell memory kept for reuse from memory that grows. Each idle is
//   also read again after SETTLE_SECONDS of real time with no traffic (V8 gives back the young
//   generation it grew under traffic only once allocation has slowed, and unmaps freed pages on a
//   background thread): the idle before anything (cold), the idle after one page with its camera
//   on opened and closed its transports (warmed: werift and the protobuf code loaded and
//   compiled), and after each room, left alone 10 s and SETTLE_SECONDS (no collection), then after
//   a full collection. Heap snapshots (idle, full, after) and CPU profiles of the window are
//   written on request.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { SDKS, launchTrusting, servePages } from '../../test/helpers/web-sdk.js';
import { cpuSeconds, parentId, processIds } from './proc.js';

const SDK = SDKS.find((s) => s.global === 'RealtimeKitClient')!;
/** The room's pages by default (the goal's room of six). */
const ROOM_PAGES = 6;
const ROOM_SECONDS = 30;
/** How long an idle emulator is left alone (real time, no traffic) before its memory is read again (s), by default. */
const SETTLE_SECONDS = 30;
/** A received video that goes longer than this without a new decoded frame is recorded as a gap (ms). */
const GAP_MS = 300;
const STALL_MS = 1_000;

export interface Memory {
  /**
   * The process's resident memory, with its children's own (the emulator's media plane runs in a
   * child while a room carries media): the memory only a child maps, which goes back to the system
   * when it exits (the code both map, Node's binary, is counted once, in the parent).
   */
  rss: number;
  /** Of it, the children's own (private) memory, read without a garbage collection in them. */
  childrenRss?: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Resident memory by kind of mapping (Linux only): the main thread's malloc heap, other threads' malloc arenas, other anonymous maps (V8's heap, large mallocs, stacks), files (code). */
  mappings?: { brk: number; arenas: number; anonymous: number; files: number };
  /** V8's heap by space (new_space, old_space, code_space, …): committed and used bytes. */
  spaces?: Record<string, { committed: number; used: number }>;
}

/** An idle emulator's memory read at once and again after SETTLE_SECONDS with no traffic (each after a full collection). */
export interface Settled {
  atOnce: Memory;
  later: Memory;
}

/** After a room emptied: at once (after a full collection), left alone 10 s and SETTLE_SECONDS (no collection), then after one. */
export interface AfterRoom {
  atOnce: Memory;
  left10: Memory;
  leftSettled: Memory;
  later: Memory;
}

/** What the pages saw of one room (the emulator's or werift's alone). */
export interface RoomFigures {
  pages: number;
  videoStreams: number;
  seconds: number;
  /** The forwarding process's CPU over the window, % of one core. */
  cpuPercent: number;
  /** Chromium's, all its processes (the six pages encode and decode). */
  chromiumCpuPercent: number;
  packetsPerSecond: number;
  /** The width of the received videos (the forwarded layer), median. */
  width: number;
  /** The width of each layer the pages published (by rid), median over the pages. */
  published: Record<string, number>;
  /** Connections of the pages that failed or disconnected during the window, and connections the pages made in all. */
  troubles: number;
  connections: number;
  longestGap: Gap | null;
  gapsOverStall: number;
  /** Chrome's own freeze count over the received videos (webrtc-stats freezeCount: a frame later than three times the average, or by more than 150 ms), and their total length (s), during the window. */
  freezes: number;
  freezeSeconds: number;
  /** The forwarding process's event-loop delay over the window (ms). */
  loop: { p50: number; p99: number; max: number };
  /** Its garbage collections over the window: how many, their total and longest pause, the longest full (mark-compact) one (ms). */
  gc: { count: number; totalMs: number; maxMs: number; majorMaxMs: number };
  /** Its main thread: the share of the window it ran, and the share it waited, runnable, for a CPU the machine gave others. */
  mainThread: { runPercent: number; waitPercent: number };
  /** Chromium's threads waiting for a CPU, on average over the window (thread-seconds per second). */
  chromiumWaitingThreads: number;
  /** The longest a page's own 100 ms sampling loop was late, over all pages (ms): a page starved of CPU. */
  pageLagMs: number;
  load: { start: number[]; end: number[] };
}

/** A received video's longest time without a new decoded frame, and what happened meanwhile. */
export interface Gap {
  ms: number;
  receiver: string;
  publisher: string;
  /** Packets of that video that arrived during the gap. */
  packets: number;
  lost: number;
  /** Keyframe requests (PLI) the receiver sent during it. */
  plis: number;
  /** The publisher's longest pause in encoding each simulcast layer overlapping the gap (ms; 0: none over 300 ms), by layer. */
  encoderPauseMs: Record<string, number>;
  /** The forwarding process's worst event-loop delay during the gap (ms). */
  loopMaxMs: number;
  /** The receiving page's worst sampling lateness during the gap (ms). */
  pageLagMs: number;
}

export interface MediaFigures {
  firstFrame: number[];
  toggles: Record<ToggleName, number[]>;
  room: RoomFigures;
  baseline: RoomFigures;
  /**
   * `idle`: before anything (cold); `warmed`: after one page with its camera on opened and closed its transports;
   * `full` and `afterEmpty`: each time the room is full and after it emptied (it fills and empties
   * `cycles` times; only the first is measured).
   */
  memory: { idle: Settled; warmed: Settled; full: Memory[]; afterEmpty: AfterRoom[]; transports: number; settleSeconds: number; trimmed?: Memory };
}

export type ToggleName = 'video off' | 'video on' | 'microphone off' | 'microphone on';

/** A process's CPU seconds with its descendants' (the emulator with its media plane). */
function treeCpuSeconds(pid: number): number {
  const own = cpuSeconds(pid);
  if (own === undefined) throw new Error(`process ${pid} is gone`);
  // A descendant gone meanwhile counts nothing.
  return descendants([], pid).reduce((sum, child) => sum + (cpuSeconds(child) ?? 0), own);
}

/** A process's private resident memory in bytes (Private_Clean + Private_Dirty of /proc/<pid>/smaps_rollup); 0 once it is gone. */
function privateMemory(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return [...text.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+) kB/gm)].reduce((sum, m) => sum + Number(m[1]) * 1024, 0);
  } catch {
    return 0;
  }
}

/** What the scheduler did for a thread: time on a CPU and time waiting, runnable, for one (ns; /proc/<pid>/task/<tid>/schedstat). */
function schedstat(pid: number, tid = pid): { run: number; wait: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { run: run!, wait: wait! };
  } catch {
    return { run: 0, wait: 0 };
  }
}

/** The pids of this process's descendants but those named and theirs (Chromium's processes, when the children are named); of `root`'s, when given. */
function descendants(except: number[], root = process.pid): number[] {
  const parent = new Map<number, number>();
  for (const entry of processIds()) {
    const ppid = parentId(entry);
    // A process gone meanwhile is left out.
    if (ppid !== undefined) parent.set(Number(entry), ppid);
  }
  const excluded = new Set(except);
  const out: number[] = [];
  for (const pid of parent.keys()) {
    if (excluded.has(pid)) continue;
    let p = parent.get(pid);
    while (p !== undefined && p > 1) {
      if (excluded.has(p)) break;
      if (p === root) {
        out.push(pid);
        break;
      }
      p = parent.get(p);
    }
  }
  return out;
}

/** Chromium's CPU seconds, and the time its threads waited for a CPU (ns), summed over its processes. */
function chromiumUse(except: number[]): { cpu: number; wait: number } {
  let cpu = 0;
  let wait = 0;
  for (const pid of descendants(except)) {
    try {
      cpu += cpuSeconds(pid) ?? 0;
      for (const tid of readdirSync(`/proc/${pid}/task`)) wait += schedstat(pid, Number(tid)).wait;
    } catch {
      // gone meanwhile
    }
  }
  return { cpu, wait };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A measured child process: the probe (bench/lib/media-probe.mjs) answers over its IPC channel. */
class Measured {
  private seq = 0;

  constructor(readonly child: ChildProcess) {}

  get pid(): number {
    return this.child.pid!;
  }

  ask<T>(probe: string, extra: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.seq;
    return new Promise((resolve) => {
      const listen = (msg: { probe?: string; id?: number }) => {
        if (msg.id !== id) return;
        this.child.off('message', listen);
        resolve(msg as T);
      };
      this.child.on('message', listen);
      this.child.send({ probe, id, ...extra });
    });
  }

  /** Its memory, after a full garbage collection unless `collect` is false, with its children's resident memory. */
  async memory(collect = true): Promise<Memory> {
    const own = await this.ask<Memory>('memory', { gc: collect });
    const childrenRss = descendants([], this.pid).reduce((sum, pid) => sum + privateMemory(pid), 0);
    return { ...own, rss: own.rss + childrenRss, childrenRss };
  }

  /** Its memory read now and after `seconds` of real time left alone (each after a full collection). */
  async settled(seconds = SETTLE_SECONDS): Promise<Settled> {
    const atOnce = await this.memory();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    return { atOnce, later: await this.memory() };
  }

  /** After a room emptied: at once, left alone 10 s and `seconds` (no collection), then after a collection. */
  async afterRoom(seconds = SETTLE_SECONDS): Promise<AfterRoom> {
    const started = Date.now();
    const atOnce = await this.memory();
    const at = (s: number) => new Promise((r) => setTimeout(r, started + s * 1000 - Date.now()));
    await at(10);
    const left10 = await this.memory(false);
    await at(seconds);
    const leftSettled = await this.memory(false);
    return { atOnce, left10, leftSettled, later: await this.memory() };
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}

function measured(root: string, args: string[], ready: (out: string) => boolean, env: Record<string, string> = {}): Promise<{ proc: Measured; out: string }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', pathToFileURL(path.join(root, 'bench', 'lib', 'media-probe.mjs')).href, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready(out)) resolve({ proc: new Measured(child), out });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code})`)));
  });
}

async function startEmulatorProcess(root: string, env: Record<string, string> = {}): Promise<{ proc: Measured; url: string; tls: string }> {
  const [port, tlsPort] = [await freePort(), await freePort()];
  const bin = path.join(root, 'dist', 'bin', 'meetings-emulator.js');
  const { proc } = await measured(
    root,
    // No RTMP ingest: its fixed default ports could be another emulator's on the machine.
    [bin, '--port', String(port), '--tls-port', String(tlsPort), '--rtmp-port', '0', '--rtmps-port', '0', '--clock', 'manual', '--log-level', 'warn'],
    (out) => out.includes('TLS (web SDK)'),
    env,
  );
  return { proc, url: `http://127.0.0.1:${port}`, tls: `https://localhost:${tlsPort}` };
}

async function startRelay(root: string): Promise<{ proc: Measured; url: string }> {
  const { proc, out } = await measured(root, ['--import', 'tsx', path.join(root, 'bench', 'lib', 'werift-relay.ts')], (o) => o.includes('"url"'));
  return { proc, url: (JSON.parse(out.trim().split('\n')[0]!) as { url: string }).url };
}

/**
 * Run in a page: samples every received video and the page's own published video every 100 ms
 * (getStats of every RTCPeerConnection the page made), and records each time a received video went
 * more than GAP_MS without a new decoded frame, and each time the page's encoder did. `NAME_OF` names
 * the publisher of an inbound-rtp report. window.__sampler.stop() answers what it saw.
 */
function samplerScript(nameOf: string): string {
  return `(() => {
    const GAP = ${GAP_MS};
    const nameOf = ${nameOf};
    const streams = {};
    const encoders = {};
    const gaps = [];
    const encoderGaps = [];
    const lags = [];
    const published = {};
    // The page's connections that fail or disconnect meanwhile (the SDK then rebuilds its transport).
    const troubles = [];
    const watched = new Set();
    const watch = () => { for (const pc of window.__pcs) if (!watched.has(pc)) { watched.add(pc); pc.addEventListener('connectionstatechange', () => { if (pc.connectionState === 'failed' || pc.connectionState === 'disconnected') troubles.push([Date.now(), pc.connectionState]); }); } };
    let running = true;
    let packets = 0;
    let lastTick = Date.now();
    const tick = async () => {
      watch();
      const now = Date.now();
      if (now - lastTick > 100 + GAP / 3) lags.push([lastTick, now, now - lastTick - 100]);
      lastTick = now;
      let total = 0;
      const seen = {};
      const enc = {};
      for (const pc of window.__pcs) {
        const report = await pc.getStats();
        report.forEach((s) => {
          if (s.type === 'inbound-rtp') {
            total += s.packetsReceived || 0;
            if (s.kind !== 'video') return;
            // Only the videos the page shows now (an ended consumer keeps its report, which stays still).
            const key = nameOf(s);
            if (!key) return;
            const v = seen[key] || (seen[key] = { frames: 0, packets: 0, lost: 0, plis: 0, width: 0, freezes: 0, freezeSeconds: 0 });
            // A stream can have two reports (packets that came before the answer open one of their own): the most of each.
            v.frames = Math.max(v.frames, s.framesDecoded || 0);
            v.packets = Math.max(v.packets, s.packetsReceived || 0);
            v.lost = Math.max(v.lost, s.packetsLost || 0);
            v.plis = Math.max(v.plis, s.pliCount || 0);
            v.width = Math.max(v.width, s.frameWidth || 0);
            v.freezes = Math.max(v.freezes, s.freezeCount || 0);
            v.freezeSeconds = Math.max(v.freezeSeconds, s.totalFreezesDuration || 0);
          } else if (s.type === 'outbound-rtp' && s.kind === 'video') {
            enc[s.rid || ''] = Math.max(enc[s.rid || ''] || 0, s.framesEncoded || 0);
            if (s.frameWidth) published[s.rid || ''] = Math.max(published[s.rid || ''] || 0, s.frameWidth);
          }
        });
      }
      packets = total;
      for (const [key, v] of Object.entries(seen)) {
        const st = streams[key];
        if (!st) { streams[key] = { ...v, at: now, atPackets: v.packets, atLost: v.lost, atPlis: v.plis }; continue; }
        if (v.frames > st.frames) {
          if (now - st.at > GAP) gaps.push({ stream: key, from: st.at, to: now, packets: v.packets - st.atPackets, lost: Math.max(0, v.lost - st.atLost), plis: v.plis - st.atPlis });
          Object.assign(st, v, { at: now, atPackets: v.packets, atLost: v.lost, atPlis: v.plis });
        } else Object.assign(st, { packets: v.packets, lost: v.lost, plis: v.plis, width: v.width, freezes: v.freezes, freezeSeconds: v.freezeSeconds });
      }
      for (const [rid, frames] of Object.entries(enc)) {
        const e = encoders[rid];
        if (!e) { encoders[rid] = { frames, at: now }; continue; }
        if (frames > e.frames) {
          if (now - e.at > GAP) encoderGaps.push({ rid, from: e.at, to: now });
          e.frames = frames; e.at = now;
        }
      }
    };
    (async () => { while (running) { await tick(); await new Promise((r) => setTimeout(r, 100)); } })();
    window.__sampler = {
      totals: () => { const all = Object.values(streams); return { packets, freezes: all.reduce((n, s) => n + s.freezes, 0), freezeSeconds: all.reduce((n, s) => n + s.freezeSeconds, 0) }; },
      stop: async () => {
        running = false;
        const now = Date.now();
        for (const [key, st] of Object.entries(streams)) if (now - st.at > GAP) gaps.push({ stream: key, from: st.at, to: now, packets: st.packets - st.atPackets, lost: Math.max(0, st.lost - st.atLost), plis: st.plis - st.atPlis, open: true });
        // A layer that never sent a frame (the SDK's unused placeholder section) is no encoder.
        for (const [rid, e] of Object.entries(encoders)) if (e.frames > 0 && now - e.at > GAP) encoderGaps.push({ rid, from: e.at, to: now, open: true });
        const all = Object.values(streams);
        return { packets, gaps, encoderGaps, lags, widths: all.map((s) => s.width), streams: all.length, published, troubles, connections: window.__pcs.length, freezes: all.reduce((n, s) => n + s.freezes, 0), freezeSeconds: all.reduce((n, s) => n + s.freezeSeconds, 0) };
      },
    };
  })()`;
}

interface Sampled {
  packets: number;
  gaps: { stream: string; from: number; to: number; packets: number; lost: number; plis: number }[];
  encoderGaps: { rid: string; from: number; to: number }[];
  lags: [number, number, number][];
  widths: number[];
  streams: number;
  /** The width of each layer the page published, by rid. */
  published: Record<string, number>;
  troubles: [number, string][];
  connections: number;
  /** Chrome's own count of freezes of the received videos (since each began), and their total length (s). */
  freezes: number;
  freezeSeconds: number;
}

/** The SDK names a received video by its participant: the track the SDK gives the participant is the receiver's. */
const SDK_NAME_OF = `(s) => { const p = window.meeting.participants.joined.toArray().find((x) => x.videoEnabled && x.videoTrack && x.videoTrack.id === s.trackIdentifier); return p && p.name; }`;
const RELAY_NAME_OF = `(s) => window.__names[s.mid]`;

/** Per received video, the most frames of its reports, and every packet received. */
const FRAMES = `(async () => { const out = {}; for (const pc of window.__pcs) (await pc.getStats()).forEach((s) => { if (s.type === 'inbound-rtp' && s.kind === 'video') out[s.mid + ':' + s.ssrc] = s.framesDecoded || 0; }); return out; })()`;

/** Waits until every page decodes the video of every other (a page may see a stream twice: before and after the answer). */
async function allFlowing(pages: Page[]): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const seen = await Promise.all(pages.map((p) => p.evaluate<Record<string, number>>(FRAMES)));
    if (seen.every((s) => Object.values(s).filter((f) => f > 0).length >= pages.length - 1)) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** The window: every page samples, the forwarding process's CPU and event loop and Chromium's CPU are measured. */
async function measureRoom(pages: Page[], names: string[], forwarder: Measured, nameOf: string, except: number[], profile?: string): Promise<RoomFigures> {
  if (!(await allFlowing(pages))) console.error('media bench: not every page decodes every other video after 60 s; measuring anyway');
  const load = loadavg();
  await Promise.all(pages.map((p) => p.evaluate(samplerScript(nameOf))));
  await new Promise((r) => setTimeout(r, 1000));
  await forwarder.ask('loop-start');
  if (profile) await forwarder.ask('profile-start');
  const cpu0 = treeCpuSeconds(forwarder.pid);
  const main0 = schedstat(forwarder.pid);
  const chromium0 = chromiumUse(except);
  const t0 = Date.now();
  const before = await Promise.all(pages.map((p) => p.evaluate<{ packets: number; freezes: number; freezeSeconds: number }>('window.__sampler.totals()')));
  await new Promise((r) => setTimeout(r, ROOM_SECONDS * 1000));
  const sampled = await Promise.all(pages.map((p) => p.evaluate<Sampled>('window.__sampler.stop()')));
  const seconds = (Date.now() - t0) / 1000;
  const cpuPercent = ((treeCpuSeconds(forwarder.pid) - cpu0) / seconds) * 100;
  const main1 = schedstat(forwarder.pid);
  const chromium1 = chromiumUse(except);
  const chromiumCpuPercent = ((chromium1.cpu - chromium0.cpu) / seconds) * 100;
  const wall = seconds * 1e9;
  const loop = await forwarder.ask<{ p50: number; p99: number; max: number; timeline: [number, number][]; gc: RoomFigures['gc'] }>('loop-stop');
  if (profile) await forwarder.ask('profile-stop', { file: profile });
  const packets1 = sampled.reduce((n, s) => n + s.packets, 0);
  const sum = <K extends string>(list: Record<K, number>[], key: K) => list.reduce((n, v) => n + v[key], 0);
  // Gaps that began before the window opened count from its opening.
  const inWindow = (from: number) => Math.max(from, t0);
  let longest: Gap | null = null;
  let stalls = 0;
  sampled.forEach((s, i) => {
    for (const g of s.gaps) {
      const ms = g.to - inWindow(g.from);
      if (ms <= 0) continue;
      if (ms > STALL_MS) stalls++;
      if (longest && ms <= longest.ms) continue;
      const publisher = names.indexOf(g.stream);
      const encoderPauseMs: Record<string, number> = {};
      for (const e of publisher === -1 ? [] : sampled[publisher]!.encoderGaps)
        if (e.from < g.to && e.to > g.from) encoderPauseMs[e.rid] = Math.max(encoderPauseMs[e.rid] ?? 0, e.to - e.from);
      const loopMaxMs = Math.max(0, ...loop.timeline.filter(([at]) => at >= g.from && at - 250 <= g.to).map(([, max]) => max));
      const pageLagMs = Math.max(0, ...s.lags.filter(([from, to]) => from < g.to && to > g.from).map(([, , lag]) => lag));
      longest = { ms, receiver: names[i]!, publisher: g.stream, packets: g.packets, lost: g.lost, plis: g.plis, encoderPauseMs, loopMaxMs, pageLagMs };
    }
  });
  const widths = sampled.flatMap((s) => s.widths).sort((a, b) => a - b);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const rids = [...new Set(sampled.flatMap((s) => Object.keys(s.published)))].sort();
  const published = Object.fromEntries(rids.map((rid) => [rid, median(sampled.map((s) => s.published[rid] ?? 0))]));
  return {
    pages: pages.length,
    videoStreams: pages.length * (pages.length - 1),
    seconds,
    cpuPercent,
    chromiumCpuPercent,
    packetsPerSecond: (packets1 - sum(before, 'packets')) / seconds,
    freezes: sampled.reduce((n, s) => n + s.freezes, 0) - sum(before, 'freezes'),
    freezeSeconds: sampled.reduce((n, s) => n + s.freezeSeconds, 0) - sum(before, 'freezeSeconds'),
    width: widths[Math.floor(widths.length / 2)] ?? 0,
    published,
    troubles: sampled.reduce((n, s) => n + s.troubles.filter(([at]) => at >= t0).length, 0),
    connections: sampled.reduce((n, s) => n + s.connections, 0),
    longestGap: longest,
    gapsOverStall: stalls,
    loop: { p50: loop.p50, p99: loop.p99, max: loop.max },
    gc: loop.gc,
    mainThread: { runPercent: ((main1.run - main0.run) / wall) * 100, waitPercent: ((main1.wait - main0.wait) / wall) * 100 },
    chromiumWaitingThreads: (chromium1.wait - chromium0.wait) / wall,
    pageLagMs: Math.max(0, ...sampled.flatMap((s) => s.lags.map(([, , lag]) => lag))),
    load: { start: load, end: loadavg() },
  };
}

/** Run in page B: resolves with Date.now() once the SDK shows `name`'s flag at `value` (null after 20 s). */
function flagSeen(name: string, flag: 'videoEnabled' | 'audioEnabled', value: boolean): string {
  return `(async () => {
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline) {
      const p = window.meeting.participants.joined.toArray().find((x) => x.name === ${JSON.stringify(name)});
      if (p && p.${flag} === ${value}) return Date.now();
      await new Promise((r) => setTimeout(r, 2));
    }
    return null;
  })()`;
}

export interface MediaBenchOptions {
  runs: number;
  /** Where to write heap snapshots of the emulator (idle, full, after the room emptied), if anywhere. */
  snapshots?: string;
  /** How many pages the room has (6 by default): fewer, to see whether a machine too small for six is what stalls them. */
  pages?: number;
  /** Where to write CPU profiles of the forwarding processes over the room's window, if anywhere. */
  profiles?: string;
  /** How many times the room of six fills and empties (1 by default): memory after each, to tell retention from growth. */
  cycles?: number;
  /** How long an idle emulator is left alone before its memory is read again (s; SETTLE_SECONDS by default). */
  settle?: number;
  /**
   * Environment variables for the emulator's process only (not the browser's, not werift alone's):
   * e.g. glibc's malloc settings (GLIBC_TUNABLES), which a process reads once, at its start.
   */
  emulatorEnv?: Record<string, string>;
  /**
   * At the end, have glibc give back the free memory of its malloc arenas (malloc_trim(0), called in
   * the emulator with gdb, which must be installed) and read the memory again: what of the malloc
   * heap is kept free memory rather than memory in use.
   */
  mallocTrim?: boolean;
}

export async function mediaBench(root: string, options: MediaBenchOptions): Promise<MediaFigures> {
  const { runs } = options;
  const settle = options.settle ?? SETTLE_SECONDS;
  const emu = await startEmulatorProcess(root, options.emulatorEnv);
  const auth = `Basic ${Buffer.from('00000000-0000-4000-8000-000000000001:emulator-api-key').toString('base64')}`;
  const rest = async <T>(route: string, body: unknown): Promise<T> =>
    (
      (await (
        await fetch(`${emu.url}${route}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      ).json()) as { data: T }
    ).data;
  const health = async () => ((await (await fetch(`${emu.url}/_emulator/health`)).json()) as { media: { transports: number } }).media;
  /** Waits (up to 30 s) until the emulator has no transport open. */
  const emptied = async () => {
    const until = Date.now() + 30_000;
    while (Date.now() < until && (await health()).transports > 0) await new Promise((r) => setTimeout(r, 200));
  };
  const snapshot = async (name: string) => {
    if (options.snapshots) await emu.proc.ask('snapshot', { file: path.join(options.snapshots, `emulator-${name}.heapsnapshot`) });
  };
  const { url: pagesUrl, server } = await servePages(SDK);
  const browser: Browser = await launchTrusting(emu.url);
  const base = new URL(emu.tls).host;
  let relay: Measured | undefined;
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
    // The emulator has loaded nothing of media yet (werift loads on the first transport).
    await new Promise((r) => setTimeout(r, 1000));
    const idle = await emu.proc.settled(settle);
    await snapshot('idle');
    // Warmed: one page with its camera on opens its transports (to send and to receive) and leaves;
    // werift and the protobuf code are loaded and compiled, what a room adds on top is then the room's.
    const warmup = await rest<{ id: string }>('/v2/meetings', { title: 'Warm-up' });
    const w = await open(warmup.id, 'warm-up', { audio: false, video: true });
    const opened = Date.now() + 30_000;
    while (Date.now() < opened && (await health()).transports === 0) await new Promise((r) => setTimeout(r, 200));
    if ((await health()).transports === 0) console.error('media bench: the warm-up page opened no transport');
    await new Promise((r) => setTimeout(r, 2000));
    await w.close();
    await emptied();
    const warmed = await emu.proc.settled(settle);
    console.error(`media bench: idle ${JSON.stringify(idle)}\nwarmed ${JSON.stringify(warmed)}`);

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

    console.error(`media bench: first frame ${JSON.stringify(firstFrame)}`);

    // 2. A's camera and microphone off and on → B's SDK shows it.
    const toggles: Record<ToggleName, number[]> = { 'video on': [], 'video off': [], 'microphone on': [], 'microphone off': [] };
    const steps: [ToggleName, string, 'videoEnabled' | 'audioEnabled', boolean][] = [
      ['video on', 'enableVideo', 'videoEnabled', true],
      ['video off', 'disableVideo', 'videoEnabled', false],
      ['microphone on', 'enableAudio', 'audioEnabled', true],
      ['microphone off', 'disableAudio', 'audioEnabled', false],
    ];
    for (let i = 0; i < runs; i++)
      for (const [name, call, flag, value] of steps) {
        const seen = b.evaluate<number | null>(flagSeen('ada', flag, value));
        const called = await a.evaluate<number>(`(() => { const at = Date.now(); void window.meeting.self.${call}(); return at; })()`);
        const at = await seen;
        if (at !== null) toggles[name].push(at - called);
        // The SDK settles (the track's producer created or closed) before the next.
        await b.waitForTimeout(300);
      }
    await a.close();
    await b.close();
    console.error(`media bench: toggles ${JSON.stringify(toggles)}`);

    // 3. A room of six, everyone publishing camera and microphone; measured the first time, then filled
    // and emptied again as many times as asked, memory read after each.
    const names = Array.from({ length: options.pages ?? ROOM_PAGES }, (_, i) => `p${i}`);
    const afterEmpty: AfterRoom[] = [];
    let room: RoomFigures | undefined;
    const full: Memory[] = [];
    let transports = 0;
    for (let cycle = 0; cycle < (options.cycles ?? 1); cycle++) {
      const m = await rest<{ id: string }>('/v2/meetings', { title: `Room of six, ${cycle + 1}` });
      const pages: Page[] = [];
      for (const name of names) pages.push(await open(m.id, name, { audio: true, video: true }));
      if (cycle === 0) {
        room = await measureRoom(
          pages,
          names,
          emu.proc,
          SDK_NAME_OF,
          [emu.proc.pid],
          options.profiles && path.join(options.profiles, 'emulator-room.cpuprofile'),
        );
        full.push(await emu.proc.memory());
        transports = (await health()).transports;
        await snapshot('full');
      } else {
        await allFlowing(pages);
        await new Promise((r) => setTimeout(r, 10_000));
        full.push(await emu.proc.memory());
      }
      for (const p of pages) await p.close();
      await emptied();
      afterEmpty.push(await emu.proc.afterRoom(settle));
      if (cycle === 0) await snapshot('after');
      console.error(`media bench: room ${cycle + 1} emptied: ${JSON.stringify(afterEmpty.at(-1))}`);
    }
    console.error(`media bench: room ${JSON.stringify(room)}\nmemory ${JSON.stringify({ full, transports })}`);
    let trimmed: Memory | undefined;
    if (options.mallocTrim) {
      execFileSync('gdb', ['-p', String(emu.proc.pid), '-batch', '-ex', 'call (int) malloc_trim(0)'], { stdio: 'ignore' });
      trimmed = await emu.proc.memory();
      console.error(`media bench: after malloc_trim(0): ${JSON.stringify(trimmed)}`);
    }

    // 4. The same room through werift alone.
    const started = await startRelay(root);
    relay = started.proc;
    const relayPages: Page[] = [];
    for (const name of names) {
      const page = await browser.newPage();
      await page.goto(started.url);
      await page.evaluate(`window.publish(${JSON.stringify(name)})`);
      relayPages.push(page);
    }
    // Every page publishes before any subscribes: the relay offers each page all the others' tracks at once.
    await new Promise((r) => setTimeout(r, 2000));
    for (const [i, page] of relayPages.entries()) await page.evaluate(`window.subscribe(${JSON.stringify(names[i])})`);
    const baseline = await measureRoom(
      relayPages,
      names,
      relay,
      RELAY_NAME_OF,
      [emu.proc.pid, relay.pid],
      options.profiles && path.join(options.profiles, 'werift-room.cpuprofile'),
    );
    for (const p of relayPages) await p.close();

    return {
      firstFrame,
      toggles,
      room: room!,
      baseline,
      memory: { idle, warmed, full, afterEmpty, transports, settleSeconds: settle, ...(trimmed ? { trimmed } : {}) },
    };
  } finally {
    await browser.close();
    server.close();
    emu.proc.stop();
    relay?.stop();
  }
}
