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

/**
 * Where a StrykerJS option's value sits in its arguments, in each form its command line takes
 * (`--mutate a`, `--mutate=a`, `-m a`, `-ma`): { index, prefix, value }, the argument at `index` being
 * `prefix` + `value`. The last one given wins, as in Stryker; undefined when the option is not given.
 */
export function optionIn(args, [long, short]) {
  let found;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === long || arg === short) {
      if (i + 1 < args.length) found = { index: i + 1, prefix: '', value: args[++i] };
    } else if (arg.startsWith(`${long}=`)) found = { index: i, prefix: `${long}=`, value: arg.slice(long.length + 1) };
    else if (arg.startsWith(short) && !arg.startsWith('--')) found = { index: i, prefix: short, value: arg.slice(short.length) };
  }
  return found;
}

/** The option names `optionIn` takes: the files to mutate, and the test files a run is limited to. */
export const MUTATE = ['--mutate', '-m'];
export const TEST_FILES = ['--testFiles', '-t'];

/** The list an option's value holds, as Stryker splits it (commas, empty entries dropped), without quotes around it. */
export const listIn = (found) => found?.value.replace(/^'|'$/g, '').split(',').filter(Boolean);

const option = (run, names) => listIn(optionIn(run.command.split(/\s+/), names));

const mutateArgs = (run) => option(run, MUTATE) ?? ['src/**/*.ts'];

/** The test files a run was limited to (`--testFiles a,b`), or undefined when it ran the whole suite. */
export const testFilesOf = (run) => option(run, TEST_FILES);

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
