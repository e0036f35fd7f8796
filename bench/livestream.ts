// Livestream benchmarks (a script, not a test; results in bench/LIVESTREAM.md):
//
// 1. Glass-to-glass delay of a meeting's livestream. A bot is in the meeting with its camera off
//    (its tile shows its initials). hls.js in Debian's Chromium plays the livestream's playback_url
//    as any viewer would, with its default live settings. The bot's camera is turned on, and the
//    page watches every picture hls.js shows (requestVideoFrameCallback) for the first one whose
//    tile shows the clip instead of the initials: the delay is from the camera turned on to that
//    picture on the viewer's glass. The SFU brings the bot's camera to a meeting's pages in well
//    under 0.3 s, so the delay measured is the livestream's, against the meeting as the pages show it.
//    Repeated (camera off, on) and summarised as median and worst.
// 2. One RTMP ingest and its HLS packaging while 10 HLS viewers poll: ffmpeg pushes 1280 × 720 at
//    25 fps (about 2.5 Mbit/s) and a tone; 10 clients fetch the live playlist and each new segment as
//    a player does; the CPU of the emulator's process, of the media plane's process and of the
//    packager (ffmpeg) and their memory (RSS) are sampled from /proc.
//
//   npx tsx bench/livestream.ts [--rounds 5] [--seconds 60] [--out bench/LIVESTREAM.md]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../src/index.js';
import { CHROMIUM } from '../test/helpers/web-sdk.js';
import { machine } from './lib/machine.js';
import { commandLine, cpuSeconds, processIds, rssMb } from './lib/proc.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const ROUNDS = Number(arg('rounds', '5'));
const SECONDS = Number(arg('seconds', '60'));
const OUT = arg('out', path.join(import.meta.dirname, 'LIVESTREAM.md'));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const realNow = () => performance.timeOrigin + performance.now();

async function json<T>(emu: RunningEmulator, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emu.url}${route}`, {
    method,
    headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as { data?: T };
  return (parsed.data ?? parsed) as T;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = realNow() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || realNow() > end) return v;
    await sleep(100);
  }
}

/** A page with hls.js, served on its own origin. */
function servePlayer(): Promise<{ server: Server; url: string }> {
  const hls = readFileSync(path.join(import.meta.dirname, '..', 'node_modules', 'hls.js', 'dist', 'hls.min.js'));
  const server = createServer((req, res) => {
    if (req.url === '/hls.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(hls);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><video id="v" muted playsinline width="1280" height="720"></video><script src="/hls.js"></script>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })),
  );
}

// The tile of a meeting with one participant in the 1280 × 720 picture, and the middle of its initials' disc.
const DISC = { x: 639, y: 330 };

async function glassToGlass(): Promise<number[]> {
  const emu = await startEmulator({ seed: 'bench livestream', clock: 'real' });
  const player = await servePlayer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });
  try {
    const meeting = await json<{ id: string }>(emu, 'POST', '/v2/meetings', { title: 'Delay' });
    const bot = await json<{ id: string }>(emu, 'POST', `/v2/meetings/${meeting.id}/participants`, {
      name: 'Ada',
      preset_name: 'group_call_host',
      custom_participant_id: 'ada',
    });
    await json(emu, 'POST', `/_emulator/meetings/${meeting.id}/participants/${bot.id}/join`, { media: { audio: true, video: false } });
    const live = await json<{ playback_url: string }>(emu, 'POST', `/v2/meetings/${meeting.id}/livestreams`, {});
    await until(
      () => json<{ status: string }>(emu, 'GET', `/v2/meetings/${meeting.id}/active-livestream`),
      (l) => l.status === 'LIVE',
      30_000,
    );
    const page = await browser.newPage();
    await page.goto(player.url);
    await page.evaluate(
      `(async () => {
        const v = document.getElementById('v');
        const hls = new Hls();
        hls.loadSource(${JSON.stringify(live.playback_url)});
        hls.attachMedia(v);
        hls.on(Hls.Events.MANIFEST_PARSED, () => void v.play());
        await new Promise((r) => v.addEventListener('playing', r, { once: true }));
        const c = document.createElement('canvas'); c.width = 1280; c.height = 720;
        const g = c.getContext('2d', { willReadFrequently: true });
        window.shown = [];
        const look = (now) => {
          g.drawImage(v, 0, 0, 1280, 720);
          const [r, gr, b] = g.getImageData(${DISC.x}, ${DISC.y}, 1, 1).data;
          window.shown.push({ at: performance.timeOrigin + now, rgb: [r, gr, b] });
          if (window.shown.length > 2000) window.shown.splice(0, 1000);
          v.requestVideoFrameCallback(look);
        };
        v.requestVideoFrameCallback(look);
      })()`,
    );
    const delays: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await json(emu, 'POST', `/_emulator/meetings/${meeting.id}/participants/${bot.id}/media`, { video: false });
      await sleep(8_000);
      // The disc's colour while the camera is off.
      const disc = await page.evaluate<number[]>('window.shown.at(-1).rgb');
      const on = realNow();
      await json(emu, 'POST', `/_emulator/meetings/${meeting.id}/participants/${bot.id}/media`, { video: true });
      const seen = await until(
        () => page.evaluate<{ at: number; rgb: number[] }[]>(`window.shown.filter((s) => s.at > ${on})`),
        (shown) => shown.some((s) => s.rgb.some((c, i) => Math.abs(c - disc[i]!) > 40)),
        30_000,
      );
      const first = seen.find((s) => s.rgb.some((c, i) => Math.abs(c - disc[i]!) > 40));
      if (first) delays.push((first.at - on) / 1000);
      process.stdout.write(`glass-to-glass round ${round + 1}: ${first ? `${((first.at - on) / 1000).toFixed(2)} s` : 'not seen within 30 s'}\n`);
    }
    return delays;
  } finally {
    await browser.close();
    player.server.close();
    await emu.close();
  }
}

/** CPU seconds (user + system) and RSS (MB) of a process, from /proc. */
function procStat(pid: number): { cpu: number; rssMb: number } | undefined {
  const [cpu, rss] = [cpuSeconds(pid), rssMb(pid)];
  return cpu === undefined || rss === undefined ? undefined : { cpu, rssMb: rss };
}

/** The packager: an ffmpeg process writing into a livestream folder. */
function packagerPid(): number | undefined {
  const pid = processIds().find((p) => {
    const cmd = commandLine(p);
    return cmd.includes('ffmpeg') && cmd.includes('meetings-emulator-livestreams-');
  });
  return pid === undefined ? undefined : Number(pid);
}

async function viewer(playbackUrl: string, stop: () => boolean, stats: { playlists: number; segments: number; bytes: number; errors: number }): Promise<void> {
  const master = await (await fetch(playbackUrl)).text();
  const live = new URL(
    master.split('\n').find((l) => l.startsWith('live.m3u8'))!,
    playbackUrl,
  );
  const seen = new Set<string>();
  while (!stop()) {
    try {
      const text = await (await fetch(live)).text();
      stats.playlists++;
      for (const uri of text.match(/^segments\/\d+\.ts$/gm) ?? []) {
        if (seen.has(uri)) continue;
        seen.add(uri);
        const body = await (await fetch(new URL(uri, live))).arrayBuffer();
        stats.segments++;
        stats.bytes += body.byteLength;
      }
    } catch {
      stats.errors++;
    }
    await sleep(1_000);
  }
}

async function ingestLoad(): Promise<Record<string, string>> {
  const emu = await startEmulator({ seed: 'bench ingest', clock: 'real', rtmpPort: 0, rtmpsPort: 0 });
  let encoder: ChildProcess | undefined;
  try {
    const l = await json<{ id: string; stream_key: string; playback_url: string }>(emu, 'POST', '/v2/livestreams', { name: 'bench' });
    encoder = spawn(
      'ffmpeg',
      [
        ...[
          '-hide_banner',
          '-loglevel',
          'error',
          '-re',
          '-f',
          'lavfi',
          '-i',
          'testsrc2=s=1280x720:r=25',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=48000',
        ],
        ...[
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-tune',
          'zerolatency',
          '-b:v',
          '2500k',
          '-g',
          '50',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
          '-b:a',
          '128k',
        ],
        ...['-f', 'flv', `rtmp://127.0.0.1:${emu.deps.config.rtmpPort}/app/${l.stream_key}`],
      ],
      { stdio: 'ignore' },
    );
    await until(
      async () => (await json<{ livestream: { status: string } }>(emu, 'GET', `/v2/livestreams/${l.id}`)).livestream.status,
      (s) => s === 'LIVE',
      30_000,
    );
    const planePid = emu.deps.signalling.mediaPlanePid();
    const packager = packagerPid();
    const pids = { emulator: process.pid, plane: planePid, packager };
    const stats = { playlists: 0, segments: 0, bytes: 0, errors: 0 };
    let stopping = false;
    const viewers = Array.from({ length: 10 }, () => viewer(l.playback_url, () => stopping, stats));
    await sleep(5_000);
    const start = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid === null || pid === undefined ? undefined : procStat(pid)]));
    const t0 = realNow();
    const rss: Record<string, number[]> = { emulator: [], plane: [], packager: [] };
    while (realNow() - t0 < SECONDS * 1000) {
      await sleep(1_000);
      for (const [k, pid] of Object.entries(pids)) {
        const s = pid === null || pid === undefined ? undefined : procStat(pid);
        if (s) rss[k]!.push(s.rssMb);
      }
    }
    const elapsed = (realNow() - t0) / 1000;
    const out: Record<string, string> = {};
    for (const [k, pid] of Object.entries(pids)) {
      const a = start[k];
      const b = pid === null || pid === undefined ? undefined : procStat(pid);
      if (!a || !b) {
        out[k] = 'not running';
        continue;
      }
      const cpu = ((b.cpu - a.cpu) / elapsed) * 100;
      const r = rss[k]!;
      out[k] = `CPU ${cpu.toFixed(1)} % of one core; RSS ${Math.min(...r).toFixed(0)}–${Math.max(...r).toFixed(0)} MB`;
    }
    stopping = true;
    await Promise.all(viewers);
    const viewersNow = await json<{ livestream: unknown; session?: { viewer_seconds: number; ingest_seconds: number } }>(emu, 'GET', `/v2/livestreams/${l.id}`);
    out.viewers = `${stats.playlists} playlist fetches, ${stats.segments} segments (${(stats.bytes / 1024 / 1024).toFixed(1)} MB), ${stats.errors} errors; the session's ingest_seconds ${viewersNow.session?.ingest_seconds}, viewer_seconds ${viewersNow.session?.viewer_seconds}`;
    return out;
  } finally {
    encoder?.kill('SIGKILL');
    await emu.close();
  }
}

const m = machine();
const machineLine = () =>
  `${m.nproc} × ${m.cpu}, Node ${m.node}, ${m.os}, git ${m.git}, ${m.date.slice(0, 10)}, load before ${m.loadBefore.map((x) => x.toFixed(2)).join(' ')}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const delays = await glassToGlass();
const ingest = await ingestLoad();
const report = [
  '# Livestream benchmarks',
  '',
  `\`npx tsx bench/livestream.ts --rounds ${ROUNDS} --seconds ${SECONDS}\` on ${machineLine()}; HLS segments of 1 s (the default).`,
  '',
  "## Glass-to-glass delay of a meeting's livestream",
  '',
  "From a bot's camera turned on to the first picture showing it in hls.js (default live settings) in Chromium, playing the playback_url:",
  '',
  '| Rounds | Median | Worst | Target |',
  '|---|---|---|---|',
  `| ${delays.length} of ${ROUNDS} | ${median(delays).toFixed(2)} s | ${Math.max(...delays).toFixed(2)} s | ≤ 6 s |`,
  '',
  `Each round: ${delays.map((d) => `${d.toFixed(2)} s`).join(', ')}.`,
  '',
  '## One RTMP ingest and its HLS packaging, 10 HLS viewers polling',
  '',
  `ffmpeg pushes 1280 × 720, 25 fps, 2.5 Mbit/s H.264 and AAC over plain RTMP; 10 clients fetch the live playlist every second and each new segment; ${SECONDS} s measured after 5 s of warm-up.`,
  '',
  '| Process | CPU and memory |',
  '|---|---|',
  `| The emulator (RTMP, HLS serving; the 10 viewers' fetches run in this process too) | ${ingest.emulator} |`,
  `| The media plane | ${ingest.plane} |`,
  `| The packager (ffmpeg, video copied, sound to AAC) | ${ingest.packager} |`,
  '',
  `Viewers: ${ingest.viewers}.`,
  '',
].join('\n');
writeFileSync(OUT, report);
process.stdout.write(`${report}\nwritten to ${OUT}\n`);
