// The service's real web SDKs on the emulator, in Debian's Chromium (headless), the way the
// browser test runs them: the page on its own origin, the emulator's TLS listener trusted by its
// public key, media off. For each SDK (@dytesdk/web-core 3.x, @cloudflare/realtimekit 2.x):
//
// - init() and join(): timed inside the page with performance.now() around each call, over N runs
//   (each a fresh page and a fresh participant of one meeting, which leaves after); the first run
//   is reported apart (cold: the emulator loads its WebRTC and protobuf code on the first socket
//   and transport), the others as median and p90.
// - a room of 100: 98 participants joined through the control API and 2 pages. The time from the
//   first page's join() call until both pages list 99 others, then the time for one more scripted
//   join to reach both pages, and the emulator's RSS before the room and with it full.
//
// Each SDK runs in a child process of its own, so each has a cold start and its own RSS (the
// emulator runs in that process, next to the browser driver).
//
// With --media, audio and video through the emulator instead (bench/lib/media.ts): the time from
// enableVideo() to the first decoded frame in another page and from a camera or microphone toggle
// to the other page's SDK, a room of six pages publishing and receiving (the emulator's CPU per
// forwarded stream next to werift's own loop, stalls and their causes), the emulator's memory. Its
// table goes to the "Media" section of WEB-SDK.md.
//
//   npx tsx bench/web-sdk.ts [--runs 10] [--room 100]
//   nice -n 10 npx tsx bench/web-sdk.ts --media [--runs 10] [--cycles 2] [--write]
//     [--snapshots DIR] [--profiles DIR]   (heap snapshots of the emulator, CPU profiles of the room)
//     [--pages 6] [--settle 30] [--malloc-trim]   (the room's size; how long the idle emulator is left
//     alone before its memory is read again; glibc's malloc_trim(0) in it at the end, with gdb)
//     [--emulator-env NAME=VALUE]...   (set in the emulator's process only, e.g. GLIBC_TUNABLES=...)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, getPriority, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { startEmulator } from '../src/index.js';
import { mediaBench, type Memory, type MediaFigures, type RoomFigures } from './lib/media.js';
import { CHROMIUM, SDKS, launchTrusting, servePages, type Sdk } from '../test/helpers/web-sdk.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
/** How long a page may take to show everyone; past it the room is reported as not converging. */
const WAIT = 120_000;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    room: { type: 'string', default: '100' },
    sdk: { type: 'string' },
    // Also write the table to bench/WEB-SDK.md (or --out FILE), with the command, the time and the load.
    write: { type: 'boolean', default: false },
    media: { type: 'boolean', default: false },
    // With --media: heap snapshots of the emulator (idle, full, after the room emptied) to this folder.
    snapshots: { type: 'string' },
    // With --media: CPU profiles of the emulator and the werift relay over the room's 30 s, to this folder.
    profiles: { type: 'string' },
    // With --media: how many pages the room has (6 by default).
    pages: { type: 'string', default: '6' },
    // With --media: how many times the room of six fills and empties (memory after each).
    cycles: { type: 'string', default: '1' },
    // With --media: how long (s) the idle emulator is left alone before its memory is read again.
    settle: { type: 'string', default: '30' },
    // With --media: at the end, malloc_trim(0) in the emulator (with gdb) and its memory read again.
    'malloc-trim': { type: 'boolean', default: false },
    // With --media: NAME=VALUE set in the emulator's environment only (repeatable).
    'emulator-env': { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const ROOM = Number(args.room);

/** One SDK's figures, as its child process prints them (one JSON line). */
interface Figures {
  sdk: string;
  cold: { init: number; join: number };
  warm: { init: number[]; join: number[] };
  room: {
    size: number;
    /** Each page's own join() (timed in the page), the others being in the room already. */
    joins: number[];
    /** From the first page's join() call until both pages list everyone else; null when they never did. */
    converged: number | null;
    /** What each page listed at the end of the wait (toArray().length, and the SDK's own counts). */
    seen: PageCount[];
    /** One more scripted join, until both pages list it. */
    oneMore: number | null;
    rssBefore: number;
    rssAfter: number;
  };
}

/** What a page of the room counts. */
interface PageCount {
  listed: number;
  size: number;
  count: unknown;
}

/** The page's globals: the SDK's client class and the meeting (the bench program has no DOM types). */
interface SdkWindow {
  meeting: {
    participants: { count?: number; joined: { size: number; toArray(): unknown[] } };
    join(): Promise<void>;
    leave(): Promise<void>;
  };
  [client: string]: unknown;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

// --- the parent: one child per SDK, then the table --------------------------------------------

async function parent(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`web SDK bench: skipped (no ${CHROMIUM})`);
    return;
  }
  const started = new Date();
  const loadBefore = loadavg();
  const results: Figures[] = [];
  for (const sdk of SDKS) {
    console.error(`${sdk.name}: ${RUNS} runs, then a room of ${ROOM} …`);
    const out = execFileSync(process.execPath, ['--import', 'tsx', SELF, '--sdk', sdk.global, '--runs', String(RUNS), '--room', String(ROOM)], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    });
    results.push(JSON.parse(out.trim().split('\n').at(-1)!) as Figures);
  }
  const ms = (n: number | null) => (n === null ? 'never' : `${Math.round(n)} ms`);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const rows: string[][] = [
    ['', ...results.map((r) => r.sdk)],
    ['init(), first page (cold)', ...results.map((r) => ms(r.cold.init))],
    ['join(), first page (cold)', ...results.map((r) => ms(r.cold.join))],
  ];
  for (const step of ['init', 'join'] as const)
    rows.push([
      `${step}(), median / p90 of ${RUNS - 1}`,
      ...results.map((r) => {
        const s = [...r.warm[step]].sort((a, b) => a - b);
        return `${ms(quantile(s, 0.5))} / ${ms(quantile(s, 0.9))}`;
      }),
    ]);
  rows.push(
    [`room of ${ROOM}: each page's join()`, ...results.map((r) => r.room.joins.map(ms).join(', '))],
    [`room of ${ROOM}: join() → both pages list ${ROOM - 1}`, ...results.map((r) => ms(r.room.converged))],
    ['pages list (toArray / size / participants.count)', ...results.map((r) => r.room.seen.map((s) => `${s.listed}/${s.size}/${String(s.count)}`).join(', '))],
    [`one more scripted join → both pages`, ...results.map((r) => ms(r.room.oneMore))],
    ['RSS before the room → full', ...results.map((r) => `${mb(r.room.rssBefore)} → ${mb(r.room.rssAfter)}`)],
  );
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  if (args.write) write(rows, started, loadBefore);
}

/** The results file: the table as Markdown, with what made it. */
function write(rows: string[][], started: Date, loadBefore: number[]): void {
  const file = args.out ?? path.join(ROOT, 'bench', 'WEB-SDK.md');
  const cell = (c: string) => c.replaceAll('|', '\\|');
  const table = [
    `| ${rows[0]!.map(cell).join(' | ')} |`,
    `|${rows[0]!.map(() => '---').join('|')}|`,
    ...rows.slice(1).map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
  const command = ['npx tsx bench/web-sdk.ts', ...process.argv.slice(2)].join(' ');
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
  // The media section (--media) is written apart, and kept.
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const mediaSection = previous.includes('## Media') ? previous.slice(previous.indexOf('## Media')) : '';
  writeFileSync(
    file,
    [
      '# Web SDK benchmark results',
      '',
      `Written by \`${command}\` on ${started.toISOString()} (what it measures: [README.md](README.md#the-web-sdk-npx-tsx-benchweb-sdkts)).`,
      `Machine: ${cpus().length} cores, node ${process.version}; load average ${load(loadBefore)} at the start, ${load(loadavg())} at the end.`,
      '',
      ...table,
      '',
      ...(mediaSection ? [mediaSection] : []),
    ].join('\n'),
  );
  console.error(`wrote ${path.relative(process.cwd(), file)}`);
}

// --- a child: one SDK ---------------------------------------------------------------------------

async function child(sdk: Sdk): Promise<Figures> {
  // The plane's process ends as soon as the room has emptied (no idle time), so that "after the room emptied" is without it.
  const emu = await startEmulator({ seed: `bench web-sdk ${sdk.global}`, clock: 'manual', tlsPort: 0, logLevel: 'silent', mediaPlaneIdleMs: 0 });
  const base = new URL(emu.tlsUrl!).host;
  const { url: pagesUrl, server: pages } = await servePages(sdk);
  let browser: Browser | undefined;
  try {
    browser = await launchTrusting(emu.url);
    const opened = browser;

    async function rest<T>(method: string, route: string, body?: unknown): Promise<T> {
      const res = await fetch(`${emu.url}${route}`, {
        method,
        headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${route}: HTTP ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: T }).data;
    }
    const person = (meetingId: string, name: string) =>
      rest<{ id: string; token: string }>('POST', `/v2/meetings/${meetingId}/participants`, {
        name,
        preset_name: 'group_call_host',
        custom_participant_id: name,
      });
    async function scriptedJoin(meetingId: string, participantId: string): Promise<void> {
      const res = await fetch(`${emu.url}/_emulator/meetings/${meetingId}/participants/${participantId}/join`, { method: 'POST' });
      if (res.status !== 200) throw new Error(`scripted join: HTTP ${res.status} ${await res.text()}`);
    }

    /** A fresh page (its own browser context) that has loaded the SDK; init() is timed, join() is left to the caller. */
    async function initPage(token: string, name: string): Promise<{ page: Page; init: number }> {
      const page = await opened.newPage();
      page.on('pageerror', (e) => console.error(`${sdk.global} page ${name}: ${e.message}`));
      await page.goto(pagesUrl);
      const init = await page.evaluate(
        async ({ token, base, global }) => {
          const w = globalThis as unknown as SdkWindow;
          const client = w[global] as { init(options: unknown): Promise<SdkWindow['meeting']> };
          const started = performance.now();
          w.meeting = await client.init({ authToken: token, baseURI: base, defaults: { audio: false, video: false } });
          return performance.now() - started;
        },
        { token, base, global: sdk.global },
      );
      return { page, init };
    }
    const join = (page: Page) =>
      page.evaluate(async () => {
        const started = performance.now();
        await (globalThis as unknown as SdkWindow).meeting.join();
        return performance.now() - started;
      });
    async function close(page: Page): Promise<void> {
      await page.evaluate(() => (globalThis as unknown as SdkWindow).meeting.leave());
      await page.context().close();
    }
    /** What the page lists: the joined map's array and size, and the SDK's own participant count when it has one. */
    const counted = (page: Page) =>
      page.evaluate((): PageCount => {
        const { participants } = (globalThis as unknown as SdkWindow).meeting;
        return { listed: participants.joined.toArray().length, size: participants.joined.size, count: participants.count };
      });
    const listing = (page: Page, n: number) =>
      page
        .waitForFunction((n) => (globalThis as unknown as SdkWindow).meeting.participants.joined.toArray().length >= n, n, { polling: 10, timeout: WAIT })
        .then(
          () => true,
          () => false,
        );

    // init() and join(), one fresh page and participant at a time.
    const solo = await rest<{ id: string }>('POST', '/v2/meetings', { title: 'init and join' });
    const init: number[] = [];
    const joined: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const p = await person(solo.id, `run-${i}`);
      const { page, init: took } = await initPage(p.token, `run-${i}`);
      init.push(took);
      joined.push(await join(page));
      await close(page);
    }

    // The room: the scripted participants first, then the two pages.
    const room = await rest<{ id: string }>('POST', '/v2/meetings', { title: `room of ${ROOM}` });
    const scripted = [];
    for (let i = 0; i < ROOM - 1; i++) scripted.push(await person(room.id, `scripted-${i}`));
    const [a, b] = [await person(room.id, 'page-a'), await person(room.id, 'page-b')];
    const rssBefore = process.memoryUsage().rss;
    for (const s of scripted.slice(0, ROOM - 2)) await scriptedJoin(room.id, s.id);
    const [pa, pb] = [await initPage(a.token, 'page-a'), await initPage(b.token, 'page-b')];
    const started = performance.now();
    const joins = [await join(pa.page), await join(pb.page)];
    const both = await Promise.all([listing(pa.page, ROOM - 1), listing(pb.page, ROOM - 1)]);
    const converged = both.every(Boolean) ? performance.now() - started : null;
    const seen = [await counted(pa.page), await counted(pb.page)];
    const extra = performance.now();
    await scriptedJoin(room.id, scripted.at(-1)!.id);
    const reached = await Promise.all([listing(pa.page, seen[0]!.listed + 1), listing(pb.page, seen[1]!.listed + 1)]);
    const oneMore = reached.every(Boolean) ? performance.now() - extra : null;
    const rssAfter = process.memoryUsage().rss;
    await close(pa.page);
    await close(pb.page);
    return {
      sdk: sdk.name,
      cold: { init: init[0]!, join: joined[0]! },
      warm: { init: init.slice(1), join: joined.slice(1) },
      room: { size: ROOM, joins, converged, seen, oneMore, rssBefore, rssAfter },
    };
  } finally {
    await browser?.close();
    await new Promise((resolve) => pages.close(resolve));
    await emu.close();
  }
}

/** Around the hand-written reading of the media figures in WEB-SDK.md, which --write keeps. */
const MEDIA_ANALYSIS_START = '<!-- media-analysis:start -->';
const MEDIA_ANALYSIS_END = '<!-- media-analysis:end -->';

/**
 * The media table's rows about the emulator's memory: idle (cold, and warmed by one page's
 * transport), full, and after the room emptied, at once and after a while with no traffic.
 */
function memoryRows(m: MediaFigures['memory'], mb: (n: number) => string): string[][] {
  const after = m.afterEmpty;
  const times = after.length > 1 ? ` (each of ${after.length} times)` : '';
  const s = `${m.settleSeconds} s`;
  const full = m.full[0]!;
  const space = (x: Memory, name: string) => mb(x.spaces?.[name]?.committed ?? 0);
  const malloc = (x: Memory) => (x.mappings ? x.mappings.brk + x.mappings.arenas : 0);
  const kinds = (x: Memory) =>
    x.mappings ? `${mb(x.mappings.brk)} / ${mb(x.mappings.arenas)} / ${mb(x.mappings.anonymous)} / ${mb(x.mappings.files)}` : 'n/a';
  const over = (x: Memory, base: Memory) => `${mb(x.rss - base.rss)} / ${mb(malloc(x) - malloc(base))} / ${mb(x.heapTotal - base.heapTotal)}`;
  const perTransport = (bytes: number) => `${(bytes / m.transports / 1024 / 1024).toFixed(1)} MB`;
  return [
    [
      `RSS idle → with ${m.transports} transports open → after the room emptied${times} (each at once, after a full GC)`,
      `${mb(m.idle.atOnce.rss)} → ${mb(full.rss)} → ${after.map((a) => mb(a.atOnce.rss)).join(', ')}`,
      '',
    ],
    [
      `of it, the media plane's process (--media-plane process; its private memory, no GC): with ${m.transports} transports open → after the room emptied${times} (at once)`,
      `${mb(full.childrenRss ?? 0)} → ${after.map((a) => mb(a.atOnce.childrenRss ?? 0)).join(', ')}`,
      '',
    ],
    [
      `RSS after the room emptied, no traffic: left alone 10 s / ${s} (no GC) → ${s}, after a full GC${times}`,
      after.map((a) => `${mb(a.left10.rss)} / ${mb(a.leftSettled.rss)} → ${mb(a.later.rss)}`).join('; '),
      '',
    ],
    [
      `RSS idle, at once → ${s} later with no traffic (each after a full GC): cold (before any transport); warmed (one page with its camera on opened and closed its transports)`,
      `${mb(m.idle.atOnce.rss)} → ${mb(m.idle.later.rss)}; ${mb(m.warmed.atOnce.rss)} → ${mb(m.warmed.later.rss)}`,
      '',
    ],
    [
      `the first transport's one-time cost (warmed − cold idle, ${s} later each): RSS / V8 heap used`,
      `${mb(m.warmed.later.rss - m.idle.later.rss)} / ${mb(m.warmed.later.heapUsed - m.idle.later.heapUsed)}`,
      '',
    ],
    [
      `after the room emptied (${s} later, after a full GC) − warmed idle (${s} later): RSS / of it malloc (brk + arenas) / V8 heap committed${times}`,
      after.map((a) => over(a.later, m.warmed.later)).join('; '),
      '',
    ],
    [
      `V8 heap used / committed, idle → full → after the room emptied${times} (at once)`,
      `${mb(m.idle.atOnce.heapUsed)} / ${mb(m.idle.atOnce.heapTotal)} → ${mb(full.heapUsed)} / ${mb(full.heapTotal)} → ${after.map((a) => `${mb(a.atOnce.heapUsed)} / ${mb(a.atOnce.heapTotal)}`).join(', ')}`,
      '',
    ],
    [
      `V8 new space committed: warmed idle (${s} later) → full → after the room emptied, at once → left alone ${s} → ${s}, after a full GC`,
      `${space(m.warmed.later, 'new_space')} → ${space(full, 'new_space')} → ${space(after[0]!.atOnce, 'new_space')} → ${space(after[0]!.leftSettled, 'new_space')} → ${space(after[0]!.later, 'new_space')}`,
      '',
    ],
    [
      `RSS by kind, warmed idle (${s} later) → full → after the room emptied (${s} later, after a full GC): main malloc heap (brk) / other threads' malloc arenas / other anonymous maps (V8 heap, large mallocs, stacks) / files (code)`,
      [m.warmed.later, full, after.at(-1)!.later].map(kinds).join(' → '),
      '',
    ],
    ...(m.full.length > 1
      ? [
          [
            'per open transport, the room filled again (full − the first room emptied, at once) / transports: RSS / V8 heap',
            `${perTransport(m.full[1]!.rss - after[0]!.atOnce.rss)} / ${perTransport(m.full[1]!.heapUsed - after[0]!.atOnce.heapUsed)}`,
            '',
          ],
        ]
      : []),
    ...(m.trimmed
      ? [
          [
            `after the last room, then glibc's malloc_trim(0) (called with gdb): RSS / main malloc heap (brk) / other threads' arenas`,
            `${mb(m.trimmed.rss)} / ${mb(m.trimmed.mappings?.brk ?? 0)} / ${mb(m.trimmed.mappings?.arenas ?? 0)}`,
            '',
          ],
        ]
      : []),
    [
      'per open transport, from idle ((full − idle) / transports, with werift loaded on the first): RSS / V8 heap',
      `${perTransport(full.rss - m.idle.atOnce.rss)} / ${perTransport(full.heapUsed - m.idle.atOnce.heapUsed)}`,
      '',
    ],
  ];
}

/** The media figures as a table, printed and, with --write, put in WEB-SDK.md's "Media" section. */
async function media(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`web SDK media bench: skipped (no ${CHROMIUM})`);
    return;
  }
  const started = new Date();
  const loadBefore = loadavg();
  const f = await mediaBench(ROOT, {
    runs: RUNS,
    snapshots: args.snapshots,
    profiles: args.profiles,
    cycles: Number(args.cycles),
    pages: Number(args.pages),
    settle: Number(args.settle),
    mallocTrim: args['malloc-trim'],
    emulatorEnv: Object.fromEntries(
      args['emulator-env'].map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new Error(`--emulator-env ${pair}: expected NAME=VALUE`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    ),
  });
  const sorted = [...f.firstFrame].sort((a, b) => a - b);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const ms = (n: number) => `${Math.round(n)} ms`;
  const pct = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} %`;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
  const both = (label: string, of: (r: RoomFigures) => string): string[] => [label, of(f.room), of(f.baseline)];
  const gap = (r: RoomFigures) => {
    const g = r.longestGap;
    if (!g) return 'none over 300 ms';
    return `${ms(g.ms)} (${g.receiver} ← ${g.publisher}: ${g.packets} packets came, ${g.lost} lost, ${g.plis} PLI; the publisher's encoder paused ${
      Object.entries(g.encoderPauseMs)
        .map(([rid, t]) => `${ms(t)} on layer ${rid || '(one)'}`)
        .join(', ') || 'no layer'
    }; event loop late ${ms(g.loopMaxMs)}; page's sampling late ${ms(g.pageLagMs)})`;
  };
  const perStream = (r: RoomFigures) => r.cpuPercent / r.videoStreams;
  const rows = [
    ['', 'emulator (@cloudflare/realtimekit pages)', 'werift alone (plain pages, same streams)'],
    [
      `enableVideo() → first decoded frame in another page, median / p90 of ${sorted.length}`,
      sorted.length ? `${ms(quantile(sorted, 0.5))} / ${ms(quantile(sorted, 0.9))}` : 'not run',
      '',
    ],
    ...Object.entries(f.toggles).map(([name, times]) => {
      const t = [...times].sort((a, b) => a - b);
      return [`${name} → the other page's SDK shows it, median / max of ${t.length}`, t.length ? `${ms(quantile(t, 0.5))} / ${ms(t.at(-1)!)}` : 'never', ''];
    }),
    both(
      `room of ${f.room.pages} (${f.room.videoStreams} forwarded video streams, as many audio), ${f.room.seconds.toFixed(0)} s: forwarding process's CPU`,
      (r) => `${pct(r.cpuPercent)} of one core`,
    ),
    both('CPU per forwarded video stream (audio included)', (r) => `${pct(perStream(r))} of one core`),
    ['ratio emulator / werift alone, per forwarded stream', `${(perStream(f.room) / perStream(f.baseline)).toFixed(2)}`, ''],
    both('packets forwarded per second (received by the pages)', (r) => `${Math.round(r.packetsPerSecond)}`),
    both('CPU per 1000 packets forwarded per second', (r) => `${pct(r.cpuPercent / (r.packetsPerSecond / 1000))} of one core`),
    both(
      'published layers (rid: width, median of the pages) → received width (the forwarded layer), median',
      (r) =>
        `${Object.entries(r.published)
          .map(([rid, w]) => `${rid || '(one)'}: ${w}`)
          .join(', ')} → ${r.width} px`,
    ),
    both("pages' connections: made in all / failed or disconnected during the window", (r) => `${r.connections} / ${r.troubles}`),
    both("Chromium's CPU (all the pages' processes)", (r) => `${pct(r.chromiumCpuPercent)} of one core`),
    both('longest gap between decoded frames of any received video', gap),
    both('received videos that stalled over 1 s', (r) => `${r.gapsOverStall}`),
    both("Chrome's own count of freezes of the received videos / their total length", (r) => `${r.freezes} / ${r.freezeSeconds.toFixed(1)} s`),
    both("forwarding process's event-loop delay p50 / p99 / max", (r) => `${ms(r.loop.p50)} / ${ms(r.loop.p99)} / ${ms(r.loop.max)}`),
    both(
      "forwarding process's garbage collections: count / total pause / longest / longest full",
      (r) => `${r.gc.count} / ${ms(r.gc.totalMs)} / ${ms(r.gc.maxMs)} / ${ms(r.gc.majorMaxMs)}`,
    ),
    both(
      "forwarding process's main thread: on a CPU / waiting for one (share of the window)",
      (r) => `${pct(r.mainThread.runPercent)} / ${pct(r.mainThread.waitPercent)}`,
    ),
    both("Chromium's threads waiting for a CPU, on average", (r) => r.chromiumWaitingThreads.toFixed(2)),
    both("pages' own sampling loop, latest", (r) => ms(r.pageLagMs)),
    both("load average (1, 5, 15 min) at the window's start → end", (r) => `${load(r.load.start)} → ${load(r.load.end)}`),
    ...memoryRows(f.memory, mb),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  if (!args.write) return;
  const file = args.out ?? path.join(ROOT, 'bench', 'WEB-SDK.md');
  const cell = (c: string) => c.replaceAll('|', '\\|');
  const section = [
    '## Media',
    '',
    `Written by \`${[...(getPriority() > 0 ? [`nice -n ${getPriority()}`] : []), 'npx tsx bench/web-sdk.ts', ...process.argv.slice(2)].join(' ')}\` on ${started.toISOString()}; load average ${load(loadBefore)} at the start, ${load(loadavg())} at the end.`,
    '',
    `| ${rows[0]!.map(cell).join(' | ')} |`,
    '|---|---|---|',
    ...rows.slice(1).map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Web SDK benchmark results\n';
  const at = old.indexOf('## Media');
  // The hand-written reading of the figures (between the markers) stays, after the new table.
  const [start, end] = [old.indexOf(MEDIA_ANALYSIS_START), old.indexOf(MEDIA_ANALYSIS_END)];
  const analysis = start !== -1 && end > start ? `\n${old.slice(start, end + MEDIA_ANALYSIS_END.length)}\n` : '';
  writeFileSync(file, `${(at === -1 ? old : old.slice(0, at)).trimEnd()}\n\n${section}${analysis}`);
  console.error(`wrote ${path.relative(process.cwd(), file)}`);
}

const chosen = SDKS.find((s) => s.global === args.sdk);
if (args.sdk !== undefined && !chosen) throw new Error(`--sdk: one of ${SDKS.map((s) => s.global).join(', ')}`);
if (chosen) console.log(JSON.stringify(await child(chosen)));
else if (args.media) await media();
else await parent();
