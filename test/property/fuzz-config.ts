// Knobs of the property tests. CI runs them with a fixed seed and a small
// budget; a longer local run or a replay is one environment variable away:
//
//   FUZZ_RUNS=500 npx vitest run test/property          # more runs per property
//   FUZZ_SEED=1234 FUZZ_PATH="3:0:1" npx vitest run ...  # replay what a failure printed
//
// Every property uses FUZZ_SEED as is, so the "seed" a fast-check failure reports is the value
// to put back into FUZZ_SEED (with its "path" into FUZZ_PATH to skip straight to the
// shrunk counterexample).
import type fc from 'fast-check';

/** Runs per property (one property per route): small enough that every property file together stays well under 60 s on 2 cores. */
export const DEFAULT_FUZZ_RUNS = 12;
export const DEFAULT_FUZZ_SEED = 20_260_101;

function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

export const FUZZ_RUNS = intFromEnv('FUZZ_RUNS', DEFAULT_FUZZ_RUNS, 1);
export const FUZZ_SEED = intFromEnv('FUZZ_SEED', DEFAULT_FUZZ_SEED, -(2 ** 31));
const FUZZ_PATH = process.env.FUZZ_PATH?.trim() || undefined;

/** fast-check parameters for one property; `scale` multiplies the runs of a cheap property. */
export function fuzzParams<T>(scale = 1): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(FUZZ_RUNS * scale)), path: FUZZ_PATH, endOnFailure: FUZZ_PATH !== undefined, verbose: 0 };
}

/** A vitest timeout that grows with FUZZ_RUNS (a few hundred ms per run is plenty), never below the suite's 20 s. */
export function fuzzTimeout(scale = 1): number {
  return Math.max(20_000, 10_000 + Math.round(FUZZ_RUNS * scale) * 400);
}
