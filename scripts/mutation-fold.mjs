// node scripts/mutation-fold.mjs DIR...: folds the mutation runs made in other checkouts of this
// repository (git worktrees, each with its own reports/mutation/) into this one's report, then
// writes bench/MUTATION.md. Two folders can be mutated at once that way, one per worktree, on a
// machine with the cores for it.
//
// A worktree's runs.json starts as a copy of this checkout's (copy reports/mutation/ into it before
// its first run); the runs after that copy are its own. They are added here in the order they
// started, renumbered after this checkout's runs, with each file they measured: a file's newest
// result wins, as in `npm run mutate`. A run of some lines of a file replaces those lines' mutants
// in the result this checkout holds, when the file is the same here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { linesBy, mutatedBy, withLines } from './mutation-runs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const relative = (dir, file) => (file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : file).replaceAll('\\', '/');
const readJson = (file, fallback) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : fallback);
const runsFile = join(root, 'reports/mutation/runs.json');
const mergedFile = join(root, 'reports/mutation/merged.json');
const runs = readJson(runsFile, []);
const merged = readJson(mergedFile, { files: {}, testFiles: {} });
const sameRun = (a, b) => a.started === b.started && a.command === b.command;

const dirs = process.argv.slice(2).map((d) => resolve(d));
if (dirs.length === 0) {
  process.stderr.write('usage: node scripts/mutation-fold.mjs DIR... (checkouts whose reports/mutation/ to fold in)\n');
  process.exit(2);
}

// Every run of the other checkouts that this one does not hold yet, with where it came from.
const incoming = [];
for (const dir of dirs) {
  const theirRuns = readJson(join(dir, 'reports/mutation/runs.json'), []);
  const theirs = readJson(join(dir, 'reports/mutation/merged.json'), { files: {}, testFiles: {} });
  theirRuns.forEach((run, index) => {
    if (!runs.some((r) => sameRun(r, run))) incoming.push({ dir, run, index, report: theirs });
  });
}
incoming.sort((a, b) => a.run.started.localeCompare(b.run.started));

// The new numbers of the incoming runs, per checkout.
const renumbered = new Map(dirs.map((dir) => [dir, new Map()]));
for (const { dir, run, index } of incoming) {
  renumbered.get(dir).set(index, runs.length);
  runs.push(run);
}
for (const dir of dirs) {
  const numbers = renumbered.get(dir);
  if (numbers.size === 0) continue;
  const theirRuns = readJson(join(dir, 'reports/mutation/runs.json'), []);
  const report = readJson(join(dir, 'reports/mutation/merged.json'), { files: {}, testFiles: {} });
  // A file's result belongs to the last successful run that named it in --mutate; a later run may
  // have carried it over unchanged (and written its own number on it), so the number is not proof.
  const measuring = (file) => {
    for (let i = theirRuns.length - 1; i >= 0; i--) if (theirRuns[i].exitCode === 0 && mutatedBy(theirRuns[i])(file)) return i;
    return undefined;
  };
  // Their run numbers in test and mutant ids (`3:12`) become this checkout's; runs both hold keep theirs.
  const renumber = (id) => id.replace(/^(\d+):/, (all, n) => (numbers.has(Number(n)) ? `${numbers.get(Number(n))}:` : all));
  const ids = (list) => list?.map(renumber);
  const counts = new Map();
  for (const [file, result] of Object.entries(report.files)) {
    const name = relative(dir, file);
    const run = measuring(name);
    const mutants = result.mutants.map((m) => ({ ...m, id: renumber(m.id), killedBy: ids(m.killedBy), coveredBy: ids(m.coveredBy) }));
    if (run !== undefined && numbers.has(run)) {
      const lineRuns = result.lineRuns?.map((r) => numbers.get(r) ?? r);
      merged.files[file] = { ...result, run: numbers.get(run), mutants, ...(lineRuns && { lineRuns }) };
      counts.set(run, (counts.get(run) ?? 0) + 1);
      continue;
    }
    // Runs of some of its lines, over a whole-file result this checkout holds too.
    for (const [index, to] of numbers) {
      const pairs = theirRuns[index].exitCode === 0 ? linesBy(theirRuns[index]).get(name) : undefined;
      if (!pairs) continue;
      const next = withLines(merged.files[file], { ...result, mutants }, pairs, to);
      if (next) merged.files[file] = next;
      else process.stdout.write(`${name}: the lines run ${index + 1} of ${dir} retested are not folded in: the file differs here\n`);
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
  }
  for (const [key, result] of Object.entries(report.testFiles ?? {})) {
    const to = numbers.get(Number(key.slice(0, key.indexOf(':'))));
    if (to === undefined) continue;
    merged.testFiles[`${to}:${key.slice(key.indexOf(':') + 1)}`] = {
      ...result,
      tests: result.tests.map((t) => ({ ...t, id: t.id.replace(/^\d+:/, `${to}:`) })),
    };
  }
  for (const [index, to] of numbers) {
    process.stdout.write(`run ${to + 1} (${dir}, its run ${index + 1}): measured ${counts.get(index) ?? 0} file(s), exit ${theirRuns[index].exitCode}\n`);
  }
}

writeFileSync(runsFile, `${JSON.stringify(runs, null, 2)}\n`);
writeFileSync(mergedFile, JSON.stringify(merged));
const report = spawnSync(process.execPath, [join(root, 'scripts/mutation-report.mjs')], { cwd: root, stdio: 'inherit' });
process.exit(report.status ?? 1);
