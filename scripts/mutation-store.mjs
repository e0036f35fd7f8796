// The mutation results kept in the repository, in bench/mutation/: every run `npm run mutate` made
// (runs.json) and the latest result of each file (results.json). bench/MUTATION.md is written from
// them, so any checkout can write it again and add a run to it. Stryker's own output
// (reports/mutation/) and its incremental cache stay uncommitted: they are one machine's, large,
// and would conflict on every merge.
//
// A run is { started, command, seconds, exitCode }, and `kept: false` when its results are not in
// results.json (runs made before the results were kept here). A file's result keeps, per mutant,
// what the report reads: its place, mutator, replacement, the code it replaces, its status and the
// tests that killed it (by file and name), with a hash of the source it was measured on.
// Shared by scripts/mutate.mjs, scripts/mutation-fold.mjs, scripts/mutation-report.mjs and
// scripts/mutation-by-hand.mjs.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { linesBy, mutatedBy, withLines } from './mutation-runs.mjs';

export const STORE_DIR = 'bench/mutation';
const RUNS = `${STORE_DIR}/runs.json`;
const RESULTS = `${STORE_DIR}/results.json`;

const readJson = (file, fallback) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : fallback);

/** The runs and results kept under `root` (a checkout). */
export function readStore(root) {
  return { runs: readJson(join(root, RUNS), []), files: readJson(join(root, RESULTS), { files: {} }).files };
}

/** Writes the store: one run and one mutant per line, so that a new run's diff shows what it changed. */
export function writeStore(root, { runs, files }) {
  mkdirSync(join(root, STORE_DIR), { recursive: true });
  writeFileSync(join(root, RUNS), `[\n${runs.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]\n`);
  const entries = Object.keys(files)
    .sort()
    .map((file) => {
      const { mutants, ...rest } = files[file];
      const head = JSON.stringify(rest).slice(0, -1);
      return `    ${JSON.stringify(file)}: ${head}, "mutants": [\n${mutants.map((m) => `      ${JSON.stringify(m)}`).join(',\n')}\n    ]}`;
    });
  writeFileSync(join(root, RESULTS), entries.length ? `{\n  "files": {\n${entries.join(',\n')}\n  }\n}\n` : '{\n  "files": {}\n}\n');
}

/**
 * The name a note and a mutant share: file, mutator, and the code before and after with runs of
 * whitespace made one space (Stryker prints a replacement on one line, a note may wrap it).
 */
export const mutantKey = (file, mutator, original, replacement) =>
  [file, mutator, original, replacement ?? ''].map((part) => part.replace(/\s+/g, ' ').trim()).join(' | ');

export const sourceHash = (source) => createHash('sha256').update(source).digest('hex').slice(0, 16);

/** The code a mutant replaces, from the file's source (locations are 1-based lines, 1-based columns). */
export function originalOf(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
}

/** The names of a Stryker report's tests by id: `test/a.test.ts › what it checks`. */
export function testNamesOf(report, relative) {
  const names = new Map();
  for (const [file, { tests }] of Object.entries(report.testFiles ?? {})) for (const t of tests) names.set(t.id, `${relative(file)} › ${t.name}`);
  return names;
}

/** A file's result in Stryker's report, as kept: see the top of this file. */
export function keptResult(result, testNames, run) {
  const mutants = result.mutants.map((m) => ({
    mutatorName: m.mutatorName,
    replacement: m.replacement ?? '',
    original: originalOf(result.source, m.location),
    location: m.location,
    status: m.status,
    ...(m.killedBy?.length && { killedBy: m.killedBy.map((id) => testNames.get(id) ?? id) }),
  }));
  return { sha: sourceHash(result.source), run, mutants };
}

/**
 * Adds a run to the store: appended to its runs; when it succeeded, the files it mutated whole take
 * its results (from `report`, Stryker's report of the run), and the files it mutated by lines take
 * its results on those lines. Returns what it did, one line per file, for the caller to print.
 */
export function addRun(store, run, report, relative) {
  const index = store.runs.length;
  store.runs.push(run);
  const said = [];
  if (run.exitCode !== 0 || !report) return said;
  const names = testNamesOf(report, relative);
  const whole = mutatedBy(run);
  const lines = linesBy(run);
  for (const [file, result] of Object.entries(report.files)) {
    const name = relative(file);
    if (whole(name)) store.files[name] = keptResult(result, names, index);
    else if (lines.has(name)) {
      const next = withLines(store.files[name], keptResult(result, names, index), lines.get(name), index);
      if (next) store.files[name] = next;
      else said.push(`${name} kept as it was: it changed since a run of the whole file measured it (or none did); mutate the whole file`);
    }
  }
  return said;
}

/** The repository-relative path of a file Stryker names (absolute, or relative already). */
export const relativeTo = (root) => (file) => (file.startsWith(root) ? file.slice(root.length + 1) : file).replaceAll('\\', '/');
