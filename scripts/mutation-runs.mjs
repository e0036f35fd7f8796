// Which files a mutation run measured: those its --mutate globs name. Stryker's report of a run
// also carries, unchanged, the results its incremental cache holds for other files, which can be
// older than the ones already merged; only the files a run names are taken from it.
// Shared by scripts/mutate.mjs, scripts/mutation-fold.mjs and scripts/mutation-report.mjs.

/** A glob of --mutate (`**`, `*`) as a regular expression over repository-relative paths. */
export const globRegex = (glob) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replaceAll('\u0000', '(?:.*/)?')}$`,
  );

/** Whether `run` (an entry of reports/mutation/runs.json) mutated `file` (repository-relative). */
export const mutatedBy = (run) => {
  const named = /--mutate\s+(\S+)/.exec(run.command);
  const globs = named ? named[1].replace(/^'|'$/g, '').split(',') : ['src/**/*.ts'];
  return (file) => globs.some((g) => globRegex(g).test(file));
};
