// What the media plane's network costs, measured in one run so the machine's noise falls on both
// sides alike (results: bench/MEDIA-NETWORK.md):
//
// 1. Forwarding: one page publishes a video stream and 30 pages receive it (30 forwarded streams),
//    with every transport on one shared UDP port (the default) and with a UDP port per transport
//    (--media-port from-to), in alternating rounds. The media plane runs in its own process, as by
//    default; its CPU (utime + stime from /proc) is read over each round, so the pages' own work in
//    this process does not count. Figures: the plane's CPU per second, and per thousand packets it
//    had to forward in that spell (packets sent × viewers), and the share of all packets sent that
//    reached the pages by the end of the round.
// 2. First frame: a page in Debian's Chromium joins a meeting where a bot publishes the sample clip;
//    the time from join() to the first decoded frame of the bot's video, over UDP (Chromium as is)
//    and over TCP (Chromium that may not send UDP: --webrtc-ip-handling-policy=disable_non_proxied_udp),
//    alternating.
//
// Run from the built package (npm run build: dist/src), as the emulator runs:
//
//   nice -n 10 npx tsx bench/media-network.ts [--rounds 3] [--seconds 8] [--rate 200] [--runs 7] [--only forwarding|first-frame] [--write]
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { MediaNetwork } from '../src/realtime/media/media-network.js';
import { forwardingRound, sleep, type Forwarding } from './lib/forwarding.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    rate: { type: 'string', default: '200' },
    viewers: { type: 'string', default: '30' },
    runs: { type: 'string', default: '7' },
    only: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const VIEWERS = Number(args.viewers);
const RUNS = Number(args.runs);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.9) - 1)]!;

async function forwarding(): Promise<string[]> {
  const modes: [string, MediaNetwork][] = [
    ['one shared UDP port (default)', { host: '127.0.0.1', ports: 0, announce: undefined }],
    ['a UDP port per transport (--media-port 42000-42099)', { host: '127.0.0.1', ports: { from: 42000, to: 42099 }, announce: undefined }],
  ];
  const results = new Map<string, Forwarding[]>(modes.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, network] of r % 2 === 0 ? modes : [...modes].reverse()) {
      const f = await forwardingRound(network, `${r}-${results.get(name)!.length}`, { seconds: SECONDS, rate: RATE, viewers: VIEWERS });
      results.get(name)!.push(f);
      console.error(
        `forwarding round ${r + 1}, ${name}: ${f.cpuPerSecond.toFixed(0)} ms CPU/s, ${f.cpuPerThousand.toFixed(1)} ms per 1000 packets, ${(f.delivered * 100).toFixed(1)}% delivered`,
      );
    }
  const lines = [
    `${VIEWERS} forwarded streams (one publisher, ${VIEWERS} receiving pages), ${RATE} packets/s of 1 kB in, ${SECONDS} s per round, ${ROUNDS} rounds each, alternating; the plane in its own process:`,
    '',
    '| Placement | Plane CPU, ms per s (median) | CPU ms per 1000 packets to forward (median; each round) | Delivered (median) |',
    '|---|---|---|---|',
  ];
  for (const [name, fs] of results)
    lines.push(
      `| ${name} | ${median(fs.map((f) => f.cpuPerSecond)).toFixed(0)} | ${median(fs.map((f) => f.cpuPerThousand)).toFixed(2)} (${fs.map((f) => f.cpuPerThousand.toFixed(2)).join(', ')}) | ${(median(fs.map((f) => f.delivered)) * 100).toFixed(1)}% |`,
    );
  return lines;
}

async function firstFrame(): Promise<string[]> {
  const { startEmulator } = await import('../src/index.js');
  const { SDKS, Frontend, addPerson, restOf } = await import('../test/helpers/web-sdk.js');
  const { KEEP_PEER_CONNECTIONS, decoded } = await import('../test/helpers/page-media.js');
  const sdk = SDKS[1];
  const emu = await startEmulator({ seed: 'bench media network', clock: 'manual', tlsPort: 0 });
  const frontends = {
    UDP: await Frontend.start(sdk, emu),
    TCP: await Frontend.start(sdk, emu, ['--webrtc-ip-handling-policy=disable_non_proxied_udp']),
  };
  const times: Record<'UDP' | 'TCP', number[]> = { UDP: [], TCP: [] };
  try {
    const meeting = await restOf(emu)<{ id: string }>('POST', '/v2/meetings', { title: 'First frame' });
    const bot = await addPerson(emu, meeting.id, 'Bot');
    await fetch(`${emu.url}/_emulator/meetings/${meeting.id}/participants/${bot.id}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ media: { video: true } }),
    });
    // One page of each kind first, unmeasured: the SDK's bundle and the plane's process are warm after it.
    for (let run = -1; run < RUNS; run++)
      for (const kind of run % 2 === 0 ? (['UDP', 'TCP'] as const) : (['TCP', 'UDP'] as const)) {
        const person = await addPerson(emu, meeting.id, `${kind} ${run}`);
        // The page loads the SDK and calls init() first: the time runs from join().
        const page = await frontends[kind].open(person, KEEP_PEER_CONNECTIONS);
        await page.evaluate(
          async ({ token, base, global }) => {
            const w = globalThis as unknown as Record<string, unknown>;
            const client = w[global] as { init(options: unknown): Promise<unknown> };
            w.meeting = await client.init({ authToken: token, baseURI: base, defaults: { audio: false, video: false } });
          },
          { token: person.token, base: frontends[kind].base, global: sdk.global },
        );
        const t0 = performance.now();
        await page.evaluate(() => (globalThis as unknown as { meeting: { join(): Promise<void> } }).meeting.join());
        for (;;) {
          if ((await decoded(page)).length > 0) break;
          if (performance.now() - t0 > 30_000) throw new Error(`${kind}: no frame in 30 s`);
          await sleep(10);
        }
        const ms = performance.now() - t0;
        if (run >= 0) times[kind].push(ms);
        console.error(`first frame over ${kind}, run ${run + 1}: ${ms.toFixed(0)} ms`);
        await page.close();
      }
  } finally {
    await frontends.UDP.close();
    await frontends.TCP.close();
    await emu.close();
  }
  return [
    `A page of ${sdk.name} in Chromium joins a meeting where a bot publishes the sample clip: time from join() (the SDK loaded and init() done) to the first decoded frame of the bot's video (polled every 10 ms), ${RUNS} runs each, alternating, after one unmeasured run of each:`,
    '',
    '| Path | Median | p90 | Runs (ms) |',
    '|---|---|---|---|',
    ...(['UDP', 'TCP'] as const).map(
      (k) => `| ${k} | ${median(times[k]).toFixed(0)} ms | ${p90(times[k]).toFixed(0)} ms | ${times[k].map((t) => t.toFixed(0)).join(', ')} |`,
    ),
  ];
}

const out = [
  '# The media network: benchmark results',
  '',
  `Made by \`npx tsx bench/media-network.ts\` on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the start.`,
  '',
];
if (args.only !== 'first-frame') out.push('## Forwarding: one shared port against a port per transport', '', ...(await forwarding()), '');
if (args.only !== 'forwarding') out.push('## First frame: TCP against UDP', '', ...(await firstFrame()), '');
out.push(`Load average at the end: ${loadavg()[0]!.toFixed(1)} (the machine is shared: both sides of each comparison ran in the same spell).`, '');
const text = out.join('\n');
console.log(text);
if (args.write) writeFileSync(new URL('MEDIA-NETWORK.md', import.meta.url), text);
process.exit(0);
