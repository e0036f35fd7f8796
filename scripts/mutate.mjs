// npm run mutate [-- StrykerJS options]: one StrykerJS run (stryker.config.mjs), how long it took
// noted in reports/mutation/runs.json, then bench/MUTATION.md written from the report
// (scripts/mutation-report.mjs). Durations are not in Stryker's own report, hence this wrapper.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { linesBy, mutatedBy, withLines } from './mutation-runs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsFile = join(root, 'reports/mutation/runs.json');
const relative = (file) => (file.startsWith(root) ? file.slice(root.length + 1) : file).replaceAll('\\', '/');
const args = process.argv.slice(2);

const started = new Date();
const stryker = spawnSync(join(root, 'node_modules/.bin/stryker'), ['run', ...args], { cwd: root, stdio: 'inherit' });
const seconds = Math.round((Date.now() - started.getTime()) / 1000);

const runs = existsSync(runsFile) ? JSON.parse(readFileSync(runsFile, 'utf8')) : [];
runs.push({
  started: started.toISOString(),
  command: ['npm run mutate', ...(args.length ? ['--', ...args] : [])].join(' '),
  seconds,
  exitCode: stryker.status,
});
mkdirSync(dirname(runsFile), { recursive: true });
writeFileSync(runsFile, `${JSON.stringify(runs, null, 2)}\n`);
process.stdout.write(`mutate: ${seconds} s\n`);

// Stryker's report holds only the files of this run's --mutate; the merged report keeps every
// file's latest result, so folder-by-folder runs add up. Each file remembers the run that
// measured it: a run limited by --testFiles gives a lower bound of its score. A run that names
// lines of a file (`src/a.ts:10-20`) replaces the results of those lines only.
const reportFile = join(root, 'reports/mutation/mutation.json');
const mergedFile = join(root, 'reports/mutation/merged.json');
if (stryker.status === 0 && existsSync(reportFile) && statSync(reportFile).mtimeMs >= started.getTime()) {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const merged = existsSync(mergedFile) ? JSON.parse(readFileSync(mergedFile, 'utf8')) : { files: {}, testFiles: {} };
  const run = runs.length - 1;
  // Stryker numbers the tests of each run from 0: the run's index keeps them apart.
  const ids = (list) => list?.map((id) => `${run}:${id}`);
  const measured = mutatedBy(runs[run]);
  const lines = linesBy(runs[run]);
  for (const [file, result] of Object.entries(report.files)) {
    const name = relative(file);
    if (measured(name)) {
      const mutants = result.mutants.map((m) => ({ ...m, killedBy: ids(m.killedBy), coveredBy: ids(m.coveredBy) }));
      merged.files[file] = { ...result, mutants, run };
    } else if (lines.has(name)) {
      // Mutants of another run share the file: this run's get its number in their ids too.
      const mutants = result.mutants.map((m) => ({ ...m, id: `${run}:${m.id}`, killedBy: ids(m.killedBy), coveredBy: ids(m.coveredBy) }));
      const next = withLines(merged.files[file], { ...result, mutants }, lines.get(name), run);
      if (next) merged.files[file] = next;
      else process.stdout.write(`mutate: ${name} kept as it was: it changed since a run of the whole file measured it (or none did); mutate the whole file\n`);
    }
  }
  for (const [file, result] of Object.entries(report.testFiles ?? {})) {
    const tests = result.tests.map((t) => ({ ...t, id: `${run}:${t.id}` }));
    merged.testFiles[`${run}:${file}`] = { ...result, tests };
  }
  writeFileSync(mergedFile, JSON.stringify(merged));
}

if (existsSync(mergedFile)) {
  const report = spawnSync(process.execPath, [join(root, 'scripts/mutation-report.mjs')], { cwd: root, stdio: 'inherit' });
  if (report.status !== 0) process.exit(report.status ?? 1);
}
process.exit(stryker.status ?? 1);
