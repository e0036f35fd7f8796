/* global process, setInterval, clearInterval */
// Preloaded into the processes the media benchmark measures (node --expose-gc --import this file:
// the emulator, and the werift-only relay it is compared with), spawned with an IPC channel; or,
// with MEDIA_PROBE_DIR set, into a process whose channel is someone else's (the media plane's, by
// bench/media-plane-memory.ts), asked through files in that folder and SIGUSR2. The bench asks, the
// process answers:
//
// - {probe: 'memory'}: a full garbage collection first (twice: what a finalizer freed goes in the
//   second), then RSS, the V8 heap and its spaces, so that a reading is what the process keeps
//   rather than the garbage V8 let pile up; with {gc: false}, the same without the collection (a
//   forced one is itself a full collection, which V8's memory reducer counts). A reading allocates
//   about 1 MB itself (/proc/self/smaps read as text);
// - {probe: 'loop-start'} / {probe: 'loop-stop'}: the event loop's delay between the two
//   (perf_hooks.monitorEventLoopDelay, 10 ms resolution: percentiles and max), with the worst delay
//   of every 250 ms window and its wall-clock time, to set beside a stall seen in a page; and the
//   garbage collections meanwhile (count, total and longest pause, the longest full one);
// - {probe: 'snapshot', file}: a heap snapshot written to `file` (after a collection);
// - {probe: 'profile-start'} / {probe: 'profile-stop', file}: a CPU profile between the two, written
//   to `file` (a .cpuprofile for Chrome DevTools, speedscope or bench/lib/profile.ts).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';

const WINDOW_MS = 250;
let whole;
let window;
let timeline = [];
let ticker;

/** Where glibc puts the malloc arenas of threads other than the main one: 64 MB heaps, aligned on their size. */
const ARENA = 64 * 1024 * 1024;

/**
 * Resident memory by kind of mapping (Linux: /proc/self/smaps): the brk heap (the main thread's
 * malloc arena), the malloc arenas of other threads (V8's compiler and GC threads, libuv's pool:
 * an anonymous mapping that starts on a 64 MB boundary and, with the reserved rest that follows
 * it, spans 64 MB), the other anonymous maps (V8's heap, large mallocs, stacks), files (code,
 * libraries).
 */
function mappings() {
  const out = { brk: 0, arenas: 0, anonymous: 0, files: 0 };
  let text;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  const maps = [];
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[4];
      maps.push({
        start: BigInt(`0x${header[1]}`),
        end: BigInt(`0x${header[2]}`),
        perms: header[3],
        kind: name === '[heap]' ? 'brk' : name === '' || name.startsWith('[') ? 'anonymous' : 'files',
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length) maps.at(-1).rss = Number(rss[1]) * 1024;
  }
  const size = BigInt(ARENA);
  maps.forEach((m, i) => {
    if (m.kind === 'anonymous' && m.start % size === 0n) {
      const next = maps[i + 1];
      const end = next && next.start === m.end && next.perms === '---p' ? next.end : m.end;
      if (end - m.start === size) m.kind = 'arenas';
    }
    out[m.kind] += m.rss;
  });
  return out;
}

/** V8's heap by space: what each has committed (space_size) and uses, in bytes. */
function spaces() {
  return Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { committed: s.space_size, used: s.space_used_size }]));
}

function memory(collect = true) {
  if (collect) {
    globalThis.gc();
    globalThis.gc();
  }
  const m = process.memoryUsage();
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    mappings: mappings(),
    spaces: spaces(),
  };
}

const ms = (ns) => ns / 1e6;

let gc = { count: 0, totalMs: 0, maxMs: 0, majorMaxMs: 0 };
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count += 1;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.majorMaxMs = Math.max(gc.majorMaxMs, entry.duration);
  }
});

function loopStart() {
  gc = { count: 0, totalMs: 0, maxMs: 0, majorMaxMs: 0 };
  gcObserver.observe({ entryTypes: ['gc'] });
  whole?.disable();
  window?.disable();
  clearInterval(ticker);
  whole = monitorEventLoopDelay({ resolution: 10 });
  window = monitorEventLoopDelay({ resolution: 10 });
  whole.enable();
  window.enable();
  timeline = [];
  ticker = setInterval(() => {
    timeline.push([Date.now(), ms(window.max)]);
    window.reset();
  }, WINDOW_MS);
  ticker.unref();
  return {};
}

function loopStop() {
  if (!whole) return {};
  gcObserver.disconnect();
  clearInterval(ticker);
  whole.disable();
  window.disable();
  const out = {
    p50: ms(whole.percentile(50)),
    p99: ms(whole.percentile(99)),
    max: ms(whole.max),
    mean: ms(whole.mean),
    timeline,
    gc,
  };
  whole = window = undefined;
  return out;
}

let session;

function post(method, params) {
  return new Promise((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));
}

async function profileStart() {
  session ??= new Session();
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 1000 });
  await post('Profiler.start');
  return {};
}

async function profileStop(file) {
  const { profile } = await post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
  return { file };
}

async function answer(msg) {
  if (msg.probe === 'memory') return memory(msg.gc !== false);
  if (msg.probe === 'loop-start') return loopStart();
  if (msg.probe === 'loop-stop') return loopStop();
  if (msg.probe === 'snapshot') {
    globalThis.gc();
    return { file: v8.writeHeapSnapshot(msg.file) };
  }
  if (msg.probe === 'profile-start') return await profileStart();
  if (msg.probe === 'profile-stop') return await profileStop(msg.file);
  return { error: `unknown probe ${msg.probe}` };
}

if (process.env.MEDIA_PROBE_DIR) {
  // A process whose IPC channel belongs to someone else (the media plane's, to the emulator): the
  // bench writes its question to ask.json in that folder and sends SIGUSR2; the answer is written
  // to answer.json.
  const dir = process.env.MEDIA_PROBE_DIR;
  process.on('SIGUSR2', async () => {
    const msg = JSON.parse(readFileSync(`${dir}/ask.json`, 'utf8'));
    writeFileSync(`${dir}/answer.json.tmp`, JSON.stringify({ probe: msg.probe, id: msg.id, ...(await answer(msg)) }));
    renameSync(`${dir}/answer.json.tmp`, `${dir}/answer.json`);
  });
} else if (process.send) {
  process.on('message', async (msg) => {
    if (!msg || typeof msg.probe !== 'string') return;
    process.send({ probe: msg.probe, id: msg.id, ...(await answer(msg)) });
  });
  // The channel must not keep the process alive by itself.
  process.channel?.unref();
}
