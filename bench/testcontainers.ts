// What a test pays for the emulator in a container: `npx tsx bench/testcontainers.ts`, with a Docker
// engine API reachable as Testcontainers finds one (DOCKER_HOST, or the engine's socket).
//
//   --runs N    starts measured (default 11), after one that builds the image (or finds it built)
//               and is not counted
//   --write     append the result to bench/STARTUP.md (or --out FILE)
//
// Each start is what a test's beforeAll does with the image built: `new MeetingsEmulatorContainer(image)
// .start()`, which creates and starts the container, publishes its ports and waits for the first 200
// on /_emulator/health, then one request of the test's own (GET /v2/meetings with the container's
// credentials). The figure is from start() to that answer; stop() is timed apart.
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BUILT_IMAGE, MeetingsEmulatorContainer } from '../src/testcontainers.js';
import { ROOT, hrMs } from './lib/servers.js';
import { median } from './lib/stats.js';

const argv = process.argv.slice(2);
const valueOf = (flag: string) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Math.max(1, Number(valueOf('--runs') ?? 11));
const out = path.resolve(valueOf('--out') ?? path.join(ROOT, 'bench', 'STARTUP.md'));

/** One start: start() → the first answer of the API; then stop(). */
async function once(image?: string): Promise<{ startMs: number; firstAnswerMs: number; stopMs: number }> {
  const t0 = hrMs();
  const emu = await new MeetingsEmulatorContainer(image).withSeed('bench').start();
  const started = hrMs();
  let res: Response;
  let body: ArrayBuffer;
  let answered: number;
  try {
    res = await fetch(`${emu.url}/v2/meetings`, { headers: { authorization: emu.authHeader } });
    body = await res.arrayBuffer();
    answered = hrMs();
  } finally {
    await emu.stop();
  }
  if (res.status !== 200) throw new Error(`GET /v2/meetings answered ${res.status}: ${Buffer.from(body).toString()}`);
  return { startMs: started - t0, firstAnswerMs: answered - t0, stopMs: hrMs() - answered };
}

const loadBefore = os.loadavg()[0]!;
const warm = await once();
process.stderr.write(`warm-up (builds the image when needed): ${Math.round(warm.firstAnswerMs)} ms\n`);
const samples: { startMs: number; firstAnswerMs: number; stopMs: number }[] = [];
for (let i = 0; i < runs; i++) {
  samples.push(await once(DEFAULT_BUILT_IMAGE));
  process.stderr.write(`start ${i + 1}/${runs}: ${Math.round(samples.at(-1)!.firstAnswerMs)} ms\n`);
}
const loadAfter = os.loadavg()[0]!;
const ms = (xs: number[]) => `${Math.round(median(xs))} ms (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`;
const lines = [
  '',
  `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: \`npx tsx bench/testcontainers.ts --runs ${runs}\``,
  '',
  `The image \`${DEFAULT_BUILT_IMAGE}\` built; ${runs} starts, each \`new MeetingsEmulatorContainer(image).start()\` then one GET /v2/meetings; median (min–max). Load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after; ${os.availableParallelism()} CPUs.`,
  '',
  '| | |',
  '|---|---|',
  `| start() returned (its wait for the first 200 on /_emulator/health included) | ${ms(samples.map((s) => s.startMs))} |`,
  `| start() → the test's first answer (GET /v2/meetings) | ${ms(samples.map((s) => s.firstAnswerMs))} |`,
  `| stop() | ${ms(samples.map((s) => s.stopMs))} |`,
  '',
];
process.stdout.write(lines.join('\n'));
if (argv.includes('--write')) appendFileSync(out, lines.join('\n'));
