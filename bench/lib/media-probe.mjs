/* global process, setInterval, clearInterval */
// Preloaded into the processes the media benchmark measures (node --expose-gc --import this file:
// the emulator, and the werift-only relay it is compared with), spawned with an IPC channel. The
// bench asks, the process answers:
//
// - {probe: 'memory'}: a full garbage collection first (twice: what a finalizer freed goes in the
//   second), then RSS and the V8 heap, so that a reading is what the process keeps rather than the
//   garbage V8 let pile up;
// - {probe: 'loop-start'} / {probe: 'loop-stop'}: the event loop's delay between the two
//   (perf_hooks.monitorEventLoopDelay, 10 ms resolution: percentiles and max), with the worst delay
//   of every 250 ms window and its wall-clock time, to set beside a stall seen in a page; and the
//   garbage collections meanwhile (count, total and longest pause, the longest full one);
// - {probe: 'snapshot', file}: a heap snapshot written to `file` (after a collection);
// - {probe: 'profile-start'} / {probe: 'profile-stop', file}: a CPU profile between the two, written
//   to `file` (a .cpuprofile for Chrome DevTools, speedscope or bench/lib/profile.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';

const WINDOW_MS = 250;
let whole;
let window;
let timeline = [];
let ticker;

/** Resident memory by kind of mapping (Linux: /proc/self/smaps): the brk heap (malloc), anonymous maps (V8's heap, large mallocs, thread stacks), files (code, libraries). */
function mappings() {
  const out = { brk: 0, anonymous: 0, files: 0 };
  let kind = 'anonymous';
  let text;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1];
      kind = name === '[heap]' ? 'brk' : name === '' || name.startsWith('[') ? 'anonymous' : 'files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) * 1024;
  }
  return out;
}

function memory() {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, mappings: mappings() };
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

if (process.send) {
  process.on('message', async (msg) => {
    if (!msg || typeof msg.probe !== 'string') return;
    let answer;
    if (msg.probe === 'memory') answer = memory();
    else if (msg.probe === 'loop-start') answer = loopStart();
    else if (msg.probe === 'loop-stop') answer = loopStop();
    else if (msg.probe === 'snapshot') {
      globalThis.gc();
      answer = { file: v8.writeHeapSnapshot(msg.file) };
    } else if (msg.probe === 'profile-start') answer = await profileStart();
    else if (msg.probe === 'profile-stop') answer = await profileStop(msg.file);
    else answer = { error: `unknown probe ${msg.probe}` };
    process.send({ probe: msg.probe, id: msg.id, ...answer });
  });
  // The channel must not keep the process alive by itself.
  process.channel?.unref();
}
