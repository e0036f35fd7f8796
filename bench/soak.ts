// Soak: `npm run soak` (not part of CI; `-- --seconds N` for a short run).
//
// Spawns the emulator (src/server.ts through tsx, real clock at --time-scale 60 so that recorder
// joins, uploads, go-lives and webhook retries all happen within the minute), registers a webhook
// to a flaky receiver in this process (random 500s and 503s, slow answers, answers after the 3 s
// timeout, connections reset mid-request), and sends mixed traffic at a fixed rate: meetings,
// participants joining and leaving, recordings started and stopped, livestreams, GETs. Then it
// stops the traffic, pushes every pending retry through with PUT /_emulator/clock, and checks:
//   - zero 5xx and zero failed connections to the API (4xx are counted: some are expected);
//   - zero error-level log lines from the emulator;
//   - no delivery left pending; by the receiver's own account of every dyte-uuid (complete even
//     though the delivery log is bounded), each delivery stopped at its first 2xx or after
//     exactly 1 + 5 attempts, never sent more; for the records the log still holds, one receiver
//     hit per recorded attempt and a status that matches the receiver's answers;
//   - nothing lost: every status a recording reached came as a recording.statusUpdate;
//   - the emulator's RSS (/proc/<pid>/status) grew less than 10% from the end of the warm-up
//     (the first quarter) to the end of the traffic. It is read right after a full GC (the
//     emulator runs with --expose-gc and bench/lib/soak-gc.cjs, which collects on SIGUSR2), as
//     medians of windows: V8 lets garbage pile up for a varying while, which alone moves RSS by
//     tens of percent; the raw range is printed too.
// Prints one summary line (and exits 1 when a check fails).
//
//   npm run soak                          # 60 s at 200 req/s
//   npm run soak -- --seconds 10          # a short run
//   npm run soak -- --rate 100 --time-scale 30 --delivery-log-size 10000 --verbose
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ORG_ID = '00000000-0000-4000-8000-000000000001';
const AUTH = `Basic ${Buffer.from(`${ORG_ID}:emulator-api-key`).toString('base64')}`;
const EVENTS = [
  'meeting.started',
  'meeting.ended',
  'meeting.participantJoined',
  'meeting.participantLeft',
  'recording.statusUpdate',
  'livestreaming.statusUpdate',
];
const RSS_LIMIT = 0.1;

// --- options ---------------------------------------------------------------------------------

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n <= 0) {
    process.stderr.write(`soak: --${name} needs a positive number\n`);
    process.exit(2);
  }
  return n;
}
const SECONDS = option('seconds', 60);
const RATE = option('rate', 200);
const TIME_SCALE = option('time-scale', 60);
const SEED = option('seed', 1);
/**
 * Smaller than the default 10 000, so that the log reaches its bound within the warm-up: the RSS
 * check then compares steady states. The checks do not need the log to hold everything: the
 * receiver keeps its own account of every dyte-uuid.
 */
const DELIVERY_LOG = option('delivery-log-size', 1_000);

/** Seeded, so that a run's traffic and faults are the same every time (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(SEED);
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
const recent = <T>(items: readonly T[], n = 200): readonly T[] => items.slice(-n);
const hrMs = () => Number(process.hrtime.bigint()) / 1e6;

// --- the emulator ----------------------------------------------------------------------------

interface Emulator {
  child: ChildProcess;
  url: string;
  errorLines: string[];
  rss(): number;
  /** RSS right after a full garbage collection in the emulator. */
  rssAfterGc(): Promise<number>;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)![1]) * 1024;
}

function startEmulator(): Promise<Emulator> {
  // --expose-gc + the preload: SIGUSR2 runs a full GC (the RSS check samples right after one).
  const args = [
    '--expose-gc',
    '--require',
    path.join(ROOT, 'bench', 'lib', 'soak-gc.cjs'),
    '--import',
    'tsx',
    path.join(ROOT, 'src', 'server.ts'),
    '--port',
    '0',
    // The web SDK's TLS listener is not what the soak exercises, and its fixed port could be taken.
    '--tls-port',
    '0',
    '--rtmp-port',
    '0',
    '--rtmps-port',
    '0',
    '--clock',
    'real',
    '--time-scale',
    String(TIME_SCALE),
    '--seed',
    'soak',
    '--log-level',
    'warn',
    '--delivery-log-size',
    String(DELIVERY_LOG),
  ];
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMULATOR_') && k !== 'PORT' && k !== 'HOST'));
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const errorLines: string[] = [];
  let errBuffer = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    errBuffer += d;
    const lines = errBuffer.split('\n');
    errBuffer = lines.pop()!;
    // pino: level 50 is error, 60 fatal; anything that is not JSON is a crash trace.
    for (const line of lines) if (line.trim() && !/"level":(30|40)\b/.test(line)) errorLines.push(line);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        child,
        url: m[1]!,
        errorLines,
        rss: () => rssOf(child.pid!),
        rssAfterGc: async () => {
          child.kill('SIGUSR2');
          // A full GC of this heap takes tens of ms; give it, and the page release, a moment.
          await new Promise((r) => setTimeout(r, 300));
          return rssOf(child.pid!);
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening:\n${out}`)));
  });
}

// --- HTTP to the emulator --------------------------------------------------------------------

// Idle sockets are dropped after 4 s, before the emulator's 5 s keep-alive timeout closes them:
// otherwise a request may go out on a socket the server is closing at that moment.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });

interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

function request(base: string, method: string, p: string, body?: unknown, auth = true): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = AUTH;
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const started = hrMs();
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${p}`, { method, headers, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // kept as text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, ms: hrMs() - started });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

// --- the flaky receiver ----------------------------------------------------------------------

type Behaviour = 'ok' | '500' | '503' | 'slow' | 'late' | 'reset';
interface Seen {
  hits: number;
  doomed: boolean;
  /** What the receiver did on each hit. */
  answers: Behaviour[];
  /** From the body, once one arrived whole. */
  event?: string;
  recording?: { id: string; status: string };
}

/** Weights: mostly fine; the rest fails in every way a receiver can. */
const BEHAVIOURS: Array<[Behaviour, number]> = [
  ['ok', 70],
  ['500', 8],
  ['503', 4], // after 100 ms
  ['slow', 8], // 200 after 0.2–2 s: within the 3 s timeout
  ['late', 3], // 200 after 3.5 s: past the timeout, so a failed attempt the receiver did see
  ['reset', 7], // the connection is reset halfway through reading the request
];

function behaviour(): Behaviour {
  let r = random() * 100;
  for (const [b, w] of BEHAVIOURS) {
    if (r < w) return b;
    r -= w;
  }
  return 'ok';
}

async function startReceiver() {
  const seen = new Map<string, Seen>();
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits += 1;
    const uuid = String(req.headers['dyte-uuid'] ?? '');
    // 3% of the events meet a receiver that fails every attempt: they end failed.
    const entry = seen.get(uuid) ?? { hits: 0, answers: [], doomed: random() < 0.03 };
    seen.set(uuid, entry);
    entry.hits += 1;
    const b = entry.doomed ? '500' : behaviour();
    entry.answers.push(b);
    if (b === 'reset') {
      // Read part of the request, then reset the connection.
      req.once('data', () => req.socket.resetAndDestroy());
      req.once('end', () => req.socket.resetAndDestroy());
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const answer = (status: number) => {
      if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    };
    req.once('end', () => {
      if (entry.event === undefined) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Pick<Seen, 'event' | 'recording'>;
        entry.event = body.event;
        if (body.recording) entry.recording = { id: body.recording.id, status: body.recording.status };
      }
      if (b === 'ok') answer(200);
      else if (b === '500') answer(500);
      else if (b === '503') setTimeout(() => answer(503), 100);
      else if (b === 'slow') setTimeout(() => answer(200), 200 + random() * 1_800);
      else setTimeout(() => answer(200), 3_500);
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// --- traffic ---------------------------------------------------------------------------------

interface World {
  meetings: string[];
  participants: Array<{ meetingId: string; id: string }>;
  recordings: Array<{ id: string; meetingId: string; at: number; stopped: boolean }>;
  activeRecording: Set<string>;
  livestreamMeetings: string[];
  clientIds: number;
}

interface Op {
  name: string;
  weight: number;
  run(base: string, w: World): Promise<Answer> | undefined;
}

const OPS: Op[] = [
  {
    name: 'POST /v2/meetings',
    weight: 8,
    run: async (base, w) => {
      const a = await request(base, 'POST', '/v2/meetings', { title: `soak ${w.meetings.length}`, record_on_start: false });
      if (a.status === 201) w.meetings.push((a.body as { data: { id: string } }).data.id);
      return a;
    },
  },
  {
    name: 'POST participants',
    weight: 8,
    run: (base, w) => {
      const m = pick(recent(w.meetings));
      if (!m) return undefined;
      const client = `client-${(w.clientIds += 1)}`;
      return request(base, 'POST', `/v2/meetings/${m}/participants`, { name: client, preset_name: 'group_call_host', custom_participant_id: client }).then(
        (a) => {
          if (a.status === 201) w.participants.push({ meetingId: m, id: (a.body as { data: { id: string } }).data.id });
          return a;
        },
      );
    },
  },
  {
    name: 'join',
    weight: 4,
    run: (base, w) => {
      const p = pick(recent(w.participants));
      return p && request(base, 'POST', `/_emulator/meetings/${p.meetingId}/participants/${p.id}/join`, {}, false);
    },
  },
  {
    name: 'leave',
    weight: 2,
    run: (base, w) => {
      const p = pick(recent(w.participants));
      return p && request(base, 'POST', `/_emulator/meetings/${p.meetingId}/participants/${p.id}/leave`, {}, false);
    },
  },
  {
    name: 'POST /v2/recordings',
    weight: 6,
    run: (base, w) => {
      const m = pick(recent(w.meetings).filter((id) => !w.activeRecording.has(id)));
      if (!m) return undefined;
      w.activeRecording.add(m);
      return request(base, 'POST', '/v2/recordings', { meeting_id: m }).then((a) => {
        if (a.status === 200) w.recordings.push({ id: (a.body as { data: { id: string } }).data.id, meetingId: m, at: hrMs(), stopped: false });
        else w.activeRecording.delete(m);
        return a;
      });
    },
  },
  {
    name: 'PUT /v2/recordings/{id} stop',
    weight: 5,
    run: (base, w) => {
      // Started at least 200 ms (12 emulated seconds) ago: the recorder has joined.
      const r = pick(recent(w.recordings).filter((x) => !x.stopped && hrMs() - x.at > 200));
      if (!r) return undefined;
      r.stopped = true;
      return request(base, 'PUT', `/v2/recordings/${r.id}`, { action: 'stop' }).then((a) => {
        w.activeRecording.delete(r.meetingId);
        return a;
      });
    },
  },
  {
    name: 'POST livestreams',
    weight: 3,
    run: (base, w) => {
      const m = pick(recent(w.meetings));
      if (!m) return undefined;
      w.livestreamMeetings.push(m);
      return request(base, 'POST', `/v2/meetings/${m}/livestreams`, { name: 'soak' });
    },
  },
  {
    name: 'stop livestream',
    weight: 2,
    run: (base, w) => {
      return withId(pick(recent(w.livestreamMeetings)), (m) => request(base, 'POST', `/v2/meetings/${m}/active-livestream/stop`, {}));
    },
  },
  { name: 'GET meeting', weight: 12, run: (base, w) => withId(pick(recent(w.meetings)), (m) => request(base, 'GET', `/v2/meetings/${m}`)) },
  { name: 'GET meetings', weight: 6, run: (base) => request(base, 'GET', '/v2/meetings?per_page=25') },
  { name: 'GET recordings', weight: 6, run: (base) => request(base, 'GET', '/v2/recordings?per_page=25') },
  { name: 'GET recording', weight: 8, run: (base, w) => withId(pick(recent(w.recordings))?.id, (r) => request(base, 'GET', `/v2/recordings/${r}`)) },
  { name: 'GET participants', weight: 6, run: (base, w) => withId(pick(recent(w.meetings)), (m) => request(base, 'GET', `/v2/meetings/${m}/participants`)) },
  {
    name: 'GET active-livestream',
    weight: 4,
    run: (base, w) => withId(pick(recent(w.livestreamMeetings)), (m) => request(base, 'GET', `/v2/meetings/${m}/active-livestream`)),
  },
  {
    name: 'GET active-recording',
    weight: 3,
    run: (base, w) => withId(pick(recent(w.meetings)), (m) => request(base, 'GET', `/v2/recordings/active-recording/${m}`)),
  },
  { name: 'GET livestreams', weight: 3, run: (base) => request(base, 'GET', '/v2/livestreams') },
];

function withId<T>(id: string | undefined, f: (id: string) => T): T | undefined {
  return id === undefined ? undefined : f(id);
}

const TOTAL_WEIGHT = OPS.reduce((s, o) => s + o.weight, 0);
function chooseOp(): Op {
  let r = random() * TOTAL_WEIGHT;
  for (const op of OPS) {
    if (r < op.weight) return op;
    r -= op.weight;
  }
  return OPS[0]!;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
/** The slowest answer of each second of traffic (--verbose). */
function perSecond(latencies: Array<{ t: number; ms: number }>): number[] {
  const out: number[] = [];
  for (const l of latencies) out[Math.floor(l.t)] = Math.max(out[Math.floor(l.t)] ?? 0, Math.round(l.ms));
  return out;
}

// --- the run ---------------------------------------------------------------------------------

interface DeliveryView {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  payload: { recording?: { id: string; status: string } };
  attempts: Array<{ status_code: number | null; error: string | null }>;
  failure_reason: string | null;
}

async function main(): Promise<void> {
  const started = hrMs();
  const receiver = await startReceiver();
  const emu = await startEmulator();
  const base = emu.url;
  const stopEmulator = () => {
    if (emu.child.exitCode === null) emu.child.kill('SIGKILL');
  };
  process.on('exit', stopEmulator);

  const hook = await request(base, 'POST', '/v2/webhooks', { name: 'soak', url: receiver.url, events: EVENTS });
  if (hook.status !== 201) throw new Error(`cannot register the webhook: ${hook.status} ${JSON.stringify(hook.body)}`);

  const w: World = { meetings: [], participants: [], recordings: [], activeRecording: new Set(), livestreamMeetings: [], clientIds: 0 };
  const statuses = new Map<number, number>();
  const byOp = new Map<string, { n: number; s5xx: number }>();
  const latencies: Array<{ t: number; ms: number }> = [];
  const fourXX = new Map<string, number>();
  const errors: string[] = [];
  let sent = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  // RSS once a second while the traffic runs (shown with --verbose), and every 3 s right after a
  // full GC: V8 lets garbage pile up for a varying while before it collects (in one run, 66 MB
  // over 24 s with a live heap of 22 MB), which moves RSS by tens of percent without a leak.
  const rss: Array<{ t: number; bytes: number }> = [];
  const rssGc: Array<{ t: number; bytes: number }> = [];
  const sampler = setInterval(() => rss.push({ t: (hrMs() - trafficStart) / 1000, bytes: emu.rss() }), 1_000);
  const gcSampler = setInterval(() => void emu.rssAfterGc().then((bytes) => rssGc.push({ t: (hrMs() - trafficStart) / 1000, bytes })), 3_000);

  const trafficStart = hrMs();
  const total = Math.round(SECONDS * RATE);
  const pending = new Set<Promise<void>>();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((hrMs() - trafficStart) / 1000) * RATE) + 1);
      while (sent < due) {
        sent += 1;
        const op = chooseOp();
        const run = op.run(base, w) ?? OPS.find((o) => o.name === 'GET meetings')!.run(base, w)!;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const p: Promise<void> = run
          .then((a) => {
            statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
            latencies.push({ t: (hrMs() - trafficStart) / 1000, ms: a.ms });
            if (a.status >= 400 && a.status < 500) fourXX.set(`${op.name} ${a.status}`, (fourXX.get(`${op.name} ${a.status}`) ?? 0) + 1);
            const s = byOp.get(op.name) ?? { n: 0, s5xx: 0 };
            s.n += 1;
            if (a.status >= 500) {
              s.s5xx += 1;
              errors.push(`${op.name}: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
            }
            byOp.set(op.name, s);
          })
          .catch((err: unknown) => void errors.push(`${op.name}: ${(err as Error).message}`))
          .finally(() => {
            inFlight -= 1;
            pending.delete(p);
          });
        pending.add(p);
      }
      if (sent >= total) return resolve();
      setTimeout(tick, 5);
    };
    tick();
  });
  await Promise.all([...pending]);
  const trafficSeconds = (hrMs() - trafficStart) / 1000;
  clearInterval(sampler);
  clearInterval(gcSampler);
  rss.push({ t: trafficSeconds, bytes: emu.rss() });
  rssGc.push({ t: trafficSeconds, bytes: await emu.rssAfterGc() });

  // Push every pending retry (and every simulated step) through: jump the clock, wait for the
  // attempts, until nothing is pending. Each jump is 15 emulated minutes, past the longest backoff.
  let rounds = 0;
  for (; rounds < 40; rounds++) {
    const left = await request(base, 'GET', '/_emulator/webhooks/deliveries?status=pending&limit=1&wait=true', undefined, false);
    if ((left.body as { total: number }).total === 0 && rounds > 0) break;
    const clock = (await request(base, 'GET', '/_emulator/clock', undefined, false)).body as { now: string };
    const jump = await request(base, 'PUT', '/_emulator/clock', { now: new Date(Date.parse(clock.now) + 15 * 60_000).toISOString() }, false);
    if (jump.status !== 200) errors.push(`PUT /_emulator/clock: ${jump.status}`);
  }
  const logAnswer = await request(base, 'GET', '/_emulator/webhooks/deliveries?limit=10000&wait=true', undefined, false);
  const log = (logAnswer.body as { deliveries: DeliveryView[] }).deliveries;

  // --- checks ----------------------------------------------------------------------------------
  const problems: string[] = [];
  const s5xx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const s4xx = [...statuses].filter(([s]) => s >= 400 && s < 500).reduce((n, [, c]) => n + c, 0);
  if (s5xx > 0) problems.push(`${s5xx} answers were 5xx`);
  const netErrors = errors.filter((e) => !/: 5\d\d /.test(e));
  if (netErrors.length > 0) problems.push(`${netErrors.length} requests failed: ${netErrors.slice(0, 3).join('; ')}`);
  if (emu.errorLines.length > 0) problems.push(`${emu.errorLines.length} error log lines: ${emu.errorLines.slice(0, 2).join(' | ').slice(0, 400)}`);

  // None left pending: every delivery ended delivered or failed.
  const stillPending = ((await request(base, 'GET', '/_emulator/webhooks/deliveries?status=pending&limit=1', undefined, false)).body as { total: number })
    .total;
  if (stillPending > 0) problems.push(`${stillPending} deliveries still pending after ${rounds} clock jumps`);

  // The receiver's view covers every delivery, also those the bounded log has dropped since: one
  // that got a good answer was not sent again; one that never did was sent exactly 1 + 5 times.
  const isGood = (a: Behaviour) => a === 'ok' || a === 'slow';
  let delivered = 0;
  let failed = 0;
  let duplicated = 0;
  let unfinished = 0;
  for (const e of receiver.seen.values()) {
    const good = e.answers.findIndex(isGood);
    if (good >= 0) delivered += 1;
    else failed += 1;
    const expectedHits = good >= 0 ? good + 1 : 6;
    if (e.hits > expectedHits) duplicated += 1;
    if (e.hits < expectedHits) unfinished += 1;
  }
  if (duplicated > 0) problems.push(`${duplicated} deliveries were sent again after a 2xx, or more than 1 + 5 times`);
  if (unfinished > 0) problems.push(`${unfinished} deliveries stopped before a 2xx or their 5th retry`);

  // The log agrees, for the records it still holds: one receiver hit per attempt; delivered
  // exactly when the last attempt got the receiver's first good answer; failed after 6 attempts.
  let miscounted = 0;
  let badFinal = 0;
  for (const d of log) {
    const e = receiver.seen.get(d.id);
    if (!e || e.hits !== d.attempts.length) miscounted += 1;
    const good = e ? e.answers.findIndex(isGood) : -1;
    if (d.status === 'delivered' ? good !== d.attempts.length - 1 : good >= 0 || d.attempts.length !== 6) badFinal += 1;
  }
  if (miscounted > 0) problems.push(`${miscounted} deliveries where the receiver's hits differ from the recorded attempts`);
  if (badFinal > 0) problems.push(`${badFinal} deliveries whose status does not match what the receiver answered`);

  // Nothing lost: each status a recording reached came to the receiver as a recording.statusUpdate.
  const reached = new Set<string>();
  for (const e of receiver.seen.values()) if (e.event === 'recording.statusUpdate' && e.recording) reached.add(`${e.recording.id} ${e.recording.status}`);
  let lost = 0;
  let recordingsChecked = 0;
  for (let page = 1; ; page++) {
    const res = await request(base, 'GET', `/v2/recordings?per_page=100&page_no=${page}`);
    const items = (res.body as { data: Array<{ id: string; status: string; started_time: string | null; stopped_time: string | null }> }).data;
    for (const r of items) {
      recordingsChecked += 1;
      const expected = ['INVOKED', ...(r.started_time ? ['RECORDING'] : []), ...(r.stopped_time ? ['UPLOADING'] : []), r.status];
      if (expected.some((status) => !reached.has(`${r.id} ${status}`))) lost += 1;
    }
    if (items.length < 100) break;
  }
  if (lost > 0) problems.push(`${lost} recordings miss a recording.statusUpdate delivery`);

  // RSS after a full GC: the median of a window right after the warm-up (the first quarter)
  // against the median of the last window of the traffic.
  const warmUp = Math.max(2, SECONDS / 4);
  const window = Math.max(3, SECONDS / 6);
  const base0 = median(rssGc.filter((s) => s.t >= warmUp && s.t < warmUp + window).map((s) => s.bytes));
  const end = median(rssGc.filter((s) => s.t >= trafficSeconds - window).map((s) => s.bytes));
  const growth = end / base0 - 1;
  const raw = rss.filter((s) => s.t >= warmUp).map((s) => s.bytes);
  if (!(growth < RSS_LIMIT)) problems.push(`RSS grew ${(growth * 100).toFixed(1)}% after the warm-up (limit ${RSS_LIMIT * 100}%)`);

  const all = latencies.map((l) => l.ms).sort((a, b) => a - b);
  const afterWarmUp = latencies
    .filter((l) => l.t >= warmUp)
    .map((l) => l.ms)
    .sort((a, b) => a - b);
  if (process.argv.includes('--verbose'))
    process.stderr.write(
      `4xx: ${JSON.stringify(Object.fromEntries(fourXX))}\nlatency by second: ${JSON.stringify(perSecond(latencies))}\nrss: ${JSON.stringify(rss.map((r) => [Math.round(r.t), mb(r.bytes)]))}\nrss after a full GC: ${JSON.stringify(rssGc.map((r) => [Math.round(r.t), mb(r.bytes)]))}\nfailed: ${JSON.stringify(errors.slice(0, 10))}\n`,
    );
  const summary =
    `soak: ${trafficSeconds.toFixed(0)} s at ${RATE} req/s, ${sent} requests (${(sent / trafficSeconds).toFixed(0)}/s achieved, ${s5xx} 5xx, ${netErrors.length} failed, ${s4xx} 4xx; ` +
    `latency after warm-up p50 ${percentile(afterWarmUp, 50).toFixed(1)} ms, p99 ${percentile(afterWarmUp, 99).toFixed(1)} ms, overall max ${all.at(-1)!.toFixed(0)} ms; max in flight ${maxInFlight}) | ` +
    `webhooks: ${receiver.seen.size} deliveries (${delivered} delivered, ${failed} failed after 6 attempts, ${stillPending} pending, ${duplicated} sent more often than their retries), ` +
    `${receiver.hits()} receiver hits, ${log.length} kept in the log with hits = attempts${miscounted ? ` except ${miscounted}` : ''}, ${recordingsChecked} recordings with every status delivered${lost ? ` except ${lost}` : ''}, ${rounds} clock jumps | ` +
    `RSS after a full GC ${mb(base0)} -> ${mb(end)} MB from the end of the ${warmUp.toFixed(0)} s warm-up to the end (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%; raw RSS ${mb(Math.min(...raw))}-${mb(Math.max(...raw))} MB) | ` +
    `${((hrMs() - started) / 1000).toFixed(0)} s total | ${problems.length === 0 ? 'PASS' : `FAIL: ${problems.join('; ')}`}`;
  process.stdout.write(`${summary}\n`);

  stopEmulator();
  agent.destroy();
  await receiver.close();
  process.exit(problems.length === 0 ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`soak: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
