// `npm run bench -- --only scenario` runs this in a process of its own; by hand:
//
//   node --import tsx bench/scenario.ts [--runs 3] [--per-run 60] [--warmup 30] [--src | --dist DIR] [--recordings real|sample]
//
// --recordings sample starts the emulator with the sample file for every recording (no ffmpeg), so
// the figure is the emulator's own work alone; by default each recording is encoded from the meeting.
// It prints one line `RESULT {...}` (what the bench reads) and a summary on stderr. By default
// it runs the built package (dist/, what a user imports); --src runs the TypeScript sources
// through tsx (no build needed), --dist another build (a baseline).
import path from 'node:path';
import { measureScenario, percentile } from './lib/scenario.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const num = (flag: string, fallback: number) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const distAt = argv.indexOf('--dist');
const source = argv.includes('--src') ? path.join(ROOT, 'src', 'index.ts') : distAt >= 0 ? path.resolve(argv[distAt + 1]!, 'src', 'index.js') : undefined;
const recordingsAt = argv.indexOf('--recordings');
const recordings = recordingsAt >= 0 ? argv[recordingsAt + 1] : 'real';
if (recordings !== 'real' && recordings !== 'sample') throw new Error(`--recordings is real or sample, not ${recordings}`);
measureScenario({ runs: num('--runs', 3), perRun: num('--per-run', 60), warmup: num('--warmup', 30), source, recordings })
  .then((r) => {
    process.stderr.write(
      `scenario (${r.source}, ${r.recordings} recordings): median ${percentile(r.samples, 50).toFixed(2)} ms, p90 ${percentile(r.samples, 90).toFixed(2)} ms over ${r.samples.length} (CPU median ${percentile(r.cpuSamples, 50).toFixed(2)} ms, main thread ${r.mainThreadCpuMs === null ? 'n/a' : `${r.mainThreadCpuMs.toFixed(2)} ms`}); run medians ${r.runMedians.map((x) => x.toFixed(2)).join(' / ')} ms\n`,
    );
    process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
  })
  .catch((err: unknown) => {
    process.stderr.write(`scenario failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
