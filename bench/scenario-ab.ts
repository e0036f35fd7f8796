// Two builds of the emulator on the README's recording lifecycle, in one process, scenario by
// scenario in turn (A B, then B A, ...): a before/after comparison that holds on a noisy machine,
// where two separate runs of the same build differ by a quarter. Both emulators see the same
// moments of the machine, so the paired ratio B/A moves little when the absolute times do.
//
//   node --import tsx bench/scenario-ab.ts A B [--scenarios 400] [--warmup 60] [--recordings real|sample]
//
// A and B are the emulator's entry (`dist/src/index.js` of a build, or `src/index.ts`). A baseline
// build of a commit: `npm run bench -- --only scenario --baseline REF` prints where it built it,
// or build one by hand as that command does. Prints the median of each side and the median of
// the paired ratios; the same build on both sides gives about 1.00. --recordings is as for
// bench/scenario.ts: `sample` leaves ffmpeg out, so that the emulator's own work is compared.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunningEmulator, StartOptions } from '../src/index.js';
import { percentile, registerWebhook, scenario, startReceiver } from './lib/scenario.js';

const argv = process.argv.slice(2);
const num = (flag: string, fallback: number) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const [a, b] = argv.filter((x, i) => !x.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (!a || !b) {
  process.stderr.write('usage: node --import tsx bench/scenario-ab.ts A B [--scenarios 400] [--warmup 60] [--recordings real|sample]\n');
  process.exit(2);
}
const total = num('--scenarios', 400);
const warmup = num('--warmup', 60);
const recordingsAt = argv.indexOf('--recordings');
const recordings = recordingsAt >= 0 ? argv[recordingsAt + 1] : 'real';
if (recordings !== 'real' && recordings !== 'sample') throw new Error(`--recordings is real or sample, not ${recordings}`);

type Start = (o?: StartOptions) => Promise<RunningEmulator>;
const load = async (entry: string) => ((await import(pathToFileURL(path.resolve(entry)).href)) as { startEmulator: Start }).startEmulator;

const sides = await Promise.all(
  [a, b].map(async (entry) => {
    const emu = await (await load(entry))({ seed: 'bench-scenario', recordings });
    const receiver = await startReceiver();
    await registerWebhook(emu, receiver);
    return { emu, receiver, times: [] as number[] };
  }),
);
try {
  for (let i = 0; i < warmup; i++) for (const s of sides) await scenario(s.emu, s.receiver, i);
  for (let i = 0; i < total; i++) {
    // As the bench's runs do: a reset every 100 scenarios keeps the state from growing.
    if (i % 100 === 0) {
      for (const s of sides) {
        await s.emu.reset();
        s.receiver.received.length = 0;
        await registerWebhook(s.emu, s.receiver);
      }
    }
    for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
      const t0 = performance.now();
      await scenario(s.emu, s.receiver, i);
      s.times.push(performance.now() - t0);
    }
  }
  const [sa, sb] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const ratios = sb.times.map((t, i) => t / sa.times[i]!);
  process.stdout.write(
    `A ${a}: median ${percentile(sa.times, 50).toFixed(2)} ms\nB ${b}: median ${percentile(sb.times, 50).toFixed(2)} ms\n` +
      `B/A, median of ${total} paired scenarios: ${percentile(ratios, 50).toFixed(3)}\n`,
  );
} finally {
  for (const s of sides) {
    await s.receiver.close();
    await s.emu.close();
  }
}
