// What the media plane's own process costs a room's first transport: the time from the
// emulator's call to the SDP answer, for a fresh plane (a child process started by the call), for a
// plane warmed first (as the emulator does when a page joins the media room, before its SDK asks for
// a transport: warm() starts the child and has it load werift; the time that takes is shown apart,
// with the warmed idle plane's memory, the price of warming it) and for the plane in this process
// (--media-plane inline, werift already loaded), and for a plane kept by its idle time
// (--media-plane-idle-ms) after a page before had a transport on it and left, each run `--runs`
// times, the modes in turn. The first transport after an idle spell pays the child's start unless it
// was warmed or kept; the next one does not (both shown). Run from the built package (npm run build: dist/src), as the emulator runs.
// Last, the CPU a plane's process takes from its fork to werift loaded (its warm() answered), for each
// of its two entries: the library's compiled modules (dist/src), which load werift from node_modules,
// and the bundle the command line and the image start (dist/bin/media-plane.mjs), which holds werift.
//
//   npx tsx bench/media-plane-start.ts [--runs 5]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { RTCPeerConnection } from 'werift';
import type { MediaEngine } from '../src/realtime/media/engine.js';
import type { MediaNetwork } from '../src/realtime/media/media-network.js';
import { cpuSeconds } from './lib/proc.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(args.runs);
const dist = new URL('../dist/src/realtime/media/', import.meta.url);
const { ProcessMediaEngine, PLANE_V8_FLAGS } = (await import(
  new URL('process-engine.js', dist).href
)) as typeof import('../src/realtime/media/process-engine.js');
const { LocalMediaEngine } = (await import(new URL('plane/local-engine.js', dist).href)) as typeof import('../src/realtime/media/plane/local-engine.js');
const quiet = { debug() {}, info() {}, warn: console.warn, error: console.error } as unknown as ConstructorParameters<typeof ProcessMediaEngine>[0];

/** A page's first offer, as the SDK makes it (an audio and a video section). */
async function offer(): Promise<{ pc: RTCPeerConnection; sdp: string }> {
  const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle' });
  pc.addTransceiver('audio', { direction: 'sendonly' });
  pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, sdp: pc.localDescription!.sdp };
}

async function timed(engine: MediaEngine, id: string): Promise<number> {
  const { pc, sdp } = await offer();
  const t0 = performance.now();
  await engine.openTransport(id, 'send', sdp);
  const ms = performance.now() - t0;
  await pc.close();
  return Math.round(ms);
}

/** As the emulator runs by default: on the loopback, one port the system picks. */
const NETWORK: MediaNetwork = { host: '127.0.0.1', ports: 0, announce: undefined };

/** A process's resident and private memory, MB (/proc/<pid>/smaps_rollup: RSS, and the private pages, which go back to the system when it exits). */
function memoryOf(pid: number): { rss: number; private: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rss: kb('Rss') / 1024, private: (kb('Private_Clean') + kb('Private_Dirty')) / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const modes = [
  { name: 'process, cold (a fresh plane started by the call)', make: () => new ProcessMediaEngine(quiet, NETWORK), warm: false, kept: false },
  { name: "process, warmed first (warm() at the media room's join)", make: () => new ProcessMediaEngine(quiet, NETWORK), warm: true, kept: false },
  {
    name: 'process, kept by its idle time (a page before had a transport on it and left)',
    make: () => new ProcessMediaEngine(quiet, NETWORK, 60_000),
    warm: false,
    kept: true,
  },
  { name: 'inline', make: () => new LocalMediaEngine(undefined, NETWORK), warm: false, kept: false },
] as const;
const results = new Map<string, { first: number[]; second: number[]; warming: number[]; rss: number[]; private: number[] }>(
  modes.map((m) => [m.name, { first: [], second: [], warming: [], rss: [], private: [] }]),
);
for (let i = 0; i < RUNS; i++)
  for (const mode of i % 2 === 0 ? modes : [...modes].reverse()) {
    const r = results.get(mode.name)!;
    const engine = mode.make();
    if (mode.warm) {
      const t0 = performance.now();
      await engine.warm();
      r.warming.push(Math.round(performance.now() - t0));
      const m = memoryOf(engine.pid!);
      r.rss.push(Math.round(m.rss));
      r.private.push(Math.round(m.private));
    }
    if (mode.kept) {
      await timed(engine, `before${i}`);
      engine.closeTransport(`before${i}`);
      const m = memoryOf(engine.pid!);
      r.rss.push(Math.round(m.rss));
      r.private.push(Math.round(m.private));
    }
    r.first.push(await timed(engine, `a${i}`));
    r.second.push(await timed(engine, `b${i}`));
    await engine.close();
  }
for (const [name, r] of results) {
  console.log(`${name}: first transport ${r.first.join(', ')} ms (median ${median(r.first)}); second ${r.second.join(', ')} ms (median ${median(r.second)})`);
  if (r.warming.length === 0 && r.rss.length > 0)
    console.log(`  the kept idle plane: RSS ${median(r.rss)} MB, of it private ${median(r.private)} MB (medians)`);
  if (r.warming.length > 0)
    console.log(
      `  warming it took ${r.warming.join(', ')} ms (median ${median(r.warming)}); the warmed idle plane: RSS ${median(r.rss)} MB, of it private ${median(r.private)} MB (medians)`,
    );
}

/** The CPU (ms) of a plane's process started from `file`, from its fork to its warm() answered; then it is let go. */
async function startCpu(file: string): Promise<number> {
  const child = fork(file, [JSON.stringify(NETWORK)], { execArgv: PLANE_V8_FLAGS, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const warmed = new Promise<void>((resolve) => child.on('message', (msg: { id?: number }) => msg.id === 1 && resolve()));
  child.send({ id: 1, op: 'warm', args: [] });
  await Promise.race([warmed, exited.then(() => Promise.reject(new Error(`${file}: the plane ended before it was warm`)))]);
  const cpu = cpuSeconds(child.pid!)!;
  // Let go, it ends by itself.
  child.disconnect();
  await exited;
  return Math.round(cpu * 1000);
}
const entries = [
  { name: "the library's modules (dist/src)", file: new URL('plane/plane-process.js', dist) },
  { name: 'the bundle (dist/bin/media-plane.mjs)', file: new URL('../dist/bin/media-plane.mjs', import.meta.url) },
];
const startCpus = new Map<string, number[]>(entries.map((e) => [e.name, []]));
for (let i = 0; i < RUNS; i++) for (const e of i % 2 === 0 ? entries : [...entries].reverse()) startCpus.get(e.name)!.push(await startCpu(e.file.pathname));
for (const [name, ms] of startCpus) console.log(`a plane's start to werift loaded, from ${name}: ${ms.join(', ')} ms of CPU (median ${median(ms)})`);
console.log(
  `load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
process.exit(0);
