// What a recording costs, and how fast its files are done. A meeting of four tiles (two scripted
// participants publishing the sample clip, two RealtimeKit pages in Debian's Chromium with their
// fake cameras and microphones) and four more pages watching (a webinar viewer's preset, off the
// stage: no tiles), so six pages in the room, on the real clock:
//
// - while a 1280 × 720 composite recording of it runs for `--seconds`: the CPU of the media plane's
//   process and of each ffmpeg it runs (the encoder, the decoders), and every page's longest gap
//   between decoded frames of any video it receives (sampled every 100 ms; a stall is over 1 s);
// - encoding speed: the first 15 s of that recording, as the encoder's input was (raw pictures and
//   sound in Matroska), encoded again the way the recorder encodes it (H.264 + AAC in MP4, and VP8 +
//   Vorbis in WebM), as fast as it goes, with the six pages still in the room: media seconds per
//   wall second;
// - the stop: from the stop to the files complete (the encoder's end and its index moved to the
//   front), and to UPLOADED with the default upload delay (10 s + 5 s per recorded minute).
//
// With --pages 0 the room is the two scripted participants alone (no browser): for a long
// recording's stop (`--seconds 600`). The table goes to bench/RECORDER.md with --write.
//
//   nice -n 10 npx tsx bench/recorder.ts [--seconds 60] [--pages 6] [--write]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync, appendFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { startEmulator } from '../src/index.js';
import { encoderArgs } from '../src/realtime/media/plane/recorder/composite-recording.js';
import type { RecorderSpec } from '../src/realtime/media/media-types.js';
import { joinPage } from '../test/helpers/page-media.js';
import { Frontend, SDKS, addPerson, controlOf, restOf } from '../test/helpers/web-sdk.js';
import { childrenOf, commandLine, cpuSeconds } from './lib/proc.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    pages: { type: 'string', default: '6' },
    write: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const PAGES = Number(args.pages);
const sdk = SDKS.find((s) => s.global === 'RealtimeKitClient')!;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Samples, in a page, every received video's decoded frames every 100 ms; `stop()` answers its longest gap (ms). */
const SAMPLER = `(() => {
  const last = new Map(); let longest = 0; let stalls = 0;
  const timer = setInterval(async () => {
    const now = Date.now();
    for (const pc of window.__pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
        const key = s.ssrc; const frames = s.framesDecoded || 0;
        const seen = last.get(key);
        if (!seen || frames > seen.frames) {
          if (seen && frames > 0) { const gap = now - seen.at; if (gap > longest) longest = gap; if (gap > 1000) stalls++; }
          last.set(key, { frames, at: now });
        }
      });
    }
  }, 100);
  window.__sampler = { stop: () => { clearInterval(timer); const now = Date.now(); for (const v of last.values()) if (v.frames > 0) longest = Math.max(longest, now - v.at); return { longest, stalls, streams: last.size }; } };
})()`;

const emu = await startEmulator({ seed: 'bench-recorder', clock: 'real', tlsPort: PAGES > 0 ? 0 : null, logLevel: 'warn' });
const rest = restOf(emu);
const control = controlOf(emu);
const meeting = (await rest<{ id: string }>('POST', '/v2/meetings', { title: 'Recorder bench' })).id;
for (const name of ['Ada', 'Bob']) {
  const p = await addPerson(emu, meeting, name);
  await control('POST', `/_emulator/meetings/${meeting}/participants/${p.id}/join`, { media: { audio: true, video: true } });
}
let frontend: Frontend | undefined;
const pages: Page[] = [];
if (PAGES > 0) {
  frontend = await Frontend.start(sdk, emu);
  for (let i = 0; i < PAGES; i++) {
    const publishes = i < 2;
    const p = await addPerson(emu, meeting, publishes ? `Page ${i + 1}` : `Viewer ${i - 1}`, publishes ? 'group_call_host' : 'webinar_viewer');
    pages.push(await joinPage(sdk, frontend, p, { audio: publishes, video: publishes }));
  }
}

const started = await rest<{ id: string }>('POST', '/v2/recordings', { meeting_id: meeting });
const id = started.id;
while ((await rest<{ status: string }>('GET', `/v2/recordings/${id}`)).status !== 'RECORDING') await sleep(100);
// Wait for every tile's camera to reach the recorder.
for (;;) {
  const res = await control('GET', `/_emulator/recordings/${id}/recorder`);
  const tiles = (res.body.tiles ?? []) as { camera: { decoded: number } | null }[];
  if (res.status === 200 && tiles.length >= 2 + Math.min(PAGES, 2) && tiles.every((t) => (t.camera?.decoded ?? 0) > 0)) break;
  await sleep(100);
}
const plane = emu.deps.signalling.mediaPlanePid()!;
await Promise.all(pages.map((p) => p.evaluate(SAMPLER)));
const load0 = loadavg();

// The recording's window: CPU of the plane and of each of its ffmpeg processes.
const before = new Map([plane, ...childrenOf(plane)].map((pid) => [pid, cpuSeconds(pid) ?? 0]));
const t0 = Date.now();
await sleep(SECONDS * 1000);
const seconds = (Date.now() - t0) / 1000;
const procs = [plane, ...childrenOf(plane)];
const cpu = procs.map((pid) => {
  const kind =
    pid === plane
      ? 'media plane (Node: forwarding, compositing)'
      : commandLine(pid).includes('libx264')
        ? 'encoder (ffmpeg, H.264 + AAC)'
        : commandLine(pid).includes('s16le')
          ? 'decoder, voice (ffmpeg)'
          : 'decoder, camera (ffmpeg)';
  return { kind, percent: (((cpuSeconds(pid) ?? 0) - (before.get(pid) ?? 0)) / seconds) * 100 };
});

// Stop: to the files complete, and to UPLOADED.
const stoppedAt = Date.now();
await rest('PUT', `/v2/recordings/${id}`, { action: 'stop' });
const recording = emu.deps.services.recordings.get(emu.orgId, id);
const files = await emu.deps.services.recordings.files.whenComplete(recording);
const finishMs = Date.now() - stoppedAt;
let done: { status: string; recording_duration: number; file_size: number; download_url: string };
while ((done = await rest('GET', `/v2/recordings/${id}`)).status === 'UPLOADING') await sleep(50);
const uploadedMs = Date.now() - stoppedAt;
const videoFile = files.video!.path;
const duration = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', videoFile], { encoding: 'utf8' }));

// Encoding speed: the first 15 s of the recording as the encoder's input, encoded again as fast as it goes.
const dir = mkdtempSync(path.join(tmpdir(), 'recorder-bench-'));
const raw = path.join(dir, 'input.mkv');
const sample = Math.min(15, Math.floor(duration));
execFileSync('ffmpeg', [
  '-v',
  'error',
  '-t',
  String(sample),
  '-i',
  videoFile,
  '-c:v',
  'rawvideo',
  '-pix_fmt',
  'yuv420p',
  '-c:a',
  'pcm_s16le',
  '-ar',
  '48000',
  '-ac',
  '2',
  '-f',
  'matroska',
  '-y',
  raw,
]);
const spec = (codec: 'H264' | 'VP8'): RecorderSpec => ({
  id: 'bench',
  ffmpeg: 'ffmpeg',
  meetingId: meeting,
  kind: 'composite',
  video: { codec, width: 1280, height: 720, watermark: null, path: path.join(dir, codec === 'VP8' ? 'out.webm' : 'out.mp4') },
  audio: { codec: codec === 'VP8' ? 'VORBIS' : 'AAC', channels: 2, path: path.join(dir, codec === 'VP8' ? 'out.ogg' : 'out.m4a') },
});
const speed = (codec: 'H264' | 'VP8') => {
  const t = Date.now();
  execFileSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'matroska', '-i', raw, ...encoderArgs(spec(codec))]);
  return sample / ((Date.now() - t) / 1000);
};
// Three times, the median: one encode of a few seconds moves with whatever else the cores do then.
const h264 = [speed('H264'), speed('H264'), speed('H264')].sort((a, b) => a - b)[1]!;
const vp8 = speed('VP8');
// The same 15 s with x264's other presets (picture only), to show what the recorder's choice costs.
const presets = ['veryfast', 'superfast', 'ultrafast'].map((preset) => {
  const t = Date.now();
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-i',
    raw,
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-crf',
    '23',
    '-bf',
    '0',
    '-f',
    'mp4',
    '-y',
    path.join(dir, `${preset}.mp4`),
  ]);
  return { preset, speed: sample / ((Date.now() - t) / 1000), bytes: readFileSync(path.join(dir, `${preset}.mp4`)).length };
});
rmSync(dir, { recursive: true, force: true });

const sampled = await Promise.all(pages.map((p) => p.evaluate<{ longest: number; stalls: number; streams: number }>('window.__sampler.stop()')));
await frontend?.close();
await emu.close();

const sum = (kind: string) => cpu.filter((c) => c.kind === kind).reduce((n, c) => n + c.percent, 0);
const kinds = [...new Set(cpu.map((c) => c.kind))];
const rows = [
  `| Room | ${2 + Math.min(PAGES, 2)} tiles (2 scripted participants${PAGES > 0 ? `, 2 pages` : ''}); ${PAGES} pages in the room |`,
  `| Recorded | ${seconds.toFixed(1)} s on the real clock; file ${duration.toFixed(2)} s, recording_duration ${done.recording_duration} s, ${(done.file_size / 1e6).toFixed(2)} MB |`,
  ...kinds.map(
    (k) =>
      `| CPU, ${k} | ${sum(k).toFixed(1)} % of one core${cpu.filter((c) => c.kind === k).length > 1 ? ` (${cpu.filter((c) => c.kind === k).length} processes)` : ''} |`,
  ),
  `| CPU, the recorder in all (plane's share not counted) | ${cpu
    .filter((c) => c.kind !== kinds[0])
    .reduce((n, c) => n + c.percent, 0)
    .toFixed(1)} % of one core |`,
  `| Encoding speed, 1280 × 720, 15 s of this recording again, pages still in the room | H.264 + AAC: ${h264.toFixed(1)}× real time (median of 3); VP8 + Vorbis: ${vp8.toFixed(1)}× |`,
  `| The same, x264's presets, the picture alone (speed, size) | ${presets.map((p) => `${p.preset} ${p.speed.toFixed(1)}×, ${(p.bytes / 1e6).toFixed(2)} MB`).join('; ')} |`,
  ...(PAGES > 0
    ? [
        `| Pages: longest gap between decoded frames, stalls over 1 s | ${Math.max(...sampled.map((s) => s.longest))} ms; ${sampled.reduce((n, s) => n + s.stalls, 0)} stalls (${sampled.reduce((n, s) => n + s.streams, 0)} received videos) |`,
      ]
    : []),
  `| Stop → files complete | ${finishMs} ms |`,
  `| Stop → UPLOADED (default delay ${(10 + (5 * done.recording_duration) / 60).toFixed(1)} s) | ${uploadedMs} ms |`,
  `| Load (1-min average) | ${load0[0]!.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end; ${cpus().length} CPUs |`,
];
const table = ['| | |', '|---|---|', ...rows].join('\n');
console.log(table);
if (args.write) {
  const file = path.join(ROOT, 'bench', 'RECORDER.md');
  if (!existsSync(file))
    writeFileSync(
      file,
      "# The recorder\n\nWhat a recording costs and how fast its files are done, from `bench/recorder.ts` (its header says how each figure is made). Each run below is one invocation, with its command and the machine's load.\n",
    );
  appendFileSync(file, `\n## ${new Date().toISOString().slice(0, 16)} UTC: \`npx tsx bench/recorder.ts --seconds ${SECONDS} --pages ${PAGES}\`\n\n${table}\n`);
}
process.exit(0);
