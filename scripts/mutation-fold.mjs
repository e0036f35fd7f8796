// node scripts/mutation-fold.mjs DIR...: folds the mutation runs made in other checkouts of this
// repository (git worktrees, each with its own bench/mutation/ and Stryker cache) into this one's
// results, then writes bench/MUTATION.md. Two folders can be mutated at once that way, one per
// worktree, on a machine with the cores for it.
//
// A worktree's bench/mutation/runs.json starts as this checkout's was at the commit it checked out;
// the runs after those are its own. They are added here in the order they started, numbered after
// this checkout's runs, with each file they measured: a file's newest result wins, as in `npm run
// mutate`. A run of some lines of a file replaces those lines' mutants in the result this checkout
// holds, when the file is the same here.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { readStore, writeStore } from './mutation-store.mjs';
import { linesBy, withLines } from './mutation-runs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const store = readStore(root);
const sameRun = (a, b) => a.started === b.started && a.command === b.command;

const dirs = process.argv.slice(2).map((d) => resolve(d));
if (dirs.length === 0) {
  process.stderr.write('usage: node scripts/mutation-fold.mjs DIR... (checkouts whose bench/mutation/ to fold in)\n');
  process.exit(2);
}

// Every run of the other checkouts that this one does not hold yet, with where it came from.
const theirs = new Map(dirs.map((dir) => [dir, readStore(dir)]));
const incoming = [];
for (const [dir, { runs }] of theirs) {
  runs.forEach((run, index) => {
    if (!store.runs.some((r) => sameRun(r, run))) incoming.push({ dir, run, index });
  });
}
incoming.sort((a, b) => a.run.started.localeCompare(b.run.started));

// The new numbers of the incoming runs, per checkout.
const renumbered = new Map(dirs.map((dir) => [dir, new Map()]));
for (const { dir, run, index } of incoming) {
  renumbered.get(dir).set(index, store.runs.length);
  store.runs.push(run);
}
for (const [dir, { runs, files }] of theirs) {
  const numbers = renumbered.get(dir);
  if (numbers.size === 0) continue;
  const counts = new Map();
  for (const [file, result] of Object.entries(files)) {
    // A file one of their new runs measured whole.
    if (numbers.has(result.run)) {
      const lineRuns = result.lineRuns?.map((r) => numbers.get(r) ?? r);
      store.files[file] = { ...result, run: numbers.get(result.run), ...(lineRuns && { lineRuns }) };
      counts.set(result.run, (counts.get(result.run) ?? 0) + 1);
      continue;
    }
    // Runs of some of its lines, over a whole-file result this checkout holds too.
    for (const [index, to] of numbers) {
      const pairs = runs[index].exitCode === 0 && result.lineRuns?.includes(index) ? linesBy(runs[index]).get(file) : undefined;
      if (!pairs) continue;
      const next = withLines(store.files[file], result, pairs, to);
      if (next) store.files[file] = next;
      else process.stdout.write(`${file}: the lines run ${index + 1} of ${dir} retested are not folded in: the file differs here\n`);
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
  }
  for (const [index, to] of numbers) {
    process.stdout.write(`run ${to + 1} (${dir}, its run ${index + 1}): measured ${counts.get(index) ?? 0} file(s), exit ${runs[index].exitCode}\n`);
  }
}

writeStore(root, store);
const report = spawnSync(process.execPath, [join(root, 'scripts/mutation-report.mjs')], { cwd: root, stdio: 'inherit' });
process.exit(report.status ?? 1);
