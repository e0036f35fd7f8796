// The README's recording lifecycle as a user's test runs it, timed: the emulator in this process
// (`startEmulator()`, manual clock, free port), its API over HTTP with fetch, and a webhook
// receiver in this process too. One scenario is
//
//   POST /v2/meetings → POST …/participants → POST /v2/recordings → advance 3 s, 60 s →
//   PUT stop → advance 15 s → GET the recording → GET its download_url (the bytes) →
//   the recording.statusUpdate (UPLOADED) webhook at the receiver, its dyte-signature verified
//   with the key of GET /.well-known/webhooks.json
//
// and the figure is milliseconds per scenario: the median and p90 over `runs` runs of
// `perRun` scenarios, after `warmup` scenarios that are not counted. Between runs the
// emulator is reset and the webhook registered again, as a test file's beforeEach would.
// bench/scenario.ts runs it as a script (a process of its own); the report reads its result.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunningEmulator, StartOptions } from '../../src/index.js';
import type { TargetRow } from './report.js';
import { ms, verdict } from './stats.js';

export interface ScenarioResult {
  command: string;
  source: string;
  /** What the recordings are: `real`, encoded by ffmpeg from the meeting (the default where ffmpeg is found), or the `sample` file. */
  recordings: 'real' | 'sample';
  runs: number;
  perRun: number;
  warmup: number;
  /** Milliseconds per scenario, every counted scenario, in order. */
  samples: number[];
  /** CPU time of this process per scenario (user + system), ms: less sensitive to other load on the machine. */
  cpuSamples: number[];
  /** Each run's median, ms. */
  runMedians: number[];
  /**
   * CPU time of the main thread alone per counted scenario (mean, ms; Linux only, else null): the
   * event loop is where a scenario waits, and unlike the process's CPU it leaves out the thread
   * pool's signing; unlike wall time, it hardly moves when other processes share the cores.
   */
  mainThreadCpuMs: number | null;
  /** What one scenario moved: requests to the emulator, webhook deliveries, download bytes. */
  requestsPerScenario: number;
  deliveriesPerScenario: number;
  downloadBytes: number;
  /** When the counted runs began and ended (µs, process.hrtime's clock, as a CPU profile's samples). */
  window: { fromUs: number; toUs: number };
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const WAIT_MS = 5_000;

interface Delivery {
  body: Buffer;
  signature: string;
  json: { event?: string; recording?: { id?: string; status?: string } };
}

/** A webhook receiver: keeps each delivery's raw body and signature; answers 200. */
export async function startReceiver() {
  const received: Delivery[] = [];
  let waiter: { match: (d: Delivery) => boolean; resolve: (d: Delivery) => void } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const d: Delivery = { body, signature: String(req.headers['dyte-signature'] ?? ''), json: JSON.parse(body.toString('utf8')) as Delivery['json'] };
      received.push(d);
      res.writeHead(200, { 'content-length': '0' }).end();
      if (waiter?.match(d)) {
        waiter.resolve(d);
        waiter = undefined;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** The first delivery (already in, or still to come) that `match` accepts. */
    next(match: (d: Delivery) => boolean): Promise<Delivery> {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching webhook within ${WAIT_MS} ms`)), WAIT_MS);
        waiter = {
          match,
          resolve: (d) => {
            clearTimeout(timer);
            resolve(d);
          },
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface Recording {
  id: string;
  status: string;
  download_url: string;
  file_size: number;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`scenario: ${what}`);
}

/** One scenario, as the README's vitest example runs it: what it downloaded and how many requests it made. */
export async function scenario(emu: RunningEmulator, receiver: Receiver, i: number): Promise<{ bytes: number; requests: number }> {
  let requests = 0;
  const get = (url: string) => {
    requests += 1;
    return fetch(url);
  };
  const api = async <T>(method: string, pathname: string, body?: unknown): Promise<T> => {
    requests += 1;
    const res = await fetch(`${emu.url}${pathname}`, {
      method,
      headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: T };
    check(res.status < 300, `${method} ${pathname} answered ${res.status}`);
    return json.data;
  };
  const meeting = await api<{ id: string }>('POST', '/v2/meetings', { title: `Demo ${i}` });
  const participant = await api<{ token: string }>('POST', `/v2/meetings/${meeting.id}/participants`, {
    name: 'Ada',
    preset_name: 'group_call_host',
    custom_participant_id: `ada-${i}`,
  });
  check(typeof participant.token === 'string', 'participant without a token');
  const started = await api<Recording>('POST', '/v2/recordings', { meeting_id: meeting.id });
  check(started.status === 'INVOKED', `started as ${started.status}`);
  await emu.advance(3_000); // the recorder joins
  await emu.advance(60_000); // one minute of recording
  const stopped = await api<Recording>('PUT', `/v2/recordings/${started.id}`, { action: 'stop' });
  check(stopped.status === 'UPLOADING', `stopped as ${stopped.status}`);
  await emu.advance(15_000); // upload: 10 s + 5 s per recorded minute
  const done = await api<Recording>('GET', `/v2/recordings/${started.id}`);
  check(done.status === 'UPLOADED', `ended as ${done.status}: ${JSON.stringify(done)}`);
  const file = await get(done.download_url);
  const bytes = Buffer.from(await file.arrayBuffer());
  check(file.status === 200 && bytes.length === done.file_size, `download: ${file.status}, ${bytes.length} of ${done.file_size} bytes`);
  const hook = await receiver.next(
    (d) => d.json.event === 'recording.statusUpdate' && d.json.recording?.id === started.id && d.json.recording.status === 'UPLOADED',
  );
  const published = (await (await get(`${emu.url}/.well-known/webhooks.json`)).json()) as { public_key: string };
  check(verify('sha256', hook.body, createPublicKey(published.public_key), Buffer.from(hook.signature, 'base64')), 'webhook signature does not verify');
  return { bytes: bytes.length, requests };
}

export async function registerWebhook(emu: RunningEmulator, receiver: Receiver): Promise<void> {
  const res = await fetch(`${emu.url}/v2/webhooks`, {
    method: 'POST',
    headers: { authorization: emu.authHeader, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', url: receiver.url, events: ['recording.statusUpdate'] }),
  });
  check(res.status === 201, `POST /v2/webhooks answered ${res.status}`);
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** CPU ms of this process's main thread so far (utime + stime of its task), or null off Linux. */
function mainThreadCpu(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;
const us = () => Number(process.hrtime.bigint() / 1000n);

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function sourceFlag(source: string): string {
  if (source === path.join(ROOT, 'dist', 'src', 'index.js')) return '';
  if (source === path.join(ROOT, 'src', 'index.ts')) return ' --src';
  return ` --dist ${path.dirname(path.dirname(source))}`;
}

export async function measureScenario(opts: {
  runs: number;
  perRun: number;
  warmup: number;
  source?: string;
  recordings?: 'real' | 'sample';
}): Promise<ScenarioResult> {
  const source = opts.source ?? path.join(ROOT, 'dist', 'src', 'index.js');
  const recordings = opts.recordings ?? 'real';
  const { startEmulator } = (await import(pathToFileURL(source).href)) as { startEmulator: (o?: StartOptions) => Promise<RunningEmulator> };
  const emu = await startEmulator({ seed: 'bench-scenario', recordings });
  const receiver = await startReceiver();
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  const runMedians: number[] = [];
  let last = { bytes: 0, requests: 0 };
  let deliveries = 0;
  const window = { fromUs: 0, toUs: 0 };
  let mainCpu0: number | null;
  let mainCpuMs: number | null = null;
  try {
    await registerWebhook(emu, receiver);
    for (let i = 0; i < opts.warmup; i++) await scenario(emu, receiver, i);
    window.fromUs = us();
    mainCpu0 = mainThreadCpu();
    for (let run = 0; run < opts.runs; run++) {
      await emu.reset();
      receiver.received.length = 0;
      await registerWebhook(emu, receiver);
      const times: number[] = [];
      for (let i = 0; i < opts.perRun; i++) {
        const t0 = nowMs();
        const cpu0 = process.cpuUsage();
        last = await scenario(emu, receiver, i);
        times.push(nowMs() - t0);
        const cpu = process.cpuUsage(cpu0);
        cpuSamples.push((cpu.user + cpu.system) / 1000);
      }
      deliveries = receiver.received.length / opts.perRun;
      samples.push(...times);
      runMedians.push(percentile(times, 50));
    }
    window.toUs = us();
    const mainCpu1 = mainThreadCpu();
    if (mainCpu0 !== null && mainCpu1 !== null) mainCpuMs = (mainCpu1 - mainCpu0) / (opts.runs * opts.perRun);
  } finally {
    await receiver.close();
    await emu.close();
  }
  return {
    command: `node --import tsx bench/scenario.ts --runs ${opts.runs} --per-run ${opts.perRun} --warmup ${opts.warmup}${sourceFlag(source)}${recordings === 'real' ? '' : ` --recordings ${recordings}`}`,
    source: path.relative(ROOT, source),
    recordings,
    runs: opts.runs,
    perRun: opts.perRun,
    warmup: opts.warmup,
    samples,
    cpuSamples,
    runMedians,
    mainThreadCpuMs: mainCpuMs,
    requestsPerScenario: last.requests,
    deliveriesPerScenario: deliveries,
    downloadBytes: last.bytes,
    window,
  };
}

// --- in the report -------------------------------------------------------------------------

const TARGET_MS = 8;

/** The target's row (with sample recordings: the emulator's own work, which the target is about) and the real recordings' figure. */
export function scenarioRows(r: ScenarioResult, real?: ScenarioResult): TargetRow[] {
  const row = (x: ScenarioResult, target: boolean): TargetRow => {
    const med = percentile(x.samples, 50);
    return {
      measure: `README recording lifecycle in process, ${x.recordings} recordings, per scenario (median of ${x.runs} × ${x.perRun})`,
      emulator: ms(med),
      reference: `p90 ${ms(percentile(x.samples, 90))}; CPU median ${ms(percentile(x.cpuSamples, 50))}${x.mainThreadCpuMs === null ? '' : `, main thread ${ms(x.mainThreadCpuMs)}`}`,
      ratio: '',
      target: target ? `≤ ${TARGET_MS} ms` : '(reported)',
      verdict: target ? verdict(med, TARGET_MS, 'atMost') : '',
    };
  };
  return real ? [row(r, true), row(real, false)] : [row(r, true)];
}

/** The section's text and table: the sample recordings' run (the target's) and, when measured, the real recordings' one. */
export function scenarioSection(r: ScenarioResult | undefined, real?: ScenarioResult): string {
  if (!r) return '_Not run._';
  const line = (x: ScenarioResult) =>
    `| ${x.recordings} | ${x.source} | ${ms(percentile(x.samples, 50))} | ${ms(percentile(x.samples, 90))} | ${ms(percentile(x.cpuSamples, 50))} | ${x.mainThreadCpuMs === null ? 'n/a' : ms(x.mainThreadCpuMs)} | ${x.runMedians.map(ms).join(' / ')} |`;
  const all = real ? [r, real] : [r];
  return [
    `One scenario: ${r.requestsPerScenario} requests with fetch (meeting, participant, recording start, stop, GET, the download of the recording, the webhook key), three clock advances, ${r.deliveriesPerScenario} signed deliveries to a receiver in the same process, one signature verified. The warm-up scenarios are not counted; the emulator is reset before each run. With sample recordings every recording is the sample file (${r.downloadBytes} bytes), so the figure is the emulator's own work; with real ones ffmpeg encodes each recording from the meeting.`,
    '',
    ...all.map((x) => `- \`${x.command}\``),
    '',
    `| Recordings | Emulator | Median | p90 | CPU median (this process, all threads) | Main thread CPU (mean) | Run medians |`,
    `|---|---|---|---|---|---|---|`,
    ...all.map(line),
  ].join('\n');
}
