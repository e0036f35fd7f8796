// What a start of the package's bin costs, and where it goes: `npx tsx bench/startup.ts`.
//
//   --runs N        starts per side (default 9)
//   --baseline REF  also build the bin of git REF (git archive into a temp folder, this checkout's
//                   node_modules) and start it alternately with this one: before/after in one run
//   --no-modules    skip the import-cost table
//   --write         write the tables to bench/STARTUP.md (or --out FILE)
//
// 1. The import-cost table: the bundle built as `npm run build` builds it, plus a call at the
//    start and at the end of every module (bench/lib/startup-marks.mjs times them), started --runs
//    times: what each module and each package costs to evaluate by itself (the modules it loads
//    counted apart), and the phases of a start.
// 2. Cold start: spawn of `dist/bin/meetings-emulator.js` (media on, the default; the RTMP ingest on
//    free ports rather than its default ones, which another emulator may hold; no TLS listener,
//    as in `npm run bench`) → first 200 from /_emulator/health; the bare node:http server of
//    bench/ceiling-server.mjs beside it, and the baseline's bin when given, in turn (A B C A B C …),
//    so that the machine's load falls on every side alike. The load average is printed with them.
//
// Run `npm run build` first: the bin measured is dist/ as it is.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { CEILING, EMULATOR_BIN, ROOT, startProcess } from './lib/servers.js';
import { median } from './lib/stats.js';

const argv = process.argv.slice(2);
const valueOf = (flag: string) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Math.max(1, Number(valueOf('--runs') ?? 9));
const baselineRef = valueOf('--baseline');
const out = path.resolve(valueOf('--out') ?? path.join(ROOT, 'bench', 'STARTUP.md'));
const MARKS = pathToFileURL(path.join(ROOT, 'bench', 'lib', 'startup-marks.mjs')).href;
const EMULATOR_ARGS = ['--port', '0', '--tls-port', '0', '--log-level', 'warn', '--rtmp-port', '<free>', '--rtmps-port', '<free>'];

/**
 * A port free at the moment: the RTMP ingest listens on 1935 and 1936 by default, which another
 * emulator on a shared machine may hold, and 0 turns a listener off. Each start gets ports of its
 * own instead, so that it opens the same listeners as a default start does.
 */
async function freePort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return String(port);
}

async function emulatorArgs(): Promise<string[]> {
  const args = [...EMULATOR_ARGS];
  for (let i = args.indexOf('<free>'); i >= 0; i = args.indexOf('<free>')) args[i] = await freePort();
  return args;
}
const READY = /meetings-emulator listening on (http:\/\/\S+)/;

const lines: string[] = [];
const print = (line = '') => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');

interface Startup {
  phases: Record<string, number>;
  modules: Record<string, number>;
}

/**
 * CPU time of a process, all its threads, and the time they waited for a CPU, in ms
 * (/proc/<pid>/task/<tid>/schedstat, Linux, nanoseconds): on a shared machine the CPU time of a
 * start moves far less than its wall time, and the waiting tells how much the load took.
 */
function cpuOf(pid: number): { cpu: number; main: number; waited: number } {
  let cpu = 0;
  let main = 0;
  let waited = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      cpu += run! / 1e6;
      if (Number(tid) === pid) main = run! / 1e6;
      waited += wait! / 1e6;
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return { cpu, main, waited };
}

/** Starts `bin` once: spawn → first 200 from the health route, and the STARTUP line of the marks when preloaded. */
async function startOnce(bin: string, marks: boolean): Promise<{ ms: number; cpu: number; main: number; waited: number; startup?: Startup }> {
  let startup: Startup | undefined;
  const running = await startProcess({
    name: path.relative(ROOT, bin),
    args: [bin, ...(await emulatorArgs())],
    nodeArgs: marks ? ['--import', MARKS] : [],
    ready: READY,
    healthPath: '/_emulator/health',
    onStderr: (line) => {
      if (line.startsWith('STARTUP ')) startup = JSON.parse(line.slice('STARTUP '.length)) as Startup;
    },
  });
  const used = cpuOf(running.pid);
  // The STARTUP line may come after the answer: read once the child has exited.
  await running.stop();
  return { ms: running.startupMs, ...used, startup };
}

/** The package a module belongs to (node_modules/<name>, scoped or not), or the module itself (src/…). */
function ownerOf(file: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return m ? m[1]! : file;
}

/** The command line's bundle with a mark at the start and the end of every module, in dist/startup-marks/. */
async function markedBundle(): Promise<string> {
  const { build } = await import('esbuild');
  // @ts-expect-error: a script of the build, without types.
  const { commandLineBuild } = (await import('../scripts/build.mjs')) as { commandLineBuild: (outfile: string, plugins: Plugin[]) => object };
  // Below the package, so that the bundle finds the package's folder (fixtures, dist/ui) as the bin does.
  const dir = path.join(ROOT, 'dist', 'startup-marks');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const marking: Plugin = {
    name: 'startup-marks',
    setup(b) {
      b.onLoad({ filter: /\.(ts|js|mjs|cjs)$/ }, (args) => {
        const name = JSON.stringify(path.relative(ROOT, args.path));
        let text = readFileSync(args.path, 'utf8');
        // A shebang stays first, and a 'use strict' directive stays a directive.
        const head = /^(#!.*\n)?(\s*(['"])use strict\3;?)?/.exec(text)![0];
        text = `${head}\nglobalThis.__startupCost?.enter(${name});\n${text.slice(head.length)}\n;globalThis.__startupCost?.leave(${name});\n`;
        return { contents: text, loader: args.path.endsWith('.ts') ? 'ts' : 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
  const code = path.join(dir, 'emulator.cjs');
  await build({ ...commandLineBuild(code, [marking]), metafile: false });
  writeFileSync(code, readFileSync(code, 'utf8').replace(/^#!.*\n/, ''));
  const bin = path.join(dir, 'meetings-emulator.js');
  cpSync(path.join(ROOT, 'scripts', 'launcher.mjs'), bin);
  return bin;
}

/** git REF's bin, built as `npm run build` builds it, in a temp folder with this checkout's node_modules. */
function baselineBin(ref: string): { bin: string; dir: string; label: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'startup-baseline-'));
  const parts = ['src', 'fixtures', 'scripts', 'container', 'proto', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
  const tar = execFileSync('git', ['archive', '--format=tar', ref, '--', ...parts], { cwd: ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const label = execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  return { bin: path.join(dir, 'dist', 'bin', 'meetings-emulator.js'), dir, label };
}

const PHASES: Array<[from: string, to: string, what: string]> = [
  ['start', 'preload', 'Node.js starts (the floor: bench/ceiling-server.mjs pays it too)'],
  ['preload', 'firstModule', 'the launcher reads and compiles the bundle (V8 code cache)'],
  ['firstModule', 'firstListen', "the bundle's modules are evaluated, the command line is read"],
  ['firstListen', 'firstRequest', 'listening, building the emulator, the start line; the first health request comes in'],
  ['firstRequest', 'firstAnswer', 'the first request is answered'],
];

async function importCost(): Promise<void> {
  const bin = await markedBundle();
  try {
    // One start first, which leaves the code cache of the marked bundle, as the build does for the bin.
    await startOnce(bin, false);
    const samples: Startup[] = [];
    for (let i = 0; i < runs; i++) {
      const { startup } = await startOnce(bin, true);
      if (startup) samples.push(startup);
    }
    print(`## What a start costs, module by module (median of ${samples.length} starts; load average ${load()})`);
    print();
    print('Command: `npx tsx bench/startup.ts`; the bundle of `npm run build` with a mark around every module, started as');
    print(`\`node --import ./bench/lib/startup-marks.mjs dist/startup-marks/meetings-emulator.js ${EMULATOR_ARGS.join(' ')}\`.`);
    print();
    print('| Phase | ms |');
    print('|---|---|');
    for (const [from, to, what] of PHASES)
      print(`| ${what} | ${ms(median(samples.map((s) => (s.phases[to] ?? NaN) - (from === 'start' ? 0 : (s.phases[from] ?? NaN)))))} |`);
    print(`| in all, to the first answer | ${ms(median(samples.map((s) => s.phases.firstAnswer ?? NaN)))} |`);
    print();
    const byOwner = samples.map((s) => {
      const totals = new Map<string, number>();
      for (const [file, spent] of Object.entries(s.modules)) totals.set(ownerOf(file), (totals.get(ownerOf(file)) ?? 0) + spent);
      return totals;
    });
    const owners = new Set(byOwner.flatMap((t) => [...t.keys()]));
    const rows = [...owners].map((o) => ({ owner: o, ms: median(byOwner.map((t) => t.get(o) ?? 0)) })).sort((a, b) => b.ms - a.ms);
    const evaluation = median(samples.map((s) => (s.phases.lastModule ?? NaN) - (s.phases.firstModule ?? NaN)));
    print(
      `Evaluating the bundle's modules: ${ms(evaluation)} ms in all. What each package (node_modules) and each of our modules costs by itself, 0.5 ms or more:`,
    );
    print();
    print('| Package or module | ms |');
    print('|---|---|');
    for (const r of rows.filter((r) => r.ms >= 0.5)) print(`| ${r.owner} | ${ms(r.ms)} |`);
    const small = rows.filter((r) => r.ms < 0.5);
    print(`| ${small.length} others, each under 0.5 ms | ${ms(small.reduce((sum, r) => sum + r.ms, 0))} |`);
    print();
  } finally {
    if (!process.env.KEEP) rmSync(path.dirname(bin), { recursive: true, force: true });
  }
}

async function coldStart(): Promise<void> {
  if (!existsSync(EMULATOR_BIN)) throw new Error(`${EMULATOR_BIN} is missing: npm run build first`);
  const base = baselineRef ? baselineBin(baselineRef) : undefined;
  try {
    type Side = { label: string; command: string; start: () => Promise<{ ms: number; cpu: number; main: number; waited: number }> };
    const sides: Side[] = [
      { label: 'this checkout', command: `node dist/bin/meetings-emulator.js ${EMULATOR_ARGS.join(' ')}`, start: () => startOnce(EMULATOR_BIN, false) },
    ];
    if (base) {
      sides.push({
        label: `baseline ${base.label}`,
        command: `node <${base.label}>/dist/bin/meetings-emulator.js ${EMULATOR_ARGS.join(' ')}`,
        start: () => startOnce(base.bin, false),
      });
    }
    sides.push({
      label: 'bare node:http (the floor)',
      command: 'node bench/ceiling-server.mjs --port 0',
      start: async () => {
        const running = await startProcess({
          name: 'ceiling',
          args: [CEILING, '--port', '0'],
          ready: /^listening on (http:\/\/\S+)/,
          healthPath: '/_emulator/health',
        });
        const used = cpuOf(running.pid);
        await running.stop();
        return { ms: running.startupMs, ...used };
      },
    });
    const before = load();
    // Each side once before counting: the page cache holds every file afterwards, for every side alike.
    for (const side of sides) await side.start();
    const times = sides.map(() => [] as Array<{ ms: number; cpu: number; main: number; waited: number }>);
    for (let i = 0; i < runs; i++) for (const [k, side] of sides.entries()) times[k]!.push(await side.start());
    print(`## Cold start, spawn → first 200 from /_emulator/health (median of ${runs}, in turn; load average ${before} before, ${load()} after)`);
    print();
    print('| Side | median ms | runs (ms) | CPU ms (all threads) | main thread CPU ms | waited for a CPU, ms | command |');
    print('|---|---|---|---|---|---|---|');
    for (const [k, side] of sides.entries()) {
      const t = times[k]!;
      print(
        `| ${side.label} | ${ms(median(t.map((x) => x.ms)))} | ${t.map((x) => Math.round(x.ms)).join(' ')} | ${ms(median(t.map((x) => x.cpu)))} | ${ms(median(t.map((x) => x.main)))} | ${ms(median(t.map((x) => x.waited)))} | \`${side.command}\` |`,
      );
    }
    print();
  } finally {
    if (base) rmSync(base.dir, { recursive: true, force: true });
  }
}

print(`# Start-up (${new Date().toISOString()}; node ${process.version}, ${os.availableParallelism()} cores; \`npx tsx bench/startup.ts ${argv.join(' ')}\`)`);
print();
if (!argv.includes('--no-modules')) await importCost();
await coldStart();
if (argv.includes('--write')) writeFileSync(out, `${lines.join('\n')}\n`);
