// npm run mutate [-- StrykerJS options]: one StrykerJS run (stryker.config.mjs), added to the
// results kept in the repository (bench/mutation/, see scripts/mutation-store.mjs) with how long it
// took, then bench/MUTATION.md written from them (scripts/mutation-report.mjs). Durations are not
// in Stryker's own report, and its report holds only the files of the run's --mutate: the store
// keeps each file's latest result, so folder-by-folder runs add up to one report.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { addRun, readStore, relativeTo, writeStore } from './mutation-store.mjs';
import { withKillNoteTests } from './mutation-tests.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// A run limited by --testFiles also runs the tests that kill notes name for its files (see mutation-tests.mjs).
const { args, added } = withKillNoteTests(root, process.argv.slice(2));
for (const file of added) process.stdout.write(`mutate: --testFiles gets ${file}, which holds a test a kill note names\n`);

const started = new Date();
const stryker = spawnSync(join(root, 'node_modules/.bin/stryker'), ['run', ...args], { cwd: root, stdio: 'inherit' });
const seconds = Math.round((Date.now() - started.getTime()) / 1000);
process.stdout.write(`mutate: ${seconds} s\n`);

// A run that failed or was stopped is noted with its exit code and adds no result. A run that
// names lines of a file (`src/a.ts:10-20`) replaces the results of those lines only.
const reportFile = join(root, 'reports/mutation/mutation.json');
const fresh = stryker.status === 0 && existsSync(reportFile) && statSync(reportFile).mtimeMs >= started.getTime();
const store = readStore(root);
const run = {
  started: started.toISOString(),
  command: ['npm run mutate', ...(args.length ? ['--', ...args] : [])].join(' '),
  seconds,
  exitCode: stryker.status,
};
for (const line of addRun(store, run, fresh ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined, relativeTo(root)))
  process.stdout.write(`mutate: ${line}\n`);
writeStore(root, store);

const report = spawnSync(process.execPath, [join(root, 'scripts/mutation-report.mjs')], { cwd: root, stdio: 'inherit' });
if (report.status !== 0) process.exit(report.status ?? 1);
process.exit(stryker.status ?? 1);
