// The benchmark suite: `npm run bench` (full, under 5 minutes, writes
// bench/RESULTS.md) or `npm run bench -- --quick` (about a minute, prints the table only).
//
// The machine is shared and noisy, so nothing is compared across runs: every comparison is
// made side by side in this run, alternating the servers (A B A B ...), and reported as medians
// and ratios. Each server is a child process of its own (one core); autocannon runs here.
//
// Flags: --quick, --only throughput,coldstart,memory,growth,webhooks,scenario,profile, --write (write
// RESULTS.md after a quick run too), --no-write, --out FILE, --build / --no-build.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCENARIOS, prepare, runLoad, warmUp, type Prepared, type Scenario, type ScenarioId } from './lib/load.js';
import { machine } from './lib/machine.js';
import { profileIn, summarizeProfile, type Window } from './lib/profile.js';
import { renderMarkdown, renderTable } from './lib/report.js';
import type { Cell, ColdStartRow, MemoryRun, Results, Settings, ThroughputRow, WebhookResult } from './lib/results.js';
import { EMULATOR_BIN, HOST, ROOT, baseline, commandOf, hrMs, runForResult, startHost, startServer, type Running, type ServerKind } from './lib/servers.js';
import { createMeetings, fanoutRound, rawSignRate, registerWebhooks, startReceiver } from './lib/webhooks.js';
import { percentile, type ScenarioResult } from './lib/scenario.js';
import { measureNpmStart } from './lib/npm-start.js';

const SECTIONS = ['throughput', 'coldstart', 'memory', 'growth', 'webhooks', 'scenario', 'profile'] as const;
type Section = (typeof SECTIONS)[number];

const argv = process.argv.slice(2);
const has = (f: string) => argv.includes(f);
const valueOf = (f: string) => {
  const eq = argv.find((a) => a.startsWith(`${f}=`));
  if (eq) return eq.slice(f.length + 1);
  const i = argv.indexOf(f);
  return i >= 0 ? argv[i + 1] : undefined;
};
if (has('--help') || has('-h')) {
  process.stdout.write(
    [
      'npm run bench [-- options]',
      '  --quick            about a minute: 1 s × 1 round, 10 000 meetings for memory; prints the table only',
      `  --only LIST        comma-separated sections: ${SECTIONS.join(', ')}`,
      '  --write / --no-write   write (or not) bench/RESULTS.md (default: write on a full run of every section)',
      '  --out FILE         where to write the results (default bench/RESULTS.md)',
      '  --build / --no-build   rebuild dist/ first (default: only when src/ is newer than dist/)',
      '  --baseline REF     also measure the emulator as built from git REF (before/after in one run)',
      '  --rounds N         rounds of the throughput section (alternating the servers in each)',
      '  --servers LIST     only these throughput servers (e.g. emulator,express); default all',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

const quick = has('--quick');
const only = valueOf('--only');
const sections = new Set<Section>(only ? (only.split(',').map((s) => s.trim()) as Section[]) : SECTIONS);
for (const s of sections) if (!SECTIONS.includes(s)) throw new Error(`unknown section ${s}; one of ${SECTIONS.join(', ')}`);

const settings: Settings = quick
  ? {
      quick,
      seconds: 1,
      secondarySeconds: 1,
      tertiarySeconds: 1,
      rounds: 1,
      coldStarts: 2,
      prismColdStarts: 0,
      memoryMeetings: 10_000,
      growthSmall: 1_000,
      growthLarge: 100_000,
      growthSeconds: 1,
      growthRounds: 1,
      webhooks: 10,
      webhookEventsPerRound: 30,
      webhookRounds: 1,
      signSeconds: 0.5,
      profile: has('--profile'),
      profileSeconds: 1,
    }
  : {
      quick,
      seconds: 2.5,
      secondarySeconds: 2,
      tertiarySeconds: 1.5,
      rounds: 3,
      coldStarts: 5,
      prismColdStarts: 1,
      memoryMeetings: 100_000,
      growthSmall: 1_000,
      growthLarge: 100_000,
      growthSeconds: 1,
      growthRounds: 4,
      webhooks: 10,
      webhookEventsPerRound: 100,
      webhookRounds: 3,
      signSeconds: 1,
      profile: true,
      profileSeconds: 1.5,
    };
if (!settings.profile) sections.delete('profile');
if (valueOf('--rounds')) settings.rounds = Math.max(1, Number(valueOf('--rounds')));
const onlyServers = valueOf('--servers')
  ?.split(',')
  .map((s) => s.trim());

// A run of some sections only would replace the whole file with their tables: it writes when asked.
const write = has('--no-write') ? false : has('--write') || (!quick && !only);
const out = path.resolve(valueOf('--out') ?? path.join(ROOT, 'bench', 'RESULTS.md'));

function log(line: string): void {
  process.stderr.write(`[bench ${((hrMs() - t0) / 1000).toFixed(0).padStart(3)} s] ${line}\n`);
}

const t0 = hrMs();
const results: Results = {
  machine: machine(),
  settings,
  command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
  startedAt: Date.now(),
  throughput: [],
  coldStart: [],
  memory: [],
  growth: [],
  profiles: [],
  warnings: [],
};
const warn = (w: string) => {
  results.warnings.push(w);
  log(`warning: ${w}`);
};

// --- build ---------------------------------------------------------------------------------

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function ensureBuilt(): void {
  const stale = !existsSync(EMULATOR_BIN) || newestMtime(path.join(ROOT, 'src')) > statSync(EMULATOR_BIN).mtimeMs;
  if (has('--no-build') || (!has('--build') && !stale)) {
    results.build = stale ? 'dist/ older than src/ (--no-build: measured as is)' : 'dist/ up to date';
    return;
  }
  log('building dist/ (npm run build) ...');
  const started = hrMs();
  try {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    // tsc emits even with type errors elsewhere in the tree; go on if the bin is there.
    if (!existsSync(EMULATOR_BIN)) throw err;
    warn('npm run build reported errors (another change in progress?); measured the emitted dist/ as is');
  }
  results.build = `rebuilt with npm run build (${((hrMs() - started) / 1000).toFixed(1)} s, not counted below)`;
}

/**
 * `--baseline REF`: REF's src/ and fixtures/ (git archive: nothing in the working tree or the
 * repository changes), built with this checkout's node_modules into a temp folder.
 */
function prepareBaseline(ref: string): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-baseline-'));
  log(`building baseline ${ref} in ${dir} ...`);
  const parts = ['src', 'fixtures', 'scripts', 'container', 'proto', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
  const tar = execFileSync('git', ['archive', '--format=tar', ref, '--', ...parts], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (err) {
    if (!existsSync(path.join(dir, 'dist', 'src', 'server.js'))) throw err;
    warn(`baseline ${ref}: tsc reported errors; measured the emitted dist/ as is`);
  }
  // REF's bin too, bundled as its own build bundles it, so that both sides run as users run them.
  if (existsSync(path.join(dir, 'scripts', 'build.mjs'))) {
    try {
      execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch {
      warn(`baseline ${ref}: its bin could not be bundled; measured dist/src/server.js`);
    }
  }
  baseline.ref = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  baseline.dir = dir;
}

// --- helpers -------------------------------------------------------------------------------

function emptyCell(server: string, command: string): Cell {
  return { server, runs: [], command };
}

/** Prism mocks the emulator's own served document, saved from a running emulator. */
async function saveOpenApi(base: string, dir: string): Promise<string> {
  const res = await fetch(`${base}/_emulator/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /_emulator/openapi.json answered ${res.status}`);
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, await res.text());
  return file;
}

/** Start-up times of the throughput section's servers: fresh processes, so cold starts too. */
const extraColdStarts: Array<{ kind: ServerKind; startupMs: number; rss: number }> = [];

// --- 1. throughput and latency ---------------------------------------------------------------

async function throughput(tmp: string): Promise<string> {
  const chosen = (list: ServerKind[]): ServerKind[] => (onlyServers ? list.filter((k) => onlyServers.includes(k)) : list);
  const withBaseline = (list: ServerKind[]): ServerKind[] => chosen(baseline.dir ? [list[0]!, 'baseline', ...list.slice(1)] : list);
  const kinds = withBaseline(['emulator', 'ceiling', 'express', 'prism', 'prism-default']);
  const servers = new Map<ServerKind, Running>();
  const prepared = new Map<ServerKind, Prepared>();
  let documentPath = '';
  for (const kind of kinds) {
    const s = await startServer(kind, { document: documentPath });
    // Prism's start-ups here are its cold-start samples (it is slow to start): idle RSS too.
    if (kind.startsWith('prism')) await new Promise((r) => setTimeout(r, 500));
    extraColdStarts.push({ kind, startupMs: s.startupMs, rss: s.rss() });
    if (kind === 'emulator') documentPath = await saveOpenApi(s.url, tmp);
    servers.set(kind, s);
    prepared.set(kind, await prepare(s.url));
  }
  // Which servers each measurement alternates. The references only where a target names them:
  // naive Express for POST and GET at 32 and 1 connections, Prism (twice) at 32.
  const plan: Array<{ id: ScenarioId; connections: number; kinds: ServerKind[]; seconds: number }> = [
    { id: 'post-meeting', connections: 32, kinds, seconds: settings.seconds },
    { id: 'post-meeting', connections: 1, kinds: withBaseline(['emulator', 'ceiling', 'express']), seconds: settings.secondarySeconds },
    { id: 'get-meeting', connections: 32, kinds: withBaseline(['emulator', 'ceiling', 'express', 'prism']), seconds: settings.seconds },
    { id: 'get-meeting', connections: 1, kinds: withBaseline(['emulator', 'ceiling', 'express']), seconds: settings.secondarySeconds },
  ];
  for (const id of ['add-participant', 'mixed'] as ScenarioId[]) {
    for (const connections of [32, 1]) plan.push({ id, connections, kinds: withBaseline(['emulator', 'ceiling']), seconds: settings.tertiarySeconds });
  }
  // Warm-up: each server's JIT sees each route it will serve before anything is measured.
  const warmed = new Set<string>();
  for (const p of plan) {
    for (const kind of p.kinds) {
      if (warmed.has(`${kind} ${p.id}`)) continue;
      warmed.add(`${kind} ${p.id}`);
      await warmUp(servers.get(kind)!.url, SCENARIOS[p.id], prepared.get(kind)!, kind.startsWith('prism') ? 300 : 500);
    }
  }
  log('servers started and warmed up');
  for (const p of plan) {
    const scenario: Scenario = SCENARIOS[p.id];
    const row: ThroughputRow = {
      scenario: p.id,
      label: scenario.label,
      connections: p.connections,
      seconds: p.seconds,
      requestsPerIteration: scenario.requestsPerIteration,
      cells: {},
      cli: scenario.cli('http://127.0.0.1:PORT', p.connections, p.seconds, { meetingId: '<meeting id>' }),
    };
    for (const kind of p.kinds) row.cells[kind] = emptyCell(kind, commandOf(kind, '<port>').display);
    // A B C A B C ...: each round gives every server the same conditions, as near in time as can be.
    for (let r = 0; r < settings.rounds; r++) {
      for (const kind of p.kinds) {
        const server = servers.get(kind)!;
        const result = await runLoad(server.url, scenario, prepared.get(kind)!, p.connections, p.seconds, server.pid);
        row.cells[kind]!.runs.push(result);
        if (result.non2xx > 0 || result.errors > 0)
          warn(`${scenario.label} @${p.connections} on ${kind}: ${result.non2xx} non-2xx, ${result.errors} errors (${JSON.stringify(result.statusCodes)})`);
      }
    }
    results.throughput.push(row);
    log(
      `${scenario.label} @${p.connections}: ${p.kinds.map((k) => `${k} ${Math.round(row.cells[k]!.runs.map((x) => x.rps).sort((a, b) => a - b)[Math.floor(settings.rounds / 2)]!)}`).join(', ')} req/s`,
    );
  }
  for (const s of servers.values()) await s.stop();
  return documentPath;
}

// --- 2. cold start (and idle RSS) ----------------------------------------------------------

async function coldStart(documentPath: string): Promise<void> {
  const rows = new Map<ServerKind, ColdStartRow>();
  const kinds: ServerKind[] = baseline.dir ? ['emulator', 'baseline', 'ceiling', 'prism'] : ['emulator', 'ceiling', 'prism'];
  for (const kind of kinds) rows.set(kind, { kind, command: commandOf(kind, '<port>', { document: documentPath }).display, startupMs: [], rss: [] });
  const prismSamples = extraColdStarts.filter((x) => x.kind.startsWith('prism'));
  for (let i = 0; i < settings.coldStarts; i++) {
    for (const kind of kinds) {
      if (kind === 'prism' && (prismSamples.length > 0 || i >= settings.prismColdStarts)) continue;
      const s = await startServer(kind, { document: documentPath });
      // Idle: half a second after the first 200, nothing else asked.
      await new Promise((r) => setTimeout(r, 500));
      rows.get(kind)!.startupMs.push(s.startupMs);
      rows.get(kind)!.rss.push(s.rss());
      await s.stop();
    }
  }
  // The throughput section's servers were cold starts too: Prism's (slow to start) counts here.
  for (const x of prismSamples) {
    rows.get('prism')!.startupMs.push(x.startupMs);
    rows.get('prism')!.rss.push(x.rss);
  }
  results.coldStart = [...rows.values()];
  log(`cold start: ${results.coldStart.map((r) => `${r.kind} ${r.startupMs.map((x) => Math.round(x)).join('/')} ms`).join(', ')}`);
  results.npmStart = await measureNpmStart(settings.coldStarts);
  log(`second npm start, spawn → URL: ${results.npmStart.urlMs.map((x) => Math.round(x)).join('/')} ms`);
}

// --- 3. memory -----------------------------------------------------------------------------

async function memory(): Promise<void> {
  // The first run is the measurement. The others attribute it, at a smaller N (per-meeting
  // figures do not depend on N): without the simulator's pending job per recording; what the
  // fill keeps by kind of heap object (two heap snapshots); and a what-if with flat-string ids.
  const variants: Array<{ label: string; meetings: number; flags: string[] }> = [
    { label: 'measured (default settings)', meetings: settings.memoryMeetings, flags: [] },
  ];
  if (!quick) {
    variants.push({ label: 'attribution: --simulator manual (no pending job per recording)', meetings: 10_000, flags: ['--simulator', 'manual'] });
    variants.push({ label: 'attribution: heap snapshot diff', meetings: 2_000, flags: ['--snapshot'] });
    variants.push({
      label: 'check: ids forced flat (bench-side patch of ids.uuid; equal to the first row = ids already flat)',
      meetings: 10_000,
      flags: ['--flat-ids'],
    });
  }
  if (baseline.dir) variants.push({ label: `baseline ${baseline.ref}`, meetings: settings.memoryMeetings, flags: ['--dist', path.join(baseline.dir, 'dist')] });
  for (const v of variants) {
    const args = [HOST, 'memory', '--meetings', String(v.meetings), ...v.flags];
    const run = await runForResult<Omit<MemoryRun, 'command' | 'label'>>(`memory host (${v.label})`, ['--expose-gc'], args);
    const shown = v.flags.map((f) => (baseline.dir && f.startsWith(baseline.dir) ? `<${baseline.ref}>/dist` : f));
    results.memory.push({
      ...run,
      label: v.label,
      command: `node --expose-gc bench/emulator-host.mjs memory --meetings ${v.meetings}${shown.length ? ` ${shown.join(' ')}` : ''}`,
    });
    log(
      `memory, ${v.label}: ${Math.round((run.after.heapUsed - run.before.heapUsed) / run.meetings)} B per meeting, RSS ${Math.round(run.after.rss / 1048576)} MB`,
    );
  }
}

// --- 4. growth -----------------------------------------------------------------------------

async function growth(): Promise<void> {
  const small = await startHost(settings.growthSmall);
  const large = await startHost(settings.growthLarge);
  const hostCmd = (n: number) => `node bench/emulator-host.mjs serve --meetings ${n}`;
  for (const id of ['get-meeting', 'list-meetings'] as ScenarioId[]) {
    const scenario = SCENARIOS[id];
    const row = {
      scenario: id,
      label: scenario.label,
      connections: 32,
      seconds: settings.growthSeconds,
      small: emptyCell(`${settings.growthSmall} meetings`, hostCmd(settings.growthSmall)),
      large: emptyCell(`${settings.growthLarge} meetings`, hostCmd(settings.growthLarge)),
    };
    // GET by id reads a meeting from the middle of the store; the list asks for page 1.
    await warmUp(small.url, scenario, { meetingId: small.info.sampleId }, 1000);
    await warmUp(large.url, scenario, { meetingId: large.info.sampleId }, 1000);
    for (let r = 0; r < settings.growthRounds; r++) {
      row.small.runs.push(await runLoad(small.url, scenario, { meetingId: small.info.sampleId }, 32, settings.growthSeconds, small.pid));
      row.large.runs.push(await runLoad(large.url, scenario, { meetingId: large.info.sampleId }, 32, settings.growthSeconds, large.pid));
    }
    for (const c of [row.small, row.large])
      for (const x of c.runs) if (x.non2xx || x.errors) warn(`growth ${scenario.label} (${c.server}): ${x.non2xx} non-2xx, ${x.errors} errors`);
    results.growth.push(row);
  }
  await small.stop();
  await large.stop();
  log('growth done');
}

// --- 5. webhook fan-out ----------------------------------------------------------------------

async function webhooks(): Promise<void> {
  const receiver = await startReceiver();
  const emu = await startServer('emulator', { flags: ['--simulator', 'manual'] });
  try {
    await registerWebhooks(emu.url, receiver, settings.webhooks);
    const meetings = await createMeetings(emu.url, settings.webhookEventsPerRound * (settings.webhookRounds + 1));
    const batches = Array.from({ length: settings.webhookRounds + 1 }, (_, i) =>
      meetings.slice(i * settings.webhookEventsPerRound, (i + 1) * settings.webhookEventsPerRound),
    );
    // Warm-up round (not counted): also yields a real delivery body for the raw signing rate.
    await fanoutRound(emu.url, receiver, batches[0]!, settings.webhooks);
    const body = receiver.sampleBody!;
    const result: WebhookResult = {
      command: `${commandOf('emulator', '<port>', { flags: ['--simulator', 'manual'] }).display}; ${settings.webhooks} × POST /v2/webhooks {events: [recording.statusUpdate]}; ${settings.webhookEventsPerRound} × POST /v2/recordings per round (16 in flight)`,
      webhooks: settings.webhooks,
      eventsPerRound: settings.webhookEventsPerRound,
      rounds: [],
      signRates: [],
      bodyBytes: body.length,
      badSignatures: 0,
    };
    for (let r = 0; r < settings.webhookRounds; r++) {
      result.signRates.push(rawSignRate(body, settings.signSeconds));
      result.rounds.push(await fanoutRound(emu.url, receiver, batches[r + 1]!, settings.webhooks));
    }
    result.badSignatures = receiver.badSignatures;
    if (receiver.badSignatures > 0) warn(`${receiver.badSignatures} webhook deliveries failed signature verification`);
    results.webhooks = result;
    log(
      `webhooks: ${result.rounds.map((x) => Math.round(x.perSecond)).join('/')} deliveries/s vs raw signing ${result.signRates.map(Math.round).join('/')} /s`,
    );
  } finally {
    await emu.stop();
    await receiver.close();
  }
}

// --- 6. the README's recording lifecycle, in process ----------------------------------------

async function scenario(): Promise<void> {
  // A process of its own (bench/scenario.ts), like the memory host: what it measures is the
  // emulator and a user's test in one event loop, with nothing of the runner's beside them. The
  // target is about the emulator's own work, so it is measured with the sample file for every
  // recording; real recordings (ffmpeg encoding each) are measured apart, in fewer scenarios. Its
  // figure moves with the machine from one run to the next, so --baseline leaves it out: two builds
  // are compared scenario by scenario in one process by bench/scenario-ab.ts.
  const measure = async (recordings: 'sample' | 'real'): Promise<ScenarioResult> => {
    const [runs, perRun, warmup] = recordings === 'real' ? (quick ? [1, 5, 2] : [1, 20, 5]) : quick ? [1, 20, 10] : [3, 60, 30];
    const args = [
      path.join(ROOT, 'bench', 'scenario.ts'),
      '--runs',
      String(runs),
      '--per-run',
      String(perRun),
      '--warmup',
      String(warmup),
      '--recordings',
      recordings,
    ];
    const r = await runForResult<ScenarioResult>(`scenario (${recordings} recordings)`, ['--import', 'tsx'], args);
    log(
      `scenario, ${recordings} recordings: median ${percentile(r.samples, 50).toFixed(1)} ms, p90 ${percentile(r.samples, 90).toFixed(1)} ms per scenario (run medians ${r.runMedians.map((x) => x.toFixed(1)).join('/')})`,
    );
    return r;
  };
  results.scenario = await measure('sample');
  results.scenarioReal = await measure('real');
}

// --- profiles --------------------------------------------------------------------------------

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** `work` returns the window to count (the measured load), or undefined for the whole process. */
async function profiled(name: string, work: (emu: Running) => Promise<Window | undefined>, flags: string[] = []): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-prof-'));
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir', dir];
  const emu = await startServer('emulator', { nodeArgs, flags });
  let window: Window | undefined;
  try {
    window = await work(emu);
  } finally {
    await emu.stop();
  }
  const file = profileIn(dir);
  const keep = path.join(os.tmpdir(), `bench-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.cpuprofile`);
  rmSync(keep, { force: true });
  execFileSync('mv', [file, keep]);
  rmSync(dir, { recursive: true, force: true });
  results.profiles.push({
    name,
    command: `${commandOf('emulator', '<port>', { nodeArgs, flags }).display.replace(dir, '<dir>')}`,
    summary: summarizeProfile(keep, 15, window),
  });
  log(`profile ${name}: ${keep}`);
}

async function profiles(): Promise<void> {
  // Start-up: spawn → first 200 from /_emulator/health → SIGTERM.
  await profiled('cold start', async () => undefined);
  for (const id of ['post-meeting', 'get-meeting'] as ScenarioId[]) {
    await profiled(`${SCENARIOS[id].label} @32`, async (emu) => {
      const p = await prepare(emu.url);
      await warmUp(emu.url, SCENARIOS[id], p, 1000);
      const fromUs = nowUs();
      await runLoad(emu.url, SCENARIOS[id], p, 32, settings.profileSeconds);
      return { fromUs, toUs: nowUs() };
    });
  }
  if (sections.has('webhooks')) {
    await profiled(
      'webhook fan-out',
      async (emu) => {
        const receiver = await startReceiver();
        try {
          await registerWebhooks(emu.url, receiver, settings.webhooks);
          const ids = await createMeetings(emu.url, settings.webhookEventsPerRound * 2);
          await fanoutRound(emu.url, receiver, ids.slice(0, settings.webhookEventsPerRound), settings.webhooks);
          const fromUs = nowUs();
          await fanoutRound(emu.url, receiver, ids.slice(settings.webhookEventsPerRound), settings.webhooks);
          return { fromUs, toUs: nowUs() };
        } finally {
          await receiver.close();
        }
      },
      ['--simulator', 'manual'],
    );
  }
}

// --- main ------------------------------------------------------------------------------------

async function main(): Promise<void> {
  ensureBuilt();
  const baselineRef = valueOf('--baseline');
  if (baselineRef) prepareBaseline(baselineRef);
  results.baseline = baseline.ref;
  log(`${quick ? 'quick' : 'full'} run: ${[...sections].join(', ')}`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  try {
    let documentPath = '';
    if (sections.has('throughput')) documentPath = await throughput(tmp);
    if (sections.has('coldstart')) {
      if (!documentPath) {
        const emu = await startServer('emulator');
        documentPath = await saveOpenApi(emu.url, tmp);
        await emu.stop();
      }
      await coldStart(documentPath);
    }
    if (sections.has('memory')) await memory();
    if (sections.has('growth')) await growth();
    if (sections.has('webhooks')) await webhooks();
    if (sections.has('scenario')) await scenario();
    if (sections.has('profile')) await profiles();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    if (baseline.dir) rmSync(baseline.dir, { recursive: true, force: true });
  }
  results.totalSeconds = (hrMs() - t0) / 1000;
  results.machine.loadAfter = os.loadavg();
  process.stdout.write(`\n${renderTable(results)}\n`);
  if (write) {
    writeFileSync(out, renderMarkdown(results, out));
    process.stdout.write(`\nwrote ${path.relative(process.cwd(), out)} (${results.totalSeconds.toFixed(0)} s)\n`);
  } else {
    process.stdout.write(
      `\n${results.totalSeconds.toFixed(0)} s; RESULTS.md not written (${quick ? 'quick run; add --write' : only && !has('--no-write') ? 'some sections only; add --write' : '--no-write'})\n`,
    );
  }
}

main().catch((err: unknown) => {
  const cause = (err as { cause?: unknown }).cause;
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}${cause ? `\ncause: ${String((cause as Error).stack ?? cause)}` : ''}\n`);
  process.exit(1);
});
