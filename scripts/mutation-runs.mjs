// Which files a mutation run measured: those its --mutate globs name. Stryker's report of a run
// also carries, unchanged, the results its incremental cache holds for other files, which can be
// older than the ones already merged; only the files a run names are taken from it. A run may also
// name lines of a file (`src/a.ts:10-20`): it retests the mutants on those lines only.
// Shared by scripts/mutation-store.mjs, scripts/mutation-fold.mjs, scripts/mutation-report.mjs and
// scripts/mutation-tests.mjs.

/** A glob of --mutate (`**`, `*`) as a regular expression over repository-relative paths. */
export const globRegex = (glob) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replaceAll('\u0000', '(?:.*/)?')}$`,
  );

const mutateArgs = (run) => {
  const named = /--mutate\s+(\S+)/.exec(run.command);
  return named ? named[1].replace(/^'|'$/g, '').split(',') : ['src/**/*.ts'];
};

/** The test files a run was limited to (`--testFiles a,b`), or undefined when it ran the whole suite. */
export const testFilesOf = (run) => /--testFiles\s+(\S+)/.exec(run.command)?.[1].split(',');

/** A --mutate entry that names lines of one file, `src/a.ts:10-20` (Stryker's form; it takes no single line). */
const LINES = /^([^*]+\.ts):(\d+)-(\d+)$/;

/** Whether `run` (an entry of bench/mutation/runs.json) mutated `file` (repository-relative) whole. */
export const mutatedBy = (run) => {
  const globs = mutateArgs(run).filter((g) => !LINES.test(g));
  return (file) => globs.some((g) => globRegex(g).test(file));
};

/**
 * The lines of each file that `run` mutated by range (`--mutate 'src/a.ts:10-20,src/a.ts:31-31'`): a
 * map from file to [first, last] line pairs. Such a run retests some mutants of a file and measures
 * nothing else of it; `inLines` tells which mutants it replaces.
 */
export const linesBy = (run) => {
  const ranges = new Map();
  for (const arg of mutateArgs(run)) {
    const m = LINES.exec(arg);
    if (!m) continue;
    ranges.set(m[1], [...(ranges.get(m[1]) ?? []), [Number(m[2]), Number(m[3])]]);
  }
  return ranges;
};

/** Whether a mutant's location lies wholly within one of the [first, last] line pairs (as Stryker picks them). */
export const inLines = (location, pairs) => pairs.some(([first, last]) => location.start.line >= first && location.end.line <= last);

const byPlace = (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column;

/**
 * A file's merged result after a run that retested some of its lines: the mutants on those lines as
 * `result` (that run's report of the file) has them, the others as `previous` had them, and the run
 * noted in `lineRuns`. Undefined when there is no earlier result of the whole file, or the file
 * changed since: its mutants' places would no longer match, and only a run of the whole file
 * measures it again.
 */
export const withLines = (previous, result, pairs, run) => {
  if (!previous || previous.sha !== result.sha) return undefined;
  const kept = previous.mutants.filter((m) => !inLines(m.location, pairs));
  const fresh = result.mutants.filter((m) => inLines(m.location, pairs));
  return { ...previous, mutants: [...kept, ...fresh].sort(byPlace), lineRuns: [...new Set([...(previous.lineRuns ?? []), run])] };
};
