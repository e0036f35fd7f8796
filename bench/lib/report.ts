// The one table printed at the end of a run, and bench/RESULTS.md (every figure with the
// command that produced it). A hand-written analysis between the markers below survives a
// rerun, marked with the date of the run it was written for.
import { existsSync, readFileSync } from 'node:fs';
import type { Cell, MemoryRun, Results, ThroughputRow } from './results.js';
import { scenarioRows, scenarioSection } from './scenario.js';
import { bytes, fixed, int, mb, median, ms, ratio, times, verdict, type Verdict } from './stats.js';

export const ANALYSIS_START = '<!-- analysis:start -->';
export const ANALYSIS_END = '<!-- analysis:end -->';

export interface TargetRow {
  measure: string;
  emulator: string;
  reference: string;
  ratio: string;
  target: string;
  verdict: Verdict | '';
}

const rpsOf = (c: Cell | undefined) => (c ? median(c.runs.map((r) => r.rps)) : Number.NaN);
const cpuOf = (c: Cell | undefined, which: 'serverCpu' | 'clientCpu') => (c ? median(c.runs.map((r) => r[which])) : Number.NaN);
/** Requests per second of server CPU: less sensitive than req/s to other load on a shared machine. */
const perCoreOf = (c: Cell | undefined) => (c ? median(c.runs.map((r) => r.rps / r.serverCpu)) : Number.NaN);
const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(100 * x)}%` : 'n/a');
const meanOf = (c: Cell | undefined) => (c ? median(c.runs.map((r) => r.mean)) : Number.NaN);
const p99Of = (c: Cell | undefined) => (c ? median(c.runs.map((r) => r.p99)) : Number.NaN);

function row(results: Results, scenario: string, connections: number): ThroughputRow | undefined {
  return results.throughput.find((r) => r.scenario === scenario && r.connections === connections);
}

export function perMeeting(m: MemoryRun): { total: number; meeting: number; participant: number; recording: number } {
  return {
    total: (m.after.heapUsed - m.before.heapUsed) / m.meetings,
    meeting: (m.afterMeetings.heapUsed - m.before.heapUsed) / m.meetings,
    participant: (m.afterParticipants.heapUsed - m.afterMeetings.heapUsed) / m.meetings,
    recording: (m.after.heapUsed - m.afterParticipants.heapUsed) / m.meetings,
  };
}

export function targetRows(results: Results): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const [scenario, label] of [
    ['post-meeting', 'POST /v2/meetings'],
    ['get-meeting', 'GET /v2/meetings/{id}'],
  ] as const) {
    for (const c of [32, 1]) {
      const r = row(results, scenario, c);
      if (!r) continue;
      const e = rpsOf(r.cells.emulator);
      const n = rpsOf(r.cells.ceiling);
      // The target: with everything it adds to a request (validation, journal, logging,
      // isolation), the emulator answers at least a tenth faster than a naive Express app does
      // the same two routes. What wins it back is how its server serves the app (see the section's text).
      if (r.cells.express) {
        const x = rpsOf(r.cells.express);
        rows.push({
          measure: `${label} @${c} vs naive Express`,
          emulator: `${int(e)} req/s`,
          reference: `${int(x)} req/s`,
          ratio: times(ratio(e, x)),
          target: '≥ 1.1×',
          verdict: verdict(ratio(e, x), 1.1, 'atLeast'),
        });
      }
      if (r.cells.ceiling)
        rows.push({
          measure: `(reference) ${label} @${c} vs Node ceiling`,
          emulator: `${int(e)} req/s`,
          reference: `${int(n)} req/s`,
          ratio: times(ratio(e, n)),
          target: '(none)',
          verdict: '',
        });
      if (r.cells.baseline) {
        const b = rpsOf(r.cells.baseline);
        rows.push({
          measure: `${label} @${c}: now vs baseline ${results.baseline}${r.cells.ceiling ? ` (ceiling ratio then ${times(ratio(b, n))})` : ''}`,
          emulator: `${int(e)} req/s`,
          reference: `${int(b)} req/s`,
          ratio: times(ratio(e, b)),
          target: '(before/after)',
          verdict: '',
        });
      }
      if (r.cells.prism) {
        const p = rpsOf(r.cells.prism);
        rows.push({
          measure: `${label} @${c} vs Prism (-v warn)`,
          emulator: `${int(e)} req/s`,
          reference: `${int(p)} req/s`,
          ratio: times(ratio(e, p)),
          target: '≥ 10×',
          verdict: verdict(ratio(e, p), 10, 'atLeast'),
        });
      }
      if (r.cells['prism-default']) {
        const p = rpsOf(r.cells['prism-default']);
        rows.push({
          measure: `${label} @${c} vs Prism (defaults)`,
          emulator: `${int(e)} req/s`,
          reference: `${int(p)} req/s`,
          ratio: times(ratio(e, p)),
          target: '≥ 10×',
          verdict: verdict(ratio(e, p), 10, 'atLeast'),
        });
      }
      if (r.cells.express && r.cells.ceiling) {
        const x = rpsOf(r.cells.express);
        rows.push({
          measure: `(reference) naive Express, ${label} @${c} vs Node ceiling`,
          emulator: `${int(x)} req/s`,
          reference: `${int(n)} req/s`,
          ratio: times(ratio(x, n)),
          target: '(none)',
          verdict: '',
        });
      }
    }
  }
  for (const scenario of ['add-participant', 'mixed'] as const) {
    for (const c of [32, 1]) {
      const r = row(results, scenario, c);
      if (!r) continue;
      const e = rpsOf(r.cells.emulator);
      const n = rpsOf(r.cells.ceiling);
      const unit = r.requestsPerIteration > 1 ? ` (${int(e / r.requestsPerIteration)} flows/s)` : '';
      if (r.cells.ceiling)
        rows.push({
          measure: `${r.label.replace(' (meeting, participant, recording start, stop)', '')} @${c} vs Node ceiling`,
          emulator: `${int(e)} req/s${unit}`,
          reference: `${int(n)} req/s`,
          ratio: times(ratio(e, n)),
          target: '(none)',
          verdict: '',
        });
      if (r.cells.baseline) {
        const b = rpsOf(r.cells.baseline);
        rows.push({
          measure: `${r.label.replace(' (meeting, participant, recording start, stop)', '')} @${c}: now vs baseline ${results.baseline}`,
          emulator: `${int(e)} req/s`,
          reference: `${int(b)} req/s`,
          ratio: times(ratio(e, b)),
          target: '(before/after)',
          verdict: '',
        });
      }
    }
  }
  const cs = (k: string) => results.coldStart.find((r) => r.kind === k);
  const emuStart = cs('emulator');
  if (emuStart) {
    const e = median(emuStart.startupMs);
    rows.push({
      measure: `Cold start, spawn → first 200 (median of ${emuStart.startupMs.length})`,
      emulator: ms(e),
      reference: `ceiling ${ms(median(cs('ceiling')?.startupMs ?? []))}, Prism ${ms(median(cs('prism')?.startupMs ?? []))}`,
      ratio: '',
      target: '≤ 150 ms',
      verdict: verdict(e, 150, 'atMost'),
    });
    const base = cs('baseline');
    if (base)
      rows.push({
        measure: `Cold start: now vs baseline ${results.baseline}`,
        emulator: ms(e),
        reference: ms(median(base.startupMs)),
        ratio: times(ratio(e, median(base.startupMs))),
        target: '(before/after)',
        verdict: '',
      });
    const npmStart = results.npmStart;
    if (npmStart && npmStart.urlMs.length > 0) {
      const n = median(npmStart.urlMs);
      rows.push({
        measure: `Second \`npm start\` (built), spawn → URL line (median of ${npmStart.urlMs.length})`,
        emulator: ms(n),
        reference: `\`${npmStart.command}\`, npm's own start included`,
        ratio: '',
        target: '≤ 2000 ms',
        verdict: verdict(n, 2000, 'atMost'),
      });
    }
    const rss = median(emuStart.rss);
    rows.push({
      measure: 'RSS idle (the bin, 0.5 s after its first 200)',
      emulator: mb(rss),
      reference: `ceiling ${mb(median(cs('ceiling')?.rss ?? []))}, Prism ${mb(median(cs('prism')?.rss ?? []))}`,
      ratio: '',
      target: '≤ 80 MB',
      verdict: verdict(rss / (1024 * 1024), 80, 'atMost'),
    });
  }
  const mem = results.memory[0];
  if (mem) {
    const per = perMeeting(mem);
    rows.push({
      measure: `RSS after ${int(mem.meetings)} meetings (+ participant + recording each)`,
      emulator: mb(mem.after.rss),
      reference: `idle ${mb(mem.idle.rss)} (same host)`,
      ratio: '',
      target: '(reported)',
      verdict: '',
    });
    rows.push({
      measure: 'Heap per meeting with a participant and a recording',
      emulator: bytes(per.total),
      reference: `meeting ${bytes(per.meeting)}, participant ${bytes(per.participant)}, recording ${bytes(per.recording)}`,
      ratio: '',
      target: '≤ 2 KB',
      verdict: verdict(per.total, 2048, 'atMost'),
    });
    const base = results.memory.find((m) => m.label.startsWith('baseline '));
    if (base)
      rows.push({
        measure: `Heap per meeting: now vs baseline ${results.baseline}`,
        emulator: bytes(per.total),
        reference: bytes(perMeeting(base).total),
        ratio: times(ratio(per.total, perMeeting(base).total)),
        target: '(before/after)',
        verdict: '',
      });
  }
  for (const g of results.growth) {
    const s = rpsOf(g.small);
    const l = rpsOf(g.large);
    const cost = ratio(s, l);
    const isList = g.scenario === 'list-meetings';
    rows.push({
      measure: `${g.label} @${g.connections}: cost at ${int(Number(g.large.server.split(' ')[0]))} vs ${int(Number(g.small.server.split(' ')[0]))} meetings`,
      emulator: `${int(l)} req/s`,
      reference: `${int(s)} req/s`,
      ratio: times(cost),
      target: isList ? '≤ 1.5×' : '(none)',
      verdict: isList ? verdict(cost, 1.5, 'atMost') : '',
    });
  }
  const w = results.webhooks;
  if (w) {
    const d = median(w.rounds.map((r) => r.perSecond));
    const s = median(w.signRates);
    rows.push({
      measure: `Webhook fan-out (${w.webhooks} webhooks × ${w.eventsPerRound} events) vs raw RSA-SHA256 signing`,
      emulator: `${int(d)} deliveries/s`,
      reference: `${int(s)} signatures/s`,
      ratio: times(ratio(d, s)),
      target: '≥ 0.8×',
      verdict: verdict(ratio(d, s), 0.8, 'atLeast'),
    });
  }
  if (results.scenario) rows.push(...scenarioRows(results.scenario, results.scenarioReal));
  return rows;
}

function table(headers: string[], body: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

const TARGET_HEADERS = ['Measure', 'Emulator', 'Reference (same run)', 'Ratio', 'Target', 'Verdict'];

export function renderTable(results: Results): string {
  const rows = targetRows(results);
  const missed = rows.filter((r) => r.verdict === 'MISSED').length;
  const met = rows.filter((r) => r.verdict === 'met').length;
  return [
    table(
      TARGET_HEADERS,
      rows.map((r) => [r.measure, r.emulator, r.reference, r.ratio, r.target, r.verdict]),
    ),
    `targets: ${met} met, ${missed} missed · node ${results.machine.node} · ${results.machine.nproc} cores · ${results.settings.quick ? 'quick' : 'full'} run`,
  ].join('\n');
}

function code(s: string): string {
  return `\`${s.replace(/`/g, "'")}\``;
}

function throughputSection(results: Results): string {
  if (results.throughput.length === 0) return '_Not run._';
  const body: string[][] = [];
  for (const r of results.throughput) {
    for (const [kind, c] of Object.entries(r.cells)) {
      if (!c) continue;
      body.push([
        r.label,
        String(r.connections),
        kind,
        int(rpsOf(c)),
        c.runs.map((x) => int(x.rps)).join(' / '),
        fixed(meanOf(c), 1),
        fixed(p99Of(c), 1),
        pct(cpuOf(c, 'serverCpu')),
        int(perCoreOf(c)),
        pct(cpuOf(c, 'clientCpu')),
        String(c.runs.reduce((s, x) => s + x.non2xx + x.errors, 0)),
      ]);
    }
  }
  const ratios: string[][] = results.throughput.map((r) => {
    const e = r.cells.emulator;
    const perRound = (other: Cell | undefined) => (other && e ? e.runs.map((x, i) => fixed(ratio(x.rps, other.runs[i]?.rps ?? Number.NaN))).join(' / ') : '');
    const vs = (other: Cell | undefined) => (other ? times(ratio(rpsOf(e), rpsOf(other))) : '');
    const d = r.cells['prism-default'];
    const x = r.cells.express;
    const expressVsCeiling = x && r.cells.ceiling ? times(ratio(rpsOf(x), rpsOf(r.cells.ceiling))) : '';
    const perCpu = e && r.cells.ceiling ? times(ratio(perCoreOf(e), perCoreOf(r.cells.ceiling))) : '';
    const perCpuExpress = e && x ? times(ratio(perCoreOf(e), perCoreOf(x))) : '';
    return [
      r.label,
      String(r.connections),
      vs(r.cells.ceiling),
      perRound(r.cells.ceiling),
      perCpu,
      vs(r.cells.prism),
      perRound(r.cells.prism),
      vs(d),
      perRound(d),
      vs(x),
      perRound(x),
      perCpuExpress,
      expressVsCeiling,
    ];
  });
  const commands = new Set<string>();
  for (const r of results.throughput) for (const c of Object.values(r.cells)) if (c) commands.add(`${c.server}: ${code(c.command)}`);
  const clis = [...new Set(results.throughput.map((r) => `- ${r.label} @${r.connections}, ${r.seconds} s: ${code(r.cli)}`))];
  return [
    `Rounds: ${results.settings.rounds}, alternating the servers within each round (emulator, ceiling, naive Express, Prism, Prism with its defaults, emulator, ...). The naive Express app (\`bench/express-naive.mjs\`: express.json(), a header check, a Map, res.json()) is what the targets compare the emulator with: the same two routes with none of the emulator's validation, journal, logging or routing, and served as \`app.listen\` serves it, so Express gives each request and response their prototypes again (the emulator's server makes them with those prototypes from the start, \`src/http/message-classes.ts\`). The ratio is the emulator with all of its work against that app. Prism mocks the emulator's own served OpenAPI document with static examples; \`prism\` runs with \`-v warn\` (no log line per request, its best case), \`prism-default\` as a user starts it (a log line per request, to a pipe the bench drains).`,
    '',
    `Each run counts 2xx answers only. Latency in ms, median over rounds: the mean from Little's law (connections ÷ request rate, exact for autocannon's closed loop) and autocannon's p99 (whole milliseconds). CPU in cores (100% = one core busy) during the run: the server process (from /proc) and the bench process that runs autocannon — a server well under 100% while autocannon is near it means the load generator, not the server, set the pace; both well under 100% means other processes on the machine took the CPU, and requests per server CPU-second is then the steadier measure of cost.`,
    '',
    table(
      [
        'Scenario',
        'Conns',
        'Server',
        'Median req/s',
        'Per round',
        'mean ms',
        'p99 ms',
        'Server CPU',
        'req per server CPU-second',
        'autocannon CPU',
        'non-2xx + errors',
      ],
      body,
    ),
    '',
    'Ratios (ratio of the medians; per-round ratios after it):',
    '',
    table(
      [
        'Scenario',
        'Conns',
        'Emulator ÷ ceiling',
        'per round',
        'same, per server CPU-second',
        'Emulator ÷ Prism -v warn',
        'per round',
        'Emulator ÷ Prism defaults',
        'per round',
        'Emulator ÷ naive Express',
        'per round',
        'same, per server CPU-second',
        'naive Express ÷ ceiling',
      ],
      ratios,
    ),
    '',
    'Servers, each its own child process:',
    '',
    ...[...commands].map((c) => `- ${c}`),
    '',
    "Load (autocannon in the bench process; the equivalent CLI line, with the fixtures' default credentials in `$AUTH`):",
    '',
    '- `AUTH="Basic $(printf %s \'00000000-0000-4000-8000-000000000001:emulator-api-key\' | base64)"`',
    ...clis,
  ].join('\n');
}

function coldStartSection(results: Results): string {
  if (results.coldStart.length === 0) return '_Not run._';
  return [
    'Spawn of the process → first 200 from `GET /_emulator/health` (polled every 2 ms; Prism answers it from the mocked document). RSS read from `/proc/<pid>/status` 0.5 s after that 200.',
    '',
    table(
      ['Server', 'Median', 'Runs (ms)', 'Idle RSS (median)', 'Command'],
      results.coldStart.map((r) => [r.kind, ms(median(r.startupMs)), r.startupMs.map((x) => int(x)).join(' / '), mb(median(r.rss)), code(r.command)]),
    ),
  ].join('\n');
}

function memorySection(results: Results): string {
  if (results.memory.length === 0) return '_Not run._';
  const body = results.memory.map((m) => {
    const p = perMeeting(m);
    return [
      m.label,
      int(m.meetings),
      bytes(p.meeting),
      bytes(p.participant),
      bytes(p.recording),
      bytes(p.total),
      mb(m.idle.rss),
      mb(m.after.rss),
      int(m.scheduledJobs),
      code(m.command),
    ];
  });
  const m = results.memory[0]!;
  const snap = results.memory.find((x) => x.breakdown);
  return [
    'Filled through the domain services in a child process running the built emulator (`bench/emulator-host.mjs`, manual clock): N meetings, then a participant on each (`participants.add`), then a recording on each (`recordings.start`), with inputs that come through `JSON.parse` as request bodies do. Heap figures are `heapUsed` after a full GC (`--expose-gc`), after minus before, divided by N. The first row is the measurement; the others attribute it.',
    '',
    table(['Run', 'N', 'Meeting', '+ Participant', '+ Recording', 'Total per meeting', 'RSS idle', 'RSS after', 'Jobs pending', 'Command'], body),
    '',
    `Token signing is measured apart: a participant's token is returned, never stored, so it adds nothing to the store, but 100 000 RS256 signatures would take minutes. In the fill the signature step is replaced by a stub; everything else in \`participants.add\` runs. Measured in the same process: \`participants.add\` with its real token takes ${ms(m.msPerAddWithToken)}, with the stub ${ms(m.msPerAddStubbed)} — so signing is ${fixed((100 * (m.msPerAddWithToken - m.msPerAddStubbed)) / m.msPerAddWithToken, 0)}% of adding a participant, and would add ${fixed((m.msPerAddWithToken * 100_000) / 1000, 0)} s to filling 100 000.`,
    `Fill time (meetings + participants + recordings, stubbed signing): ${ms(m.fillMs)}.`,
    ...(snap?.breakdown
      ? [
          '',
          `What the fill keeps, by kind of heap object (heap snapshots before and after, N = ${int(snap.meetings)}; V8's names: a "concatenated string" is a cons-string node, "(object elements)" an array's backing store):`,
          '',
          table(
            ['Kind', 'Bytes per meeting', 'Objects per meeting'],
            snap.breakdown.map((k) => [k.kind, bytes(k.bytesPerMeeting), fixed(k.objectsPerMeeting, 1)]),
          ),
        ]
      : []),
  ].join('\n');
}

function growthSection(results: Results): string {
  if (results.growth.length === 0) return '_Not run._';
  return [
    `Two child processes (\`bench/emulator-host.mjs serve\`, the built emulator in process, real clock, warn logs, journal on), filled with ${int(results.settings.growthSmall)} and ${int(results.settings.growthLarge)} meetings through the services; measured alternately (A B A B), 32 connections, ${results.settings.growthRounds} rounds of ${results.settings.growthSeconds} s. GET by id reads the meeting in the middle of the store. Cost ratio = req/s at the small store ÷ req/s at the large one (1.0 = no growth).`,
    '',
    table(
      ['Scenario', 'Store', 'Median req/s', 'Per round', 'mean ms', 'p99 ms', 'Command'],
      results.growth.flatMap((g) =>
        [g.small, g.large].map((c) => [
          g.label,
          c.server,
          int(rpsOf(c)),
          c.runs.map((x) => int(x.rps)).join(' / '),
          fixed(meanOf(c), 1),
          fixed(p99Of(c), 1),
          code(c.command),
        ]),
      ),
    ),
    '',
    table(
      ['Scenario', 'Cost ratio (large ÷ small)', 'Mean latency ratio'],
      results.growth.map((g) => [g.label, times(ratio(rpsOf(g.small), rpsOf(g.large))), times(ratio(meanOf(g.large), meanOf(g.small)))]),
    ),
  ].join('\n');
}

function webhookSection(results: Results): string {
  const w = results.webhooks;
  if (!w) return '_Not run._';
  return [
    `The emulator (its own process, \`--simulator manual\` so that each \`POST /v2/recordings\` is exactly one \`recording.statusUpdate\` event) with ${w.webhooks} registered webhooks, all subscribed to \`recording.statusUpdate\` and pointing at a receiver in the bench process that verifies every \`dyte-signature\` against \`/.well-known/webhooks.json\`. A round starts ${w.eventsPerRound} recordings (16 requests in flight) and ends when the last of the ${w.eventsPerRound * w.webhooks} deliveries arrives; one warm-up round is not counted. Alternating with each round: the raw signing rate, \`crypto.sign('sha256', body, key)\` with a 2048-bit RSA key in the bench process, over a real delivery body (${w.bodyBytes} bytes).`,
    '',
    table(
      ['Round', 'Deliveries', 'Seconds', 'Deliveries/s', 'Raw signatures/s (just before)'],
      w.rounds.map((r, i) => [String(i + 1), int(r.deliveries), fixed(r.seconds, 2), int(r.perSecond), int(w.signRates[i] ?? Number.NaN)]),
    ),
    '',
    `Median: ${int(median(w.rounds.map((r) => r.perSecond)))} deliveries/s against ${int(median(w.signRates))} signatures/s = ${times(ratio(median(w.rounds.map((r) => r.perSecond)), median(w.signRates)))}. Signatures that failed verification: ${w.badSignatures}.`,
    '',
    `Command: ${code(w.command)}`,
  ].join('\n');
}

function profileSection(results: Results): string {
  if (results.profiles.length === 0) return '_Not run (full runs only, or --profile)._';
  return results.profiles
    .map((p) => {
      const s = p.summary;
      return [
        `### ${p.name}`,
        '',
        `${code(p.command)} — counted: ${s.window}; busy ${ms(s.busyMs)}, idle ${ms(s.idleMs)}; shares are of the busy time. Profile kept at ${code(s.file)}.`,
        '',
        table(
          ['Self time', 'Share', 'Function', 'Where'],
          s.top.map((r) => [ms(r.selfMs), `${fixed(100 * r.share, 1)}%`, code(r.name), r.where ? code(r.where) : '']),
        ),
        '',
        'By area:',
        '',
        table(
          ['Area', 'Self time', 'Share'],
          s.areas.map((a) => [a.area, ms(a.selfMs), `${fixed(100 * a.share, 1)}%`]),
        ),
        '',
        "The emulator's own functions by inclusive time (their callees included: where each cost enters):",
        '',
        table(
          ['Inclusive', 'Share', 'Function', 'Where'],
          s.emulatorInclusive.map((r) => [ms(r.selfMs), `${fixed(100 * r.share, 1)}%`, code(r.name), code(r.where)]),
        ),
      ].join('\n');
    })
    .join('\n\n');
}

function previousAnalysis(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(ANALYSIS_START);
  const b = text.indexOf(ANALYSIS_END);
  return a >= 0 && b > a ? text.slice(a, b + ANALYSIS_END.length) : undefined;
}

export function renderMarkdown(results: Results, file: string): string {
  const m = results.machine;
  const s = results.settings;
  const analysis =
    previousAnalysis(file) ??
    [ANALYSIS_START, '_No analysis yet: write it here, between the markers (kept when the bench rewrites this file)._', ANALYSIS_END].join('\n');
  return [
    '# Benchmark results',
    '',
    `Generated by ${code(results.command)}${results.baseline ? ` (before/after in the throughput, cold-start and memory sections: this working tree against a build of ${results.baseline}, measured alternately in the same run)` : ''} on ${m.date} in ${fixed(results.totalSeconds ?? Number.NaN, 0)} s (${s.quick ? 'quick' : 'full'} run: ${s.rounds} rounds of ${s.seconds} s for POST and GET at 32 connections, ${s.secondarySeconds} s at 1 connection, ${s.tertiarySeconds} s for participants and the mixed flow). Build: ${results.build ?? 'n/a'}.`,
    '',
    '## Machine',
    '',
    `- \`nproc\`: ${m.nproc} (${m.cpu})`,
    `- Node: ${m.node}; ${m.os}`,
    `- Code: ${m.git}`,
    `- Load average (1/5/15 min) at start: ${m.loadBefore.map((x) => x.toFixed(2)).join(' / ')}; at end: ${(m.loadAfter ?? []).map((x) => x.toFixed(2)).join(' / ')} — the machine is shared, so only same-run ratios mean anything.`,
    '',
    '`free -h`:',
    '',
    '```',
    m.free,
    '```',
    '',
    '## Targets',
    '',
    table(
      TARGET_HEADERS,
      targetRows(results).map((r) => [r.measure, r.emulator, r.reference, r.ratio, r.target, r.verdict]),
    ),
    '',
    results.warnings.length ? ['Warnings during the run:', '', ...results.warnings.map((w) => `- ${w}`), ''].join('\n') : '',
    '## 1. Throughput and latency',
    '',
    throughputSection(results),
    '',
    '## 2. Cold start',
    '',
    coldStartSection(results),
    '',
    '## 3. Memory',
    '',
    memorySection(results),
    '',
    '## 4. Growth',
    '',
    growthSection(results),
    '',
    '## 5. Webhook fan-out',
    '',
    webhookSection(results),
    '',
    "## 6. The README's recording lifecycle, in process",
    '',
    scenarioSection(results.scenario, results.scenarioReal),
    '',
    '## Profiles',
    '',
    'V8 CPU profiles of the emulator process (`node --cpu-prof`), self time per function, idle excluded.',
    '',
    profileSection(results),
    '',
    '## Analysis: missed targets, evidence, what would close them',
    '',
    analysis,
    '',
    '## Reproduce',
    '',
    '```sh',
    'npm install',
    'npm run bench              # full run (< 5 min), rewrites bench/RESULTS.md',
    'npm run bench -- --quick   # ~1 min smoke run, prints the table only',
    'npm run bench -- --only throughput,coldstart   # some sections, table only (--write to write them here)',
    '```',
    '',
  ].join('\n');
}
